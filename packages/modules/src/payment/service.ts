import { errors, generateId, hashSecret, isKasseError } from "@kasse/core";
import { transaction } from "@kasse/db";
import { createProviderRegistry, type ProviderRegistry } from "./providers/registry";
import { paymentQueries as q, refundReasonQueries, type Payment, type PaymentCollection } from "./queries";
import type { PaymentCollectionRow, PaymentRow, PaymentSessionRow, PaymentWebhookEventRow } from "./schema";

export type { Payment, PaymentCollection };

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
 * const payments = createPaymentService();
 * const collection = await payments.createCollection({ cart_id, currency_code: "usd", amount: 2500 });
 */
export function createPaymentService(providers: ProviderRegistry = createProviderRegistry()) {
  /**
   * Cancels a session never authorized at its provider (key `cancel:<session>` unless given): a
   * replaced or abandoned session's payment can no longer be taken. A payment the provider says
   * can no longer be canceled (`not_allowed`: paid meanwhile) is left to its webhook.
   */
  const cancelAtProvider = async (session: PaymentSessionRow, idempotencyKey = `cancel:${session.id}`) => {
    try {
      await providers.get(session.provider_id).cancel({ ...callOf(session), idempotencyKey, sessionId: session.id });
    } catch (error) {
      if (!(isKasseError(error) && error.type === "not_allowed")) throw error;
    }
  };

  const service = {
    providers,

    /** Creates the cart's collection, or returns the one it already has. */
    async createCollection(
      input: Pick<PaymentCollectionRow, "currency_code" | "amount"> &
        Partial<Pick<PaymentCollectionRow, "cart_id" | "region_id">>,
    ): Promise<PaymentCollection> {
      if (input.cart_id) {
        const existing = await service.collectionForCart(input.cart_id);
        if (existing) return existing;
      }
      const id = generateId("pay_col");
      const inserted = await q.insertCollection({
        id,
        cart_id: input.cart_id ?? null,
        region_id: input.region_id ?? null,
        currency_code: input.currency_code.toLowerCase(),
        amount: input.amount,
      });
      // A collection created by this statement has no sessions nor payments yet: nothing to read back.
      if (inserted) return { ...inserted, payment_sessions: [], payments: [] };
      if (input.cart_id) return (await service.collectionForCart(input.cart_id))!;
      return service.retrieveCollection(id);
    },

    /**
     * Deletes a collection nothing was paid into (no payment): the undo of {@link createCollection}
     * for an order's collection (an order edit's difference) when its saga fails after it.
     */
    removeUnpaidCollection: q.deleteUnpaidCollection,

    /**
     * Deletes an order's collection nothing was paid into (Medusa's `DELETE /admin/payment-collections/{id}`):
     * under the collection's lock, refused (`invalid_data`) once anything is authorized or paid;
     * its open sessions are canceled with their providers first. {@link restoreCollection} undoes it.
     */
    async deleteCollection(id: string): Promise<void> {
      await transaction(async () => {
        const row = await lockUnpaid(id, "deleted");
        for (const session of await q.sessionsOf(row.id)) if (followsCart(session)) await cancelAtProvider(session);
        await q.softDeleteCollection(row.id);
      });
    },

    /** Brings back a collection {@link deleteCollection} deleted (the undo of a saga that failed after it). */
    restoreCollection: q.restoreCollection,

    /**
     * Records that a collection was paid outside any provider (Medusa's `mark-as-paid`): a payment
     * of the collection's whole amount with the system provider (`pp_system_default`), authorized
     * and captured at once, in one transaction under the collection's lock, so a second marking
     * waits and is refused (`invalid_data`: only an unpaid collection can be marked paid). The
     * collection's other open sessions are canceled with their providers (a payment link left open
     * could otherwise be paid as well). Answers the payment.
     */
    async markCollectionPaid(
      id: string,
      options: { created_by?: string | null; idempotencyKey?: string } = {},
    ): Promise<PaymentRow> {
      return transaction(async () => {
        const row = await lockUnpaid(id, "marked as paid");
        if (row.amount <= 0) throw errors.invalidData(`Payment collection ${id} asks for nothing`);
        for (const session of await q.sessionsOf(row.id)) if (followsCart(session)) await cancelAtProvider(session);
        await q.deleteReplacedSessions({ collection_id: row.id });
        const provider = providers.get(MANUAL_PROVIDER);
        const sessionId = generateId("payses");
        const key = options.idempotencyKey ?? `mark-paid:${id}`;
        const call = { amount: row.amount, currency_code: row.currency_code, data: {}, idempotencyKey: key };
        await provider.authorize({ ...call, context: {} });
        await provider.capture({ ...call, idempotencyKey: `${key}:capture` });
        const now = new Date();
        await q.insertSession({
          id: sessionId,
          payment_collection_id: row.id,
          provider_id: provider.id,
          currency_code: row.currency_code,
          amount: row.amount,
          status: "authorized",
          authorized_at: now,
          data: {},
        });
        const paid = (await q.insertPayment({
          id: generateId("pay"),
          payment_collection_id: row.id,
          payment_session_id: sessionId,
          provider_id: provider.id,
          currency_code: row.currency_code,
          amount: row.amount,
          captured_at: now,
        }))!;
        await q.insertCapture({
          id: generateId("capt"),
          payment_id: paid.id,
          amount: row.amount,
          created_by: options.created_by ?? null,
        });
        await q.setCollection(row.id, {
          authorized_amount: row.amount,
          captured_amount: row.amount,
          status: "completed",
          completed_at: now,
        });
        return paid;
      });
    },

    /**
     * Takes back a payment {@link markCollectionPaid} recorded (the undo of a saga that failed after
     * it): its rows deleted and the collection unpaid again. Refused (`not_allowed`) for a payment
     * of another provider or one something was refunded from. Idempotent: a payment already gone is nothing to do.
     */
    async removeManualPayment(paymentId: string): Promise<void> {
      await transaction(async () => {
        const row = await q.lockPayment({ id: paymentId });
        if (!row) return;
        if (row.provider_id !== MANUAL_PROVIDER || (await q.refunded(paymentId)) > 0)
          throw errors.notAllowed(`Payment ${paymentId} is not a manual payment that can be taken back`);
        await q.deletePayment(row);
        await q.setCollection(row.payment_collection_id, NOTHING_PAID);
      });
    },

    /**
     * Puts a collection whose every authorization was voided (none captured) back to `not_paid`:
     * the undoing of an order's payment-link payment, so the link stays payable. Anything else is
     * left as it is.
     */
    async reopenCollection(id: string): Promise<void> {
      await transaction(async () => {
        const row = await q.lockCollection({ id });
        if (!row || row.status !== "canceled" || row.authorized_amount > 0 || row.captured_amount > 0) return;
        await q.setCollection(id, NOTHING_PAID);
      });
    },

    async retrieveCollection(id: string): Promise<PaymentCollection> {
      const [full] = await q.collectionsById({ ids: [id] });
      if (!full) throw errors.notFound(`Payment collection with id: ${id} was not found`);
      return full;
    },

    /** The collection's own row, without its sessions and payments (which cart and region it is for). */
    collectionRow: q.retrieveCollection,

    /** One payment's own row (canceled ones too). */
    retrievePayment: (id: string): Promise<PaymentRow> => foundPayment(id, q.payment),

    collectionForCart: (cartId: string): Promise<PaymentCollection | undefined> =>
      q.collectionOfCart({ cart_id: cartId }),

    /** The currency of a payment (what its amounts are in); 404 when there is no such payment. */
    paymentCurrency: async (paymentId: string): Promise<string> =>
      (await foundPayment(paymentId, q.payment)).currency_code,

    /** Collections of many carts (or ids) with sessions and payments: a constant number of queries. */
    async listCollections(filter: { id?: string[]; cart_id?: string[] }): Promise<PaymentCollection[]> {
      if (filter.id && !filter.cart_id) return q.collectionsById({ ids: filter.id });
      return q.collectionsWhere(filter);
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
      const row = await q.syncCartAmount({ cart_id: cartId, total });
      // A provider that keeps the amount itself (Stripe's PaymentIntent) is told before anything
      // authorizes it; failing, it throws and the caller's transaction leaves the amount behind, so
      // the next sync tries again. The key names this change (the session's update time, which the
      // statement above just set): a total that returns to an earlier amount is a new change, which
      // Stripe would otherwise answer from its record of the earlier one and leave undone.
      for (const changed of row?.sessions ?? []) {
        const provider = providers.get(changed.provider_id);
        if (!provider.update) continue;
        const session = await q.session({ id: changed.id });
        if (!session) continue;
        const updated = await provider
          .update({
            ...callOf(session),
            amount: total,
            idempotencyKey: `${session.id}:amount:${total}:${session.updated_at.getTime()}`,
            sessionId: session.id,
          })
          .catch((error: unknown) => {
            // Paid meanwhile for the old amount: it stays as it is, and authorizing it declines
            // (the amounts differ), so the shopper pays the new total with a new session.
            if (isKasseError(error) && error.type === "not_allowed") return undefined;
            throw error;
          });
        if (updated) await q.setSession(session.id, { data: updated.data });
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
      const session = await transaction(async () => {
        await q.deleteReplacedSessions({ collection_id: collectionId });
        return (await q.insertSession({
          id,
          payment_collection_id: collectionId,
          provider_id: provider.id,
          currency_code: collection.currency_code,
          amount: collection.amount,
          data: initiated.data,
          context: input.context ?? null,
        }))!;
      });
      return { collection, session };
    },

    /**
     * Undoes a session (the compensation of its creation): cancels it with its provider and
     * removes its row, unless it was authorized meanwhile (then its payment is voided through
     * `cancelPayment`, not here). Idempotent: a session already gone is nothing to do.
     */
    async cancelSession(sessionId: string, options: { idempotencyKey?: string } = {}): Promise<void> {
      const session = await q.session({ id: sessionId });
      if (!session || session.status === "authorized") return;
      await cancelAtProvider(session, options.idempotencyKey);
      await q.deleteUnauthorizedSession(sessionId);
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
      const session = await q.sessionOfCollection({ id: sessionId, collection_id: collectionId });
      if (!session) throw errors.notFound(`Payment session with id: ${sessionId} was not found`);
      /** The payment an earlier (or a concurrent) authorization of this session made. */
      const paymentOfSession = async () => {
        const row = await q.paymentOfSession({ session_id: sessionId });
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
        ...callOf(session),
        context: { ...(session.context ?? {}), ...(options.context ?? {}) },
        idempotencyKey,
      });
      const outcome = await answerWithin(call, options.timeoutMs, () => {
        void call
          .then((late) =>
            late.status === "authorized" && !provider.authorizeReads
              ? provider.cancel({ ...callOf(session), data: late.data, idempotencyKey: `${idempotencyKey}:late` })
              : undefined,
          )
          .catch(() => {});
        return errors.timeout(
          `Payment provider ${session.provider_id} did not answer the authorization within ${options.timeoutMs} ms`,
        );
      });
      if (outcome.status === "declined") {
        await q.setSession(sessionId, { status: "error", data: outcome.data });
        throw errors.paymentAuthorization(outcome.message);
      }
      if (outcome.status === "requires_more") {
        await q.setSession(sessionId, { status: "requires_more", data: outcome.data });
        throw errors.paymentRequiresMore("More information is required for payment");
      }
      // Not decided yet (a payment processing at the provider): no authorization, so no order; the
      // provider's webhook completes the cart once it is decided.
      if (outcome.status === "pending") {
        await q.setSession(sessionId, { status: "pending", data: outcome.data });
        throw errors.paymentRequiresMore(
          `The payment is still processing at ${session.provider_id}; the order is placed once it succeeds`,
          { details: { reason: "payment_pending" } },
        );
      }
      const captured = outcome.captured === true;
      // All three or none: a process dying in between must not leave an authorized session without its payment.
      const created = await transaction(async () => {
        // Two requests authorizing the same session at once both reach the provider (with the same
        // idempotency key, so one authorization); the second to get here finds the session
        // authorized and answers the first one's payment.
        const now = new Date();
        if (!(await q.authorizeSession({ id: sessionId, data: outcome.data, now }))) return undefined;
        // The payment and the collection's amount, sent together (one round trip).
        const [row] = await Promise.all([
          q.insertPayment({
            id: generateId("pay"),
            payment_collection_id: collectionId,
            payment_session_id: sessionId,
            provider_id: session.provider_id,
            currency_code: session.currency_code,
            amount: session.amount,
            data: outcome.data,
            captured_at: captured ? now : null,
          }),
          q.addAuthorized({ id: collectionId, amount: session.amount, now }),
        ]);
        // Taken with the authorization (automatic capture): its capture is recorded with it.
        if (captured) await recordCapture(row!, session.amount);
        return row;
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
      await q.setCollection(collectionId, { amount });
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
      return transaction(async () => {
        const row = await foundPayment(paymentId, q.lockPayment);
        if (row.canceled_at) return false;
        if ((await q.captured(paymentId)) > 0)
          throw errors.notAllowed(`Payment ${paymentId} is captured; refund it instead`);
        await providers
          .get(row.provider_id)
          .cancel({ ...callOf(row), idempotencyKey: options.idempotencyKey ?? `cancel:${paymentId}` });
        await q.markCanceled(row);
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
      const [captured, refunded] = await Promise.all([q.captured(paymentId), q.refunded(paymentId)]);
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
      await transaction(() => q.markCanceled(row, captured));
    },

    /**
     * Captures `amount` (default: what is left) of an authorized payment. The payment row is locked
     * for the call, so two captures can never take more than was authorized.
     */
    async capturePayment(
      paymentId: string,
      options: { amount?: number; created_by?: string; idempotencyKey?: string } = {},
    ): Promise<Payment> {
      return transaction(async () => {
        const row = await lockPayment(paymentId);
        const captured = await q.captured(paymentId);
        const left = row.amount - captured;
        const amount = options.amount ?? left;
        if (!Number.isInteger(amount) || amount <= 0)
          throw errors.invalidData("Capture amount must be a positive integer");
        if (amount > left)
          throw errors.invalidData(`Cannot capture more than the authorized amount: ${left} left to capture`);
        await providers.get(row.provider_id).capture({
          ...callOf(row),
          amount,
          idempotencyKey: options.idempotencyKey ?? `capture:${paymentId}:${captured}`,
        });
        await recordCapture(row, amount, options.created_by);
        if (amount === left) await q.setPayment(paymentId, { captured_at: new Date() });
        return q.paymentWithMovements(paymentId);
      });
    },

    /** Refunds `amount` of what was captured and not yet refunded; the payment row is locked for the call. */
    async refundPayment(
      paymentId: string,
      options: RefundNote & { amount: number; idempotencyKey?: string },
    ): Promise<Payment> {
      return transaction(async () => {
        const row = await lockPayment(paymentId);
        if (options.refund_reason_id && !(await refundReasonQueries.find(options.refund_reason_id)))
          throw errors.invalidData(`Refund reason with id: ${options.refund_reason_id} was not found`);
        const [captured, refunded] = await Promise.all([q.captured(paymentId), q.refunded(paymentId)]);
        const left = captured - refunded;
        if (!Number.isInteger(options.amount) || options.amount <= 0)
          throw errors.invalidData("Refund amount must be a positive integer");
        if (options.amount > left)
          throw errors.invalidData(`Cannot refund more than the captured amount: ${left} left to refund`);
        await providers.get(row.provider_id).refund({
          ...callOf(row),
          amount: options.amount,
          idempotencyKey: options.idempotencyKey ?? `refund:${paymentId}:${refunded}`,
        });
        await recordRefund(row, options.amount, options);
        return q.paymentWithMovements(paymentId);
      });
    },

    /**
     * Records a provider's webhook event once by its id: true when this call recorded it, false for
     * a repeated delivery (nothing changes).
     */
    recordWebhookEvent: (
      providerId: string,
      event: Pick<PaymentWebhookEventRow, "event_id" | "action" | "session_id" | "reference" | "amount">,
    ): Promise<boolean> => q.insertWebhookEvent({ provider_id: providerId, ...event }),

    /** A recorded webhook event; 404 when there is none. */
    async webhookEvent(providerId: string, eventId: string): Promise<PaymentWebhookEventRow> {
      const row = await q.webhookEvent({ provider_id: providerId, event_id: eventId });
      if (!row) throw errors.notFound(`Webhook event ${eventId} of ${providerId} was not found`);
      return row;
    },

    /** Marks a webhook event processed, saying what it did. */
    finishWebhookEvent: q.finishWebhookEvent,

    /** A session (any status) with its collection's row, and its payment if it was authorized; undefined when there is no such session. */
    async sessionWithPayment(sessionId: string) {
      const row = await q.sessionWithCollection(sessionId);
      if (!row) return undefined;
      return { ...row, payment: await q.paymentOfSession({ session_id: sessionId }) };
    },

    /**
     * Brings a payment's refunds up to `refundedTotal`, what the provider says was refunded in all
     * (a refund made in its dashboard): records the difference as one refund. The payment row is
     * locked, so a refund Kasse itself is making commits first and is not counted twice.
     * Idempotent: answers the amount recorded (0 when Kasse already knows it all).
     */
    async recordProviderRefund(paymentId: string, refundedTotal: number): Promise<number> {
      return transaction(async () => {
        const row = await foundPayment(paymentId, q.lockPayment);
        const [captured, refunded] = await Promise.all([q.captured(paymentId), q.refunded(paymentId)]);
        const missing = Math.min(refundedTotal, captured) - refunded;
        if (missing <= 0) return 0;
        await recordRefund(row, missing, { note: `Refunded at ${row.provider_id}` });
        return missing;
      });
    },

    /**
     * Marks a payment canceled because its provider voided it (canceled in its dashboard, or the
     * hold expired): nothing is sent to the provider. Idempotent: true when this call marked it.
     * A payment with captures is left as it is (the provider cannot void taken money).
     */
    async recordProviderCancel(paymentId: string): Promise<boolean> {
      return transaction(async () => {
        const row = await foundPayment(paymentId, q.lockPayment);
        if (row.canceled_at || (await q.captured(paymentId)) > 0) return false;
        await q.markCanceled(row);
        return true;
      });
    },

    /**
     * Payments and collections breaking authorized ≥ captured ≥ refunded (`kasse check`): a payment
     * whose captures exceed its amount or whose refunds exceed its captures, a collection whose
     * stored amounts are out of that order. Read-only, aggregate SQL, at most `limit` rows.
     */
    async checkAmounts(limit = 50): Promise<Array<{ id: string; problem: string }>> {
      const rows = await q.amountsOutOfOrder(limit);
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
  return `payses_${hashSecret(key).slice(0, 30).toUpperCase()}`;
}

/** Medusa's system provider: what a payment recorded by hand (`mark-as-paid`) is made with. */
const MANUAL_PROVIDER = "pp_system_default";
/** A collection's amounts and status with nothing paid into it. */
const NOTHING_PAID = { authorized_amount: 0, captured_amount: 0, status: "not_paid", completed_at: null } as const;
/** The statuses of a collection nothing was authorized or paid into. */
const UNPAID = new Set(["not_paid", "awaiting"]);

/** The live collection `id`, locked for the rest of the transaction; refused unless nothing was authorized or paid into it. */
async function lockUnpaid(id: string, doing: string): Promise<PaymentCollectionRow> {
  const row = await q.lockCollection({ id });
  if (!row) throw errors.notFound(`Payment collection with id: ${id} was not found`);
  if (!UNPAID.has(row.status) || row.authorized_amount > 0 || row.captured_amount > 0)
    throw errors.invalidData(`Payment collection ${id} is ${row.status}: only an unpaid collection can be ${doing}`);
  return row;
}

/** The payment `paymentId`, locked for the rest of the transaction; refused when it is canceled. */
async function lockPayment(paymentId: string): Promise<PaymentRow> {
  const row = await foundPayment(paymentId, q.lockPayment);
  if (row.canceled_at) throw errors.notAllowed(`Payment ${paymentId} is canceled`);
  return row;
}

/** The payment `id` as `read` (read or lock) finds it; `not_found` when there is none. */
async function foundPayment(id: string, read: (v: { id: string }) => Promise<PaymentRow | undefined>) {
  const row = await read({ id });
  if (!row) throw errors.notFound(`Payment with id: ${id} was not found`);
  return row;
}

/** Records a capture of `amount` of the payment, added to its collection's captured amount. */
async function recordCapture(row: PaymentRow, amount: number, created_by?: string): Promise<void> {
  await q.insertCapture({ id: generateId("capt"), payment_id: row.id, amount, created_by });
  await q.addToCollection(row.payment_collection_id, "captured_amount", amount);
}

/** Why a payment was refunded, and by whom. */
type RefundNote = { note?: string; refund_reason_id?: string; created_by?: string };

/** Records a refund of `amount` of the payment (why, and by whom), added to its collection's refunded amount. */
async function recordRefund(row: PaymentRow, amount: number, { note, refund_reason_id, created_by }: RefundNote) {
  await q.insertRefund({ id: generateId("ref"), payment_id: row.id, amount, note, refund_reason_id, created_by });
  await q.addToCollection(row.payment_collection_id, "refunded_amount", amount);
}

/** What a provider call says of a session or payment: its amount, currency and provider data. */
const callOf = ({ amount, currency_code, data }: Pick<PaymentRow, "amount" | "currency_code" | "data">) => ({
  amount,
  currency_code,
  data,
});
