import { errors, isKasseError } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import { type Engine } from "@kasse/workflows";
import { step, workflow } from "./definitions";
import { completeCart } from "./complete-cart";
import { syncPaymentStatusStep } from "./order-payment-steps";

/** What a provider's webhook event asks of Kasse, decided from the event and the session it names. */
interface WebhookPlan {
  /** `complete`: the cart's checkout; `refund`/`cancel`: reflect the provider's on the payment; `none`: `outcome` says why. */
  action: "complete" | "refund" | "cancel" | "none";
  cart_id: string | null;
  payment_id: string | null;
  order_id: string | null;
  amount: number;
  outcome: string;
}

const nothing = (outcome: string): WebhookPlan => ({
  action: "none",
  cart_id: null,
  payment_id: null,
  order_id: null,
  amount: 0,
  outcome,
});

/**
 * Reads the recorded event and the session it names, and decides. A session not there (yet) is
 * retried for a while: a webhook can overtake the commit of the session its payment belongs to.
 * Payment module only (and the cart's and order's reads); writes nothing.
 */
const planPaymentWebhookStep = step("plan-payment-webhook", {
  retry: { attempts: 8, backoffMs: 250, maxBackoffMs: 5_000 },
  invoke: async (input: { provider_id: string; event_id: string }, ctx) => {
    const m = ctx.modules;
    const event = await m.payment.webhookEvent(input.provider_id, input.event_id);
    if (event.action === "failed") return { output: nothing("a failed payment attempt places nothing") };
    const found = await m.payment.sessionWithPayment(event.session_id);
    if (!found)
      throw errors.unexpectedState(
        `Payment session ${event.session_id} of webhook event ${event.event_id} is not there (yet)`,
      );
    const { session, collection, payment } = found;
    if (session.data.id !== event.reference)
      return { output: nothing(`${event.reference} is not the payment of session ${session.id}`) };
    const cartId = collection.cart_id;
    // A collection of no cart is an order's own (its payment link): a refund or void at the provider re-derives that order's status.
    const order = cartId ? await m.order.findByCart(cartId) : await m.order.findByPaymentCollection(collection.id);
    const plan = (action: WebhookPlan["action"], outcome: string): WebhookPlan => ({
      action,
      cart_id: cartId,
      payment_id: payment?.id ?? null,
      order_id: order?.id ?? null,
      amount: event.amount,
      outcome,
    });
    switch (event.action) {
      case "authorized":
      case "captured": {
        if (!cartId) return { output: nothing("the payment collection belongs to no cart") };
        if (order) return { output: nothing(`the cart is completed: order ${order.id}`) };
        return { output: plan("complete", "") };
      }
      case "refunded":
        if (!payment) return { output: nothing("the session was never authorized: nothing to refund") };
        return { output: plan("refund", "") };
      case "canceled":
        if (!payment) return { output: nothing("the session was never authorized: nothing to cancel") };
        return { output: plan("cancel", "") };
      default:
        return { output: nothing(`${event.action} changes nothing`) };
    }
  },
});

/**
 * Completes the cart through the storefront's own execution (`completeCart`: keyed on the cart,
 * `freshAfterFailure`), joining it when the storefront's request is running it: one order, one
 * authorization. A completion refused for good (stock gone, a declined authorization) is an
 * outcome: the checkout compensated and the cart stays open. One that failed in passing (a
 * retryable error: Stripe or the database slow) or still running elsewhere after the engine's wait
 * (`conflict`) is tried again, a fresh checkout each time.
 */
const completeCartFromWebhookStep = step("complete-cart-from-webhook", {
  transactional: false,
  retry: { attempts: 10, backoffMs: 500, maxBackoffMs: 10_000 },
  invoke: async (
    input: { cart_id: string },
    ctx,
  ): Promise<{ output: { order_id: string | null; outcome: string } }> => {
    const cart = await ctx.modules.cart.retrieve(input.cart_id);
    try {
      const outcome = await completeCart(ctx.workflows, ctx.modules, input.cart_id, {
        customer_id: cart.customer_id,
      });
      if (outcome.type === "order") return { output: { order_id: outcome.order_id, outcome: "order placed" } };
      // A passing failure (Stripe or the database slow, another process still on it) is tried
      // again: the money is held, so the order must come.
      if (outcome.error.type === "conflict" || outcome.error.retryable) throw outcome.error;
      return { output: { order_id: null, outcome: `not completed: ${outcome.error.type}: ${outcome.error.message}` } };
    } catch (error) {
      if (isKasseError(error) && error.type === "conflict")
        throw errors.unexpectedState(`Cart ${input.cart_id} is still being completed elsewhere`, { cause: error });
      if (isKasseError(error) && error.retryable) throw error;
      if (isKasseError(error) && !error.retryable)
        return { output: { order_id: null, outcome: `not completed: ${error.type}: ${error.message}` } };
      throw error;
    }
  },
});

/** A refund made at the provider, recorded on the payment (payment module only; idempotent on the total). */
const recordProviderRefundStep = step("record-provider-refund", {
  invoke: async (input: { payment_id: string; refunded_total: number }, ctx) => ({
    output: await ctx.modules.payment.recordProviderRefund(input.payment_id, input.refunded_total),
  }),
});

/** A payment voided at the provider, marked canceled (payment module only; idempotent). */
const recordProviderCancelStep = step("record-provider-cancel", {
  invoke: async (input: { payment_id: string }, ctx) => ({
    output: await ctx.modules.payment.recordProviderCancel(input.payment_id),
  }),
});

/** The event marked processed with what was done (payment module only). */
const finishPaymentWebhookStep = step("finish-payment-webhook", {
  invoke: async (input: { provider_id: string; event_id: string; outcome: string }, ctx) => {
    await ctx.modules.payment.finishWebhookEvent(input.provider_id, input.event_id, input.outcome);
    return { output: null };
  },
});

/**
 * Processes one recorded webhook event (run by the worker, keyed `webhook:<event_id>`): a payment
 * authorized or captured for a cart not yet completed completes it through checkout's own
 * execution; a refund or a cancellation made at the provider is recorded on the payment and the
 * order's payment status re-derived; anything else places nothing. Every step is idempotent, so a
 * resumed execution (its worker killed) ends with the same outcome.
 */
export const processPaymentWebhookWorkflow = workflow(
  "process-payment-webhook",
  async (input: { provider_id: string; event_id: string }, ctx) => {
    const plan = await ctx.run(planPaymentWebhookStep, input);
    let outcome = plan.outcome;
    if (plan.action === "complete") {
      const completed = await ctx.run(completeCartFromWebhookStep, { cart_id: plan.cart_id! });
      outcome = completed.order_id ? `order ${completed.order_id} placed or joined` : completed.outcome;
    } else if (plan.action === "refund") {
      const recorded = await ctx.run(recordProviderRefundStep, {
        payment_id: plan.payment_id!,
        refunded_total: plan.amount,
      });
      if (recorded > 0) await ctx.run(syncPaymentStatusStep, { order_id: plan.order_id });
      outcome = recorded > 0 ? `refund of ${recorded} recorded` : "the refund was already recorded";
    } else if (plan.action === "cancel") {
      const canceled = await ctx.run(recordProviderCancelStep, { payment_id: plan.payment_id! });
      if (canceled) await ctx.run(syncPaymentStatusStep, { order_id: plan.order_id });
      outcome = canceled ? "payment canceled" : "the payment was already canceled or is captured";
    }
    await ctx.run(finishPaymentWebhookStep, { ...input, outcome });
    return { outcome };
  },
);

/** How a webhook request ended: `recorded` (new), `repeated` (known event), or `ignored` (nothing for Kasse). */
export type WebhookReceipt = { status: "recorded" | "repeated" | "ignored"; event_id: string };

/**
 * Receives a payment provider's webhook (`POST /hooks/payment/{provider}`): the provider verifies
 * the raw body's signature and says what it means (`invalid_data` when the signature is bad or
 * missing: nothing is written), the event is recorded once by its id, and its processing is
 * queued for the worker, keyed `webhook:<event_id>` (a repeated delivery finds both and changes
 * nothing; one whose earlier processing failed queues it afresh). Answers at once: the order is
 * placed by the worker.
 */
export async function receivePaymentWebhook(
  engine: Pick<Engine, "enqueue">,
  m: Modules,
  providerId: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<WebhookReceipt> {
  const provider = m.payment.providers.has(providerId) ? m.payment.providers.get(providerId) : undefined;
  if (!provider?.parseWebhook) throw errors.notFound(`Payment provider ${providerId} receives no webhooks here`);
  const event = await provider.parseWebhook(rawBody, headers);
  if (event.action === "ignored") return { status: "ignored", event_id: event.event_id };
  const { event_id, action, session_id, reference, amount } = event;
  const recorded = await m.payment.recordWebhookEvent(provider.id, { event_id, action, session_id, reference, amount });
  await engine.enqueue(
    processPaymentWebhookWorkflow,
    { provider_id: provider.id, event_id },
    { idempotencyKey: `webhook:${event_id}`, freshAfterFailure: true },
  );
  return { status: recorded ? "recorded" : "repeated", event_id };
}
