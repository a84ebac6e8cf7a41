// `apps/worker` entry point (`npm run worker`, compiled to apps/worker/dist) with DATABASE_URL, REDIS_URL and JWT_SECRET set.
import { SetupError } from "@kasse/db";
import {
  ConfigError,
  createInfrastructure,
  createLogger,
  loadBaseConfig,
  loadConfig,
  workerEvents,
} from "@kasse/runtime";
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
  const infra = await createInfrastructure({ ...config, jwt }, { migrate: false, logger });
  // It also delivers events: webhook secrets are sealed under JWT_SECRET as well.
  const worker = await startWorker({ config, infra, logger, events: workerEvents({ ...config, jwt }) });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, "shutting down");
    worker
      .close()
      .then(() => infra.close())
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
}

main().catch((error: unknown) => {
  console.error(error instanceof SetupError ? error.message : error);
  process.exit(1);
});
