import { workflow } from "@kasse/workflows";
import { checkOrderOpenStep, moveOrderLinesStep, type OrderActor } from "@kasse/modules/order";
import { markFulfillmentStep, type ShipmentCreate } from "@kasse/modules/fulfillment";

export interface FulfillmentMoveInput {
  order_id: string;
  fulfillment_id: string;
  actor?: OrderActor | null;
}

export type CreateShipmentInput = FulfillmentMoveInput & { shipment?: ShipmentCreate };

/**
 * Ships a fulfillment whole: marked shipped with the carrier's labels, its lines' shipped
 * quantities rise; `partially_shipped` / `shipped`. Items named in the shipment must be exactly
 * the fulfillment's.
 */
export const createShipmentWorkflow = workflow("create-shipment", async (input: CreateShipmentInput, ctx) => {
  await ctx.run(checkOrderOpenStep, { order_id: input.order_id, doing: "shipped" });
  const shipped = await ctx.run(markFulfillmentStep, {
    order_id: input.order_id,
    fulfillment_id: input.fulfillment_id,
    field: "shipped_at" as const,
    shipment: input.shipment ?? {},
  });
  const moved = await ctx.run(moveOrderLinesStep, {
    order_id: input.order_id,
    stage: "shipped_quantity",
    items: shipped.items,
    action: "shipment_created",
    actor: input.actor ?? null,
  });
  return { fulfillment_id: shipped.id, fulfillment_status: moved.fulfillment_status };
});
