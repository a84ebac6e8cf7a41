import { and, asc, count, desc, eq, isNull, max, sql, type SQL } from "drizzle-orm";
import type { Placeholder } from "drizzle-orm";
import {
  db,
  inList,
  insertRows,
  listPage,
  liveRecords,
  rowsOf,
  statement,
  type ListPaging,
  type Paging,
  type Placeholders,
} from "@kasse/db";
import { event, webhook, webhookDelivery, type EventRow, type WebhookDeliveryRow, type WebhookRow } from "./schema";
import type { EventFilters, WebhookFilters } from "./shapes";

// The event module's SQL (the outbox, webhook endpoints and their deliveries): the only file of the
// module that imports drizzle and its tables. The outbox's statements run for every event (the
// insert in every write that records one, the dispatcher's claims on every round): built once.

/** A delivery attempt to schedule: the rest are the columns' defaults. */
export type NewDelivery = Pick<
  WebhookDeliveryRow,
  "id" | "webhook_id" | "event_id" | "event_name" | "attempt" | "status" | "scheduled_at"
>;

const insertEvent = statement(
  (
    v: Placeholders<{
      id: string;
      name: string;
      version: number;
      data: Record<string, unknown>;
      execution_id: string | null;
    }>,
  ) =>
    db.insert(event).values({ id: v.id, name: v.name, version: v.version, data: v.data, execution_id: v.execution_id }),
);

const eventById = statement((v: Placeholders<{ id: string }>) => db.select().from(event).where(eq(event.id, v.id)));

// One statement: the claimed rows come back with the update (sorted by the caller, as they were picked).
const claimEvents = statement((v: Placeholders<{ lease: number; limit: number }>) =>
  db
    .update(event)
    .set({
      attempts: sql`${event.attempts} + 1`,
      next_attempt_at: sql`now() + make_interval(secs => ${v.lease})`,
    })
    .where(
      sql`${event.id} in (
          select e.id from event e left join workflow_executions x on x.id = e.execution_id
          where e.dispatched_at is null and (e.next_attempt_at is null or e.next_attempt_at <= now())
            and (e.execution_id is null or x.state = 'succeeded')
          order by e.created_at, e.id limit ${v.limit} for update of e skip locked)`,
    )
    .returning(),
);

const markEventsDispatched = statement((v: Placeholders<{ ids: string[]; now: Date; last_error: string | null }>) =>
  db
    .update(event)
    .set({ dispatched_at: v.now, next_attempt_at: null, last_error: v.last_error })
    .where(inList(event.id, v.ids)),
);

const markEventFailed = statement((v: Placeholders<{ id: string; last_error: string; next_attempt_at: Date }>) =>
  db.update(event).set({ last_error: v.last_error, next_attempt_at: v.next_attempt_at }).where(eq(event.id, v.id)),
);

// The events of executions that compensated or failed: never released.
const purgeDiscarded = statement(() =>
  db
    .delete(event)
    .where(
      and(
        isNull(event.dispatched_at),
        sql`exists (select 1 from workflow_executions x where x.id = ${event.execution_id} and x.state in ('compensated', 'failed'))`,
      ),
    )
    .returning({ id: event.id }),
);

const purgeFinishedDeliveries = statement((v: Placeholders<{ days: number }>) =>
  db
    .delete(webhookDelivery)
    .where(
      and(
        sql`${webhookDelivery.finished_at} < now() - make_interval(days => ${v.days})`,
        inList(webhookDelivery.status, ["succeeded", "failed"]),
      ),
    ),
);

const purgeDispatchedEvents = statement((v: Placeholders<{ days: number }>) =>
  db
    .delete(event)
    .where(
      and(
        sql`${event.dispatched_at} < now() - make_interval(days => ${v.days})`,
        sql`not exists (select 1 from webhook_delivery d where d.event_id = ${event.id})`,
      ),
    )
    .returning({ id: event.id }),
);

// The partial index on waiting events is walked from its oldest row; one whose execution
// compensated is never delivered, so it does not count.
const oldestWaiting = statement(() =>
  db
    .select({ age: sql<number>`extract(epoch from now() - ${event.created_at})::float8`.mapWith(Number) })
    .from(event)
    .where(
      and(
        isNull(event.dispatched_at),
        sql`(${event.execution_id} is null or exists (select 1 from workflow_executions x
              where x.id = ${event.execution_id} and x.state in ('running', 'succeeded')))`,
      ),
    )
    .orderBy(asc(event.created_at))
    .limit(1),
);

const backlog = statement(() => db.select({ value: count() }).from(event).where(isNull(event.dispatched_at)));

const latestEvents = statement((v: Placeholders<{ limit: number }>) =>
  db
    .select()
    .from(event)
    .orderBy(desc(event.created_at), desc(event.id))
    .limit(v.limit as unknown as Placeholder),
);

const eventsById = rowsOf(event, event.id);

const webhooks = liveRecords(webhook, "Webhook", { url: webhook.url });

const deleteWebhook = statement((v: Placeholders<{ id: string; now: Date }>) =>
  db
    .update(webhook)
    .set({ deleted_at: v.now, enabled: false, updated_at: v.now })
    .where(and(eq(webhook.id, v.id), isNull(webhook.deleted_at))),
);

const enabledHooks = statement(() =>
  db
    .select()
    .from(webhook)
    .where(and(eq(webhook.enabled, true), isNull(webhook.deleted_at))),
);

const hooksById = rowsOf(webhook, webhook.id);

// A success clears the endpoint's failure record, if it has one.
const hookRecovered = statement((v: Placeholders<{ id: string; now: Date }>) =>
  db
    .update(webhook)
    .set({ failing_since: null, updated_at: v.now })
    .where(and(eq(webhook.id, v.id), sql`${webhook.failing_since} is not null`)),
);

// The endpoint failing since its first failure in a row (`since`, ISO text: a template's value has no column encoder).
const hookFailing = statement((v: Placeholders<{ id: string; since: string; now: Date }>) =>
  db
    .update(webhook)
    .set({ failing_since: sql`coalesce(${webhook.failing_since}, ${v.since}::timestamptz)`, updated_at: v.now })
    .where(eq(webhook.id, v.id))
    .returning(),
);

const disableHook = statement((v: Placeholders<{ id: string; reason: string; now: Date }>) =>
  db
    .update(webhook)
    .set({ enabled: false, disabled_reason: v.reason, updated_at: v.now })
    .where(and(eq(webhook.id, v.id), eq(webhook.enabled, true))),
);

// Idempotent (a dispatch taken over after a crash finds its deliveries there): one text at any number of rows.
const insertDeliveries = insertRows(webhookDelivery, { onConflictDoNothing: true });

const insertDelivery = statement((v: Placeholders<NewDelivery>) => db.insert(webhookDelivery).values(v).returning());

// Due deliveries of enabled endpoints, claimed for `lease` seconds: the claimed rows come back.
const claimDeliveries = statement((v: Placeholders<{ lease: number; limit: number }>) =>
  db
    .update(webhookDelivery)
    .set({ status: sql`'sending'`, scheduled_at: sql`now() + make_interval(secs => ${v.lease})` })
    .where(
      sql`${webhookDelivery.id} in (
          select d.id from webhook_delivery d join webhook w on w.id = d.webhook_id
          where d.status in ('scheduled', 'sending') and d.scheduled_at <= now() and w.enabled and w.deleted_at is null
          order by d.scheduled_at limit ${v.limit} for update of d skip locked)`,
    )
    .returning(),
);

const deliverySucceeded = statement(
  (v: Placeholders<{ id: string; status_code: number | null; duration_ms: number; now: Date }>) =>
    db
      .update(webhookDelivery)
      .set({
        status: "succeeded",
        status_code: v.status_code,
        duration_ms: v.duration_ms,
        error: null,
        finished_at: v.now,
      })
      .where(eq(webhookDelivery.id, v.id)),
);

// A failed attempt; its retry's time, or null when the schedule has ended.
const deliveryFailed = statement(
  (
    v: Placeholders<{
      id: string;
      status_code: number | null;
      duration_ms: number;
      error: string;
      now: Date;
      next_retry_at: Date | null;
    }>,
  ) =>
    db
      .update(webhookDelivery)
      .set({
        status: "failed",
        status_code: v.status_code,
        duration_ms: v.duration_ms,
        error: v.error,
        finished_at: v.now,
        next_retry_at: v.next_retry_at,
      })
      .where(eq(webhookDelivery.id, v.id)),
);

const deliveryOf = statement((v: Placeholders<{ id: string; webhook_id: string }>) =>
  db
    .select()
    .from(webhookDelivery)
    .where(and(eq(webhookDelivery.id, v.id), eq(webhookDelivery.webhook_id, v.webhook_id))),
);

const lastAttempt = statement((v: Placeholders<{ webhook_id: string; event_id: string }>) =>
  db
    .select({ value: max(webhookDelivery.attempt) })
    .from(webhookDelivery)
    .where(and(eq(webhookDelivery.webhook_id, v.webhook_id), eq(webhookDelivery.event_id, v.event_id))),
);

/** The filters of a webhook list as conditions. */
function webhookConditions(filters: WebhookFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id) out.push(inList(webhook.id, filters.id));
  if (filters.enabled !== undefined) out.push(eq(webhook.enabled, filters.enabled));
  return out;
}

/** Named statements on the outbox, the webhook endpoints and their deliveries, run on the current handle. */
export const eventQueries = {
  /** Writes one event to the outbox. */
  insertEvent: (row: {
    id: string;
    name: string;
    version: number;
    data: Record<string, unknown>;
    execution_id: string | null;
  }) => insertEvent(row),
  /** The event `id`, or undefined. */
  eventById: async (id: string): Promise<EventRow | undefined> => (await eventById({ id }))[0],
  /** A page of events matching `filters`, oldest first, and their count. */
  events: (filters: EventFilters, paging: Paging) =>
    listPage(
      event,
      and(
        filters.name ? inList(event.name, filters.name) : undefined,
        filters.execution_id ? inList(event.execution_id, filters.execution_id) : undefined,
      ),
      [asc(event.created_at), asc(event.id)],
      paging,
    ),
  /** Claims up to `limit` released, undispatched, due events for `leaseSeconds`; answers them. */
  claimEvents: (limit: number, leaseSeconds: number): Promise<EventRow[]> =>
    claimEvents({ lease: leaseSeconds, limit }),
  /** Marks events dispatched, with what their subscribers failed with when they gave up. */
  markDispatched: (ids: string[], lastError: string | null) =>
    markEventsDispatched({ ids, now: new Date(), last_error: lastError }),
  /** A failed dispatch: due again at `nextAttemptAt`. */
  markFailed: (id: string, lastError: string, nextAttemptAt: Date) =>
    markEventFailed({ id, last_error: lastError, next_attempt_at: nextAttemptAt }),
  /** Deletes the undispatched events of executions that compensated or failed; answers how many. */
  purgeDiscarded: async (): Promise<number> => (await purgeDiscarded()).length,
  /** Deletes deliveries finished more than `days` ago, then dispatched events older than that with none left; answers how many events. */
  purgeDelivered: async (days: number): Promise<number> => {
    await purgeFinishedDeliveries({ days });
    return (await purgeDispatchedEvents({ days })).length;
  },
  /** Seconds the oldest event still to be delivered has waited, if any. */
  oldestWaitingAge: async (): Promise<number | undefined> => (await oldestWaiting())[0]?.age,
  /** How many events are not yet dispatched. */
  backlog: async (): Promise<number> => (await backlog())[0]?.value ?? 0,
  /** The newest `limit` events first. */
  latest: (limit: number): Promise<EventRow[]> => latestEvents({ limit }),
  /** The events `ids` (those that still exist). */
  eventsById: (ids: string[]): Promise<EventRow[]> => eventsById(ids),

  /** The live webhook endpoints' reads and writes (`retrieve`, `insert`, `update`, …). */
  webhooks,
  /** A page of live endpoints matching `filters`, and their count. */
  webhookList: (filters: WebhookFilters, paging: ListPaging) => webhooks.list(webhookConditions(filters), paging),
  /** Soft-deletes the live endpoint `id`, disabling it. */
  deleteWebhook: (id: string) => deleteWebhook({ id, now: new Date() }),
  /** The enabled live endpoints. */
  enabledHooks: (): Promise<WebhookRow[]> => enabledHooks(),
  /** The endpoints `ids`, deleted or not. */
  hooksById: (ids: string[]): Promise<WebhookRow[]> => hooksById(ids),
  /** Clears the failure record of endpoint `id`. */
  hookRecovered: (id: string, now: Date) => hookRecovered({ id, now }),
  /** Marks endpoint `id` failing since `since` unless it already was; answers it. */
  hookFailing: async (id: string, since: Date): Promise<WebhookRow | undefined> =>
    (await hookFailing({ id, since: since.toISOString(), now: since }))[0],
  /** Disables endpoint `id` (if enabled) for `reason`. */
  disableHook: (id: string, reason: string, now: Date) => disableHook({ id, reason, now }),

  /** Schedules deliveries; one already there (same endpoint, event and attempt) is skipped. */
  insertDeliveries: (rows: NewDelivery[]) => insertDeliveries(rows),
  /** Schedules one delivery and answers it (a unique violation when the attempt exists). */
  insertDelivery: async (row: NewDelivery): Promise<WebhookDeliveryRow> => (await insertDelivery(row))[0]!,
  /** Claims up to `limit` due deliveries of enabled endpoints for `leaseSeconds`; answers them. */
  claimDeliveries: (limit: number, leaseSeconds: number): Promise<WebhookDeliveryRow[]> =>
    claimDeliveries({ lease: leaseSeconds, limit }),
  /** Records a delivery's 2xx answer. */
  deliverySucceeded: (id: string, result: { status_code: number | null; duration_ms: number }, now: Date) =>
    deliverySucceeded({ id, status_code: result.status_code, duration_ms: result.duration_ms, now }),
  /** Records a failed attempt and when its retry is due (null: none). */
  deliveryFailed: (
    id: string,
    result: { status_code: number | null; duration_ms: number; error: string },
    now: Date,
    nextRetryAt: Date | null,
  ) => deliveryFailed({ id, ...result, now, next_retry_at: nextRetryAt }),
  /** Endpoint `webhookId`'s delivery `id`, or undefined. */
  deliveryOf: async (webhookId: string, id: string): Promise<WebhookDeliveryRow | undefined> =>
    (await deliveryOf({ id, webhook_id: webhookId }))[0],
  /** The highest attempt of an event to an endpoint, if any. */
  lastAttempt: async (webhookId: string, eventId: string): Promise<number | null> =>
    (await lastAttempt({ webhook_id: webhookId, event_id: eventId }))[0]?.value ?? null,
  /** A page of endpoint `webhookId`'s deliveries, newest first, and their count. */
  deliveries: (webhookId: string, filters: { event_id?: string[]; status?: string[] }, paging: Paging) =>
    listPage(
      webhookDelivery,
      and(
        eq(webhookDelivery.webhook_id, webhookId),
        filters.event_id ? inList(webhookDelivery.event_id, filters.event_id) : undefined,
        filters.status ? inList(webhookDelivery.status, filters.status) : undefined,
      ),
      [desc(webhookDelivery.created_at), desc(webhookDelivery.attempt), desc(webhookDelivery.id)],
      paging,
    ),
};
