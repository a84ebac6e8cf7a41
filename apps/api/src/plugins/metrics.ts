import type { FastifyInstance } from "fastify";
import type { ProcessMetrics } from "@kasse/runtime";

/**
 * Counts every answered request in the process's metrics by its route's template
 * (`/store/carts/:id`, never the URL: one series per route, whatever clients send; a request
 * no route matched counts as `unmatched`), with how long it took. The metrics themselves are
 * served on their own port (`METRICS_PORT`), never here.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: ProcessMetrics): void {
  app.addHook("onResponse", (request, reply, done) => {
    metrics.request(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime);
    done();
  });
}
