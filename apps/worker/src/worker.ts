import { isKasseError } from "@kasse/core";
import { allSubscribers, bindSubscribers, type SubscriberDefinition } from "@kasse/flows";
import { createModules } from "@kasse/modules";
import { createEventDispatcher, type EventDispatcher } from "@kasse/modules/event";
import type { EngineLogger } from "@kasse/workflows";
import { subscribeEventReleases, type Config, type Infrastructure } from "@kasse/runtime";
import { maintenanceJobs } from "./maintenance";

export interface StartWorkerOptions {
  /** Only how many jobs it runs at once and how long its shutdown may take. */
  config: Pick<Config, "workerConcurrency" | "shutdownTimeoutMs"> & Partial<Pick<Config, "workflows">>;
  /**
   * The database, the process's one engine (it knows every workflow: `allWorkflows` of
   * `@kasse/flows`; with the server secret its steps send subscribers' emails) and the scheduler to consume (BullMQ with Redis, in-process in embedded mode).
   */
  infra: Pick<Infrastructure, "database" | "engine" | "scheduler" | "redis" | "redisPrefix" | "metrics">;
  logger?: EngineLogger;
  /** Recovery sweep period (tests shorten it); `config.workflows.recoveryEveryMs` (`WORKFLOW_RECOVERY_MS`) without. */
  recoveryEveryMs?: number;
  /** Event delivery (subscribers and webhooks); without it this worker delivers no events. */
  events?: WorkerEventsOptions;
}

/** What the worker's event dispatcher needs (`workerEventsOptions` builds it from the configuration). */
export interface WorkerEventsOptions {
  /** The API's server secret (`JWT_SECRET`): webhook secrets are sealed under it. */
  secret: Uint8Array | string;
  allowPrivate?: boolean;
  /** Delays before each retry of a failed webhook delivery, ms. */
  retrySchedule?: readonly number[];
  /** How often it looks for released events (250 ms). */
  pollMs?: number;
  /** The in-process subscribers; `allSubscribers` of `@kasse/flows` by default. */
  subscribers?: readonly SubscriberDefinition[];
  /** Per webhook request (10 s). */
  timeoutMs?: number;
  /** How long before another worker takes over work a dead one claimed (see the dispatcher). */
  claimLeaseMs?: number;
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
      {
        executionId,
        workflow: execution?.workflow_id,
        state: execution?.state,
        attempt: execution?.attempt,
        error: execution?.error?.type,
        ms: Date.now() - started,
      },
      "execution outcome",
    );
  };

  let dispatcher: EventDispatcher | undefined;
  const maintenance = maintenanceJobs({
    db: infra.database.db,
    engine,
    recoveryEveryMs: options.recoveryEveryMs ?? config.workflows?.recoveryEveryMs,
  });
  if (options.events) {
    const events = options.events;
    const modules = createModules({ secret: events.secret, webhookAllowPrivate: events.allowPrivate });
    dispatcher = createEventDispatcher({
      webhooks: modules.webhooks,
      subscribers: bindSubscribers(events.subscribers ?? allSubscribers, { modules, engine }),
      retrySchedule: events.retrySchedule,
      timeoutMs: events.timeoutMs,
      claimLeaseMs: events.claimLeaseMs,
      logger,
      onDelivery: infra.metrics?.webhookDelivery,
    });
    const running = dispatcher;
    maintenance.push(
      { name: "dispatch-events", everyMs: events.pollMs ?? 250, run: () => running.poll() },
      { name: "purge-events", everyMs: 10 * 60_000, run: () => running.purge() },
    );
  }
  const consumer = await scheduler.consume({ resume, maintenance }, { concurrency: config.workerConcurrency });
  // Released events announced by other processes (services mode) go out at once, not at the next poll.
  const stopListening =
    dispatcher && infra.redis && infra.redisPrefix
      ? subscribeEventReleases(infra.redis, infra.redisPrefix, dispatcher.wake)
      : undefined;
  // Events committed before this worker started (or while none ran) go out now.
  dispatcher?.wake();
  logger.info({ scheduler: scheduler.kind, concurrency: config.workerConcurrency }, "worker started");

  let closing: Promise<void> | undefined;
  return {
    close: () =>
      (closing ??= (async () => {
        // Both at once: the consumer stops fetching and waits for its jobs, which the drain bounds.
        const stopped = Promise.all([
          consumer.close(),
          engine.drain(config.shutdownTimeoutMs),
          dispatcher?.close(),
          stopListening?.(),
        ]).then(() => "stopped" as const);
        let timer: NodeJS.Timeout | undefined;
        // A step that outlives the drain holds its job (and its lease, until it expires) past the deadline.
        const timeout = new Promise<"timeout">(
          (resolve) => (timer = setTimeout(() => resolve("timeout"), config.shutdownTimeoutMs + JOB_SETTLE_MS)),
        );
        const outcome = await Promise.race([stopped, timeout]);
        clearTimeout(timer);
        if (outcome === "timeout")
          logger.warn(
            { timeoutMs: config.shutdownTimeoutMs },
            "worker shutdown timed out; unfinished executions resume after their lease expires",
          );
        logger.info({}, "worker stopped");
      })()),
  };
}
