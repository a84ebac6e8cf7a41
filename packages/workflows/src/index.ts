export { definitions, step, workflow, DEFAULT_RETRY, type StepDefiner, type WorkflowDefiner } from "./define";
export { createEngine, DEFAULT_LEASE_MS, type Engine, type EngineOptions, type ExecutionDetail } from "./engine";
export { WorkflowDivergenceError } from "./runner";
export { backoffDelay, systemClock } from "./backoff";
export {
  activeExecutionKeys,
  executorLockKey,
  overdueExecutions,
  stuckAfterMs,
  type ExecutionFilters,
  type StepSummary,
} from "./queries";
export * from "./schema";
export type * from "./types";
export type { Scheduler, SchedulerHandlers, MaintenanceJob, Consumer } from "./scheduler";
export { createInProcessScheduler } from "./scheduler-in-process";
export {
  createBullMqScheduler,
  WORKFLOWS_QUEUE,
  type BullMqScheduler,
  type BullMqSchedulerOptions,
} from "./scheduler-bullmq";
export { SecretUnavailableError, type SecretPath } from "./secrets";
// The redaction the journal stores in place of a secret (defined beside the error catalog in @kasse/core, which scrubs errors with it).
export { REDACTED } from "@kasse/core";
export type { EventRecorder, RecordedEvent } from "./events";
export type { EngineObserver, ExecutionOutcome } from "./observer";
