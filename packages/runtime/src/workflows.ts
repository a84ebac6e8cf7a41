import type { Redis } from "ioredis";
import type { Database } from "@kasse/db";
import { allWorkflows } from "@kasse/flows";
import { createNotificationService, defaultNotificationProviders, type NotificationLogger } from "@kasse/modules/notification";
import { createBullMqScheduler, createEngine, createInProcessScheduler, type Engine, type EngineLogger, type Scheduler, type StepServices } from "@kasse/workflows";

/** The saga engine and the scheduler it queues to, as `Infrastructure` carries them. */
export interface WorkflowRuntime {
  /** The process's one saga engine: `engine.execute(flow, input, { idempotencyKey })`. */
  engine: Engine;
  /** Where the engine queues resumes (BullMQ with Redis, else in-process); the worker consumes it. */
  scheduler: Scheduler;
}

export interface WorkflowRuntimeOptions {
  redis?: Redis;
  scheduler?: Scheduler;
  logger?: EngineLogger;
  leaseMs?: number;
  /**
   * What notification delivery needs: the server secret (`JWT_SECRET`, which seals a message's
   * secret data), `SMTP_URL` and the log provider's logger. Without it the process cannot deliver
   * notifications (commands that send none: migrate, seed, user create).
   */
  notifications?: { secret: Uint8Array; smtpUrl?: string; logger?: NotificationLogger };
}

/**
 * Builds the process's one engine (knowing every flow of `@kasse/flows`, and giving their steps
 * the services built from the configuration) and its scheduler: BullMQ on `redis` when given
 * (service mode), else in-process timers (embedded mode, tests).
 * @example
 * const { engine, scheduler } = createWorkflowRuntime(database, { redis, notifications: { secret: config.jwt.secret } });
 */
export function createWorkflowRuntime(database: Database, options: WorkflowRuntimeOptions = {}): WorkflowRuntime {
  const scheduler =
    options.scheduler ?? (options.redis ? createBullMqScheduler({ connection: options.redis, logger: options.logger }) : createInProcessScheduler({ logger: options.logger }));
  const notifications = options.notifications;
  const services: StepServices = {
    notification: notifications && createNotificationService(database.db, { secret: notifications.secret, providers: defaultNotificationProviders({ smtpUrl: notifications.smtpUrl, logger: notifications.logger }) }),
  };
  const engine = createEngine({ db: database.db, scheduler, logger: options.logger, workflows: allWorkflows, leaseMs: options.leaseMs, services });
  return { engine, scheduler };
}
