import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "@kasse/db";
import { entityTable, timestamptz, createdAt, indexWhere } from "@kasse/db";

/**
 * The transactional outbox of domain events: a row is written in the transaction of the change it
 * describes, so it exists if and only if the change committed. A row with an `execution_id` is
 * released when that workflow execution succeeds (never when it compensates); one without, at commit.
 */
export const event = pgTable(
  "event",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    version: integer("version").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    execution_id: text("execution_id"),
    created_at: createdAt(),
    /** When subscribers handled it and its webhook deliveries were scheduled; null while waiting. */
    dispatched_at: timestamptz("dispatched_at"),
    /** Dispatch attempts (a subscriber failed, or the dispatching process died). */
    attempts: integer("attempts").notNull().default(0),
    /** Not before this time: a claim's lease, or the backoff after a failed subscriber. */
    next_attempt_at: timestamptz("next_attempt_at"),
    last_error: text("last_error"),
  },
  (t) => [
    index("event_waiting_idx").on(t.created_at).where(indexWhere("dispatched_at is null")),
    index("event_execution_idx").on(t.execution_id),
    index("event_name_idx").on(t.name, t.created_at),
  ],
);
export type EventRow = typeof event.$inferSelect;

/** Webhook endpoints: where the dispatcher POSTs events, signed with the endpoint's secret. */
export const webhook = entityTable(
  "webhook",
  {
    url: text("url").notNull(),
    /** Event names, or `*` for all. */
    events: jsonb("events").$type<string[]>().notNull(),
    description: text("description"),
    enabled: boolean("enabled").notNull().default(true),
    /** The signing secret (`whsec_…`), sealed (AES-256-GCM) under a key derived from the server secret. */
    secret: text("secret").notNull(),
    /** Since when every delivery has failed (cleared by a success); 24 h of it disables the endpoint. */
    failing_since: timestamptz("failing_since"),
    /** Why the endpoint was disabled by Kasse (null when enabled, or disabled by an admin). */
    disabled_reason: text("disabled_reason"),
  },
  (t) => [index("webhook_created_at_idx").on(t.created_at)],
);
export type WebhookRow = typeof webhook.$inferSelect;

export type DeliveryStatus = "scheduled" | "sending" | "succeeded" | "failed";

/** One delivery attempt of one event to one endpoint (a scheduled retry is a row too). */
export const webhookDelivery = pgTable(
  "webhook_delivery",
  {
    id: text("id").primaryKey(),
    webhook_id: text("webhook_id").notNull(),
    event_id: text("event_id").notNull(),
    event_name: text("event_name").notNull(),
    /** 1 for the first attempt of the event to this endpoint; each retry or redelivery adds one. */
    attempt: integer("attempt").notNull(),
    status: text("status").$type<DeliveryStatus>().notNull(),
    /** When it is due (`scheduled`), or until when its sender holds it (`sending`). */
    scheduled_at: timestamptz("scheduled_at").notNull(),
    status_code: integer("status_code"),
    duration_ms: integer("duration_ms"),
    error: text("error"),
    /** When the retry of a failed attempt is due (null: none; the schedule ended or it succeeded). */
    next_retry_at: timestamptz("next_retry_at"),
    created_at: createdAt(),
    finished_at: timestamptz("finished_at"),
  },
  (t) => [
    uniqueIndex("webhook_delivery_attempt_uq").on(t.webhook_id, t.event_id, t.attempt),
    index("webhook_delivery_due_idx").on(t.scheduled_at).where(indexWhere("status in ('scheduled', 'sending')")),
    index("webhook_delivery_webhook_idx").on(t.webhook_id, t.created_at),
  ],
);
export type WebhookDeliveryRow = typeof webhookDelivery.$inferSelect;
