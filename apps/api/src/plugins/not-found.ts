import type { FastifyInstance, FastifyRequest } from "fastify";
import Router, { type HTTPMethod } from "find-my-way";

/**
 * Requests no route takes: 405 `not_allowed` with an `Allow` header when the path is a route's
 * under another method (`TRACE /store/products`), else 404 `not_found`. Register before any route:
 * every route is noted as it is registered and mirrored into a router built with the app's own
 * matching options, so "is this path known" is answered exactly as the app's router would.
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
  const routes: Array<[HTTPMethod, string]> = [];
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat() as HTTPMethod[])
      if (method !== "OPTIONS") routes.push([method, route.url]);
  });
  // The mirror is built on the first unmatched request, when every route is in (fastify takes none after
  // it is ready): inserting ~480 routes into a second router was a twentieth of a start.
  let mirror: { router: ReturnType<typeof Router>; known: HTTPMethod[] } | undefined;
  const built = () => {
    if (!mirror) {
      const router = Router({ caseSensitive, ignoreTrailingSlash, ignoreDuplicateSlashes, maxParamLength });
      for (const [method, url] of routes) router.on(method, url, () => {});
      mirror = { router, known: [...new Set(routes.map(([method]) => method))] };
    }
    return mirror;
  };
  return (request) => {
    const { router, known } = built();
    return known.filter((method) => router.find(method, request.raw.url ?? "/") !== null).sort();
  };
}
