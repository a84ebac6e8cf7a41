import { createHash } from "node:crypto";
import { and, asc, eq, getTableColumns, isNull, ne, notInArray, sql, type SQL } from "drizzle-orm";
import { errors, generateId, isKasseError } from "@kasse/core";
import {
  builtOnce,
  builtPerShape,
  builtRowWrite,
  fromJson,
  jsonRelation,
  type JsonRelation,
  idList,
  inList,
  inParam,
  param,
  queryRows,
  slot,
  transaction,
  type Db,
} from "@kasse/db";
import { createProviderRegistry, type ProviderRegistry } from "./providers/registry";
import {
  capture,
  payment,
  paymentCollection,
  paymentSession,
  paymentWebhookEvent,
  refund,
  refundReason,
  type CaptureRow,
  type PaymentWebhookEventRow,
  type PaymentCollectionRow,
  type PaymentRow,
  type PaymentSessionRow,
  type RefundReasonRow,
  type RefundRow,
} from "./schema";

/** A refund as the API shows it: with the reason chosen for it. */
type Refund = RefundRow & { refund_reason: RefundReasonRow | null };
export type Payment = PaymentRow & { captures: CaptureRow[]; refunds: Refund[] };
/** A payment collection as the API shows it. */
export type PaymentCollection = PaymentCollectionRow & { payment_sessions: PaymentSessionRow[]; payments: Payment[] };

const liveCollection = isNull(paymentCollection.deleted_at);

/**
 * The statuses of a collection whose amount still follows its cart's total: nothing authorized
 * yet, or every authorization voided (a checkout that failed after authorizing: the shopper pays again).
 */
const FOLLOWS_CART = new Set(["not_paid", "awaiting", "canceled"]);

/**
 * True when a collection not yet authorized is behind its cart's `total`: its amount, or the
 * amount of a session that may still be authorized, differs (`syncCartAmount` then brings them to it).
 */
export function behindCart(
  collection: Pick<PaymentCollectionRow, "status" | "amount"> & { payment_sessions?: PaymentSessionRow[] },
  total: number,
): boolean {
  if (!FOLLOWS_CART.has(collection.status)) return false;
  if (collection.amount !== total) return true;
  return (collection.payment_sessions ?? []).some((s) => followsCart(s) && s.amount !== total);
}

/** A session that may still be authorized: its amount follows the cart's total. */
const followsCart = (session: Pick<PaymentSessionRow, "status">) =>
  session.status !== "authorized" && session.status !== "canceled";

/**
 * Shows in a collection already read what `syncCartAmount(cartId, total)` wrote: its amount and
 * its open sessions' amounts at `total`.
 */
export function atCartTotal(
  collection: Pick<PaymentCollectionRow, "amount"> & { payment_sessions: PaymentSessionRow[] },
  total: number,
): void {
  collection.amount = total;
  for (const session of collection.payment_sessions) if (followsCart(session)) session.amount = total;
}

/** `promise`, or `onTimeout()` thrown after `ms` (no limit when undefined). */
function answerWithin<T>(promise: Promise<T>, ms: number | undefined, onTimeout: () => Error): Promise<T> {
  if (ms === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(onTimeout()), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What starting a payment session takes: the provider, its data and context, and the provider call's idempotency key. */
export interface SessionStart {
  provider_id: string;
  data?: Record<string, unknown>;
  context?: Record<string, unknown>;
  idempotencyKey?: string;
}

/**
 * Payment collections, sessions and payments over the registered providers. Calls to a provider
 * carry an idempotency key so a retried saga step cannot charge twice.
 * @example
 * const payments = createPaymentService(db);
 * const collection = await payments.createCollection({ cart_id, currency_code: "usd", amount: 2500 });
 */
export function createPaymentService(db: Db, providers: ProviderRegistry = createProviderRegistry()) {
  /**
   * Cancels a session never authorized at its provider (key `cancel:<session>` unless given): a
   * replaced or abandoned session's payment can no longer be taken. A payment the provider says
   * can no longer be canceled (`not_allowed`: paid meanwhile) is left to its webhook.
   */
  const cancelAtProvider = async (session: PaymentSessionRow, idempotencyKey = `cancel:${session.id}`) => {
    try {
      await providers.get(session.provider_id).cancel({
        amount: session.amount,
        currency_code: session.currency_code,
        data: session.data,
        idempotencyKey,
        sessionId: session.id,
      });
    } catch (error) {
      if (!(isKasseError(error) && error.type === "not_allowed")) throw error;
    }
  };

  const service = {
    providers,

    /** Creates the cart's collection, or returns the one it already has. */
    async createCollection(input: {
      cart_id?: string | null;
      region_id?: string | null;
      currency_code: string;
      amount: number;
    }): Promise<PaymentCollection> {
      if (input.cart_id) {
        const existing = await service.collectionForCart(input.cart_id);
        if (existing) return existing;
      }
      const id = generateId("pay_col");
      const inserted = await insertCollection(db, {
        id,
        cart_id: input.cart_id ?? null,
        region_id: input.region_id ?? null,
        currency_code: input.currency_code.toLowerCase(),
        amount: input.amount,
      });
      if (inserted.length === 0 && input.cart_id) return (await service.collectionForCart(input.cart_id))!;
      // A collection created by this statement has no sessions nor payments yet: nothing to read back.
      if (inserted[0]) return { ...inserted[0], payment_sessions: [], payments: [] };
      return service.retrieveCollection(id);
    },

    /**
     * Deletes a collection nothing was paid into (no payment): the undo of {@link createCollection}
     * for an order's collection (an order edit's difference) when its saga fails after it.
     */
    async removeUnpaidCollection(id: string): Promise<void> {
      await db
        .update(paymentCollection)
        .set({ deleted_at: new Date() })
        .where(
          and(
            eq(paymentCollection.id, id),
            isNull(paymentCollection.deleted_at),
            sql`not exists (select 1 from ${payment} where ${payment.payment_collection_id} = ${id})`,
          ),
        );
    },

    async retrieveCollection(id: string): Promise<PaymentCollection> {
      const [full] = decodeCollections(await fullCollectionsById(db, { ids: idList([id]) }));
      if (!full) throw errors.notFound(`Payment collection with id: ${id} was not found`);
      return full;
    },

    /** The collection's own row, without its sessions and payments (which cart and region it is for). */
    async collectionRow(id: string): Promise<PaymentCollectionRow> {
      const [row] = await liveCollectionsById(db, { ids: idList([id]) });
      if (!row) throw errors.notFound(`Payment collection with id: ${id} was not found`);
      return row;
    },

    /** One payment's own row (canceled ones too). */
    async retrievePayment(id: string): Promise<PaymentRow> {
      const [row] = await db.select().from(payment).where(eq(payment.id, id));
      if (!row) throw errors.notFound(`Payment with id: ${id} was not found`);
      return row;
    },

    async collectionForCart(cartId: string): Promise<PaymentCollection | undefined> {
      return decodeCollections(await fullCollectionOfCart(db, { cart_id: cartId }))[0];
    },

    /** The currency of a payment (what its amounts are in); 404 when there is no such payment. */
    async paymentCurrency(paymentId: string): Promise<string> {
      const [row] = await db
        .select({ currency_code: payment.currency_code })
        .from(payment)
        .where(eq(payment.id, paymentId));
      if (!row) throw errors.notFound(`Payment with id: ${paymentId} was not found`);
      return row.currency_code;
    },

    /** Collections of many carts (or ids) with sessions and payments: a constant number of queries. */
    async listCollections(filter: { id?: string[]; cart_id?: string[] }): Promise<PaymentCollection[]> {
      if (filter.id && !filter.cart_id)
        return decodeCollections(await fullCollectionsById(db, { ids: idList(filter.id) }));
      const conditions = [liveCollection];
      if (filter.id) conditions.push(inList(paymentCollection.id, filter.id));
      if (filter.cart_id) conditions.push(inList(paymentCollection.cart_id, filter.cart_id));
      return attach(
        db,
        await db
          .select()
          .from(paymentCollection)
          .where(and(...conditions)),
      );
    },

    /**
     * Sets the cart's collection, while it is not authorized, and its sessions not yet authorized
     * nor canceled, to `total` (the cart's committed total: the caller holds the cart's lock and
     * read it). One statement (the collection row is locked first, so an authorization committing
     * meanwhile is seen and left alone); idempotent. True when it changed something. Cart writes
     * call it after their commit, and every path that relies on the amount (a new session, the
     * store authorization, checkout) calls it first, so a crash between a cart write and its sync
     * is repaired before any money moves.
     */
    async syncCartAmount(cartId: string, total: number): Promise<boolean> {
      const [row] = await queryRows<{ changed: number; sessions: Array<{ id: string; provider_id: string }> }>(
        db,
        sql`with col as (
              select id from payment_collection
              where cart_id = ${cartId} and deleted_at is null and status in ('not_paid', 'awaiting', 'canceled')
              for update
            ), c as (
              update payment_collection set amount = ${total}, updated_at = now()
              where id in (select id from col) and amount <> ${total} returning id
            ), s as (
              update payment_session set amount = ${total}, updated_at = now()
              where payment_collection_id in (select id from col) and status not in ('authorized', 'canceled')
                and amount <> ${total} returning id, provider_id
            )
            select ((select count(*) from c) + (select count(*) from s))::int as changed,
              coalesce((select json_agg(json_build_object('id', id, 'provider_id', provider_id)) from s), '[]') as sessions`,
      );
      // A provider that keeps the amount itself (Stripe's PaymentIntent) is told before anything
      // authorizes it; failing, it throws and the caller's transaction leaves the amount behind, so
      // the next sync tries again. The key names this change (the session's update time, which the
      // statement above just set): a total that returns to an earlier amount is a new change, which
      // Stripe would otherwise answer from its record of the earlier one and leave undone.
      for (const changed of row?.sessions ?? []) {
        const provider = providers.get(changed.provider_id);
        if (!provider.update) continue;
        const [session] = await db.select().from(paymentSession).where(eq(paymentSession.id, changed.id));
        if (!session) continue;
        const updated = await provider
          .update({
            amount: total,
            currency_code: session.currency_code,
            data: session.data,
            idempotencyKey: `${session.id}:amount:${total}:${session.updated_at.getTime()}`,
            sessionId: session.id,
          })
          .catch((error: unknown) => {
            // Paid meanwhile for the old amount: it stays as it is, and authorizing it declines
            // (the amounts differ), so the shopper pays the new total with a new session.
            if (isKasseError(error) && error.type === "not_allowed") return undefined;
            throw error;
          });
        if (updated)
          await db.update(paymentSession).set({ data: updated.data }).where(eq(paymentSession.id, session.id));
      }
      return (row?.changed ?? 0) > 0;
    },

    /**
     * Starts a session with a provider for the collection's amount. As in Medusa, a new session
     * replaces the collection's other unauthorized sessions. Answers the collection with its sessions.
     */
    async createSession(collectionId: string, input: SessionStart): Promise<PaymentCollection> {
      await service.startSession(collectionId, input);
      return service.retrieveCollection(collectionId);
    },

    /**
     * {@link createSession} answering the new session (and the collection's row as read before it): the
     * provider's `initiate` (with `idempotencyKey`, default the new session's id), then, in one
     * transaction, the replaced sessions deleted and the new one inserted. Holds no transaction
     * across the provider's call.
     */
    async startSession(
      collectionId: string,
      input: SessionStart,
    ): Promise<{ collection: PaymentCollectionRow; session: PaymentSessionRow }> {
      // With its sessions: the ones the new session replaces are canceled at their provider.
      const collection = await service.retrieveCollection(collectionId);
      if (collection.status === "authorized" || collection.status === "completed")
        throw errors.notAllowed(`Payment collection ${collectionId} is already authorized`);
      const provider = providers.get(input.provider_id);
      const id = input.idempotencyKey ? sessionIdFor(input.idempotencyKey) : generateId("payses");
      const initiated = await provider.initiate({
        amount: collection.amount,
        currency_code: collection.currency_code,
        data: input.data ?? {},
        context: input.context,
        idempotencyKey: input.idempotencyKey ?? id,
        sessionId: id,
      });
      // The sessions this one replaces are canceled at their provider first (a PaymentIntent left
      // open could still be paid from a stale tab); a failure stops here, before anything is written.
      // A retried start may find its own session written by an earlier attempt: that one stays.
      for (const old of collection.payment_sessions)
        if (old.status !== "authorized" && old.id !== id) await cancelAtProvider(old);
      // The replaced sessions go with the new one's insert, or neither does.
      const session = await transaction(db, async (t) => {
        await deleteReplacedSessions(t, { collection_id: collectionId });
        const [row] = await insertSession(t, {
          id,
          payment_collection_id: collectionId,
          provider_id: provider.id,
          currency_code: collection.currency_code,
          amount: collection.amount,
          data: initiated.data,
          context: input.context ?? null,
        });
        return row!;
      });
      return { collection, session };
    },

    /**
     * Undoes a session (the compensation of its creation): cancels it with its provider and
     * removes its row, unless it was authorized meanwhile (then its payment is voided through
     * `cancelPayment`, not here). Idempotent: a session already gone is nothing to do.
     */
    async cancelSession(sessionId: string, options: { idempotencyKey?: string } = {}): Promise<void> {
      const [session] = await db.select().from(paymentSession).where(eq(paymentSession.id, sessionId));
      if (!session || session.status === "authorized") return;
      await cancelAtProvider(session, options.idempotencyKey);
      await db
        .delete(paymentSession)
        .where(and(eq(paymentSession.id, sessionId), ne(paymentSession.status, "authorized")));
    },

    /**
     * Authorizes a session with its provider: on success the session and collection are
     * `authorized` and a payment exists (written together). A decline is
     * `payment_authorization_error`, a further step for the customer `payment_requires_more_error`;
     * a provider failure is thrown as is. A provider silent for `timeoutMs` fails the call with a
     * retryable `timeout` and nothing is written: its late answer changes nothing here, and an
     * authorization it brings is voided at the provider (not one it only read: `authorizeReads`).
     */
    async authorizeSession(
      collectionId: string,
      sessionId: string,
      options: { context?: Record<string, unknown>; idempotencyKey?: string; timeoutMs?: number } = {},
    ): Promise<{ collection: PaymentCollection; payment: PaymentRow }> {
      const authorized = await service.authorizePayment(collectionId, sessionId, options);
      return { collection: await service.retrieveCollection(collectionId), payment: authorized };
    },

    /** {@link authorizeSession} answering the payment alone (a checkout needs nothing else of the collection). */
    async authorizePayment(
      collectionId: string,
      sessionId: string,
      options: { context?: Record<string, unknown>; idempotencyKey?: string; timeoutMs?: number } = {},
    ): Promise<PaymentRow> {
      const [session] = await sessionOfCollection(db, { id: sessionId, collection_id: collectionId });
      if (!session) throw errors.notFound(`Payment session with id: ${sessionId} was not found`);
      /** The payment an earlier (or a concurrent) authorization of this session made. */
      const paymentOfSession = async () => {
        const [row] = await db.select().from(payment).where(eq(payment.payment_session_id, sessionId));
        // None when a new session replaced this one while its provider was answering.
        if (!row) throw errors.notFound(`Payment session with id: ${sessionId} was not found`);
        return row;
      };
      if (session.status === "authorized") return paymentOfSession();
      // A voided authorization keeps its payment row (one per session): the shopper starts a new session.
      if (session.status === "canceled")
        throw errors.notAllowed(`Payment session ${sessionId} was canceled; start a new payment session`);
      const provider = providers.get(session.provider_id);
      const idempotencyKey = options.idempotencyKey ?? sessionId;
      const call = provider.authorize({
        amount: session.amount,
        currency_code: session.currency_code,
        data: session.data,
        context: { ...(session.context ?? {}), ...(options.context ?? {}) },
        idempotencyKey,
      });
      const outcome = await answerWithin(call, options.timeoutMs, () => {
        void call
          .then((late) =>
            late.status === "authorized" && !provider.authorizeReads
              ? provider.cancel({
                  amount: session.amount,
                  currency_code: session.currency_code,
                  data: late.data,
                  idempotencyKey: `${idempotencyKey}:late`,
                })
              : undefined,
          )
          .catch(() => {});
        return errors.timeout(
          `Payment provider ${session.provider_id} did not answer the authorization within ${options.timeoutMs} ms`,
        );
      });
      if (outcome.status === "declined") {
        await db
          .update(paymentSession)
          .set({ status: "error", data: outcome.data })
          .where(eq(paymentSession.id, sessionId));
        throw errors.paymentAuthorization(outcome.message);
      }
      if (outcome.status === "requires_more") {
        await db
          .update(paymentSession)
          .set({ status: "requires_more", data: outcome.data })
          .where(eq(paymentSession.id, sessionId));
        throw errors.paymentRequiresMore("More information is required for payment");
      }
      // Not decided yet (a payment processing at the provider): no authorization, so no order; the
      // provider's webhook completes the cart once it is decided.
      if (outcome.status === "pending") {
        await db
          .update(paymentSession)
          .set({ status: "pending", data: outcome.data })
          .where(eq(paymentSession.id, sessionId));
        throw errors.paymentRequiresMore(
          `The payment is still processing at ${session.provider_id}; the order is placed once it succeeds`,
          { details: { reason: "payment_pending" } },
        );
      }
      const captured = outcome.captured === true;
      // All three or none: a process dying in between must not leave an authorized session without its payment.
      const created = await transaction(db, async (t) => {
        // Two requests authorizing the same session at once both reach the provider (with the same
        // idempotency key, so one authorization); the second to get here finds the session
        // authorized and answers the first one's payment.
        const won = await authorizeSession(t, { id: sessionId, data: outcome.data, now: new Date() });
        if (won.length === 0) return undefined;
        // The payment and the collection's amount, sent together (one round trip).
        const now = new Date();
        const [[row]] = await Promise.all([
          insertPayment(t, {
            id: generateId("pay"),
            payment_collection_id: collectionId,
            payment_session_id: sessionId,
            provider_id: session.provider_id,
            currency_code: session.currency_code,
            amount: session.amount,
            data: outcome.data,
            captured_at: captured ? now : null,
          }),
          addAuthorized(t, { id: collectionId, amount: session.amount, now }),
        ]);
        // Taken with the authorization (automatic capture): its capture is recorded with it.
        if (captured) {
          await t.insert(capture).values({ id: generateId("capt"), payment_id: row!.id, amount: session.amount });
          await t
            .update(paymentCollection)
            .set({ captured_amount: sql`${paymentCollection.captured_amount} + ${session.amount}` })
            .where(eq(paymentCollection.id, collectionId));
        }
        return row!;
      });
      return created ?? paymentOfSession();
    },

    /**
     * Authorizes the collection anew for `amount` (checkout, when the cart's total moved after its
     * payment was authorized: the payment must be the order's total, never more nor less): voids
     * each live authorization (refused, `not_allowed`, once something is captured), sets the
     * collection to `amount`, starts a session with the provider and data of the last authorized
     * one and authorizes it. Every provider call carries a key derived from `idempotencyKey`, and a
     * collection already authorized for exactly `amount` by one payment answers that payment, so a
     * retried or resumed call ends with one authorization. A provider able to change an authorized
     * amount in place would be asked here instead of voiding (Stripe cannot once an intent is
     * confirmed: the new authorization asks the shopper). Outcomes as {@link authorizePayment}'s: a
     * decline, a further customer step, a timeout.
     */
    async reauthorize(
      collectionId: string,
      amount: number,
      options: { idempotencyKey: string; timeoutMs?: number },
    ): Promise<PaymentRow> {
      const collection = await service.retrieveCollection(collectionId);
      const live = collection.payments.filter((p) => !p.canceled_at);
      if (collection.status === "authorized" && live.length === 1 && live[0]!.amount === amount) return live[0]!;
      // The last authorization tells the provider and its data (its session may be gone: a new one replaces it).
      const last = collection.payments.at(-1);
      if (!last) throw errors.notAllowed(`Payment collection ${collectionId} has no authorized payment to renew`);
      const context = collection.payment_sessions.find((s) => s.id === last.payment_session_id)?.context;
      for (const stale of live)
        await service.cancelPayment(stale.id, { idempotencyKey: `${options.idempotencyKey}:void:${stale.id}` });
      await db
        .update(paymentCollection)
        .set({ amount, updated_at: new Date() })
        .where(eq(paymentCollection.id, collectionId));
      const { session } = await service.startSession(collectionId, {
        provider_id: last.provider_id,
        data: last.data,
        context: context ?? undefined,
        idempotencyKey: `${options.idempotencyKey}:session`,
      });
      return service.authorizePayment(collectionId, session.id, {
        idempotencyKey: `${options.idempotencyKey}:authorize`,
        timeoutMs: options.timeoutMs,
      });
    },

    /**
     * Voids an authorization nothing of which was captured (the compensation of an authorization,
     * or an order's cancellation). The payment row is locked for the call, so a capture racing it
     * either committed first (then this refuses: `not_allowed`, refund instead) or finds the payment
     * canceled. Idempotent: true when this call voided it, false when it already was.
     */
    async cancelPayment(paymentId: string, options: { idempotencyKey?: string } = {}): Promise<boolean> {
      return transaction(db, async (t) => {
        const [row] = await t.select().from(payment).where(eq(payment.id, paymentId)).for("update");
        if (!row) throw errors.notFound(`Payment with id: ${paymentId} was not found`);
        if (row.canceled_at) return false;
        if ((await sumOf(t, capture, paymentId)) > 0)
          throw errors.notAllowed(`Payment ${paymentId} is captured; refund it instead`);
        await providers.get(row.provider_id).cancel({
          amount: row.amount,
          currency_code: row.currency_code,
          data: row.data,
          idempotencyKey: options.idempotencyKey ?? `cancel:${paymentId}`,
        });
        await markCanceled(t, row);
        return true;
      });
    },

    /**
     * Undoes an authorization (the compensation of checkout's authorize steps): voids it, or, when
     * the provider took the money with it (automatic capture), refunds what was captured and not
     * refunded, then marks it canceled. Idempotent on `idempotencyKey`.
     */
    async releasePayment(paymentId: string, options: { idempotencyKey: string }): Promise<void> {
      const row = await service.retrievePayment(paymentId);
      if (row.canceled_at) return;
      const [captured, refunded] = await Promise.all([sumOf(db, capture, paymentId), sumOf(db, refund, paymentId)]);
      if (captured === 0) {
        await service.cancelPayment(paymentId, { idempotencyKey: options.idempotencyKey });
        return;
      }
      if (captured > refunded)
        await service.refundPayment(paymentId, {
          amount: captured - refunded,
          note: "Checkout did not complete",
          idempotencyKey: `${options.idempotencyKey}:refund`,
        });
      await transaction(db, (t) => markCanceled(t, row));
    },

    /**
     * Captures `amount` (default: what is left) of an authorized payment. The payment row is locked
     * for the call, so two captures can never take more than was authorized.
     */
    async capturePayment(
      paymentId: string,
      options: { amount?: number; created_by?: string; idempotencyKey?: string } = {},
    ): Promise<Payment> {
      return transaction(db, async (tx) => {
        const row = await lockPayment(tx, paymentId);
        const captured = await sumOf(tx, capture, paymentId);
        const left = row.amount - captured;
        const amount = options.amount ?? left;
        if (!Number.isInteger(amount) || amount <= 0)
          throw errors.invalidData("Capture amount must be a positive integer");
        if (amount > left)
          throw errors.invalidData(`Cannot capture more than the authorized amount: ${left} left to capture`);
        await providers.get(row.provider_id).capture({
          amount,
          currency_code: row.currency_code,
          data: row.data,
          idempotencyKey: options.idempotencyKey ?? `capture:${paymentId}:${captured}`,
        });
        await tx
          .insert(capture)
          .values({ id: generateId("capt"), payment_id: paymentId, amount, created_by: options.created_by ?? null });
        if (amount === left) await tx.update(payment).set({ captured_at: new Date() }).where(eq(payment.id, paymentId));
        await tx
          .update(paymentCollection)
          .set({ captured_amount: sql`${paymentCollection.captured_amount} + ${amount}` })
          .where(eq(paymentCollection.id, row.payment_collection_id));
        return reloadPayment(tx, paymentId);
      });
    },

    /** Refunds `amount` of what was captured and not yet refunded; the payment row is locked for the call. */
    async refundPayment(
      paymentId: string,
      options: {
        amount: number;
        note?: string;
        refund_reason_id?: string;
        created_by?: string;
        idempotencyKey?: string;
      },
    ): Promise<Payment> {
      return transaction(db, async (tx) => {
        const row = await lockPayment(tx, paymentId);
        if (options.refund_reason_id) {
          const [reason] = await tx
            .select({ id: refundReason.id })
            .from(refundReason)
            .where(and(eq(refundReason.id, options.refund_reason_id), isNull(refundReason.deleted_at)));
          if (!reason) throw errors.invalidData(`Refund reason with id: ${options.refund_reason_id} was not found`);
        }
        const [captured, refunded] = await Promise.all([sumOf(tx, capture, paymentId), sumOf(tx, refund, paymentId)]);
        const left = captured - refunded;
        if (!Number.isInteger(options.amount) || options.amount <= 0)
          throw errors.invalidData("Refund amount must be a positive integer");
        if (options.amount > left)
          throw errors.invalidData(`Cannot refund more than the captured amount: ${left} left to refund`);
        await providers.get(row.provider_id).refund({
          amount: options.amount,
          currency_code: row.currency_code,
          data: row.data,
          idempotencyKey: options.idempotencyKey ?? `refund:${paymentId}:${refunded}`,
        });
        await tx.insert(refund).values({
          id: generateId("ref"),
          payment_id: paymentId,
          amount: options.amount,
          note: options.note ?? null,
          refund_reason_id: options.refund_reason_id ?? null,
          created_by: options.created_by ?? null,
        });
        await tx
          .update(paymentCollection)
          .set({ refunded_amount: sql`${paymentCollection.refunded_amount} + ${options.amount}` })
          .where(eq(paymentCollection.id, row.payment_collection_id));
        return reloadPayment(tx, paymentId);
      });
    },

    /**
     * Records a provider's webhook event once by its id: true when this call recorded it, false for
     * a repeated delivery (nothing changes).
     */
    async recordWebhookEvent(
      providerId: string,
      event: { event_id: string; action: string; session_id: string; reference: string; amount: number },
    ): Promise<boolean> {
      const inserted = await db
        .insert(paymentWebhookEvent)
        .values({ provider_id: providerId, ...event })
        .onConflictDoNothing()
        .returning({ event_id: paymentWebhookEvent.event_id });
      return inserted.length > 0;
    },

    /** A recorded webhook event; 404 when there is none. */
    async webhookEvent(providerId: string, eventId: string): Promise<PaymentWebhookEventRow> {
      const [row] = await db
        .select()
        .from(paymentWebhookEvent)
        .where(and(eq(paymentWebhookEvent.provider_id, providerId), eq(paymentWebhookEvent.event_id, eventId)));
      if (!row) throw errors.notFound(`Webhook event ${eventId} of ${providerId} was not found`);
      return row;
    },

    /** Marks a webhook event processed, saying what it did. */
    async finishWebhookEvent(providerId: string, eventId: string, outcome: string): Promise<void> {
      await db
        .update(paymentWebhookEvent)
        .set({ processed_at: new Date(), outcome })
        .where(and(eq(paymentWebhookEvent.provider_id, providerId), eq(paymentWebhookEvent.event_id, eventId)));
    },

    /** A session (any status) with its collection's row, and its payment if it was authorized; undefined when there is no such session. */
    async sessionWithPayment(
      sessionId: string,
    ): Promise<
      { session: PaymentSessionRow; collection: PaymentCollectionRow; payment: PaymentRow | undefined } | undefined
    > {
      const [row] = await db
        .select({ session: paymentSession, collection: paymentCollection })
        .from(paymentSession)
        .innerJoin(paymentCollection, eq(paymentCollection.id, paymentSession.payment_collection_id))
        .where(eq(paymentSession.id, sessionId));
      if (!row) return undefined;
      const [paid] = await db.select().from(payment).where(eq(payment.payment_session_id, sessionId));
      return { ...row, payment: paid };
    },

    /**
     * Brings a payment's refunds up to `refundedTotal`, what the provider says was refunded in all
     * (a refund made in its dashboard): records the difference as one refund. The payment row is
     * locked, so a refund Kasse itself is making commits first and is not counted twice.
     * Idempotent: answers the amount recorded (0 when Kasse already knows it all).
     */
    async recordProviderRefund(paymentId: string, refundedTotal: number): Promise<number> {
      return transaction(db, async (tx) => {
        const row = await tx.select().from(payment).where(eq(payment.id, paymentId)).for("update");
        if (!row[0]) throw errors.notFound(`Payment with id: ${paymentId} was not found`);
        const [captured, refunded] = await Promise.all([sumOf(tx, capture, paymentId), sumOf(tx, refund, paymentId)]);
        const missing = Math.min(refundedTotal, captured) - refunded;
        if (missing <= 0) return 0;
        await tx.insert(refund).values({
          id: generateId("ref"),
          payment_id: paymentId,
          amount: missing,
          note: `Refunded at ${row[0].provider_id}`,
        });
        await tx
          .update(paymentCollection)
          .set({ refunded_amount: sql`${paymentCollection.refunded_amount} + ${missing}`, updated_at: new Date() })
          .where(eq(paymentCollection.id, row[0].payment_collection_id));
        return missing;
      });
    },

    /**
     * Marks a payment canceled because its provider voided it (canceled in its dashboard, or the
     * hold expired): nothing is sent to the provider. Idempotent: true when this call marked it.
     * A payment with captures is left as it is (the provider cannot void taken money).
     */
    async recordProviderCancel(paymentId: string): Promise<boolean> {
      return transaction(db, async (tx) => {
        const [row] = await tx.select().from(payment).where(eq(payment.id, paymentId)).for("update");
        if (!row) throw errors.notFound(`Payment with id: ${paymentId} was not found`);
        if (row.canceled_at || (await sumOf(tx, capture, paymentId)) > 0) return false;
        await markCanceled(tx, row);
        return true;
      });
    },

    /**
     * Payments and collections breaking authorized ≥ captured ≥ refunded (`kasse check`): a payment
     * whose captures exceed its amount or whose refunds exceed its captures, a collection whose
     * stored amounts are out of that order. Read-only, aggregate SQL, at most `limit` rows.
     */
    async checkAmounts(limit = 50): Promise<Array<{ id: string; problem: string }>> {
      const rows = await queryRows<{ id: string; authorized: string; captured: string; refunded: string }>(
        db,
        sql`(select p.id, p.amount::text as authorized, coalesce(c.total, 0)::text as captured, coalesce(r.total, 0)::text as refunded
             from payment p
             left join (select payment_id, sum(amount) as total from payment_capture group by payment_id) c on c.payment_id = p.id
             left join (select payment_id, sum(amount) as total from payment_refund group by payment_id) r on r.payment_id = p.id
             where p.deleted_at is null and (coalesce(c.total, 0) > p.amount or coalesce(r.total, 0) > coalesce(c.total, 0))
             order by p.id limit ${limit})
            union all
            (select id, authorized_amount::text, captured_amount::text, refunded_amount::text from payment_collection
             where deleted_at is null and (captured_amount > authorized_amount or refunded_amount > captured_amount)
             order by id limit ${limit})`,
      );
      return rows.slice(0, limit).map((r) => ({
        id: r.id,
        problem: `authorized ${r.authorized}, captured ${r.captured}, refunded ${r.refunded}`,
      }));
    },
  };
  return service;
}

export type PaymentService = ReturnType<typeof createPaymentService>;

/**
 * The id of the session a start keyed `key` makes: the same at every attempt, because the provider
 * keeps its first answer under the key (Stripe's intent names the session in its metadata, and
 * refuses the key with other parameters). As unguessable as the key (a random execution id in it).
 */
function sessionIdFor(key: string): string {
  return `payses_${createHash("sha256").update(key).digest("hex").slice(0, 30).toUpperCase()}`;
}

/** A payment voided: canceled with its session, and its amount taken off its collection's authorized amount. */
async function markCanceled(tx: Db, row: PaymentRow): Promise<void> {
  await tx.update(payment).set({ canceled_at: new Date() }).where(eq(payment.id, row.id));
  await tx.update(paymentSession).set({ status: "canceled" }).where(eq(paymentSession.id, row.payment_session_id));
  await tx
    .update(paymentCollection)
    .set({
      authorized_amount: sql`greatest(${paymentCollection.authorized_amount} - ${row.amount}, 0)`,
      status: sql`case when ${paymentCollection.authorized_amount} - ${row.amount} <= 0 then 'canceled' else 'partially_authorized' end`,
    })
    .where(eq(paymentCollection.id, row.payment_collection_id));
}

async function lockPayment(tx: Db, paymentId: string): Promise<PaymentRow> {
  const [row] = await tx.select().from(payment).where(eq(payment.id, paymentId)).for("update");
  if (!row) throw errors.notFound(`Payment with id: ${paymentId} was not found`);
  if (row.canceled_at) throw errors.notAllowed(`Payment ${paymentId} is canceled`);
  return row;
}

async function reloadPayment(tx: Db, paymentId: string): Promise<Payment> {
  const rows = await tx.select().from(payment).where(eq(payment.id, paymentId));
  return (await attachPayments(tx, rows))[0]!;
}

async function sumOf(tx: Db, table: typeof capture | typeof refund, paymentId: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<string>`coalesce(sum(${table.amount}), 0)` })
    .from(table)
    .where(eq(table.payment_id, paymentId));
  return Number(row?.total ?? 0);
}

// The writes of a checkout's payment steps, built once (per shape of their row, for the inserts).
const insertCollection = builtRowWrite<PaymentCollectionRow[]>(paymentCollection, (db, row) =>
  db.insert(paymentCollection).values(row).onConflictDoNothing().returning(),
);
// The session checkout authorizes, read first.
const sessionOfCollection = builtOnce<PaymentSessionRow[], { id: string; collection_id: string }>((db) =>
  db
    .select()
    .from(paymentSession)
    .where(and(eq(paymentSession.id, param("id")), eq(paymentSession.payment_collection_id, param("collection_id")))),
);
// A new session replaces the collection's sessions not authorized.
const deleteReplacedSessions = builtOnce<unknown, { collection_id: string }>((db) =>
  db
    .delete(paymentSession)
    .where(
      and(eq(paymentSession.payment_collection_id, param("collection_id")), ne(paymentSession.status, "authorized")),
    ),
);
const insertSession = builtRowWrite<PaymentSessionRow[]>(paymentSession, (db, row) =>
  db.insert(paymentSession).values(row).returning(),
);
// The session authorized, unless it already is or was canceled; `data` as the provider answered
// (per shape: a provider answering none leaves the column as it is, as a plain update does).
const authorizeSession = builtPerShape<Array<{ id: string }>, { id: string; data: unknown; now: Date }>(
  ["data"],
  (db, value) =>
    db
      .update(paymentSession)
      .set({
        status: "authorized",
        data: value("data") as SQL | undefined,
        authorized_at: slot("now"),
        updated_at: slot("now"),
      })
      .where(and(eq(paymentSession.id, param("id")), notInArray(paymentSession.status, ["authorized", "canceled"])))
      .returning({ id: paymentSession.id }),
);
const insertPayment = builtRowWrite<PaymentRow[]>(payment, (db, row) => db.insert(payment).values(row).returning());
// An authorized payment's amount added to its collection's, and the collection's status from the sum.
const addAuthorized = builtOnce<unknown, { id: string; amount: number; now: Date }>((db) =>
  db
    .update(paymentCollection)
    .set({
      authorized_amount: sql`${paymentCollection.authorized_amount} + ${param("amount")}`,
      status: sql`case when ${paymentCollection.authorized_amount} + ${param("amount")} >= ${paymentCollection.amount} then 'authorized' else 'partially_authorized' end`,
      updated_at: slot("now"),
    })
    .where(eq(paymentCollection.id, param("id"))),
);

const liveCollectionsById = builtOnce<PaymentCollectionRow[], { ids: string }>((db) =>
  db
    .select()
    .from(paymentCollection)
    .where(and(inParam(paymentCollection.id, "ids"), liveCollection)),
);

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
const fullCollectionsById = builtOnce<FullCollectionRow[], { ids: string }>((db) =>
  db
    .select(fullCollection)
    .from(paymentCollection)
    .where(and(inParam(paymentCollection.id, "ids"), liveCollection)),
);
const fullCollectionOfCart = builtOnce<FullCollectionRow[], { cart_id: string }>((db) =>
  db
    .select(fullCollection)
    .from(paymentCollection)
    .where(and(eq(paymentCollection.cart_id, param("cart_id")), liveCollection)),
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

// The relations every collection read attaches, built once (`ids`: an idList of parent ids).
const capturesOf = builtOnce<CaptureRow[], { ids: string }>((db) =>
  db.select().from(capture).where(inParam(capture.payment_id, "ids")).orderBy(asc(capture.created_at)),
);
const refundsOf = builtOnce<
  Array<{ payment_refund: RefundRow; refund_reason: RefundReasonRow | null }>,
  { ids: string }
>((db) =>
  db
    .select()
    .from(refund)
    .leftJoin(refundReason, eq(refundReason.id, refund.refund_reason_id))
    .where(inParam(refund.payment_id, "ids"))
    .orderBy(asc(refund.created_at)),
);
const sessionsOfCollections = builtOnce<PaymentSessionRow[], { ids: string }>((db) =>
  db
    .select()
    .from(paymentSession)
    .where(inParam(paymentSession.payment_collection_id, "ids"))
    .orderBy(asc(paymentSession.created_at)),
);
const paymentsOfCollections = builtOnce<PaymentRow[], { ids: string }>((db) =>
  db.select().from(payment).where(inParam(payment.payment_collection_id, "ids")).orderBy(asc(payment.created_at)),
);

async function attachPayments(tx: Db, rows: PaymentRow[]): Promise<Payment[]> {
  if (rows.length === 0) return [];
  const ids = idList(rows.map((r) => r.id));
  const [captures, refunds] = await Promise.all([capturesOf(tx, { ids }), refundsOf(tx, { ids })]);
  return rows.map((row) => ({
    ...row,
    captures: captures.filter((c) => c.payment_id === row.id),
    refunds: refunds
      .filter((r) => r.payment_refund.payment_id === row.id)
      .map((r) => ({ ...r.payment_refund, refund_reason: r.refund_reason })),
  }));
}

/** The sessions of the collections `ids`, oldest first. */
function sessionsOf(tx: Db, ids: string[]): Promise<PaymentSessionRow[]> {
  return sessionsOfCollections(tx, { ids: idList(ids) });
}

async function attach(tx: Db, rows: PaymentCollectionRow[]): Promise<PaymentCollection[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [sessions, payments] = await Promise.all([
    sessionsOf(tx, ids),
    paymentsOfCollections(tx, { ids: idList(ids) }),
  ]);
  const full = await attachPayments(tx, payments);
  return rows.map((row) => ({
    ...row,
    payment_sessions: sessions.filter((s) => s.payment_collection_id === row.id),
    payments: full.filter((p) => p.payment_collection_id === row.id),
  }));
}
