import { workflow } from "./definitions";
import type { OrderActor } from "@kasse/modules/order";
import { movePayments, type PaymentTarget } from "./order-payment-plan";
import { capturePaymentStep } from "./order-payment-steps";

export type CapturePaymentInput = PaymentTarget & { actor?: OrderActor | null };

/**
 * Captures a payment, or `amount` (default: all that is authorized and not captured) of an order's
 * payment collection. More than is left is 400; the order's `payment_status` becomes `captured` or
 * `partially_captured` (re-derived from the collection). Steps: plan (checks) → sync status
 * (undo: re-derive) → capture each payment → log → sync status.
 */
export const capturePaymentWorkflow = workflow("capture-payment", (input: CapturePaymentInput, ctx) =>
  movePayments(ctx, input, {
    kind: "capture",
    move: (move) => ctx.run(capturePaymentStep, { ...move, created_by: input.actor?.actor_id ?? null }),
    action: "payment_captured",
    details: (moves) => ({ captures: moves }),
    event: "payment.captured",
  }),
);
