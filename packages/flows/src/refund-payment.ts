import { workflow } from "@kasse/workflows";
import type { OrderActor } from "@kasse/modules/order";
import { planPaymentMovesStep, type PaymentTarget } from "./order-payment-plan";
import { recordPaymentChangeStep, refundPaymentStep, syncPaymentStatusStep } from "./order-payment-steps";

export type RefundPaymentInput = PaymentTarget & {
  reason?: string | null;
  /** A refund reason's id (the payment module checks it is live). */
  refund_reason_id?: string | null;
  actor?: OrderActor | null;
};

/**
 * Refunds `amount` (≤ captured − refunded; default all of it) of a payment or an order's payment
 * collection; `payment_status` becomes `partially_refunded` or `refunded`. Each payment row is
 * locked for its refund, so two concurrent refunds can never exceed what was captured. A provider
 * failure writes nothing, undoes nothing it did not do, and is reported as the error.
 */
export const refundPaymentWorkflow = workflow("refund-payment", async (input: RefundPaymentInput, ctx) => {
  const plan = await ctx.run(planPaymentMovesStep, { ...input, kind: "refund" });
  const sync = { order_id: plan.order_id, actor: input.actor ?? null };
  await ctx.run(syncPaymentStatusStep, sync);
  for (const move of plan.moves)
    await ctx.run(refundPaymentStep, {
      ...move,
      note: input.reason ?? null,
      refund_reason_id: input.refund_reason_id ?? null,
      created_by: input.actor?.actor_id ?? null,
    });
  await ctx.run(recordPaymentChangeStep, {
    order_id: plan.order_id,
    action: "payment_refunded",
    actor: input.actor ?? null,
    details: { refunds: plan.moves, reason: input.reason ?? null, refund_reason_id: input.refund_reason_id ?? null },
    events: { name: "payment.refunded", moves: plan.moves },
  });
  const payment_status = await ctx.run(syncPaymentStatusStep, sync);
  return {
    order_id: plan.order_id,
    payment_collection_id: plan.payment_collection_id,
    payment_ids: plan.moves.map((m) => m.payment_id),
    payment_status,
  };
});
