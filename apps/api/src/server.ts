import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import { buildApp, type App, type BuildAppOptions } from "./app";
import type { Config } from "./config";
import type { Infrastructure } from "./container";
import { createInfrastructure } from "./infra";

/** Something running beside the API that must stop before the database closes (the worker). */
export interface Stoppable {
  close(): Promise<void>;
}

export interface StartServerOptions {
  config: Config;
  /** Opened from the configuration when absent. Closed by the server's shutdown either way. */
  infra?: Infrastructure & { close(): Promise<void> };
  logger?: FastifyServerOptions["logger"];
  /** Starts work to run in this process (the in-process worker in embedded mode); stopped on shutdown. */
  startWorker?: (context: { config: Config; infra: Infrastructure; logger: FastifyBaseLogger }) => Promise<Stoppable>;
  verifyApiKey?: BuildAppOptions["verifyApiKey"];
  extraRoutes?: BuildAppOptions["extraRoutes"];
}

/** A listening Kasse API. */
export interface RunningServer {
  app: App;
  /** `http://host:port` it listens on. */
  url: string;
  /**
   * Graceful shutdown: stops accepting connections, lets in-flight requests finish (at most
   * `SHUTDOWN_TIMEOUT_MS`, then their connections are cut), stops the worker, then closes
   * Redis and the database. Safe to call more than once.
   */
  close(): Promise<void>;
}

/**
 * Opens the infrastructure, builds the app and listens on `HOST:PORT`.
 * @example
 * const server = await startServer({ config: loadConfig() });
 * handleSignals(server);
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config } = options;
  const infra = options.infra ?? (await createInfrastructure(config));
  let app: App | undefined;
  let worker: Stoppable | undefined;
  try {
    app = await buildApp({ config, infra, logger: options.logger, verifyApiKey: options.verifyApiKey, extraRoutes: options.extraRoutes });
    await app.listen({ port: config.port, host: config.host });
    if (options.startWorker) worker = await options.startWorker({ config, infra, logger: app.log.child({ name: "worker" }) });
  } catch (error) {
    await app?.close().catch(() => {});
    await infra.close().catch(() => {});
    throw error;
  }
  const running = app;
  const address = running.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const timer = setTimeout(() => {
        running.log.warn({ timeoutMs: config.shutdownTimeoutMs }, "shutdown timeout: closing open connections");
        running.server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      timer.unref();
      try {
        await running.close();
      } finally {
        clearTimeout(timer);
      }
      await worker?.close();
      await infra.close();
    })());

  return { app: running, url: `http://${host}:${port}`, close };
}

/**
 * Shuts the server down gracefully on SIGTERM or SIGINT, then exits (0, or 1 when shutdown
 * failed). A second signal while shutting down exits at once.
 */
export function handleSignals(server: RunningServer, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) return exit(1);
    shuttingDown = true;
    server.app.log.info({ signal }, "shutting down");
    server.close().then(
      () => exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, "shutdown failed");
        exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return () => {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  };
}
