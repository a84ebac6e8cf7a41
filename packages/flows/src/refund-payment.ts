import { workflow } from "./definitions";
import type { OrderActor } from "@kasse/modules/order";
import { movePayments, type PaymentTarget } from "./order-payment-plan";
import { refundPaymentStep } from "./order-payment-steps";

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
export const refundPaymentWorkflow = workflow("refund-payment", (input: RefundPaymentInput, ctx) =>
  movePayments(ctx, input, {
    kind: "refund",
    move: (move) =>
      ctx.run(refundPaymentStep, {
        ...move,
        note: input.reason ?? null,
        refund_reason_id: input.refund_reason_id ?? null,
        created_by: input.actor?.actor_id ?? null,
      }),
    action: "payment_refunded",
    details: (moves) => ({
      refunds: moves,
      reason: input.reason ?? null,
      refund_reason_id: input.refund_reason_id ?? null,
    }),
    event: "payment.refunded",
  }),
);
