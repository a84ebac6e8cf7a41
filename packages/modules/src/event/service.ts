import { errors, generateId } from "@kasse/core";
import type { EventRecorder } from "@kasse/workflows";
import { eventCatalog, eventProblems, type EventData, type EventName } from "./catalog";
import { eventQueries as q } from "./queries";
import type { EventRow } from "./schema";

/**
 * Writes one event to the outbox in the transaction in progress (the one of the change it
 * describes: it exists if and only if that change commits). Released at commit, or, with
 * `executionId`, when that workflow execution succeeds. A payload that does not match the catalog
 * is a bug: it throws rather than publish it.
 * @example
 * await transaction(async () => { await m.order.complete(id); await recordEvent("order.completed", { id }); });
 */
export async function recordEvent<N extends EventName>(
  name: N,
  data: EventData<N>,
  executionId: string | null = null,
): Promise<void> {
  const problems = eventProblems(name, data);
  if (problems.length > 0)
    throw errors.unexpectedState(`Event '${name}' does not match its catalog schema: ${problems.join("; ")}`);
  await q.insertEvent({
    id: generateId("evt"),
    name,
    version: eventCatalog[name].version,
    data: data as Record<string, unknown>,
    execution_id: executionId,
  });
}

const listeners = new Set<() => void>();

/** Calls `listener` when a workflow execution released events in this process (a dispatcher's wake-up). */
export function onEventsReleased(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells this process's dispatchers that events were committed outside a workflow (a single-transaction write). */
export function eventsReleased(): void {
  for (const listener of listeners) listener();
}

/** The recorder behind `ctx.emit` of workflow steps: the composition root gives it to the engine. */
export const eventOutbox: EventRecorder = {
  record: (e) => recordEvent(e.name as EventName, e.data as never, e.execution_id),
  released: () => eventsReleased(),
};

/**
 * Reading the outbox, and claiming released events for dispatch (at least once: a claim is a
 * lease; a dispatcher that dies lets another one take the event after it expires). Built once per
 * process; every method runs in the transaction in progress, if any.
 */
export function createEventService() {
  return {
    list: q.events,

    async retrieve(id: string): Promise<EventRow> {
      const row = await q.eventById({ id });
      if (!row) throw errors.notFound(`Event with id: ${id} was not found`);
      return row;
    },

    /**
     * Claims up to `limit` released, undispatched events that are due, oldest first, for `leaseMs`.
     * Released: recorded outside a workflow, or by one whose execution succeeded.
     */
    async claim(limit: number, leaseMs: number): Promise<EventRow[]> {
      const rows = await q.claimEvents({ lease: leaseMs / 1000, limit });
      return rows.sort(
        (a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
    },

    /**
     * Marks claimed events dispatched (one statement for all of them); `lastError` when their
     * subscribers gave up, what they failed with.
     */
    async markDispatched(ids: readonly string[], lastError: string | null = null): Promise<void> {
      if (ids.length === 0) return;
      await q.markDispatched({ ids: [...ids], now: new Date(), last_error: lastError?.slice(0, 2000) ?? null });
    },

    /** A failed dispatch: due again after `delayMs`. */
    async markFailed(id: string, message: string, delayMs: number): Promise<void> {
      await q.markFailed({ id, last_error: message.slice(0, 2000), next_attempt_at: new Date(Date.now() + delayMs) });
    },

    /** Deletes the events of executions that compensated or failed: they are never released. Returns how many. */
    purgeDiscarded: async (): Promise<number> => (await q.purgeDiscarded()).length,

    /**
     * Retention: deletes delivery attempts finished more than `days` ago, then dispatched events
     * older than that with no delivery left (they can no longer be redelivered). Returns how many events.
     */
    async purgeDelivered(days: number): Promise<number> {
      await q.purgeFinishedDeliveries({ days });
      return (await q.purgeDispatchedEvents({ days })).length;
    },

    /**
     * How long the oldest event still to be delivered has waited, in seconds (0 when none): not
     * yet dispatched, and released or waiting for its execution to succeed (one whose execution
     * compensated is never delivered). The outbox's alarm.
     */
    async oldestWaitingAge(): Promise<number> {
      return Math.max(0, (await q.oldestWaiting())?.age ?? 0);
    },

    /** How many released events wait for dispatch (a health figure). */
    backlog: async (): Promise<number> => (await q.backlog())?.value ?? 0,

    /** The newest events first (admin and tests). */
    latest: (limit: number): Promise<EventRow[]> => q.latest({ limit }),
  };
}

export type EventService = ReturnType<typeof createEventService>;
