import { and, asc, eq, getTableColumns, isNull, ne, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  db,
  first,
  fromJson,
  inFilters,
  inList,
  jsonRelation,
  liveRecords,
  rowsOf,
  statement,
  textSearch,
  type JsonRelation,
  type Placeholders,
} from "@kasse/db";
import {
  capture,
  payment,
  paymentCollection,
  paymentSession,
  paymentWebhookEvent,
  refund,
  refundReason,
  type CaptureRow,
  type PaymentCollectionRow,
  type PaymentRow,
  type PaymentSessionRow,
  type RefundReasonRow,
  type RefundRow,
} from "./schema";
import type { RefundReasonFilters } from "./shapes";

// The payment module's SQL (collections, sessions, payments with their captures and refunds,
// webhook events, refund reasons): the only file of the module that imports drizzle and its tables.

/** A refund as the API shows it: with the reason chosen for it. */
type Refund = RefundRow & { refund_reason: RefundReasonRow | null };
export type Payment = PaymentRow & { captures: CaptureRow[]; refunds: Refund[] };
/** A payment collection as the API shows it. */
export type PaymentCollection = PaymentCollectionRow & { payment_sessions: PaymentSessionRow[]; payments: Payment[] };

const collections = liveRecords(paymentCollection, "Payment collection");
const reasons = liveRecords(refundReason, "Refund reason", { label: refundReason.label, code: refundReason.code });

// A collection with its sessions and its payments (with their captures and refunds) in one
// statement: every checkout step and every order answer reads them.
const sessionsRelation: JsonRelation = {
  table: paymentSession,
  where: eq(paymentSession.payment_collection_id, paymentCollection.id),
  orderBy: asc(paymentSession.created_at),
};
const capturesRelation: JsonRelation = {
  table: capture,
  where: eq(capture.payment_id, payment.id),
  orderBy: asc(capture.created_at),
};
const refundsRelation: JsonRelation = {
  table: refund,
  where: eq(refund.payment_id, payment.id),
  orderBy: asc(refund.created_at),
  with: { refund_reason: { table: refundReason, where: eq(refundReason.id, refund.refund_reason_id), one: true } },
};
const paymentsRelation: JsonRelation = {
  table: payment,
  where: eq(payment.payment_collection_id, paymentCollection.id),
  orderBy: asc(payment.created_at),
  with: { captures: capturesRelation, refunds: refundsRelation },
};

/** Live collections matching `where`, each with its sessions and payments as JSON. */
const collectionsMatching = (where: SQL | undefined) =>
  db
    .select({
      ...getTableColumns(paymentCollection),
      payment_sessions: jsonRelation(sessionsRelation),
      payments: jsonRelation(paymentsRelation),
    })
    .from(paymentCollection)
    .where(and(where, collections.live));

/**
 * A collection read by {@link collectionsMatching}, its relations decoded. They replace the JSON in
 * place: a copy of the row that adds no key is cheap in V8, where a rest pattern costs a new object
 * layout per row.
 */
const decodeCollection = <R extends { payment_sessions: unknown; payments: unknown }>(row: R) => ({
  ...row,
  payment_sessions: fromJson<PaymentSessionRow>(sessionsRelation, row.payment_sessions),
  payments: fromJson<Payment>(paymentsRelation, row.payments),
});

/** Live collections matching `where`, each with its sessions and payments, read and decoded in one statement. */
function fullCollections<V extends Record<string, unknown>>(
  where: (v: Placeholders<V>) => SQL,
): (values: V) => Promise<PaymentCollection[]> {
  const read = statement((v: Placeholders<V>) => collectionsMatching(where(v)));
  return async (values) => (await read(values)).map(decodeCollection);
}

const sessionsOf = rowsOf(paymentSession, paymentSession.payment_collection_id, {
  order: [asc(paymentSession.created_at)],
});

/** The payment `id` with its captures and refunds, in one statement. */
const paymentWithMovements = first(
  statement((v: Placeholders<{ id: string }>) =>
    db
      .select({
        ...getTableColumns(payment),
        captures: jsonRelation(capturesRelation),
        refunds: jsonRelation(refundsRelation),
      })
      .from(payment)
      .where(eq(payment.id, v.id)),
  ),
);

/** What a payment's captures or refunds add up to, in minor units. */
function sumOf(table: typeof capture | typeof refund): (paymentId: string) => Promise<number> {
  const read = statement((v: Placeholders<{ id: string }>) =>
    db
      .select({ total: sql<string>`coalesce(sum(${table.amount}), 0)` })
      .from(table)
      .where(eq(table.payment_id, v.id)),
  );
  return async (paymentId) => Number((await read({ id: paymentId }))[0]?.total ?? 0);
}

/** A payment's captures or refunds beyond what it allows, for `kasse check`. */
const capturedSum = sql`(select coalesce(sum(${capture.amount}), 0) from ${capture} where ${capture.payment_id} = ${payment.id})`;
const refundedSum = sql`(select coalesce(sum(${refund.amount}), 0) from ${refund} where ${refund.payment_id} = ${payment.id})`;

/** A row's amounts as text, as `kasse check` reports them. */
const amountsOf = (authorized: SQL | AnyPgColumn, captured: SQL | AnyPgColumn, refunded: SQL | AnyPgColumn) => ({
  authorized: sql<string>`${authorized}::text`,
  captured: sql<string>`${captured}::text`,
  refunded: sql<string>`${refunded}::text`,
});

/** The payment module's named statements, each run on the current handle (the transaction in progress, if any). */
export const paymentQueries = {
  /** The live collection `id`'s own row; `not_found` when there is none. */
  retrieveCollection: collections.retrieve,
  /** Soft-deletes the live collection `id` (the caller checked, under its lock, that nothing was paid into it). */
  softDeleteCollection: collections.softDelete,
  /** Inserts a collection unless the cart has one (the unique index): undefined then. */
  insertCollection: first(
    statement((v: Placeholders<typeof paymentCollection.$inferInsert>) =>
      db.insert(paymentCollection).values(v).onConflictDoNothing().returning(),
    ),
  ),
  /** The live collections `ids`, with sessions and payments. */
  collectionsById: fullCollections((v: Placeholders<{ ids: string[] }>) => inList(paymentCollection.id, v.ids)),
  /** The cart's live collection, with sessions and payments. */
  collectionOfCart: first(
    fullCollections((v: Placeholders<{ cart_id: string }>) => eq(paymentCollection.cart_id, v.cart_id)),
  ),
  /** Live collections of these ids and/or carts, with sessions and payments, in one statement. */
  async collectionsWhere(filter: { id?: string[]; cart_id?: string[] }): Promise<PaymentCollection[]> {
    const rows = await collectionsMatching(
      and(
        filter.id ? inList(paymentCollection.id, filter.id) : undefined,
        filter.cart_id ? inList(paymentCollection.cart_id, filter.cart_id) : undefined,
      ),
    );
    return rows.map(decodeCollection);
  },
  /** Soft-deletes the live collection `id` unless a payment was made into it. */
  async deleteUnpaidCollection(id: string): Promise<void> {
    await db
      .update(paymentCollection)
      .set({ deleted_at: new Date() })
      .where(
        and(
          eq(paymentCollection.id, id),
          collections.live,
          sql`not exists (select 1 from ${payment} where ${payment.payment_collection_id} = ${paymentCollection.id})`,
        ),
      );
  },
  /** A collection's sessions, oldest first. */
  sessionsOf: (collectionId: string): Promise<PaymentSessionRow[]> => sessionsOf([collectionId]),
  /** The live collection `id`, locked for the rest of the transaction. */
  lockCollection: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .select()
        .from(paymentCollection)
        .where(and(eq(paymentCollection.id, v.id), collections.live))
        .for("update"),
    ),
  ),
  /** Brings back a collection {@link softDeleteCollection} deleted. */
  async restoreCollection(id: string): Promise<void> {
    await db.update(paymentCollection).set({ deleted_at: null }).where(eq(paymentCollection.id, id));
  },
  /** Sets a collection's amounts or status (a manual payment recorded into it or taken out again, a new amount). */
  async setCollection(
    id: string,
    values: Partial<
      Pick<
        typeof paymentCollection.$inferInsert,
        "amount" | "authorized_amount" | "captured_amount" | "status" | "completed_at"
      >
    >,
  ): Promise<void> {
    await db
      .update(paymentCollection)
      .set({ ...values, updated_at: new Date() })
      .where(eq(paymentCollection.id, id));
  },
  /** Deletes a payment (its captures and refunds with it) and its session: a manual payment taken back. */
  async deletePayment(row: PaymentRow): Promise<void> {
    await db.delete(payment).where(eq(payment.id, row.id));
    await db.delete(paymentSession).where(eq(paymentSession.id, row.payment_session_id));
  },
  /** Adds to a collection's captured or refunded amount. */
  async addToCollection(id: string, column: "captured_amount" | "refunded_amount", amount: number): Promise<void> {
    await db
      .update(paymentCollection)
      .set({ [column]: sql`${paymentCollection[column]} + ${amount}`, updated_at: new Date() })
      .where(eq(paymentCollection.id, id));
  },
  /**
   * The cart's collection (while nothing is authorized) and its sessions not yet authorized nor
   * canceled set to `total`, in one statement: the collection row is locked first, so an
   * authorization committing meanwhile is seen and left alone. Answers how many rows changed and the
   * sessions changed.
   */
  syncCartAmount: first(
    statement((v: Placeholders<{ cart_id: string; total: number }>) => {
      const col = db.$with("col", { id: sql<string>`id` }).as(
        sql`select ${paymentCollection.id} from ${paymentCollection}
        where ${paymentCollection.cart_id} = ${v.cart_id} and ${collections.live}
          and ${paymentCollection.status} in ('not_paid', 'awaiting', 'canceled')
        for update`,
      );
      const c = db.$with("c", { id: sql<string>`id` }).as(
        sql`update ${paymentCollection} set amount = ${v.total}, updated_at = now()
        where id in (select id from col) and amount <> ${v.total} returning id`,
      );
      const s = db.$with("s", { id: sql<string>`id`, provider_id: sql<string>`provider_id` }).as(
        sql`update ${paymentSession} set amount = ${v.total}, updated_at = now()
        where payment_collection_id in (select id from col) and status not in ('authorized', 'canceled')
          and amount <> ${v.total} returning id, provider_id`,
      );
      return db
        .with(col, c, s)
        .select({
          changed: sql<number>`((select count(*) from c) + (select count(*) from s))::int`,
          sessions: sql<
            Array<{ id: string; provider_id: string }>
          >`coalesce((select json_agg(json_build_object('id', id, 'provider_id', provider_id)) from s), '[]')`,
        })
        .from(sql`(select 1) as one`);
    }),
  ),

  /** The session checkout authorizes, read first. */
  sessionOfCollection: first(
    statement((v: Placeholders<{ id: string; collection_id: string }>) =>
      db
        .select()
        .from(paymentSession)
        .where(and(eq(paymentSession.id, v.id), eq(paymentSession.payment_collection_id, v.collection_id))),
    ),
  ),
  session: first(
    statement((v: Placeholders<{ id: string }>) => db.select().from(paymentSession).where(eq(paymentSession.id, v.id))),
  ),
  /** A new session replaces the collection's sessions not authorized. */
  deleteReplacedSessions: statement((v: Placeholders<{ collection_id: string }>) =>
    db
      .delete(paymentSession)
      .where(and(eq(paymentSession.payment_collection_id, v.collection_id), ne(paymentSession.status, "authorized"))),
  ),
  insertSession: first(
    statement((v: Placeholders<typeof paymentSession.$inferInsert>) => db.insert(paymentSession).values(v).returning()),
  ),
  async setSession(id: string, values: Partial<typeof paymentSession.$inferInsert>): Promise<void> {
    await db.update(paymentSession).set(values).where(eq(paymentSession.id, id));
  },
  /** Deletes the session unless it was authorized. */
  async deleteUnauthorizedSession(id: string): Promise<void> {
    await db.delete(paymentSession).where(and(eq(paymentSession.id, id), ne(paymentSession.status, "authorized")));
  },
  /**
   * The session authorized, unless it already is or was canceled (then undefined); `data` as the
   * provider answered (a provider answering none leaves the column as it is: its key is undefined,
   * a shape of its own).
   */
  authorizeSession: first(
    statement((v: Placeholders<{ id: string; data: unknown; now: Date }>) =>
      db
        .update(paymentSession)
        .set({ status: "authorized", data: v.data, authorized_at: v.now, updated_at: v.now })
        .where(and(eq(paymentSession.id, v.id), notInArray(paymentSession.status, ["authorized", "canceled"])))
        .returning({ id: paymentSession.id }),
    ),
  ),
  insertPayment: first(
    statement((v: Placeholders<typeof payment.$inferInsert>) => db.insert(payment).values(v).returning()),
  ),
  /** An authorized payment's amount added to its collection's, and the collection's status from the sum. */
  addAuthorized: statement((v: Placeholders<{ id: string; amount: number; now: Date }>) =>
    db
      .update(paymentCollection)
      .set({
        authorized_amount: sql`${paymentCollection.authorized_amount} + ${v.amount}`,
        status: sql`case when ${paymentCollection.authorized_amount} + ${v.amount} >= ${paymentCollection.amount} then 'authorized' else 'partially_authorized' end`,
        updated_at: v.now,
      })
      .where(eq(paymentCollection.id, v.id)),
  ),

  payment: first(statement((v: Placeholders<{ id: string }>) => db.select().from(payment).where(eq(payment.id, v.id)))),
  /** The payment `id`, locked for the rest of the transaction. */
  lockPayment: first(
    statement((v: Placeholders<{ id: string }>) => db.select().from(payment).where(eq(payment.id, v.id)).for("update")),
  ),
  paymentOfSession: first(
    statement((v: Placeholders<{ session_id: string }>) =>
      db.select().from(payment).where(eq(payment.payment_session_id, v.session_id)),
    ),
  ),
  /** The payment `id` with its captures and refunds (the caller wrote or locked it: it exists). */
  async paymentWithMovements(id: string): Promise<Payment> {
    const row = (await paymentWithMovements({ id }))!;
    return {
      ...row,
      captures: fromJson<CaptureRow>(capturesRelation, row.captures),
      refunds: fromJson<Refund>(refundsRelation, row.refunds),
    };
  },
  async setPayment(id: string, values: Partial<typeof payment.$inferInsert>): Promise<void> {
    await db.update(payment).set(values).where(eq(payment.id, id));
  },
  captured: sumOf(capture),
  refunded: sumOf(refund),
  async insertCapture(row: typeof capture.$inferInsert): Promise<void> {
    await db.insert(capture).values(row);
  },
  async insertRefund(row: typeof refund.$inferInsert): Promise<void> {
    await db.insert(refund).values(row);
  },
  /**
   * A payment voided: canceled with its session, and its amount taken off its collection's authorized
   * amount. `settled` is what it had captured and was all refunded again (an automatic capture
   * undone): taken off the collection's captured and refunded amounts too, which count its live
   * payments, so the collection stays authorized ≥ captured ≥ refunded; the payment keeps its
   * captures and refunds.
   */
  async markCanceled(row: PaymentRow, settled = 0): Promise<void> {
    await db.update(payment).set({ canceled_at: new Date() }).where(eq(payment.id, row.id));
    await db.update(paymentSession).set({ status: "canceled" }).where(eq(paymentSession.id, row.payment_session_id));
    await db
      .update(paymentCollection)
      .set({
        authorized_amount: sql`greatest(${paymentCollection.authorized_amount} - ${row.amount}, 0)`,
        captured_amount: sql`greatest(${paymentCollection.captured_amount} - ${settled}, 0)`,
        refunded_amount: sql`greatest(${paymentCollection.refunded_amount} - ${settled}, 0)`,
        status: sql`case when ${paymentCollection.authorized_amount} - ${row.amount} <= 0 then 'canceled' else 'partially_authorized' end`,
      })
      .where(eq(paymentCollection.id, row.payment_collection_id));
  },
  /** A session with its collection's row; undefined when there is no such session. */
  sessionWithCollection: async (sessionId: string) =>
    (
      await db
        .select({ session: paymentSession, collection: paymentCollection })
        .from(paymentSession)
        .innerJoin(paymentCollection, eq(paymentCollection.id, paymentSession.payment_collection_id))
        .where(eq(paymentSession.id, sessionId))
    )[0],

  /** Records a webhook event unless one of that id is recorded: true when this call recorded it. */
  async insertWebhookEvent(row: typeof paymentWebhookEvent.$inferInsert): Promise<boolean> {
    const inserted = await db
      .insert(paymentWebhookEvent)
      .values(row)
      .onConflictDoNothing()
      .returning({ event_id: paymentWebhookEvent.event_id });
    return inserted.length > 0;
  },
  webhookEvent: first(
    statement((v: Placeholders<{ provider_id: string; event_id: string }>) =>
      db
        .select()
        .from(paymentWebhookEvent)
        .where(and(eq(paymentWebhookEvent.provider_id, v.provider_id), eq(paymentWebhookEvent.event_id, v.event_id))),
    ),
  ),
  async finishWebhookEvent(providerId: string, eventId: string, outcome: string): Promise<void> {
    await db
      .update(paymentWebhookEvent)
      .set({ processed_at: new Date(), outcome })
      .where(and(eq(paymentWebhookEvent.provider_id, providerId), eq(paymentWebhookEvent.event_id, eventId)));
  },

  /**
   * Payments whose captures exceed their amount or whose refunds exceed their captures, and
   * collections whose stored amounts are out of that order: at most `limit` of each (`kasse check`).
   */
  async amountsOutOfOrder(
    limit: number,
  ): Promise<Array<{ id: string; authorized: string; captured: string; refunded: string }>> {
    const [payments, collectionRows] = await Promise.all([
      db
        .select({ id: payment.id, ...amountsOf(payment.amount, capturedSum, refundedSum) })
        .from(payment)
        .where(
          and(
            isNull(payment.deleted_at),
            or(sql`${capturedSum} > ${payment.amount}`, sql`${refundedSum} > ${capturedSum}`),
          ),
        )
        .orderBy(payment.id)
        .limit(limit),
      db
        .select({
          id: paymentCollection.id,
          ...amountsOf(
            paymentCollection.authorized_amount,
            paymentCollection.captured_amount,
            paymentCollection.refunded_amount,
          ),
        })
        .from(paymentCollection)
        .where(
          and(
            collections.live,
            or(
              sql`${paymentCollection.captured_amount} > ${paymentCollection.authorized_amount}`,
              sql`${paymentCollection.refunded_amount} > ${paymentCollection.captured_amount}`,
            ),
          ),
        )
        .orderBy(paymentCollection.id)
        .limit(limit),
    ]);
    return [...payments, ...collectionRows];
  },
};

/** Named statements on the `refund_reason` table, run on the current handle. */
export const refundReasonQueries = {
  ...reasons,
  list: reasons.listBy((filters: RefundReasonFilters) => [
    ...inFilters(filters, { id: refundReason.id, code: refundReason.code }),
    ...textSearch(filters.q, [refundReason.label, refundReason.code, refundReason.description]),
  ]),
};
