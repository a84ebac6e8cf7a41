import { and, asc, eq, getTableColumns, isNull, ne, notInArray, or, sql } from "drizzle-orm";
import {
  db,
  fromJson,
  groupBy,
  inList,
  jsonRelation,
  liveRecords,
  statement,
  textSearch,
  type JsonRelation,
  type ListPaging,
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
  type PaymentWebhookEventRow,
  type RefundReasonRow,
  type RefundRow,
} from "./schema";

// The payment module's SQL (collections, sessions, payments with their captures and refunds,
// webhook events, refund reasons): the only file of the module that imports drizzle and its tables.

/** A refund as the API shows it: with the reason chosen for it. */
type Refund = RefundRow & { refund_reason: RefundReasonRow | null };
export type Payment = PaymentRow & { captures: CaptureRow[]; refunds: Refund[] };
/** A payment collection as the API shows it. */
export type PaymentCollection = PaymentCollectionRow & { payment_sessions: PaymentSessionRow[]; payments: Payment[] };

const liveCollection = isNull(paymentCollection.deleted_at);
const reasons = liveRecords(refundReason, "Refund reason", { label: refundReason.label, code: refundReason.code });

// A collection with its sessions and its payments (with their captures and refunds) in one
// statement: every checkout step and every order answer reads them.
const sessionsRelation: JsonRelation = {
  table: paymentSession,
  where: eq(paymentSession.payment_collection_id, paymentCollection.id),
  orderBy: asc(paymentSession.created_at),
};
const paymentsRelation: JsonRelation = {
  table: payment,
  where: eq(payment.payment_collection_id, paymentCollection.id),
  orderBy: asc(payment.created_at),
  with: {
    captures: { table: capture, where: eq(capture.payment_id, payment.id), orderBy: asc(capture.created_at) },
    refunds: {
      table: refund,
      where: eq(refund.payment_id, payment.id),
      orderBy: asc(refund.created_at),
      with: { refund_reason: { table: refundReason, where: eq(refundReason.id, refund.refund_reason_id), one: true } },
    },
  },
};
type FullCollectionRow = PaymentCollectionRow & { payment_sessions: unknown; payments: unknown };
const fullCollection = {
  ...getTableColumns(paymentCollection),
  payment_sessions: jsonRelation(sessionsRelation),
  payments: jsonRelation(paymentsRelation),
};
const fullCollectionsById = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select(fullCollection)
    .from(paymentCollection)
    .where(and(inList(paymentCollection.id, v.ids), liveCollection)),
);
const fullCollectionOfCart = statement((v: Placeholders<{ cart_id: string }>) =>
  db
    .select(fullCollection)
    .from(paymentCollection)
    .where(and(eq(paymentCollection.cart_id, v.cart_id), liveCollection)),
);

function decodeCollections(rows: FullCollectionRow[]): PaymentCollection[] {
  // The decoded relations replace the JSON in place: a copy of the row that adds no key is cheap in
  // V8, where a rest pattern costs a new object layout per row.
  return rows.map((row) => ({
    ...row,
    payment_sessions: fromJson<PaymentSessionRow>(sessionsRelation, row.payment_sessions),
    payments: fromJson<Payment>(paymentsRelation, row.payments),
  }));
}

const liveCollectionsById = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(paymentCollection)
    .where(and(inList(paymentCollection.id, v.ids), liveCollection)),
);

// The writes of a checkout's payment steps, built once (per shape of their row, for the inserts).
const insertCollection = statement((v: Placeholders<typeof paymentCollection.$inferInsert>) =>
  db.insert(paymentCollection).values(v).onConflictDoNothing().returning(),
);
// The session checkout authorizes, read first.
const sessionOfCollection = statement((v: Placeholders<{ id: string; collection_id: string }>) =>
  db
    .select()
    .from(paymentSession)
    .where(and(eq(paymentSession.id, v.id), eq(paymentSession.payment_collection_id, v.collection_id))),
);
// A new session replaces the collection's sessions not authorized.
const deleteReplacedSessions = statement((v: Placeholders<{ collection_id: string }>) =>
  db
    .delete(paymentSession)
    .where(and(eq(paymentSession.payment_collection_id, v.collection_id), ne(paymentSession.status, "authorized"))),
);
const insertSession = statement((v: Placeholders<typeof paymentSession.$inferInsert>) =>
  db.insert(paymentSession).values(v).returning(),
);
// The session authorized, unless it already is or was canceled; `data` as the provider answered
// (a provider answering none leaves the column as it is: its key is undefined, a shape of its own).
const authorizeSession = statement((v: Placeholders<{ id: string; data: unknown; now: Date }>) =>
  db
    .update(paymentSession)
    .set({ status: "authorized", data: v.data, authorized_at: v.now, updated_at: v.now })
    .where(and(eq(paymentSession.id, v.id), notInArray(paymentSession.status, ["authorized", "canceled"])))
    .returning({ id: paymentSession.id }),
);
const insertPayment = statement((v: Placeholders<typeof payment.$inferInsert>) =>
  db.insert(payment).values(v).returning(),
);
// An authorized payment's amount added to its collection's, and the collection's status from the sum.
const addAuthorized = statement((v: Placeholders<{ id: string; amount: number; now: Date }>) =>
  db
    .update(paymentCollection)
    .set({
      authorized_amount: sql`${paymentCollection.authorized_amount} + ${v.amount}`,
      status: sql`case when ${paymentCollection.authorized_amount} + ${v.amount} >= ${paymentCollection.amount} then 'authorized' else 'partially_authorized' end`,
      updated_at: v.now,
    })
    .where(eq(paymentCollection.id, v.id)),
);

// The relations a collection read by filter attaches: one statement per table for all the rows.
const capturesOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db.select().from(capture).where(inList(capture.payment_id, v.ids)).orderBy(asc(capture.created_at)),
);
const refundsOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(refund)
    .leftJoin(refundReason, eq(refundReason.id, refund.refund_reason_id))
    .where(inList(refund.payment_id, v.ids))
    .orderBy(asc(refund.created_at)),
);
const sessionsOfCollections = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(paymentSession)
    .where(inList(paymentSession.payment_collection_id, v.ids))
    .orderBy(asc(paymentSession.created_at)),
);
const paymentsOfCollections = statement((v: Placeholders<{ ids: string[] }>) =>
  db.select().from(payment).where(inList(payment.payment_collection_id, v.ids)).orderBy(asc(payment.created_at)),
);

/** The payments with their captures and refunds (two statements for all). */
async function withMovements(rows: PaymentRow[]): Promise<Payment[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [captures, refunds] = await Promise.all([capturesOf({ ids }), refundsOf({ ids })]);
  const capturesBy = groupBy(captures, (c) => c.payment_id);
  const refundsBy = groupBy(refunds, (r) => r.payment_refund.payment_id, {
    value: (r): Refund => ({ ...r.payment_refund, refund_reason: r.refund_reason }),
  });
  return rows.map((row) => ({ ...row, captures: capturesBy.get(row.id) ?? [], refunds: refundsBy.get(row.id) ?? [] }));
}

const paymentById = statement((v: Placeholders<{ id: string }>) =>
  db.select().from(payment).where(eq(payment.id, v.id)),
);
const lockPaymentById = statement((v: Placeholders<{ id: string }>) =>
  db.select().from(payment).where(eq(payment.id, v.id)).for("update"),
);
const lockCollectionById = statement((v: Placeholders<{ id: string }>) =>
  db
    .select()
    .from(paymentCollection)
    .where(and(eq(paymentCollection.id, v.id), liveCollection))
    .for("update"),
);
const paymentOfSession = statement((v: Placeholders<{ session_id: string }>) =>
  db.select().from(payment).where(eq(payment.payment_session_id, v.session_id)),
);
const sessionById = statement((v: Placeholders<{ id: string }>) =>
  db.select().from(paymentSession).where(eq(paymentSession.id, v.id)),
);
const capturedOf = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ total: sql<string>`coalesce(sum(${capture.amount}), 0)` })
    .from(capture)
    .where(eq(capture.payment_id, v.id)),
);
const refundedOf = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ total: sql<string>`coalesce(sum(${refund.amount}), 0)` })
    .from(refund)
    .where(eq(refund.payment_id, v.id)),
);

/**
 * The cart's collection (while nothing is authorized) and its sessions not yet authorized nor
 * canceled set to `total`, in one statement: the collection row is locked first, so an
 * authorization committing meanwhile is seen and left alone. Answers how many rows changed and the
 * sessions changed.
 */
const syncCartAmount = statement((v: Placeholders<{ cart_id: string; total: number }>) => {
  const col = db.$with("col", { id: sql<string>`id` }).as(
    sql`select ${paymentCollection.id} from ${paymentCollection}
        where ${paymentCollection.cart_id} = ${v.cart_id} and ${liveCollection}
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
});

const webhookEvent = statement((v: Placeholders<{ provider_id: string; event_id: string }>) =>
  db
    .select()
    .from(paymentWebhookEvent)
    .where(and(eq(paymentWebhookEvent.provider_id, v.provider_id), eq(paymentWebhookEvent.event_id, v.event_id))),
);

/** A payment's captures or refunds beyond what it allows, for `kasse check`. */
const capturedSum = sql`(select coalesce(sum(${capture.amount}), 0) from ${capture} where ${capture.payment_id} = ${payment.id})`;
const refundedSum = sql`(select coalesce(sum(${refund.amount}), 0) from ${refund} where ${refund.payment_id} = ${payment.id})`;

/** The payment module's named statements, each run on the current handle (the transaction in progress, if any). */
export const paymentQueries = {
  insertCollection: (row: typeof paymentCollection.$inferInsert) => insertCollection(row),
  collectionsById: async (ids: string[]): Promise<PaymentCollection[]> =>
    decodeCollections(await fullCollectionsById({ ids })),
  collectionOfCart: async (cartId: string): Promise<PaymentCollection | undefined> =>
    decodeCollections(await fullCollectionOfCart({ cart_id: cartId }))[0],
  collectionRow: async (id: string): Promise<PaymentCollectionRow | undefined> =>
    (await liveCollectionsById({ ids: [id] }))[0],
  /** Live collections of these ids and/or carts, with sessions and payments: a constant number of statements. */
  async collectionsWhere(filter: { id?: string[]; cart_id?: string[] }): Promise<PaymentCollection[]> {
    const rows = await db
      .select()
      .from(paymentCollection)
      .where(
        and(
          liveCollection,
          filter.id ? inList(paymentCollection.id, filter.id) : undefined,
          filter.cart_id ? inList(paymentCollection.cart_id, filter.cart_id) : undefined,
        ),
      );
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [sessions, payments] = await Promise.all([sessionsOfCollections({ ids }), paymentsOfCollections({ ids })]);
    const full = await withMovements(payments);
    const sessionsBy = groupBy(sessions, (s) => s.payment_collection_id);
    const paymentsBy = groupBy(full, (p) => p.payment_collection_id);
    return rows.map((row) => ({
      ...row,
      payment_sessions: sessionsBy.get(row.id) ?? [],
      payments: paymentsBy.get(row.id) ?? [],
    }));
  },
  /** Soft-deletes the live collection `id` unless a payment was made into it. */
  async deleteUnpaidCollection(id: string): Promise<void> {
    await db
      .update(paymentCollection)
      .set({ deleted_at: new Date() })
      .where(
        and(
          eq(paymentCollection.id, id),
          liveCollection,
          sql`not exists (select 1 from ${payment} where ${payment.payment_collection_id} = ${paymentCollection.id})`,
        ),
      );
  },
  /** A collection's sessions, oldest first. */
  sessionsOf: (collectionId: string): Promise<PaymentSessionRow[]> => sessionsOfCollections({ ids: [collectionId] }),
  /** The live collection `id`, locked for the rest of the transaction. */
  lockCollection: async (id: string): Promise<PaymentCollectionRow | undefined> =>
    (await lockCollectionById({ id }))[0],
  /** Soft-deletes the live collection `id` (the caller checked, under its lock, that nothing was paid into it). */
  async softDeleteCollection(id: string): Promise<void> {
    await db
      .update(paymentCollection)
      .set({ deleted_at: new Date() })
      .where(and(eq(paymentCollection.id, id), liveCollection));
  },
  /** Brings back a collection {@link softDeleteCollection} deleted. */
  async restoreCollection(id: string): Promise<void> {
    await db.update(paymentCollection).set({ deleted_at: null }).where(eq(paymentCollection.id, id));
  },
  /** Sets a collection's amounts and status (a manual payment recorded into it, or taken out again). */
  async setCollectionPaid(
    id: string,
    values: Pick<
      typeof paymentCollection.$inferInsert,
      "authorized_amount" | "captured_amount" | "status" | "completed_at"
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
  async setCollectionAmount(id: string, amount: number): Promise<void> {
    await db.update(paymentCollection).set({ amount, updated_at: new Date() }).where(eq(paymentCollection.id, id));
  },
  /** Adds to a collection's captured or refunded amount. */
  async addToCollection(id: string, column: "captured_amount" | "refunded_amount", amount: number): Promise<void> {
    await db
      .update(paymentCollection)
      .set({ [column]: sql`${paymentCollection[column]} + ${amount}`, updated_at: new Date() })
      .where(eq(paymentCollection.id, id));
  },
  syncCartAmount: async (cartId: string, total: number) => (await syncCartAmount({ cart_id: cartId, total }))[0],

  sessionOfCollection: async (id: string, collectionId: string): Promise<PaymentSessionRow | undefined> =>
    (await sessionOfCollection({ id, collection_id: collectionId }))[0],
  session: async (id: string): Promise<PaymentSessionRow | undefined> => (await sessionById({ id }))[0],
  deleteReplacedSessions: (collectionId: string) => deleteReplacedSessions({ collection_id: collectionId }),
  insertSession: async (row: typeof paymentSession.$inferInsert): Promise<PaymentSessionRow> =>
    (await insertSession(row))[0]!,
  async setSession(id: string, values: Partial<typeof paymentSession.$inferInsert>): Promise<void> {
    await db.update(paymentSession).set(values).where(eq(paymentSession.id, id));
  },
  /** Deletes the session unless it was authorized. */
  async deleteUnauthorizedSession(id: string): Promise<void> {
    await db.delete(paymentSession).where(and(eq(paymentSession.id, id), ne(paymentSession.status, "authorized")));
  },
  /** Marks the session authorized (`data` undefined leaves the column as it is): false when it already was, or was canceled. */
  authorizeSession: async (id: string, data: unknown, now: Date): Promise<boolean> =>
    (await authorizeSession({ id, data, now })).length > 0,
  insertPayment: async (row: typeof payment.$inferInsert): Promise<PaymentRow> => (await insertPayment(row))[0]!,
  addAuthorized: (id: string, amount: number, now: Date) => addAuthorized({ id, amount, now }),

  payment: async (id: string): Promise<PaymentRow | undefined> => (await paymentById({ id }))[0],
  /** The payment `id`, locked for the rest of the transaction. */
  lockPayment: async (id: string): Promise<PaymentRow | undefined> => (await lockPaymentById({ id }))[0],
  paymentOfSession: async (sessionId: string): Promise<PaymentRow | undefined> =>
    (await paymentOfSession({ session_id: sessionId }))[0],
  async paymentWithMovements(id: string): Promise<Payment> {
    return (await withMovements(await paymentById({ id })))[0]!;
  },
  async setPayment(id: string, values: Partial<typeof payment.$inferInsert>): Promise<void> {
    await db.update(payment).set(values).where(eq(payment.id, id));
  },
  captured: async (paymentId: string): Promise<number> => Number((await capturedOf({ id: paymentId }))[0]?.total ?? 0),
  refunded: async (paymentId: string): Promise<number> => Number((await refundedOf({ id: paymentId }))[0]?.total ?? 0),
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
  async sessionWithCollection(
    sessionId: string,
  ): Promise<{ session: PaymentSessionRow; collection: PaymentCollectionRow } | undefined> {
    const [row] = await db
      .select({ session: paymentSession, collection: paymentCollection })
      .from(paymentSession)
      .innerJoin(paymentCollection, eq(paymentCollection.id, paymentSession.payment_collection_id))
      .where(eq(paymentSession.id, sessionId));
    return row;
  },

  /** Records a webhook event unless one of that id is recorded: true when this call recorded it. */
  async insertWebhookEvent(row: typeof paymentWebhookEvent.$inferInsert): Promise<boolean> {
    const inserted = await db
      .insert(paymentWebhookEvent)
      .values(row)
      .onConflictDoNothing()
      .returning({ event_id: paymentWebhookEvent.event_id });
    return inserted.length > 0;
  },
  webhookEvent: async (providerId: string, eventId: string): Promise<PaymentWebhookEventRow | undefined> =>
    (await webhookEvent({ provider_id: providerId, event_id: eventId }))[0],
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
    const [payments, collections] = await Promise.all([
      db
        .select({
          id: payment.id,
          authorized: sql<string>`${payment.amount}::text`,
          captured: sql<string>`${capturedSum}::text`,
          refunded: sql<string>`${refundedSum}::text`,
        })
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
          authorized: sql<string>`${paymentCollection.authorized_amount}::text`,
          captured: sql<string>`${paymentCollection.captured_amount}::text`,
          refunded: sql<string>`${paymentCollection.refunded_amount}::text`,
        })
        .from(paymentCollection)
        .where(
          and(
            liveCollection,
            or(
              sql`${paymentCollection.captured_amount} > ${paymentCollection.authorized_amount}`,
              sql`${paymentCollection.refunded_amount} > ${paymentCollection.captured_amount}`,
            ),
          ),
        )
        .orderBy(paymentCollection.id)
        .limit(limit),
    ]);
    return [...payments, ...collections];
  },

  // Refund reasons.
  liveReasonExists: async (id: string): Promise<boolean> => (await reasons.find(id)) !== undefined,
  insertReason: (row: typeof refundReason.$inferInsert, conflict: string): Promise<RefundReasonRow> =>
    reasons.insert(row, conflict),
  retrieveReason: reasons.retrieve,
  reasons: (filters: { id?: string[]; code?: string[]; q?: string }, page: ListPaging) =>
    reasons.list(
      [
        filters.id?.length ? inList(refundReason.id, filters.id) : undefined,
        filters.code?.length ? inList(refundReason.code, filters.code) : undefined,
        ...textSearch(filters.q, [refundReason.label, refundReason.code, refundReason.description]),
      ],
      page,
    ),
  updateReason: (id: string, values: Partial<typeof refundReason.$inferInsert>, conflict: string) =>
    reasons.update(id, values, conflict),
  deleteReason: reasons.softDelete,
};
