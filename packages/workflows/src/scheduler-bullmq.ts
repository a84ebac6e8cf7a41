import type { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import type { Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { errors } from "@kasse/core";
import { withTimeout } from "@kasse/db";
import type { Consumer, Scheduler } from "./scheduler";
import type { EngineLogger } from "./types";

/** The BullMQ queue every API process produces to and every worker consumes. */
export const WORKFLOWS_QUEUE = "workflows";

/** How long an enqueue waits for a Redis that has not answered yet (its first connection) before it fails. */
const ENQUEUE_TIMEOUT_MS = 5_000;
/** How long a consumer waits for Redis's first answer before it starts without it (and says so). */
const FIRST_CONNECTION_MS = 5_000;

export interface BullMqSchedulerOptions {
  /**
   * The ioredis client of the queue (enqueues, the maintenance schedules). Made to fail fast (no
   * offline queue, a command timeout), an enqueue fails at once while Redis is away. The worker
   * consumes on a copy made for BullMQ's blocking reads (no command timeout, commands wait for a
   * reconnection). Not closed here.
   */
  connection: Redis;
  /** Redis key prefix (tests use one per file); BullMQ's default `bull`. */
  prefix?: string;
  logger?: EngineLogger;
}

/** The BullMQ scheduler; `queue` is exposed for bull-board. */
export type BullMqScheduler = Scheduler & { readonly queue: Queue };

interface ResumeData {
  executionId: string;
}

interface MaintenanceData {
  job: string;
}

/**
 * The service-mode scheduler: queue `workflows` in Redis. Resumes and compensation retries are
 * (delayed) jobs; maintenance jobs (the recovery sweep, purges) are repeatable job schedulers.
 * @example
 * const scheduler = createBullMqScheduler({ connection: redis });
 * await scheduler.consume({ resume: (id) => engine.resume(id).then(() => {}), maintenance: [] }, { concurrency: 4 });
 */
export function createBullMqScheduler(options: BullMqSchedulerOptions): BullMqScheduler {
  // Loaded here, not at import: BullMQ is a quarter of the modules an embedded start would load for nothing.
  const { Queue, Worker } = createRequire(import.meta.url)("bullmq") as typeof import("bullmq");
  const { connection, prefix, logger } = options;
  const queue = new Queue(WORKFLOWS_QUEUE, { connection, prefix });
  // The queue re-emits its connections' errors (and its job scheduler's): without a listener, BullMQ
  // prints each failed reconnection with its stack. An outage is the connection owner's to report.
  queue.on("error", (error) => {
    if (!isConnectionError(error)) logger?.error({ err: error }, "workflow queue error");
  });
  const workers = new Set<Worker>();
  const where = `${connection.options.host ?? "localhost"}:${connection.options.port ?? 6379}`;
  const unavailable = () =>
    errors.unavailable(`The workflow queue is not available: Redis at ${where} does not answer; retry later`);

  return {
    kind: "bullmq",
    queue,
    async enqueue(executionId, opts = {}) {
      // Away after having answered: fail now (the journal keeps the execution; the recovery sweep queues it later).
      if (connection.status === "reconnecting" || connection.status === "end") throw unavailable();
      // Not answered yet (a start): the queue waits for the first connection, at most this long.
      await withTimeout(
        queue.add("resume", { executionId } satisfies ResumeData, {
          delay: opts.delayMs,
          ...(opts.dedupeKey ? { jobId: `resume-${opts.dedupeKey}` } : {}),
          // Removed when done either way: a kept job would block its dedupe key forever.
          removeOnComplete: true,
          removeOnFail: true,
        }),
        ENQUEUE_TIMEOUT_MS,
        unavailable,
      );
    },
    async consume(handlers, opts = {}) {
      const byName = new Map(handlers.maintenance.map((job) => [job.name, job]));
      const schedule = async () => {
        for (const job of handlers.maintenance) {
          await queue.upsertJobScheduler(
            `maintenance-${job.name}`,
            { every: job.everyMs },
            {
              name: "maintenance",
              data: { job: job.name } satisfies MaintenanceData,
              opts: { removeOnComplete: true, removeOnFail: 100 },
            },
          );
        }
      };
      // The schedules live in Redis: one restarted without persistence (or failed over) has lost
      // them, and without the recovery sweep and the event dispatch nothing would run again until
      // a worker restarted. Every (re)connection puts them back (an upsert changes nothing when present).
      const reschedule = () =>
        void schedule().catch((error: Error) => {
          // Lost again meanwhile: the next reconnection tries again.
          if (!isConnectionError(error))
            logger?.warn({ err: error }, "could not restore the maintenance schedules after a reconnection");
        });
      connection.on("ready", reschedule);
      // BullMQ's blocking reads need a connection whose commands wait for a reconnection.
      const workerConnection = connection.duplicate({
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        commandTimeout: undefined,
      });
      const worker = new Worker(
        WORKFLOWS_QUEUE,
        async (job: Job) => {
          if (job.name === "resume") return handlers.resume((job.data as ResumeData).executionId);
          if (job.name === "maintenance") {
            const name = (job.data as MaintenanceData).job;
            const maintenance = byName.get(name);
            if (!maintenance) throw new Error(`Unknown maintenance job '${name}'`);
            await maintenance.run();
            return;
          }
          throw new Error(`Unknown job '${job.name}'`);
        },
        { connection: workerConnection, prefix, concurrency: Math.max(1, opts.concurrency ?? 4) },
      );
      worker.on("failed", (job, error) =>
        logger?.error({ err: error, job: job?.name, data: job?.data }, "workflow job failed"),
      );
      // Each failed reconnection of its two connections is an error event: reported by the owner, as for the queue.
      worker.on("error", (error) => {
        if (!isConnectionError(error)) logger?.error({ err: error }, "workflow worker error");
      });
      workers.add(worker);
      if (await firstConnection(connection)) await Promise.all([schedule(), worker.waitUntilReady()]);
      else
        logger?.warn(
          { redis: where },
          `worker waiting for Redis at ${where}: it takes workflow jobs and runs the recovery sweep and event delivery once Redis answers`,
        );
      const consumer: Consumer = {
        close: async () => {
          connection.off("ready", reschedule);
          workers.delete(worker);
          // With Redis away, a graceful close would wait for it (QUIT queued behind a blocking read): cut instead.
          const away = workerConnection.status !== "ready";
          await worker.close(away);
          keepListening(worker);
          if (away) workerConnection.disconnect();
          else await workerConnection.quit().catch(() => workerConnection.disconnect());
        },
      };
      return consumer;
    },
    async close() {
      await Promise.all([...workers].map((worker) => worker.close().then(() => keepListening(worker))));
      workers.clear();
      await queue.close();
      keepListening(queue);
    },
  };
}

/**
 * BullMQ (5.x) drops its connections' listeners when it closes them, but a connection still in its
 * first attempt (Redis away, or something else on its port) fails that attempt later and re-emits
 * the failure to no listener: an uncaught error that kills a process shutting down. A closed queue
 * or worker keeps one listener that drops what comes after.
 */
function keepListening(closed: Queue | Worker): void {
  const { connection, blockingConnection } = closed as unknown as Record<string, EventEmitter | undefined>;
  for (const emitter of [connection, blockingConnection]) emitter?.on("error", () => {});
}

/** Whether `client` is connected, waiting for its first connection at most {@link FIRST_CONNECTION_MS}; false at its first failure. */
function firstConnection(client: Redis): Promise<boolean> {
  if (client.status === "ready") return Promise.resolve(true);
  if (client.status !== "connecting" && client.status !== "connect" && client.status !== "wait")
    return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off("ready", onReady);
      client.off("error", onError);
      resolve(ready);
    };
    const onReady = () => done(true);
    const onError = () => done(false);
    const timer = setTimeout(() => done(false), FIRST_CONNECTION_MS);
    client.on("ready", onReady);
    client.on("error", onError);
  });
}

/** A failed or lost connection to Redis (refused, timed out, cut, closed), as opposed to a failing command. */
function isConnectionError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  if (code && /^E[A-Z]+$/.test(code)) return true;
  return /connection is closed|connect ETIMEDOUT|Stream isn't writeable|Command timed out|MaxRetriesPerRequest/i.test(
    error.message,
  );
}
