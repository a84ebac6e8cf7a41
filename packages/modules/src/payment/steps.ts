import { definitions } from "@kasse/workflows";
import type { PaymentService, SessionStart } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { payment: PaymentService };

const { step } = definitions<StepModules>();

/** What an authorizing step answers: the payment, and whether its authorization took the money at once. */
const authorized = (payment: { id: string; captured_at: Date | null }) => ({
  payment_id: payment.id,
  captured: payment.captured_at !== null,
});

/** An authorizing step's compensation: a payment taken with its authorization (automatic capture) is refunded, not voided. */
async function releaseAuthorized(
  { payment_id }: { payment_id: string },
  ctx: { modules: StepModules; idempotencyKey: string },
): Promise<void> {
  await ctx.modules.payment.releasePayment(payment_id, { idempotencyKey: `${ctx.idempotencyKey}:cancel` });
}

/** What a store request gives to start a payment session (`POST /store/payment-collections/{id}/payment-sessions`). */
export type PaymentSessionInput = Omit<SessionStart, "idempotencyKey"> & { collection_id: string };

/**
 * Starts a payment session: the provider's `initiate` (an outside effect, at least once: the
 * provider gets the step's idempotency key, so a retried or resumed step initiates once), then the
 * session's row, replacing the collection's unauthorized sessions, in one payment-module
 * transaction. No transaction is held across the provider's call. Journals the session's id only
 * (the provider's data stays in the session row). Compensation cancels the session with its
 * provider and removes it.
 */
export const createPaymentSessionStep = step("create-payment-session", {
  transactional: false,
  invoke: async (input: PaymentSessionInput, ctx) => {
    const { collection_id, ...start } = input;
    const { session } = await ctx.modules.payment.startSession(collection_id, {
      ...start,
      idempotencyKey: ctx.idempotencyKey,
    });
    return { output: { session_id: session.id } };
  },
  compensate: async ({ session_id }: { session_id: string }, ctx) => {
    await ctx.modules.payment.cancelSession(session_id, { idempotencyKey: `${ctx.idempotencyKey}:cancel` });
  },
});

/**
 * How long one authorization attempt waits for the provider. A provider that does not answer
 * fails the attempt with a retryable `timeout` (three attempts in all), then the saga
 * compensates; the call's late answer is voided, not recorded. The wait is the provider's alone
 * (not a step `timeoutMs`): an attempt slowed by the database is never abandoned halfway through
 * its writes.
 */
const AUTHORIZE_TIMEOUT_MS = 5_000;

/**
 * Authorizes a payment session with its provider (an outside effect, at least once: the provider
 * gets the step's idempotency key): the session and collection become `authorized` and a payment
 * is written. A decline fails with `payment_authorization_error`, a further customer step with
 * `payment_requires_more_error`, a canceled session with `not_allowed`, a replaced one with
 * `not_found`, a provider silent for `AUTHORIZE_TIMEOUT_MS` with `timeout`. Compensation voids the
 * authorization. Used by checkout and by the store's authorize route.
 */
export const authorizePaymentSessionStep = step("authorize-cart-payment", {
  transactional: false,
  invoke: async (input: { collection_id: string; session_id: string; context?: Record<string, unknown> }, ctx) => {
    const payment = await ctx.modules.payment.authorizePayment(input.collection_id, input.session_id, {
      context: input.context,
      idempotencyKey: ctx.idempotencyKey,
      timeoutMs: AUTHORIZE_TIMEOUT_MS,
    });
    return { output: authorized(payment) };
  },
  compensate: releaseAuthorized,
});

/**
 * Keeps an order's collection payable when its payment is undone: nothing forward; run before the
 * authorization, its compensation comes after the authorization's void and reopens the collection
 * (`not_paid` again, not `canceled`), so the shopper's payment link still works.
 */
export const keepCollectionPayableStep = step("keep-payment-collection-payable", {
  invoke: async (input: { payment_collection_id: string }) => ({ output: null, compensateInput: input }),
  compensate: async (input: { payment_collection_id: string }, ctx) => {
    await ctx.modules.payment.reopenCollection(input.payment_collection_id);
  },
});

/**
 * Checkout's payment when the collection is authorized for another amount than the cart's total
 * (the cart changed after the shopper authorized): voids that authorization and authorizes the
 * total anew with the same provider (`payment.reauthorize`, every provider call keyed on the step's
 * idempotency key, so a retried or resumed step ends with one authorization). Outcomes as
 * `authorize-cart-payment`'s; compensation voids the new authorization (the voided one stays
 * voided: it was for an amount no order will have).
 */
export const reauthorizeCartPaymentStep = step("reauthorize-cart-payment", {
  transactional: false,
  invoke: async (input: { collection_id: string; amount: number }, ctx) => {
    const payment = await ctx.modules.payment.reauthorize(input.collection_id, input.amount, {
      idempotencyKey: ctx.idempotencyKey,
      timeoutMs: AUTHORIZE_TIMEOUT_MS,
    });
    return { output: authorized(payment) };
  },
  compensate: releaseAuthorized,
});

/**
 * Creates a payment collection for an amount an order owes (an order edit's difference): the
 * order's own steps attach it. Compensation deletes it (nothing can have been paid into it yet).
 */
export const createOrderPaymentCollectionStep = step("create-order-payment-collection", {
  invoke: async (input: { region_id: string | null; currency_code: string; amount: number }, ctx) => {
    const collection = await ctx.modules.payment.createCollection(input);
    return { output: { id: collection.id }, compensateInput: { id: collection.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await ctx.modules.payment.removeUnpaidCollection(id);
  },
});

/**
 * Records a collection paid by hand (`payment.markCollectionPaid`: a system-provider payment of its
 * whole amount, captured at once). Compensation takes that payment back out, the collection unpaid again.
 */
export const markCollectionPaidStep = step("mark-payment-collection-paid", {
  invoke: async (input: { payment_collection_id: string; created_by: string | null }, ctx) => {
    const paid = await ctx.modules.payment.markCollectionPaid(input.payment_collection_id, {
      created_by: input.created_by,
      idempotencyKey: ctx.idempotencyKey,
    });
    return { output: { payment_id: paid.id, amount: paid.amount }, compensateInput: { payment_id: paid.id } };
  },
  compensate: async ({ payment_id }: { payment_id: string }, ctx) => {
    await ctx.modules.payment.removeManualPayment(payment_id);
  },
});

/** Deletes a collection nothing was paid into (refused once something is); compensation brings it back. */
export const deleteUnpaidCollectionStep = step("delete-unpaid-payment-collection", {
  invoke: async (input: { payment_collection_id: string }, ctx) => {
    await ctx.modules.payment.deleteCollection(input.payment_collection_id);
    return { output: null, compensateInput: input };
  },
  compensate: async (input: { payment_collection_id: string }, ctx) => {
    await ctx.modules.payment.restoreCollection(input.payment_collection_id);
  },
});
