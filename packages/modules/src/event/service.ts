import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import {
  builtOnce,
  db as ambientDb,
  idList,
  inParam,
  param,
  queryRows,
  slot,
  type Db,
  type Paging,
  type Tx,
} from "@kasse/db";
import type { EventRecorder } from "@kasse/workflows";
import { eventCatalog, eventProblems, type EventData, type EventName } from "./catalog";
import { event, type EventRow } from "./schema";

/**
 * Writes one event to the outbox in `tx` (the transaction of the change it describes). Released at
 * commit, or, with `executionId`, when that workflow execution succeeds. A payload that does not
 * match the catalog is a bug: it throws rather than publish it.
 */
export async function recordEvent<N extends EventName>(
  tx: Db | Tx,
  name: N,
  data: EventData<N>,
  executionId: string | null = null,
): Promise<void> {
  const problems = eventProblems(name, data);
  if (problems.length > 0)
    throw errors.unexpectedState(`Event '${name}' does not match its catalog schema: ${problems.join("; ")}`);
  await insertEvent(tx as Db, {
    id: generateId("evt"),
    name,
    version: eventCatalog[name].version,
    data: data as Record<string, unknown>,
    execution_id: executionId,
  });
}

// Every write that commits an event sends this insert: built once (its values go through the
// columns' encoders, `data` as JSON, as a plain insert's do).
const insertEvent = builtOnce<
  unknown,
  { id: string; name: string; version: number; data: Record<string, unknown>; execution_id: string | null }
>((db) =>
  db.insert(event).values({
    id: param("id"),
    name: sql.placeholder("name"),
    version: sql.placeholder("version"),
    data: sql.placeholder("data"),
    execution_id: sql.placeholder("execution_id"),
  }),
);

// The dispatcher's statements, run for every event (and its claim on every round): built once.

// One statement: the claimed rows come back with the update (sorted by the caller, as they were picked).
const claimEvents = builtOnce<EventRow[], { lease: number; limit: number }>((db) =>
  db
    .update(event)
    .set({
      attempts: sql`${event.attempts} + 1`,
      next_attempt_at: sql`now() + make_interval(secs => ${param("lease")})`,
    })
    .where(
      sql`${event.id} in (
          select e.id from event e left join workflow_executions x on x.id = e.execution_id
          where e.dispatched_at is null and (e.next_attempt_at is null or e.next_attempt_at <= now())
            and (e.execution_id is null or x.state = 'succeeded')
          order by e.created_at, e.id limit ${param("limit")} for update of e skip locked)`,
    )
    .returning(),
);

const markEventsDispatched = builtOnce<unknown, { ids: string; now: Date; last_error: string | null }>((db) =>
  db
    .update(event)
    .set({ dispatched_at: slot("now"), next_attempt_at: null, last_error: slot("last_error") })
    .where(inParam(event.id, "ids")),
);

const markEventFailed = builtOnce<unknown, { id: string; last_error: string; next_attempt_at: Date }>((db) =>
  db
    .update(event)
    .set({ last_error: slot("last_error"), next_attempt_at: slot("next_attempt_at") })
    .where(eq(event.id, param("id"))),
);

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
  record: (e) => recordEvent(ambientDb, e.name as EventName, e.data as never, e.execution_id),
  released: () => eventsReleased(),
};

export interface EventFilters {
  name?: string[];
  execution_id?: string[];
}

/**
 * Reading the outbox, and claiming released events for dispatch (at least once: a claim is a
 * lease; a dispatcher that dies lets another one take the event after it expires).
 */
export function createEventService(db: Db) {
  return {
    async list(filters: EventFilters, paging: Paging): Promise<{ items: EventRow[]; count: number }> {
      const where = and(
        filters.name ? inArray(event.name, filters.name) : undefined,
        filters.execution_id ? inArray(event.execution_id, filters.execution_id) : undefined,
      );
      const [items, [total]] = await Promise.all([
        db
          .select()
          .from(event)
          .where(where)
          .orderBy(asc(event.created_at), asc(event.id))
          .limit(paging.limit)
          .offset(paging.offset),
        db.select({ value: count() }).from(event).where(where),
      ]);
      return { items, count: total?.value ?? 0 };
    },

    async retrieve(id: string): Promise<EventRow> {
      const [row] = await db.select().from(event).where(eq(event.id, id));
      if (!row) throw errors.notFound(`Event with id: ${id} was not found`);
      return row;
    },

    /**
     * Claims up to `limit` released, undispatched events that are due, oldest first, for `leaseMs`.
     * Released: recorded outside a workflow, or by one whose execution succeeded.
     */
    async claim(limit: number, leaseMs: number): Promise<EventRow[]> {
      const rows = await claimEvents(db, { lease: leaseMs / 1000, limit });
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
      await markEventsDispatched(db, {
        ids: idList(ids),
        now: new Date(),
        last_error: lastError?.slice(0, 2000) ?? null,
      });
    },

    /** A failed dispatch: due again after `delayMs`. */
    async markFailed(id: string, message: string, delayMs: number): Promise<void> {
      await markEventFailed(db, {
        id,
        last_error: message.slice(0, 2000),
        next_attempt_at: new Date(Date.now() + delayMs),
      });
    },

    /** Deletes the events of executions that compensated or failed: they are never released. Returns how many. */
    async purgeDiscarded(): Promise<number> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`delete from event e using workflow_executions x
            where e.dispatched_at is null and x.id = e.execution_id and x.state in ('compensated', 'failed') returning e.id`,
      );
      return rows.length;
    },

    /**
     * Retention: deletes delivery attempts finished more than `days` ago, then dispatched events
     * older than that with no delivery left (they can no longer be redelivered). Returns how many events.
     */
    async purgeDelivered(days: number): Promise<number> {
      await db.execute(
        sql`delete from webhook_delivery where finished_at < now() - make_interval(days => ${days}) and status in ('succeeded', 'failed')`,
      );
      const rows = await queryRows<{ id: string }>(
        db,
        sql`delete from event e where e.dispatched_at < now() - make_interval(days => ${days})
            and not exists (select 1 from webhook_delivery d where d.event_id = e.id) returning e.id`,
      );
      return rows.length;
    },

    /**
     * How long the oldest event still to be delivered has waited, in seconds (0 when none): not
     * yet dispatched, and released or waiting for its execution to succeed (one whose execution
     * compensated is never delivered). The outbox's alarm: the partial index is walked from its oldest row.
     */
    async oldestWaitingAge(): Promise<number> {
      const [row] = await queryRows<{ age: number }>(
        db,
        sql`select extract(epoch from now() - e.created_at)::float8 as age from event e
            left join workflow_executions x on x.id = e.execution_id
            where e.dispatched_at is null and (e.execution_id is null or x.state in ('running', 'succeeded'))
            order by e.created_at limit 1`,
      );
      return Math.max(0, row?.age ?? 0);
    },

    /** How many released events wait for dispatch (a health figure). */
    async backlog(): Promise<number> {
      const [row] = await db.select({ value: count() }).from(event).where(isNull(event.dispatched_at));
      return row?.value ?? 0;
    },

    /** The newest events first (admin and tests). */
    async latest(limit: number): Promise<EventRow[]> {
      return db.select().from(event).orderBy(desc(event.created_at), desc(event.id)).limit(limit);
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
