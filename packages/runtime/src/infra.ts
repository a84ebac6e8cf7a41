import type { Redis } from "ioredis";
import { assertMigrated, migrate, type Database } from "@kasse/db";
import type { BaseConfig, Config } from "./config";
import { openDatabase } from "./database";
import { createLogger } from "./logger";
import { openRedis } from "./redis";
import type { StoreLock } from "./store-lock";
import { createWorkflowRuntime, modulesOptions, type WorkflowRuntime, type WorkflowRuntimeOptions } from "./workflows";
import { publishEventReleases } from "./event-wake";
import type { ProcessMetrics } from "./metrics";
import { metricsSources } from "./metrics-sources";
import { takeExecutor } from "./executor";

/** What a process runs on: the database, in service mode Redis, and its one saga engine with the scheduler it queues to. */
export interface Infrastructure extends WorkflowRuntime {
  database: Database;
  /** An ioredis client when REDIS_URL is set. */
  redis?: Redis;
  /** The prefix of this install's Redis keys and channels (`Config.redisPrefix`), with `redis`. */
  redisPrefix?: string;
  /** Why Redis cannot be used now (`/health/ready` says it), or undefined while it answers. */
  redisProblem?: () => string | undefined;
  /** The process's metrics, when it serves them (`METRICS_PORT`): the API counts its requests there, the worker its deliveries. */
  metrics?: ProcessMetrics;
}

/**
 * The composition root of every process (the API, the worker, the CLI): opens what it runs on, from
 * the configuration: the database (PGlite under the data dir in embedded mode, locked to this
 * process; else PostgreSQL), made the process's database (`useDatabase`), and, when `REDIS_URL` is
 * set, Redis. A PostgreSQL database is not migrated here: one missing migrations is refused
 * (`MigrationsPendingError`, "run kasse migrate") before anything runs on it. Builds the process's
 * modules and its one engine: with the server secret (`config.jwt`, the API's and the worker's
 * configuration) they can deliver notifications. `holder` says what this process is, for the
 * refusal a second process on the same embedded store gets ("kasse seed"); `storeLock` lets it say more later.
 */
export async function createInfrastructure(
  config: BaseConfig & { jwt?: Config["jwt"]; files?: Config["files"] },
  options: {
    migrate?: boolean;
    logger?: WorkflowRuntimeOptions["logger"];
    holder?: string;
    /** Fed by the engine, and reading the database and the queue at each scrape. */
    metrics?: ProcessMetrics;
    /**
     * What this process is among those of its host (`api`, `api-<slot>`, `worker`): its executor
     * identity is `<KASSE_EXECUTOR_ID or host>:<role>` (see {@link takeExecutor}); a restart with
     * the same one resumes its predecessor's executions (`engine.resumeOwn()`). Without it (one-off
     * commands) the engine's identity is this process's alone.
     */
    role?: string;
  } = {},
): Promise<Infrastructure & { close(): Promise<void>; storeLock?: StoreLock }> {
  const { database, storeLock } = await openDatabase(config, options.holder, {
    countPoolUsage: options.metrics !== undefined,
  });
  try {
    if (options.migrate ?? config.embedded) await migrate(database);
    else if (!config.embedded) await assertMigrated(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  // A Redis outage is said even by commands that log nothing else (seed, user create).
  const redis = config.redisUrl
    ? await openRedis(config.redisUrl, options.logger ?? createLogger(config.logLevel))
    : undefined;
  const executor =
    options.role === undefined
      ? undefined
      : await takeExecutor(database, `${config.workflows.executorHost}:${options.role}`, options.logger).catch(
          async (error: unknown) => {
            await redis?.close();
            await database.close();
            throw error;
          },
        );
  const { modules, engine, scheduler } = createWorkflowRuntime(database, {
    executor: executor?.id,
    leaseMs: config.workflows.leaseMs,
    redis: redis?.client,
    redisPrefix: config.redisPrefix,
    logger: options.logger,
    modules: modulesOptions(config, options.logger),
    observer: options.metrics?.engine,
  });
  options.metrics?.watch(metricsSources(database, scheduler, modules));
  // Workers in other processes hear of this process's events at once rather than at their next poll.
  const stopAnnouncing = redis && publishEventReleases(redis.client, config.redisPrefix);
  return {
    database,
    redis: redis?.client,
    redisPrefix: config.redisPrefix,
    redisProblem: redis?.problem,
    metrics: options.metrics,
    modules,
    engine,
    scheduler,
    storeLock,
    close: async () => {
      stopAnnouncing?.();
      await scheduler.close().catch(() => {});
      await redis?.close();
      await executor?.lock?.release().catch(() => {});
      await database.close();
    },
  };
}
