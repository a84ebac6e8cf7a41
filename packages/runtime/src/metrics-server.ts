import { createServer } from "node:http";
import { SetupError } from "@kasse/db";
import type { Config } from "./config";
import type { MetricsRenderer } from "./metrics";

/**
 * Serves `GET /metrics` on `METRICS_HOST:METRICS_PORT`, a listener of its own: never on the API's
 * port, whose clients are the public. Anything else is 404. It holds no process open (a process
 * ends when its work does: it lives as long as the process) and answers 500 when the metrics
 * cannot be gathered (a cluster child that does not answer). Resolves with its address,
 * `http://host:port/metrics`.
 * @example
 * console.log(`Metrics at ${await serveMetrics(config.metrics, metrics)}`);
 */
export async function serveMetrics(address: NonNullable<Config["metrics"]>, metrics: MetricsRenderer): Promise<string> {
  const server = createServer((request, response) => {
    const path = request.url?.split("?")[0];
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: GET /metrics\n");
      return;
    }
    metrics.render().then(
      (body) =>
        response.writeHead(200, { "content-type": metrics.contentType }).end(request.method === "HEAD" ? "" : body),
      (error: unknown) =>
        response
          .writeHead(500, { "content-type": "text/plain; charset=utf-8" })
          .end(`Metrics unavailable: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(address.port, address.host, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((error: unknown) => {
    const at = `port ${address.port} on ${address.host}`;
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
      throw new SetupError(
        `Cannot serve metrics: ${at} is in use; give each process its own METRICS_PORT, or stop the process that listens there.`,
      );
    throw new SetupError(
      `Cannot serve metrics on ${at}: ${(error as Error).message}; fix METRICS_HOST or METRICS_PORT.`,
    );
  });
  server.unref();
  const bound = server.address();
  const port = typeof bound === "object" && bound ? bound.port : address.port;
  const host = address.host.includes(":") ? `[${address.host}]` : address.host;
  return `http://${host}:${port}/metrics`;
}
