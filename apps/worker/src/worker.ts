import { hostname } from "node:os";
import { isKasseError } from "@kasse/db";
import { allWorkflows } from "@kasse/flows";
import { createEngine, createInProcessScheduler, type AnyWorkflow, type EngineLogger, type Scheduler } from "@kasse/workflows";
import type { Config, Infrastructure } from "@kasse/api";
import { maintenanceJobs } from "./maintenance";

export interface StartWorkerOptions {
  config: Config;
  /** The database and the scheduler to consume (BullMQ with Redis, in-process in embedded mode). */
  infra: Infrastructure;
  logger?: EngineLogger;
  /** The workflows it can resume; `allWorkflows` of `@kasse/flows` by default. */
  workflows?: readonly AnyWorkflow[];
  /** Recovery sweep period (tests shorten it). */
  recoveryEveryMs?: number;
  /** Lease length of the executions it runs. */
  leaseMs?: number;
}

/** A running worker. */
export interface RunningWorker {
  /** Stops taking jobs and waits (at most `SHUTDOWN_TIMEOUT_MS`) for the ones in progress. Safe to call twice. */
  close(): Promise<void>;
}

const silent: EngineLogger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * Consumes the workflow queue: resumes executions whose process died, retries failed
 * compensations in the background, and runs the maintenance jobs. Any number of workers (and
 * API processes) may run at once: executions are claimed with leases.
 * @example
 * const worker = await startWorker({ config, infra });
 * process.on("SIGTERM", () => worker.close());
 */
export async function startWorker(options: StartWorkerOptions): Promise<RunningWorker> {
  const { config, infra } = options;
  const logger = options.logger ?? silent;
  const scheduler: Scheduler = infra.scheduler ?? createInProcessScheduler({ logger });
  const engine = createEngine({
    db: infra.database.db,
    scheduler,
    logger,
    workflows: options.workflows ?? allWorkflows,
    owner: `worker:${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
    leaseMs: options.leaseMs,
  });

  const resume = async (executionId: string) => {
    const started = Date.now();
    let failure: unknown;
    try {
      await engine.resume(executionId);
    } catch (error) {
      // Another process holds it, or it is not due: someone else is on it.
      if (isKasseError(error) && error.type === "conflict") {
        logger.info({ executionId }, "execution skipped: held by another process");
        return;
      }
      failure = error; // a compensated execution rethrows its original error: an outcome, not a fault
    }
    const execution = await engine.retrieve(executionId).catch(() => undefined);
    const unfinished = !execution || execution.state === "running" || execution.state === "compensating";
    if (failure && unfinished) {
      logger.error({ executionId, workflow: execution?.workflow_id, err: failure }, "resume failed");
      return;
    }
    logger.info(
      { executionId, workflow: execution?.workflow_id, state: execution?.state, attempt: execution?.attempt, error: execution?.error?.type, ms: Date.now() - started },
      "execution outcome",
    );
  };

  const consumer = await scheduler.consume({ resume, maintenance: maintenanceJobs({ db: infra.database.db, engine, recoveryEveryMs: options.recoveryEveryMs }) }, { concurrency: config.workerConcurrency });
  logger.info({ scheduler: scheduler.kind, concurrency: config.workerConcurrency }, "worker started");

  let closing: Promise<void> | undefined;
  return {
    close: () =>
      (closing ??= (async () => {
        const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), config.shutdownTimeoutMs).unref());
        const stopped = await Promise.race([consumer.close().then(() => engine.drain(config.shutdownTimeoutMs)).then(() => "stopped" as const), timeout]);
        // Jobs cut off here keep their lease until it expires; another worker then resumes them.
        if (stopped === "timeout") logger.warn({ timeoutMs: config.shutdownTimeoutMs }, "worker shutdown timed out; unfinished executions will be recovered");
        logger.info({}, "worker stopped");
      })()),
  };
}
