import type { Redis } from "ioredis";
import type { Database } from "@kasse/db";
import type { BaseConfig, Config } from "./config";
import { allWorkflows } from "@kasse/flows";
import { createModules, eventOutbox, type Modules, type ModulesOptions } from "@kasse/modules";
import { createStripeProvider, type PaymentProvider } from "@kasse/modules/payment";
import {
  createBullMqScheduler,
  createEngine,
  createInProcessScheduler,
  type Engine,
  type EngineLogger,
  type EngineObserver,
  type Scheduler,
} from "@kasse/workflows";

/** The modules, the saga engine and the scheduler it queues to, as `Infrastructure` carries them. */
export interface WorkflowRuntime {
  /** Every module's service, built once for the process (on the ambient handle of `@kasse/db`). */
  modules: Modules;
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
  /** The engine's executor identity (`createInfrastructure` takes it for a role); the engine's own default without. */
  executor?: string;
  leaseMs?: number;
  /**
   * The configuration the modules are built with ({@link modulesOptions}): the server secret
   * (`JWT_SECRET`, which seals a message's secret data), `SMTP_URL`, the log provider's logger.
   * Without a secret the process cannot deliver notifications (commands that send none: migrate,
   * seed, user create).
   */
  modules?: ModulesOptions;
  /** Told what the engine's executions do (the process's metrics). */
  observer?: EngineObserver;
}

/**
 * Builds the process's modules (once, from the configuration) and its one engine (knowing every
 * flow of `@kasse/flows`, giving their steps those modules, which run in each step's transaction
 * because it is ambient, and the event outbox behind `ctx.emit`) and its scheduler: BullMQ on
 * `redis` when given (service mode), else in-process timers (embedded mode, tests).
 * @example
 * const { modules, engine, scheduler } = createWorkflowRuntime(database, { redis, modules: modulesOptions(config) });
 */
export function createWorkflowRuntime(database: Database, options: WorkflowRuntimeOptions = {}): WorkflowRuntime {
  const scheduler =
    options.scheduler ??
    (options.redis
      ? createBullMqScheduler({ connection: options.redis, prefix: options.redisPrefix, logger: options.logger })
      : createInProcessScheduler({ logger: options.logger }));
  // Built once: in a step they run in its transaction (ambient); `ctx.emit` writes to the outbox in it.
  const modules = createModules(options.modules);
  const engine = createEngine({
    db: database.db,
    scheduler,
    logger: options.logger,
    workflows: allWorkflows,
    executor: options.executor,
    leaseMs: options.leaseMs,
    modules: () => modules,
    events: eventOutbox,
    observer: options.observer,
  });
  return { modules, engine, scheduler };
}

/**
 * What the modules are built with, from the configuration: the one place it is assembled for the
 * API, the worker and the CLI. A process without the server secret (migrate, seed) cannot use the
 * services that need it (notifications, webhooks).
 * @example
 * const { modules } = createWorkflowRuntime(database, { modules: modulesOptions(config, logger) });
 */
export function modulesOptions(
  config: BaseConfig & { jwt?: Config["jwt"]; files?: Config["files"] },
  logger?: ModulesOptions["logger"],
): ModulesOptions {
  return {
    secret: config.jwt?.secret,
    smtpUrl: config.env.SMTP_URL,
    logger,
    scryptLogN: config.scryptLogN,
    webhookAllowPrivate: config.events.allowPrivate,
    files: config.files,
    paymentProviders: paymentProviders(config.payments),
  };
}

/** The payment providers the configuration names, beyond the built-in ones (`STRIPE_API_KEY`: `pp_stripe_stripe`). */
function paymentProviders(payments: BaseConfig["payments"]): PaymentProvider[] {
  const { stripe } = payments;
  return stripe ? [createStripeProvider(stripe)] : [];
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
