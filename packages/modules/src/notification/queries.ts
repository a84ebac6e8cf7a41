import { and, count, desc, eq, isNull, type SQL } from "drizzle-orm";
import { db, first, inFilters, listPage, orderBy, statement, type ListPaging, type Placeholders } from "@kasse/db";
import { notification, type NotificationRow } from "./schema";
import type { NotificationFilters } from "./shapes";

// The notification module's SQL (the outbox): the only file of the module that imports drizzle and its table.

/** What a new message stores; the rest (status `pending`, no attempt yet) are the columns' defaults. */
type NewNotification = Pick<
  NotificationRow,
  "id" | "to" | "channel" | "template" | "data" | "secret_keys" | "provider_id" | "resource_type"
>;

/** What a delivery attempt records; a key left undefined leaves its column as it is. */
type Attempt = Pick<NotificationRow, "id" | "attempts"> &
  Partial<Pick<NotificationRow, "status" | "sent_at" | "external_id" | "last_error" | "data">> & { now: Date };

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

const pendingCount = first(
  statement(() =>
    db
      .select({ value: count() })
      .from(notification)
      .where(and(eq(notification.status, "pending"), isNull(notification.deleted_at))),
  ),
);

/** Named statements on the `notification` table, run on the current handle. */
export const notificationQueries = {
  /** Writes a pending message and answers its row. */
  insert: first(statement((v: Placeholders<NewNotification>) => db.insert(notification).values(v).returning())),
  /** The message `id` (deleted or not), or undefined. */
  byId: first(
    statement((v: Placeholders<{ id: string }>) => db.select().from(notification).where(eq(notification.id, v.id))),
  ),
  /**
   * Records a delivery attempt and answers the row: delivered (`success`, its `data` as kept from
   * now on), failed for good (`failure`, likewise), or failed to be tried again (still pending).
   */
  recordAttempt: first(
    statement((v: Placeholders<Attempt>) =>
      db
        .update(notification)
        .set({
          status: v.status,
          attempts: v.attempts,
          sent_at: v.sent_at,
          external_id: v.external_id,
          last_error: v.last_error,
          data: v.data,
          updated_at: v.now,
        })
        .where(eq(notification.id, v.id))
        .returning(),
    ),
  ),
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
  pendingCount: async (): Promise<number> => (await pendingCount())?.value ?? 0,
};
