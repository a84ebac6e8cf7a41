import type { Tx } from "@kasse/db";

/** A domain event as a step records it: released to consumers once its execution succeeds. */
export interface RecordedEvent {
  name: string;
  data: Record<string, unknown>;
  /**
   * The execution whose success releases it; null for an event released as soon as its
   * transaction commits (one recorded by a compensation, or by a single-transaction write).
   */
  execution_id: string | null;
}

/**
 * Where `ctx.emit` writes: the `event` module's outbox table, in the step's transaction.
 * `released` is told (after the execution's success is journaled) so a dispatcher in this
 * process can deliver at once instead of at its next poll.
 */
export interface EventRecorder {
  record(tx: Tx, event: RecordedEvent): Promise<void>;
  released?(executionId: string): void;
}

let current: EventRecorder | undefined;

/**
 * Sets the process's event recorder (the `event` module does it when imported; one per process,
 * like the workflow registry). An engine option `events` overrides it.
 */
export function setEventRecorder(recorder: EventRecorder): void {
  current = recorder;
}

/** The process's event recorder, if one is set. */
export function eventRecorder(): EventRecorder | undefined {
  return current;
}
