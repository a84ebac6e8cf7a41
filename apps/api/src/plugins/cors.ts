import type { FastifyInstance } from "fastify";
import cors from "@fastify/cors";
import { errors } from "@kasse/core";

type OriginCheck = (origin: string | undefined, callback: (error: Error | null, allow: boolean) => void) => void;

declare module "fastify" {
  interface FastifyContextConfig {
    /** Set on every route of a group by {@link allowOrigins}; read by the CORS hook (a route without it gets no CORS headers). */
    cors?: { origin: OriginCheck };
  }
}

/**
 * The CORS hook, once for the whole app and before every other hook (so a 401, 429 or 400 carries
 * the headers a browser needs to read it). It takes its allowed origins from the route that was
 * matched, never from the path's text: each group (store, admin, auth) marks its routes with
 * {@link allowOrigins}. Requests that match no group route get no CORS headers.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    origin: false,
    credentials: true,
    exposedHeaders: ["x-request-id", "retry-after"],
    // A preflight without Origin is not one: it falls through to the route (404/405), not a 400 in text/plain.
    strictPreflight: false,
  });
}

/**
 * Lets browsers on `origins` (`*` = any; the origin is echoed, as credentials are allowed) call the
 * routes registered after this in the calling plugin, and answers their preflight `OPTIONS`.
 * A preflight from any other origin answers 403 `not_allowed`.
 * @example
 * allowOrigins(app, app.config.cors.store); // first line of routes/store/index.ts
 */
export function allowOrigins(app: FastifyInstance, origins: string[]): void {
  const any = origins.includes("*");
  const origin: OriginCheck = (value, callback) =>
    callback(null, value !== undefined && (any || origins.includes(value)));
  app.addHook("onRoute", (route) => {
    route.config = { ...route.config, cors: { origin } };
  });
  // Reached only when the CORS hook did not answer the preflight itself.
  app.options("/*", { schema: { hide: true } }, async (request, reply) => {
    const from = request.headers.origin;
    if (from === undefined) return reply.callNotFound();
    throw errors.notAllowed(`Origin ${from} is not allowed to call this API`);
  });
}
