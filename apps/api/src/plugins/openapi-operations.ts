import type { FastifyInstance, RouteOptions } from "fastify";
import { Type, type TSchema } from "@sinclair/typebox";

/** A security requirement: every scheme named must be satisfied (an empty one: none needed). */
type Requirement = Record<string, string[]>;

/** A secret API key in any of its three forms, or an admin user's JWT. */
const ADMIN_SECURITY: Requirement[] = [{ bearer: [] }, { apiKey: [] }, { apiKeyQuery: [] }, { apiKeyBasic: [] }];
/** A customer's JWT, with the storefront's publishable key or without it (the default channel). */
const CUSTOMER_SECURITY: Requirement[] = [{ bearer: [], publishableKey: [] }, { bearer: [] }];
/** Anyone; a publishable key picks the sales channels and a customer's JWT, when sent, is used (cart ownership, group prices). */
const STORE_SECURITY: Requirement[] = [{ publishableKey: [] }, { bearer: [], publishableKey: [] }, { bearer: [] }, {}];
/** The caller's own JWT. */
export const BEARER_SECURITY: Requirement[] = [{ bearer: [] }];
/** No credentials. */
const PUBLIC_SECURITY: Requirement[] = [];

type Guards = FastifyInstance["guards"];

const hooksOf = (route: RouteOptions) => [route.onRequest, route.preHandler].flat().filter(Boolean);
const area = (route: RouteOptions) => route.url.split("/")[1] ?? "";

/** Whether the route refuses callers without the right credentials (401/403). */
function isGuarded(route: RouteOptions, guards: Guards): boolean {
  if (area(route) === "admin") return true;
  const hooks = hooksOf(route);
  if (hooks.includes(guards.customer) || hooks.includes(guards.admin)) return true;
  const security = (route.schema as { security?: Requirement[] } | undefined)?.security;
  return (
    Array.isArray(security) &&
    security.length > 0 &&
    !security.some((requirement) => Object.keys(requirement).length === 0)
  );
}

/** The security of a route by its group and guard: admin, customer-only store, public store, auth and health (none). */
export function securityOf(route: RouteOptions, guards: Guards): Requirement[] {
  const hooks = hooksOf(route);
  if (area(route) === "admin" || hooks.includes(guards.admin)) return ADMIN_SECURITY;
  if (hooks.includes(guards.customer)) return CUSTOMER_SECURITY;
  if (area(route) === "store") return STORE_SECURITY;
  return PUBLIC_SECURITY;
}

/** The error body every 4xx/5xx answers with, described for one status; routes use it for an answer of their own. */
export const errorAnswer = (description: string): TSchema =>
  Type.Object({ type: Type.String(), message: Type.String() }, { description, additionalProperties: false });

/**
 * The error answers a route can give, by what it takes and how it is guarded (a route's own
 * `response` entries take precedence):
 * - 400 bad input: the schema, malformed JSON, a bad `Idempotency-Key` or publishable key;
 * - 401/403 when guarded; 401 on `/auth` (credentials are what it checks); 401/403 on a store
 *   route (an action that needs the customer's token, someone else's cart, a token of the wrong kind);
 * - 404 an unknown id in its path, body or required query;
 * - 409 for a POST: a reused `Idempotency-Key`, a unique value taken;
 * - 413/415 a body too large or not JSON; 414 a path parameter over the router's length limit;
 * - 429 over the rate limit; 500.
 */
export function errorResponses(route: RouteOptions, guards: Guards): Record<number, TSchema> {
  const methods = [route.method].flat();
  const takesBody = methods.some((method) => method === "POST" || method === "DELETE");
  const hasParams = route.url.includes(":");
  const query = (route.schema as { querystring?: { required?: string[] } } | undefined)?.querystring;
  const responses: Record<number, TSchema> = {};
  responses[400] = errorAnswer("Invalid request: a field fails the schema, malformed JSON, or a bad header");
  if (isGuarded(route, guards) || area(route) === "auth" || area(route) === "store")
    responses[401] = errorAnswer("Missing, invalid, expired or revoked credentials");
  if (isGuarded(route, guards) || area(route) === "store")
    responses[403] = errorAnswer("The credentials are valid but not for this kind of actor, resource or action");
  if (hasParams || takesBody || (query?.required ?? []).some((name) => name.endsWith("_id")))
    responses[404] = errorAnswer("A resource named in the path, body or query does not exist");
  if (methods.includes("POST"))
    responses[409] = errorAnswer(
      "The Idempotency-Key was used with another request or is in use, or a unique value is taken",
    );
  if (takesBody) {
    responses[413] = errorAnswer("The body is larger than the limit");
    responses[415] = errorAnswer("The body is not JSON");
  }
  if (hasParams) responses[414] = errorAnswer("A path parameter is longer than the limit");
  responses[429] = errorAnswer("Too many requests; retry after `retry-after` seconds");
  responses[500] = errorAnswer("An unexpected error; its detail is logged, never sent");
  return responses;
}
