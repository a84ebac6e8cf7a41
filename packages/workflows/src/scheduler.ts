/** A repeatable maintenance job (recovery sweep, purges) run by the worker every `everyMs`. */
export interface MaintenanceJob {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

/** What a consumer does with the jobs it receives. */
export interface SchedulerHandlers {
  /** Resume (or retry the compensation of) one execution. */
  resume(executionId: string): Promise<void>;
  maintenance: readonly MaintenanceJob[];
}

/** A running consumer; `close()` waits for the jobs in progress. */
export interface Consumer {
  close(): Promise<void>;
}

/**
 * The scheduling port: BullMQ (Redis) in service mode, timers in embedded mode. Producers
 * (API processes, the engine) only `enqueue`; the worker `consume`s.
 */
export interface Scheduler {
  readonly kind: "bullmq" | "in-process";
  /** Asks for `executionId` to be resumed, now or after `delayMs`. `dedupeKey` drops a copy already waiting. */
  enqueue(executionId: string, options?: { delayMs?: number; dedupeKey?: string }): Promise<void>;
  /** Starts handling jobs with at most `concurrency` at once. */
  consume(handlers: SchedulerHandlers, options?: { concurrency?: number }): Promise<Consumer>;
  /** Stops consuming and releases connections. */
  close(): Promise<void>;
}
