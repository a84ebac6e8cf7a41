import { workflow } from "./definitions";
import { cancelOrderStep, type OrderActor } from "@kasse/modules/order";
import { releaseLineItemReservationsStep } from "@kasse/modules/inventory";
import { cancelOrderPaymentsStep, recordPaymentChangeStep, syncPaymentStatusStep } from "./order-payment-steps";

export interface CancelOrderInput {
  order_id: string;
  actor?: OrderActor | null;
}

/**
 * Cancels an order (Medusa's cancel-order workflow): refused (400) once anything is fulfilled or
 * when already canceled; then releases its reservations (made for the order lines or for the cart
 * lines they came from), cancels uncaptured payments and refunds captured ones. The order ends
 * `canceled` with `fulfillment_status` `canceled` and a re-derived `payment_status` (`canceled`,
 * or `refunded` when money had been captured). The provider calls come last: they cannot be undone.
 */
export const cancelOrderWorkflow = workflow("cancel-order", async (input: CancelOrderInput, ctx) => {
  const sync = { order_id: input.order_id, actor: input.actor ?? null };
  await ctx.run(syncPaymentStatusStep, sync);
  const order = await ctx.run(cancelOrderStep, { order_id: input.order_id, actor: input.actor ?? null });
  const released = await ctx.run(releaseLineItemReservationsStep, { line_item_ids: order.line_item_ids });
  const payments = await ctx.run(cancelOrderPaymentsStep, {
    payment_collection_ids: order.payment_collection_ids,
    created_by: input.actor?.actor_id ?? null,
  });
  if (payments.length)
    await ctx.run(recordPaymentChangeStep, {
      order_id: order.id,
      action: "payments_canceled",
      actor: input.actor ?? null,
      details: { payments },
      events: { name: "payment.refunded", moves: payments.filter((p) => p.action === "refunded") },
    });
  const payment_status = await ctx.run(syncPaymentStatusStep, sync);
  return { id: order.id, status: order.status, payment_status, released_reservations: released.map((r) => r.id) };
});
