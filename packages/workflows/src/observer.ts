/** How a run of an execution ended in this process, as an {@link EngineObserver} hears it. */
export type ExecutionOutcome = "succeeded" | "compensated" | "failed" | "compensation_failed";

/**
 * What an engine tells whoever watches it (the process's metrics): what its own process did, as it
 * happens. Called synchronously on the engine's path, so each call must be cheap and never throw.
 */
export interface EngineObserver {
  /** An execution of `workflow` was recorded (`execute`, `enqueue`): once per execution, in the process that recorded it. */
  started(workflow: string): void;
  /** A run of an execution of `workflow` began here (+1: fresh, resumed or a compensation retry) or ended (-1). */
  running(workflow: string, change: 1 | -1): void;
  /** A run here ended the execution `outcome` (a failed compensation may run, and end, again). */
  finished(workflow: string, outcome: ExecutionOutcome): void;
  /** An attempt of `step` failed with a retryable error and is tried again. */
  stepRetried(workflow: string, step: string): void;
}
