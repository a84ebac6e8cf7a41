import { createRequire } from "node:module";
import type { Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { Consumer, Scheduler } from "./scheduler";
import type { EngineLogger } from "./types";

/** The BullMQ queue every API process produces to and every worker consumes. */
export const WORKFLOWS_QUEUE = "workflows";

export interface BullMqSchedulerOptions {
  /** An ioredis client created with `maxRetriesPerRequest: null` (BullMQ needs it). Not closed here. */
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
  const workers = new Set<Worker>();

  return {
    kind: "bullmq",
    queue,
    async enqueue(executionId, opts = {}) {
      await queue.add("resume", { executionId } satisfies ResumeData, {
        delay: opts.delayMs,
        ...(opts.dedupeKey ? { jobId: `resume-${opts.dedupeKey}` } : {}),
        // Removed when done either way: a kept job would block its dedupe key forever.
        removeOnComplete: true,
        removeOnFail: true,
      });
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
      await schedule();
      // The schedules live in Redis: one restarted without persistence (or failed over) has lost
      // them, and without the recovery sweep and the event dispatch nothing would run again until
      // a worker restarted. Every reconnection puts them back (an upsert changes nothing when present).
      const reschedule = () =>
        void schedule().catch((error: unknown) =>
          logger?.warn({ err: error }, "could not restore the maintenance schedules after a reconnection"),
        );
      connection.on("ready", reschedule);
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
        { connection, prefix, concurrency: Math.max(1, opts.concurrency ?? 4) },
      );
      worker.on("failed", (job, error) =>
        logger?.error({ err: error, job: job?.name, data: job?.data }, "workflow job failed"),
      );
      worker.on("error", (error) => logger?.error({ err: error }, "workflow worker error"));
      workers.add(worker);
      await worker.waitUntilReady();
      const consumer: Consumer = {
        close: async () => {
          connection.off("ready", reschedule);
          workers.delete(worker);
          await worker.close();
        },
      };
      return consumer;
    },
    async close() {
      await Promise.all([...workers].map((worker) => worker.close()));
      workers.clear();
      await queue.close();
    },
  };
}
