import type { Redis } from "ioredis";
import type { Database } from "@kasse/db";
import { allWorkflows } from "@kasse/flows";
import { createBullMqScheduler, createEngine, createInProcessScheduler, type Engine, type EngineLogger, type Scheduler } from "@kasse/workflows";

/** The saga engine and the scheduler it queues to, as `Infrastructure` carries them. */
export interface WorkflowRuntime {
  engine: Engine;
  scheduler: Scheduler;
}

/**
 * Builds the engine (knowing every flow of `@kasse/flows`) and its scheduler: BullMQ on `redis`
 * when given (service mode), else in-process timers (embedded mode, tests).
 * @example
 * const { engine, scheduler } = createWorkflowRuntime(database, { redis });
 */
export function createWorkflowRuntime(database: Database, options: { redis?: Redis; scheduler?: Scheduler; logger?: EngineLogger; leaseMs?: number } = {}): WorkflowRuntime {
  const scheduler =
    options.scheduler ?? (options.redis ? createBullMqScheduler({ connection: options.redis, logger: options.logger }) : createInProcessScheduler({ logger: options.logger }));
  const engine = createEngine({ db: database.db, scheduler, logger: options.logger, workflows: allWorkflows, leaseMs: options.leaseMs });
  return { engine, scheduler };
}
