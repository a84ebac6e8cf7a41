import type { FastifyInstance, FastifyRequest } from "fastify";
import rateLimit from "@fastify/rate-limit";
import { KasseError } from "@kasse/core";
import type { Config, Infrastructure } from "@kasse/runtime";

type Bucket = "auth" | "all";

/**
 * `/auth/*` routes have their own, lower budget (password guessing); every other request shares the
 * general one. Decided by the route matched (its registered path), not the URL's text, so no
 * spelling of an auth path escapes the auth budget.
 */
const bucketOf = (request: FastifyRequest): Bucket => (request.routeOptions.url?.startsWith("/auth/") ? "auth" : "all");

/**
 * Rate limiting per client IP and fixed window: `config.rateLimit.max` requests on all routes,
 * `authMax` on `/auth/*` (counted separately); a budget of 0 turns that part off. Counters live
 * in Redis when configured (under the install's prefix), so every API process shares them;
 * otherwise in memory. If Redis fails or is away, requests are let through at once rather than
 * refused or held (availability first: the client fails fast, see the runtime's `openRedis`). Over the budget:
 * 429 `{type: "too_many_requests", message}` with `retry-after` (seconds).
 */
export async function registerRateLimit(app: FastifyInstance, config: Config, infra: Infrastructure): Promise<void> {
  const { max, authMax, windowMs } = config.rateLimit;
  if (max === 0 && authMax === 0) return;
  const budget = (bucket: Bucket) => (bucket === "auth" ? authMax : max);
  await app.register(rateLimit, {
    global: false,
    timeWindow: windowMs,
    ...(infra.redis ? { redis: infra.redis, nameSpace: `${config.redisPrefix}:rate-limit:` } : {}),
    skipOnError: true,
    keyGenerator: (request) => `${bucketOf(request)}:${request.ip}`,
    allowList: (request) => budget(bucketOf(request)) === 0,
    max: (request) => budget(bucketOf(request)),
    errorResponseBuilder: (_request, context) =>
      new KasseError(
        "too_many_requests",
        `Too many requests: at most ${context.max} per ${Math.round(windowMs / 1000)} s; retry in ${context.after}`,
      ),
  });
  // One root hook rather than per-route ones: unknown routes count too, and a flood is refused
  // before credentials are verified (register this before the auth plugin).
  app.addHook("onRequest", app.rateLimit());
}
