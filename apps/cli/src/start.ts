import cluster from "node:cluster";
import { demoPicture, handleSignals, startServer, type RunningServer } from "@kasse/api";
import {
  createInfrastructure,
  createLogger,
  createProcessMetrics,
  serveMetrics,
  workerEvents,
  type Config,
} from "@kasse/runtime";
import { seedDemoStore } from "@kasse/operations";
import { startWorker } from "@kasse/worker";
import { ensureFirstAdmin } from "./admin-user";
import { prepareAdminUi } from "./admin-ui";
import { migrateExclusively } from "./migrate";
import { apiRole } from "./cluster";
import { describeStore } from "./seed";

export interface StartOptions {
  config: Config;
  /** Run the workflow worker in this process (default). Off for API-only processes beside separate workers. */
  worker: boolean;
}

/**
 * `kasse start`: opens the database (embedded: PGlite under the data dir, migrated, and on the
 * first start a demo store and an admin), serves the API on HOST:PORT with the worker in the
 * same process, and shuts down gracefully on SIGTERM/SIGINT.
 */
export async function start(options: StartOptions): Promise<RunningServer> {
  const { config } = options;
  const metrics = config.metrics ? await createProcessMetrics() : undefined;
  const notes: string[] = [];
  // Before anything opens, so a busy port stops the start at once. A child of `kasse start
  // --processes N` serves none: the primary asks it for its metrics and serves them all.
  if (config.metrics && metrics && !cluster.isWorker)
    notes.push(`Metrics at ${await serveMetrics(config.metrics, metrics)}`);
  // The engine's lines (and the embedded worker's executions) beside the app's, in the same form.
  const infra = await createInfrastructure(config, {
    migrate: false,
    logger: createLogger(config.logLevel),
    holder: "kasse start",
    metrics,
    role: apiRole(),
  });
  try {
    if (config.embedded) {
      await migrateExclusively(infra.database);
      const store = await seedDemoStore(infra.modules, { pictures: demoPicture });
      if (store) notes.push(...describeStore(store));
      const admin = await ensureFirstAdmin(config, infra);
      if (admin) {
        notes.push(`Admin login: ${admin.email} / ${admin.generatedPassword ?? "(the KASSE_ADMIN_PASSWORD you set)"}`);
        if (admin.generatedPassword) notes.push("This generated password is shown once; only its hash is stored.");
      }
    }
    // Before listening: a shopper retrying a checkout its predecessor held joins the run resumed here.
    await infra.engine.resumeOwn();
  } catch (error) {
    await infra.close();
    throw error;
  }
  const server = await startServer({
    config,
    infra,
    startWorker: options.worker
      ? (context) =>
          startWorker({
            config: context.config,
            infra: context.infra,
            logger: context.logger,
            events: workerEvents(context.config),
          })
      : undefined,
  });
  handleSignals(server);
  // A second process on the same embedded store is told where this one answers.
  infra.storeLock?.describe(`kasse start on ${server.url}`);
  const admin = prepareAdminUi(config, server.url);
  if (admin) notes.unshift(admin);
  const mode = config.embedded ? `embedded, data in ${config.dataDir}` : "services";
  const worker = options.worker ? "with worker" : "without worker";
  // One write, so whoever reads the output sees the address and the login together.
  console.log(
    [
      `Kasse listening on ${server.url} (${mode}, ${worker}); API docs at ${server.url}/docs; ready in ${Math.round(process.uptime() * 1000)} ms`,
      ...notes,
    ].join("\n"),
  );
  return server;
}
