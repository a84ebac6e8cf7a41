import { workflow } from "@kasse/workflows";
import type { OrderActor } from "@kasse/modules/order";
import { planPaymentMovesStep, type PaymentTarget } from "./order-payment-plan";
import { capturePaymentStep, recordPaymentChangeStep, syncPaymentStatusStep } from "./order-payment-steps";

export type CapturePaymentInput = PaymentTarget & { actor?: OrderActor | null };

/**
 * Captures a payment, or `amount` (default: all that is authorized and not captured) of an order's
 * payment collection. More than is left is 400; the order's `payment_status` becomes `captured` or
 * `partially_captured` (re-derived from the collection). Steps: plan (checks) → sync status
 * (undo: re-derive) → capture each payment → log → sync status.
 */
export const capturePaymentWorkflow = workflow("capture-payment", async (input: CapturePaymentInput, ctx) => {
  const plan = await ctx.run(planPaymentMovesStep, { ...input, kind: "capture" });
  const sync = { order_id: plan.order_id, actor: input.actor ?? null };
  await ctx.run(syncPaymentStatusStep, sync);
  for (const move of plan.moves)
    await ctx.run(capturePaymentStep, { ...move, created_by: input.actor?.actor_id ?? null });
  await ctx.run(recordPaymentChangeStep, {
    order_id: plan.order_id,
    action: "payment_captured",
    actor: input.actor ?? null,
    details: { captures: plan.moves },
    events: { name: "payment.captured", moves: plan.moves },
  });
  const payment_status = await ctx.run(syncPaymentStatusStep, sync);
  return {
    order_id: plan.order_id,
    payment_collection_id: plan.payment_collection_id,
    payment_ids: plan.moves.map((m) => m.payment_id),
    payment_status,
  };
});
