import type { FastifyInstance, FastifyRequest } from "fastify";
import Router, { type HTTPMethod } from "find-my-way";

/**
 * Requests no route takes: 405 `not_allowed` with an `Allow` header when the path is a route's
 * under another method (`TRACE /store/products`), else 404 `not_found`. Register before any route:
 * every route is mirrored, as it is registered, into a router built with the app's own matching
 * options, so "is this path known" is answered exactly as the app's router would.
 */
export function registerNotFound(app: FastifyInstance): void {
  const allowed = routeMethods(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    const methods = allowed(request);
    if (methods.length > 0 && !methods.includes(request.method)) {
      void reply
        .code(405)
        .header("allow", methods.join(", "))
        .send({
          type: "not_allowed",
          message: `Method ${request.method} is not allowed on ${path}; allowed: ${methods.join(", ")}`,
        });
      return;
    }
    void reply.code(404).send({ type: "not_found", message: `Route ${request.method} ${path} not found` });
  });
}

/** The methods the app's routes answer on a request's path (OPTIONS, the CORS preflight catch-all, is not counted). */
function routeMethods(app: FastifyInstance): (request: FastifyRequest) => string[] {
  const { caseSensitive, ignoreTrailingSlash, ignoreDuplicateSlashes, maxParamLength } = app.initialConfig;
  const router = Router({ caseSensitive, ignoreTrailingSlash, ignoreDuplicateSlashes, maxParamLength });
  const known = new Set<HTTPMethod>();
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat() as HTTPMethod[]) {
      if (method === "OPTIONS") continue;
      router.on(method, route.url, () => {});
      known.add(method);
    }
  });
  return (request) => [...known].filter((method) => router.find(method, request.raw.url ?? "/") !== null).sort();
}
