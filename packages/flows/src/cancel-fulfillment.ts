import { step, workflow } from "./definitions";
import { type ConsumedReservation } from "@kasse/modules/inventory";
import { cancelProviderFulfillmentStep } from "@kasse/modules/fulfillment";
import { moveFulfillment, type FulfillmentMoveInput } from "./create-shipment";

export type CancelFulfillmentInput = FulfillmentMoveInput;

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
  const { marked: canceled, fulfillment_status } = await moveFulfillment(ctx, input, {
    doing: "changed",
    mark: { field: "canceled_at" },
    stage: "fulfilled_quantity",
    action: "fulfillment_canceled",
    back: true,
  });
  if (canceled.inventory_consumed.length) await ctx.run(restoreConsumedStep, canceled.inventory_consumed);
  await ctx.run(cancelProviderFulfillmentStep, { provider_id: canceled.provider_id, data: canceled.data });
  return { fulfillment_id: canceled.id, fulfillment_status };
});
