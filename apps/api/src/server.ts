import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import { buildApp, type App, type BuildAppOptions } from "./app";
import { SetupError } from "@kasse/db";
import { type Config, type Infrastructure, createInfrastructure } from "@kasse/runtime";

/** How long a stopping server keeps reading requests (to answer them 503) before it stops listening. */
export const listenGraceMs = (shutdownTimeoutMs: number) => Math.min(1000, Math.floor(shutdownTimeoutMs / 4));

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
   * Graceful shutdown, in this order. At once: answer new requests 503 (for `listenGraceMs`, then
   * stop accepting connections), stop the worker taking
   * jobs, and stop the engines claiming executions. Then, at most `SHUTDOWN_TIMEOUT_MS`: in-flight
   * requests and running workflow steps finish; executions that cannot finish pause at a step
   * boundary and give their lease back (see the engine's `drain`); connections still open at the
   * deadline are cut. Only then Redis and the database close. Safe to call more than once.
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
  let closing: Promise<void> | undefined;
  try {
    app = await buildApp({
      config,
      infra,
      logger: options.logger,
      verifyApiKey: options.verifyApiKey,
      extraRoutes: options.extraRoutes,
    });
    // A request on a connection still open while shutting down: refused, to be retried on another process.
    app.addHook("onRequest", async (_request, reply) => {
      if (!closing) return;
      reply
        .code(503)
        .header("connection", "close")
        .send({ type: "unavailable", message: "This server is shutting down; retry the request" });
      return reply;
    });
    await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
      throw listenFailure(error, config);
    });
    if (options.startWorker)
      worker = await options.startWorker({ config, infra, logger: app.log.child({ name: "worker" }) });
  } catch (error) {
    await app?.close().catch(() => {});
    await infra.close().catch(() => {});
    throw error;
  }
  const running = app;
  const address = running.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;

  const close = () =>
    (closing ??= (async () => {
      const timer = setTimeout(() => {
        running.log.warn({ timeoutMs: config.shutdownTimeoutMs }, "shutdown timeout: closing open connections");
        running.server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      timer.unref();
      // Everything stops taking new work at once; what is under way shares the same deadline.
      const drained = running.infra.engine.drain(config.shutdownTimeoutMs).then(({ unfinished }) => {
        if (unfinished.length)
          running.log.warn(
            { executionIds: unfinished },
            "shutdown timeout: workflow steps still running; their executions resume after their lease expires",
          );
      });
      // The listener stays open for a moment: a request already sent on a keep-alive connection, or
      // waiting in the accept backlog, is read and answered 503 rather than cut when Node closes
      // "idle" connections (a client sees that as a failed POST it cannot safely retry).
      const grace = new Promise((resolve) => setTimeout(resolve, listenGraceMs(config.shutdownTimeoutMs)));
      const stopped = await Promise.allSettled([grace.then(() => running.close()), drained, worker?.close()]);
      clearTimeout(timer);
      // A handler cut off from its client at the deadline still runs; the database stays open for it.
      if (!(await running.inFlight.settled(Date.now() + config.shutdownTimeoutMs))) {
        running.log.warn(
          { handlers: running.inFlight.size },
          "shutdown timeout: request handlers still running; closing the database under them",
        );
      }
      await infra.close();
      const failed = stopped.find((result): result is PromiseRejectedResult => result.status === "rejected");
      if (failed) throw failed.reason;
    })());

  return { app: running, url: `http://${host}:${port}`, close };
}

/** Why the server cannot listen on HOST:PORT, in a line with the fix (a port in use, a privileged port, an unknown address). */
function listenFailure(error: unknown, config: Pick<Config, "host" | "port">): unknown {
  const at = `port ${config.port} on ${config.host}`;
  switch ((error as NodeJS.ErrnoException).code) {
    case "EADDRINUSE":
      return new SetupError(
        `Cannot listen: ${at} is in use; set PORT to a free port, or stop the process that listens there.`,
      );
    case "EACCES":
      return new SetupError(`Cannot listen: ${at} needs privileges this process lacks; set PORT to 1024 or above.`);
    case "EADDRNOTAVAIL":
      return new SetupError(
        `Cannot listen: ${config.host} is not an address of this machine; fix HOST (0.0.0.0 listens on all).`,
      );
    default:
      return error;
  }
}

/**
 * Shuts the server down gracefully on SIGTERM or SIGINT, then exits (0, or 1 when shutdown
 * failed). A second signal while shutting down exits at once.
 */
export function handleSignals(
  server: RunningServer,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
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
