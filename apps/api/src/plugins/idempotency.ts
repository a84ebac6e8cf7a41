import { createHash, createHmac } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isMedusaDialect } from "./medusa-dialect";
import { deriveKey, errors, seal, unseal } from "@kasse/core";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, type Db } from "@kasse/db";

declare module "fastify" {
  interface FastifyRequest {
    /** The idempotency key this request claimed, settled when its response is sent. */
    idempotency: { scope: string; key: string; secret: Buffer } | null;
  }
}

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on every POST (docs/CONTRACT.md, Stripe's semantics). The key is claimed after
 * authentication and validation, so a rejected request (401, 400 from the schema, 429) stores
 * nothing; the first accepted request runs and its response is stored; a repeat with the same
 * request replays it (`idempotent-replayed: true`), a different request or one while the first
 * still runs gets 409 `conflict`. 5xx responses are not stored, so retrying such a request runs it
 * again. Keys are scoped to the caller (see {@link idempotencyScope}) and kept 24 hours.
 *
 * Stored responses can hold secrets (a new API key's token, an auth token), so nothing readable
 * is stored: the row is keyed by a hash of the key, the request fingerprint is an HMAC, and the
 * response is encrypted (AES-256-GCM) with a key derived from the client's Idempotency-Key and
 * `serverSecret`. Only a caller presenting the key can have the response replayed.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, serverSecret: Uint8Array): void {
  app.decorateRequest("idempotency", null);

  app.addHook("preHandler", async (request, reply) => {
    // A request no route took (404, 405) runs nothing worth replaying.
    if (request.method !== "POST" || request.routeOptions.url === undefined) return;
    const header = request.headers["idempotency-key"];
    if (header === undefined) return;
    if (typeof header !== "string" || !KEY.test(header))
      throw errors.invalidData("Idempotency-Key must be 1 to 255 printable ASCII characters");
    const scope = idempotencyScope(request);
    const secret = deriveKey(header, `kasse-idempotency:${scope}`, serverSecret);
    const key = createHash("sha256").update(header).digest("hex");
    const claim = await claimIdempotencyKey(db, { scope, key, fingerprint: fingerprint(request, secret) });
    if (claim.outcome === "claimed") {
      request.idempotency = { scope, key, secret };
      return;
    }
    if (claim.outcome === "conflict") {
      throw errors.conflict(
        claim.reason === "in_progress"
          ? "A request with this Idempotency-Key is still being processed; retry once it has finished"
          : "This Idempotency-Key was already used with a different request",
      );
    }
    const { response } = claim;
    const body = unseal(response.body, secret);
    if (body === null)
      throw errors.conflict("The response stored for this Idempotency-Key can no longer be read; use a new key");
    if (response.contentType) void reply.header("content-type", response.contentType);
    return reply.code(response.status).header("idempotent-replayed", "true").send(body);
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const claimed = request.idempotency;
    if (!claimed) return payload;
    request.idempotency = null;
    const storable = typeof payload === "string" || Buffer.isBuffer(payload) || payload == null;
    try {
      if (reply.statusCode >= 500 || !storable) await releaseIdempotencyKey(db, claimed.scope, claimed.key);
      else {
        const contentType = reply.getHeader("content-type");
        await completeIdempotencyKey(db, claimed.scope, claimed.key, {
          status: reply.statusCode,
          contentType: typeof contentType === "string" ? contentType : null,
          body: seal(payload == null ? Buffer.alloc(0) : Buffer.from(payload), claimed.secret),
        });
      }
    } catch (error) {
      // The response itself succeeded; a key that could not be settled expires or is taken over later.
      request.log.error({ err: error }, "could not settle idempotency key");
    }
    return payload;
  });
}

/**
 * Whose key this is. An authenticated caller owns its keys (actor, or API key identity). An
 * anonymous caller's stored response may hold a capability (a guest cart id), so its keys are
 * also bound to its publishable key and IP address: another client cannot replay them even if it
 * learns the key.
 */
function idempotencyScope(request: FastifyRequest): string {
  const auth = request.auth;
  if (auth?.actor_id) return `${auth.via}:${auth.actor_type}:${auth.actor_id}`;
  if (auth) return `${auth.via}:${auth.actor_type}:${auth.auth_identity_id}`;
  const publishable = request.headers["x-publishable-api-key"];
  return `anonymous:${typeof publishable === "string" ? publishable : ""}:${request.ip}`;
}

/**
 * Method, route, its parameters, query and body (canonical: object keys sorted), as an HMAC (a plain
 * hash of a login body could be brute-forced). The route and its decoded parameters, not the URL's
 * text, so one request spelled two ways (`/store/carts`, `/%73tore/carts`) is the same request.
 */
function fingerprint(request: FastifyRequest, secret: Buffer): string {
  // The dialect too: one body means other amounts under /medusa (major units) than at the root.
  const target = `${request.method} ${isMedusaDialect(request) ? "medusa:" : ""}${request.routeOptions.url} ${canonicalJson(request.params)} ${canonicalJson(request.query)}`;
  return createHmac("sha256", secret)
    .update(`${target}\n${canonicalJson(request.body)}`)
    .digest("hex");
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return "";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}
