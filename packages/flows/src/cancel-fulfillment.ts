import { step, workflow } from "@kasse/workflows";
import { type ConsumedReservation } from "@kasse/modules/inventory";
import { checkOrderOpenStep, moveOrderLinesStep, type OrderActor } from "@kasse/modules/order";
import { cancelProviderFulfillmentStep, markFulfillmentStep } from "@kasse/modules/fulfillment";

export interface CancelFulfillmentInput {
  order_id: string;
  fulfillment_id: string;
  actor?: OrderActor | null;
}

/** Puts consumed reservations back (stocked and reserved both rise); compensation consumes them again. */
const restoreConsumedStep = step("restore-consumed-reservations", {
  invoke: async (consumed: ConsumedReservation[], ctx) => {
    await ctx.modules.inventory.restoreConsumed(consumed);
    return { output: null, compensateInput: consumed };
  },
  compensate: async (consumed: ConsumedReservation[], ctx) => {
    await ctx.modules.inventory.consumeReservations(
      consumed.map((c) => ({ reservation_id: c.reservation_id, quantity: c.quantity })),
    );
  },
});

/**
 * Cancels a fulfillment that has not shipped (Medusa refuses a shipped one): the fulfillment is
 * marked canceled, the order lines' fulfilled quantities go back and the reservations and stock it
 * consumed are restored; last, its provider cancels it on its side (with an idempotency key).
 */
export const cancelFulfillmentWorkflow = workflow("cancel-fulfillment", async (input: CancelFulfillmentInput, ctx) => {
  await ctx.run(checkOrderOpenStep, { order_id: input.order_id, doing: "changed" });
  const canceled = await ctx.run(markFulfillmentStep, {
    order_id: input.order_id,
    fulfillment_id: input.fulfillment_id,
    field: "canceled_at" as const,
  });
  const moved = await ctx.run(moveOrderLinesStep, {
    order_id: input.order_id,
    stage: "fulfilled_quantity",
    items: canceled.items.map((i) => ({ id: i.id, quantity: -i.quantity })),
    action: "fulfillment_canceled",
    actor: input.actor ?? null,
  });
  if (canceled.inventory_consumed.length) await ctx.run(restoreConsumedStep, canceled.inventory_consumed);
  await ctx.run(cancelProviderFulfillmentStep, { provider_id: canceled.provider_id, data: canceled.data });
  return { fulfillment_id: canceled.id, fulfillment_status: moved.fulfillment_status };
});
