import type { Consumer, Scheduler, SchedulerHandlers } from "./scheduler";
import type { EngineLogger } from "./types";

/**
 * The embedded-mode scheduler: timers in this process. Jobs queued before `consume` wait for it.
 * Nothing survives a restart, which is fine: the recovery sweep finds due executions in the journal.
 */
export function createInProcessScheduler(options: { logger?: EngineLogger } = {}): Scheduler {
  const logger = options.logger;
  const timers = new Set<NodeJS.Timeout>();
  const intervals = new Set<NodeJS.Timeout>();
  const waiting: string[] = [];
  const pendingKeys = new Set<string>();
  const active = new Set<Promise<void>>();
  let handlers: SchedulerHandlers | undefined;
  let concurrency = 1;
  let closed = false;

  const pump = () => {
    while (handlers && !closed && waiting.length > 0 && active.size < concurrency) {
      const executionId = waiting.shift() as string;
      const job = handlers
        .resume(executionId)
        .catch((error: unknown) => logger?.error({ err: error, executionId }, "resume job failed"))
        .finally(() => {
          active.delete(job);
          pump();
        });
      active.add(job);
    }
  };

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  return {
    kind: "in-process",
    async enqueue(executionId, opts = {}) {
      if (closed) return;
      const key = opts.dedupeKey;
      if (key !== undefined) {
        if (pendingKeys.has(key)) return;
        pendingKeys.add(key);
      }
      later(opts.delayMs ?? 0, () => {
        if (key !== undefined) pendingKeys.delete(key);
        waiting.push(executionId);
        pump();
      });
    },
    async consume(next, opts = {}) {
      handlers = next;
      concurrency = Math.max(1, opts.concurrency ?? 4);
      const mine = next.maintenance.map((job) => {
        let running = false;
        const interval = setInterval(() => {
          if (running || closed) return;
          running = true;
          job
            .run()
            .catch((error: unknown) => logger?.error({ err: error, job: job.name }, "maintenance job failed"))
            .finally(() => {
              running = false;
            });
        }, job.everyMs);
        interval.unref();
        intervals.add(interval);
        return interval;
      });
      pump();
      const consumer: Consumer = {
        close: async () => {
          for (const interval of mine) {
            clearInterval(interval);
            intervals.delete(interval);
          }
          handlers = undefined;
          await Promise.allSettled([...active]);
        },
      };
      return consumer;
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      for (const interval of intervals) clearInterval(interval);
      timers.clear();
      intervals.clear();
      handlers = undefined;
      await Promise.allSettled([...active]);
    },
  };
}
