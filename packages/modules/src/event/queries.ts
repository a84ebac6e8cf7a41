import { and, asc, count, desc, eq, isNull, max, sql, type SQL } from "drizzle-orm";
import {
  db,
  first,
  inList,
  insertRows,
  listPage,
  liveRecords,
  rowsOf,
  statement,
  type Paging,
  type Placeholders,
} from "@kasse/db";
import { event, webhook, webhookDelivery, type EventRow, type WebhookDeliveryRow } from "./schema";
import type { EventFilters, WebhookFilters } from "./shapes";

// The event module's SQL (the outbox, webhook endpoints and their deliveries): the only file of the
// module that imports drizzle and its tables. The outbox's statements run for every event (the
// insert in every write that records one, the dispatcher's claims on every round): built once.

/** A delivery attempt to schedule: the rest are the columns' defaults. */
export type NewDelivery = Pick<
  WebhookDeliveryRow,
  "id" | "webhook_id" | "event_id" | "event_name" | "attempt" | "status" | "scheduled_at"
>;

const webhooks = liveRecords(webhook, "Webhook", { url: webhook.url });

/** Named statements on the outbox, the webhook endpoints and their deliveries, run on the current handle. */
export const eventQueries = {
  /** Writes one event to the outbox. */
  insertEvent: statement((v: Placeholders<Pick<EventRow, "id" | "name" | "version" | "data" | "execution_id">>) =>
    db.insert(event).values(v),
  ),
  /** The event `id`, or undefined. */
  eventById: first(statement((v: Placeholders<{ id: string }>) => db.select().from(event).where(eq(event.id, v.id)))),
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
  /**
   * Claims up to `limit` released, undispatched, due events for `lease` seconds; answers them (sorted by
   * the caller, as they were picked).
   */
  claimEvents: statement((v: Placeholders<{ lease: number; limit: number }>) =>
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
  ),
  /** Marks events dispatched, with what their subscribers failed with when they gave up. */
  markDispatched: statement((v: Placeholders<{ ids: string[]; now: Date; last_error: string | null }>) =>
    db
      .update(event)
      .set({ dispatched_at: v.now, next_attempt_at: null, last_error: v.last_error })
      .where(inList(event.id, v.ids)),
  ),
  /** A failed dispatch: due again at `next_attempt_at`. */
  markFailed: statement((v: Placeholders<{ id: string; last_error: string; next_attempt_at: Date }>) =>
    db.update(event).set({ last_error: v.last_error, next_attempt_at: v.next_attempt_at }).where(eq(event.id, v.id)),
  ),
  /** Deletes the undispatched events of executions that compensated or failed (never released); answers their ids. */
  purgeDiscarded: statement(() =>
    db
      .delete(event)
      .where(
        and(
          isNull(event.dispatched_at),
          sql`exists (select 1 from workflow_executions x where x.id = ${event.execution_id} and x.state in ('compensated', 'failed'))`,
        ),
      )
      .returning({ id: event.id }),
  ),
  /** Deletes deliveries finished more than `days` ago. */
  purgeFinishedDeliveries: statement((v: Placeholders<{ days: number }>) =>
    db
      .delete(webhookDelivery)
      .where(
        and(
          sql`${webhookDelivery.finished_at} < now() - make_interval(days => ${v.days})`,
          inList(webhookDelivery.status, ["succeeded", "failed"]),
        ),
      ),
  ),
  /** Deletes events dispatched more than `days` ago with no delivery left; answers their ids. */
  purgeDispatchedEvents: statement((v: Placeholders<{ days: number }>) =>
    db
      .delete(event)
      .where(
        and(
          sql`${event.dispatched_at} < now() - make_interval(days => ${v.days})`,
          sql`not exists (select 1 from webhook_delivery d where d.event_id = ${event.id})`,
        ),
      )
      .returning({ id: event.id }),
  ),
  /**
   * Seconds the oldest event still to be delivered has waited, if any. The partial index on waiting
   * events is walked from its oldest row; one whose execution compensated is never delivered, so it
   * does not count.
   */
  oldestWaiting: first(
    statement(() =>
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
    ),
  ),
  /** How many events are not yet dispatched. */
  backlog: first(statement(() => db.select({ value: count() }).from(event).where(isNull(event.dispatched_at)))),
  /** The newest `limit` events first. */
  latest: statement((v: Placeholders<{ limit: number }>) =>
    db.select().from(event).orderBy(desc(event.created_at), desc(event.id)).limit(v.limit),
  ),
  /** The events `ids` (those that still exist). */
  eventsById: rowsOf(event, event.id),

  /** The live webhook endpoints' reads and writes (`retrieve`, `insert`, `update`, …). */
  webhooks,
  /** A page of live endpoints matching `filters`, and their count. */
  webhookList: webhooks.listBy((filters: WebhookFilters): SQL[] => [
    ...(filters.id ? [inList(webhook.id, filters.id)] : []),
    ...(filters.enabled === undefined ? [] : [eq(webhook.enabled, filters.enabled)]),
  ]),
  /** The enabled live endpoints. */
  enabledHooks: statement(() =>
    db
      .select()
      .from(webhook)
      .where(and(eq(webhook.enabled, true), isNull(webhook.deleted_at))),
  ),
  /** The endpoints `ids`, deleted or not. */
  hooksById: rowsOf(webhook, webhook.id),
  /** A success clears the endpoint's failure record, if it has one. */
  hookRecovered: statement((v: Placeholders<{ id: string; now: Date }>) =>
    db
      .update(webhook)
      .set({ failing_since: null, updated_at: v.now })
      .where(and(eq(webhook.id, v.id), sql`${webhook.failing_since} is not null`)),
  ),
  /**
   * Marks the endpoint failing since `since` (ISO text: a template's value has no column encoder) unless
   * it already was; answers it.
   */
  hookFailing: first(
    statement((v: Placeholders<{ id: string; since: string; now: Date }>) =>
      db
        .update(webhook)
        .set({ failing_since: sql`coalesce(${webhook.failing_since}, ${v.since}::timestamptz)`, updated_at: v.now })
        .where(eq(webhook.id, v.id))
        .returning(),
    ),
  ),
  /** Disables the endpoint (if enabled) for `reason`. */
  disableHook: statement((v: Placeholders<{ id: string; reason: string; now: Date }>) =>
    db
      .update(webhook)
      .set({ enabled: false, disabled_reason: v.reason, updated_at: v.now })
      .where(and(eq(webhook.id, v.id), eq(webhook.enabled, true))),
  ),

  /**
   * Schedules deliveries; one already there (same endpoint, event and attempt) is skipped, so a dispatch
   * taken over after a crash finds its deliveries there. One text at any number of rows.
   */
  insertDeliveries: insertRows(webhookDelivery, { onConflictDoNothing: true }),
  /** Schedules one delivery and answers it (a unique violation when the attempt exists). */
  insertDelivery: first(statement((v: Placeholders<NewDelivery>) => db.insert(webhookDelivery).values(v).returning())),
  /** Claims up to `limit` due deliveries of enabled endpoints for `lease` seconds; answers them. */
  claimDeliveries: statement((v: Placeholders<{ lease: number; limit: number }>) =>
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
  ),
  /** Records an attempt's end: its 2xx answer, or its failure and when its retry is due (null: none). */
  finishDelivery: statement(
    (
      v: Placeholders<
        Pick<WebhookDeliveryRow, "id" | "status" | "status_code" | "duration_ms" | "error" | "next_retry_at"> & {
          now: Date;
        }
      >,
    ) =>
      db
        .update(webhookDelivery)
        .set({
          status: v.status,
          status_code: v.status_code,
          duration_ms: v.duration_ms,
          error: v.error,
          finished_at: v.now,
          next_retry_at: v.next_retry_at,
        })
        .where(eq(webhookDelivery.id, v.id)),
  ),
  /** Endpoint `webhook_id`'s delivery `id`, or undefined. */
  deliveryOf: first(
    statement((v: Placeholders<{ id: string; webhook_id: string }>) =>
      db
        .select()
        .from(webhookDelivery)
        .where(and(eq(webhookDelivery.id, v.id), eq(webhookDelivery.webhook_id, v.webhook_id))),
    ),
  ),
  /** The highest attempt of an event to an endpoint (null: none). */
  lastAttempt: first(
    statement((v: Placeholders<{ webhook_id: string; event_id: string }>) =>
      db
        .select({ value: max(webhookDelivery.attempt) })
        .from(webhookDelivery)
        .where(and(eq(webhookDelivery.webhook_id, v.webhook_id), eq(webhookDelivery.event_id, v.event_id))),
    ),
  ),
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
