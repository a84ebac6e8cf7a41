import { isKasseError } from "@kasse/db";
import type { EngineLogger } from "@kasse/workflows";
import type { Config, Infrastructure } from "@kasse/runtime";
import { maintenanceJobs } from "./maintenance";

export interface StartWorkerOptions {
  /** Only how many jobs it runs at once and how long its shutdown may take. */
  config: Pick<Config, "workerConcurrency" | "shutdownTimeoutMs">;
  /**
   * The database, the process's one engine (it knows every workflow: `allWorkflows` of
   * `@kasse/flows`) and the scheduler to consume (BullMQ with Redis, in-process in embedded mode).
   */
  infra: Pick<Infrastructure, "database" | "engine" | "scheduler">;
  logger?: EngineLogger;
  /** Recovery sweep period (tests shorten it). */
  recoveryEveryMs?: number;
}

/** A running worker. */
export interface RunningWorker {
  /**
   * Stops taking jobs and claiming executions at once, lets the executions in progress finish or
   * pause at their next step (their leases given back; see the engine's `drain`), at most
   * `SHUTDOWN_TIMEOUT_MS`. Leaves Redis and the database open for the caller to close. Safe to call twice.
   */
  close(): Promise<void>;
}

/** How long past the drain a job may take to report its outcome (one journal read). */
const JOB_SETTLE_MS = 1_000;

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
  const { engine, scheduler } = infra;

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
      // This process is shutting down: the execution was left (or handed back) to another one.
      if (isKasseError(error) && error.type === "unavailable") {
        logger.info({ executionId }, "execution left to another process: shutting down");
        return;
      }
      // A job naming an execution this database does not have (a Redis shared with another
      // database, or a job that outlived a restore): there is nothing to resume, and retrying cannot help.
      if (isKasseError(error) && error.type === "not_found") {
        logger.warn({ executionId }, "execution skipped: not in this database");
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
        // Both at once: the consumer stops fetching and waits for its jobs, which the drain bounds.
        const stopped = Promise.all([consumer.close(), engine.drain(config.shutdownTimeoutMs)]).then(() => "stopped" as const);
        let timer: NodeJS.Timeout | undefined;
        // A step that outlives the drain holds its job (and its lease, until it expires) past the deadline.
        const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), config.shutdownTimeoutMs + JOB_SETTLE_MS)));
        const outcome = await Promise.race([stopped, timeout]);
        clearTimeout(timer);
        if (outcome === "timeout") logger.warn({ timeoutMs: config.shutdownTimeoutMs }, "worker shutdown timed out; unfinished executions resume after their lease expires");
        logger.info({}, "worker stopped");
      })()),
  };
}
