import type { Redis } from "ioredis";
import { assertMigrated, migrate, type Database } from "@kasse/db";
import type { BaseConfig, Config } from "./config";
import { openDatabase } from "./database";
import { createWorkflowRuntime, modulesOptions, type WorkflowRuntime, type WorkflowRuntimeOptions } from "./workflows";
import { publishEventReleases } from "./event-wake";

/** What a process runs on: the database, in service mode Redis, and its one saga engine with the scheduler it queues to. */
export interface Infrastructure extends WorkflowRuntime {
  database: Database;
  /** An ioredis client when REDIS_URL is set. */
  redis?: Redis;
}

/**
 * The composition root of every process (the API, the worker, the CLI): opens what it runs on, from
 * the configuration: the database (PGlite under the data dir in embedded mode, else PostgreSQL),
 * made the process's database (`useDatabase`), and, when `REDIS_URL` is set, Redis. A PostgreSQL database is
 * not migrated here: one missing migrations is refused (`MigrationsPendingError`, "run kasse
 * migrate") before anything runs on it. Builds the process's modules and its one engine: with the
 * server secret (`config.jwt`, the API's and the worker's configuration) they can deliver notifications.
 */
export async function createInfrastructure(
  config: BaseConfig & { jwt?: Config["jwt"]; files?: Config["files"] },
  options: { migrate?: boolean; logger?: WorkflowRuntimeOptions["logger"] } = {},
): Promise<Infrastructure & { close(): Promise<void> }> {
  const database = await openDatabase(config);
  try {
    if (options.migrate ?? config.embedded) await migrate(database);
    else if (!config.embedded) await assertMigrated(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  let redis: Redis | undefined;
  if (config.redisUrl) {
    const { Redis } = await import("ioredis");
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
  }
  const { modules, engine, scheduler } = createWorkflowRuntime(database, {
    redis,
    logger: options.logger,
    modules: modulesOptions(config, options.logger),
  });
  // Workers in other processes hear of this process's events at once rather than at their next poll.
  const stopAnnouncing = redis && publishEventReleases(redis);
  return {
    database,
    redis,
    modules,
    engine,
    scheduler,
    close: async () => {
      stopAnnouncing?.();
      await scheduler.close().catch(() => {});
      await redis?.quit().catch(() => redis?.disconnect());
      await database.close();
    },
  };
}
