import { and, count, desc, eq, isNull, type SQL } from "drizzle-orm";
import { db, inFilters, listPage, orderBy, statement, type ListPaging, type Placeholders } from "@kasse/db";
import { notification, type NotificationRow } from "./schema";
import type { NotificationFilters } from "./shapes";

// The notification module's SQL (the outbox): the only file of the module that imports drizzle and its table.

/** What a new message stores; the rest (status `pending`, no attempt yet) are the columns' defaults. */
type NewNotification = Pick<
  NotificationRow,
  "id" | "to" | "channel" | "template" | "data" | "secret_keys" | "provider_id" | "resource_type"
>;

const insertNotification = statement((v: Placeholders<NewNotification>) =>
  db.insert(notification).values(v).returning(),
);

const notificationById = statement((v: Placeholders<{ id: string }>) =>
  db.select().from(notification).where(eq(notification.id, v.id)),
);

const deliverySent = statement(
  (
    v: Placeholders<{
      id: string;
      attempts: number;
      external_id: string | null;
      data: Record<string, unknown>;
      now: Date;
    }>,
  ) =>
    db
      .update(notification)
      .set({
        status: "success",
        attempts: v.attempts,
        sent_at: v.now,
        external_id: v.external_id,
        last_error: null,
        data: v.data,
        updated_at: v.now,
      })
      .where(eq(notification.id, v.id))
      .returning(),
);

// A failed attempt that was the last one: the message fails, its secret data erased.
const deliveryEnded = statement(
  (v: Placeholders<{ id: string; attempts: number; last_error: string; data: Record<string, unknown>; now: Date }>) =>
    db
      .update(notification)
      .set({
        attempts: v.attempts,
        status: "failure",
        last_error: v.last_error,
        data: v.data,
        updated_at: v.now,
      })
      .where(eq(notification.id, v.id)),
);

// A failed attempt to be tried again: the message stays pending.
const attemptFailed = statement((v: Placeholders<{ id: string; attempts: number; last_error: string; now: Date }>) =>
  db
    .update(notification)
    .set({ attempts: v.attempts, last_error: v.last_error, updated_at: v.now })
    .where(eq(notification.id, v.id)),
);

const pendingCount = statement(() =>
  db
    .select({ value: count() })
    .from(notification)
    .where(and(eq(notification.status, "pending"), isNull(notification.deleted_at))),
);

/** The filters of a notification list as conditions. */
function conditions(filters: NotificationFilters): SQL[] {
  const { id, to, channel, template, status } = notification;
  return inFilters(filters, { id, to, channel, template, status });
}

const sortable = {
  created_at: notification.created_at,
  updated_at: notification.updated_at,
  status: notification.status,
  to: notification.to,
};

/** Named statements on the `notification` table, run on the current handle. */
export const notificationQueries = {
  /** Writes a pending message and answers its row. */
  insert: async (row: NewNotification): Promise<NotificationRow> => (await insertNotification(row))[0]!,
  /** The message `id` (deleted or not), or undefined. */
  byId: async (id: string): Promise<NotificationRow | undefined> => (await notificationById({ id }))[0],
  /** Marks a message delivered (`success`) with its `data` as kept from now on, and answers it. */
  sent: async (
    id: string,
    values: { attempts: number; external_id: string | null; data: Record<string, unknown> },
  ): Promise<NotificationRow | undefined> => (await deliverySent({ ...values, id, now: new Date() }))[0],
  /** Marks a message failed for good (`failure`) with its `data` as kept from now on. */
  ended: (id: string, values: { attempts: number; last_error: string; data: Record<string, unknown> }) =>
    deliveryEnded({ ...values, id, now: new Date() }),
  /** Records a failed attempt of a message that stays pending. */
  attemptFailed: (id: string, values: { attempts: number; last_error: string }) =>
    attemptFailed({ ...values, id, now: new Date() }),
  /** A page of messages matching `filters`, newest first unless `page.order` says otherwise, and their count. */
  list: (filters: NotificationFilters, page: ListPaging) =>
    listPage(
      notification,
      and(...conditions(filters)),
      page.order
        ? orderBy(page.order, sortable, notification.id)
        : [desc(notification.created_at), desc(notification.id)],
      page,
    ),
  /** How many live messages are `pending`. */
  pendingCount: async (): Promise<number> => (await pendingCount())[0]?.value ?? 0,
};
