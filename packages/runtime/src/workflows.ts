import type { Redis } from "ioredis";
import type { Database } from "@kasse/db";
import type { BaseConfig, Config } from "./config";
import { allWorkflows } from "@kasse/flows";
import { eventOutbox } from "@kasse/modules/event";
import { createModules, type ModulesOptions } from "@kasse/modules";
import {
  createBullMqScheduler,
  createEngine,
  createInProcessScheduler,
  type Engine,
  type EngineLogger,
  type EngineObserver,
  type Scheduler,
} from "@kasse/workflows";

/** The saga engine and the scheduler it queues to, as `Infrastructure` carries them. */
export interface WorkflowRuntime {
  /** The process's one saga engine: `engine.execute(flow, input, { idempotencyKey })`. */
  engine: Engine;
  /** Where the engine queues resumes (BullMQ with Redis, else in-process); the worker consumes it. */
  scheduler: Scheduler;
}

export interface WorkflowRuntimeOptions {
  redis?: Redis;
  /** The prefix of the BullMQ keys on `redis` (`Config.redisPrefix`); BullMQ's `bull` without it. */
  redisPrefix?: string;
  scheduler?: Scheduler;
  logger?: EngineLogger;
  leaseMs?: number;
  /**
   * The configuration steps' modules are built with (`ctx.modules`): the server secret
   * (`JWT_SECRET`, which seals a message's secret data), `SMTP_URL`, the log provider's logger.
   * Without a secret the process cannot deliver notifications (commands that send none: migrate,
   * seed, user create).
   */
  modules?: ModulesOptions;
  /** Told what the engine's executions do (the process's metrics). */
  observer?: EngineObserver;
}

/**
 * Builds the process's one engine (knowing every flow of `@kasse/flows`, and giving their steps
 * the modules built from the configuration over their transaction, and the event outbox behind `ctx.emit`) and its scheduler: BullMQ on `redis` when given
 * (service mode), else in-process timers (embedded mode, tests).
 * @example
 * const { engine, scheduler } = createWorkflowRuntime(database, { redis, modules: { secret: config.jwt.secret } });
 */
export function createWorkflowRuntime(database: Database, options: WorkflowRuntimeOptions = {}): WorkflowRuntime {
  const scheduler =
    options.scheduler ??
    (options.redis
      ? createBullMqScheduler({ connection: options.redis, prefix: options.redisPrefix, logger: options.logger })
      : createInProcessScheduler({ logger: options.logger }));
  // Steps' `ctx.modules` are built over their transaction; `ctx.emit` writes to the event module's outbox in it.
  const modules = (db: Database["db"]) => createModules(db, options.modules);
  const engine = createEngine({
    db: database.db,
    scheduler,
    logger: options.logger,
    workflows: allWorkflows,
    leaseMs: options.leaseMs,
    modules,
    events: eventOutbox,
    observer: options.observer,
  });
  return { engine, scheduler };
}

/**
 * What a worker's event dispatcher runs with, from the configuration: the server secret (webhook
 * secrets are sealed under `JWT_SECRET`), `WEBHOOK_ALLOW_PRIVATE`, `WEBHOOK_RETRY_SCHEDULE`,
 * `EVENTS_POLL_MS` (subscribers' emails go through the engine's notification service).
 * @example
 * const worker = await startWorker({ config, infra, logger, events: workerEvents(config) });
 */
export function workerEvents(config: BaseConfig & { jwt: Config["jwt"] }) {
  return {
    secret: config.jwt.secret,
    allowPrivate: config.events.allowPrivate,
    retrySchedule: config.events.retrySchedule,
    pollMs: config.events.pollMs,
  };
}
