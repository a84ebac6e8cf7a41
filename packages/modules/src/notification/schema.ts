import { integer, jsonb, text } from "@kasse/db";
import { entityTable, timestamptz, indexes } from "@kasse/db";

/**
 * The notification outbox: one row per message, written before delivery is attempted so a
 * message is never lost between "decided to send" and "sent". Delivery updates `status`.
 */
export const notification = entityTable(
  "notification",
  {
    to: text("to").notNull(),
    channel: text("channel").notNull(),
    template: text("template").notNull(),
    /** The template's data; the values of `secret_keys` are sealed (encrypted) until delivery ends, then blanked. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    /** Keys of `data` that are secret (a reset or invite token): sealed at rest, blanked once delivery has ended. */
    secret_keys: jsonb("secret_keys").$type<string[]>().notNull().default([]),
    provider_id: text("provider_id").notNull(),
    status: text("status").$type<NotificationStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    last_error: text("last_error"),
    external_id: text("external_id"),
    /** Who or what the message is about (`customer`, `user`), for filtering. */
    resource_type: text("resource_type"),
    sent_at: timestamptz("sent_at"),
  },
  (t) => [...indexes("notification", { status: t.status, to: t.to, created_at: t.created_at })],
);

export type NotificationStatus = "pending" | "success" | "failure";
export type NotificationRow = typeof notification.$inferSelect;
