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
 * Where `ctx.emit` writes: the `event` module's outbox table, in the step's transaction (the one in
 * progress when `record` runs). `released` is told (after the execution's success is journaled) so
 * a dispatcher in this process can deliver at once instead of at its next poll. The composition
 * root gives it to the engine (`createEngine({ events })`).
 */
export interface EventRecorder {
  record(event: RecordedEvent): Promise<void>;
  released?(executionId: string): void;
}
