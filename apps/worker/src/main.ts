// `apps/worker` entry point (`npm run worker`, compiled to apps/worker/dist) with DATABASE_URL, REDIS_URL and JWT_SECRET set.
import { SetupError } from "@kasse/db";
import {
  ConfigError,
  createInfrastructure,
  createLogger,
  createProcessMetrics,
  loadBaseConfig,
  loadConfig,
  serveMetrics,
  workerEvents,
} from "@kasse/runtime";
import { SIGNAL_ECHO_MS } from "@kasse/runtime/node-flags";
import { startWorker } from "./worker";

async function main(): Promise<void> {
  const config = loadBaseConfig(process.env);
  const logger = createLogger(config.logLevel, { name: "kasse-worker" });
  if (!config.redisUrl || config.embedded) {
    // Embedded mode runs its worker inside `kasse start`; a separate worker needs the shared services.
    throw new ConfigError(
      "The worker needs DATABASE_URL and REDIS_URL (in embedded mode `kasse start` runs the worker in-process).",
    );
  }
  // The worker delivers notifications, whose secret data is sealed under JWT_SECRET.
  const { jwt } = loadConfig(process.env);
  const metrics = config.metrics ? await createProcessMetrics() : undefined;
  // Before anything opens, so a busy port stops the worker at once.
  if (config.metrics && metrics) logger.info({ url: await serveMetrics(config.metrics, metrics) }, "metrics served");
  // The signal handlers come before anything opens: a SIGTERM while the worker still starts (Redis
  // away, the database slow) stops it once it has started, instead of killing it half-open.
  const running = (async () => {
    const infra = await createInfrastructure({ ...config, jwt }, { migrate: false, logger, metrics, role: "worker" });
    // What this worker's previous process held (a crash, a restart) runs again at once.
    await infra.engine.resumeOwn();
    // It also delivers events: webhook secrets are sealed under JWT_SECRET as well.
    const worker = await startWorker({ config, infra, logger, events: workerEvents({ ...config, jwt }) });
    return { infra, worker };
  })();
  let stoppedAt: number | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stoppedAt !== undefined) {
      // The same signal twice at once is one (a launcher passing on what its process group also got); later, impatience.
      if (Date.now() - stoppedAt < SIGNAL_ECHO_MS) return;
      process.exit(1);
    }
    stoppedAt = Date.now();
    logger.info({ signal }, "shutting down");
    running
      .then(({ infra, worker }) => worker.close().then(() => infra.close()))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  await running;
}

main().catch((error: unknown) => {
  console.error(error instanceof SetupError ? error.message : error);
  process.exit(1);
});
