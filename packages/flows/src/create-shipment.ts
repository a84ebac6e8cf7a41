import { workflow } from "@kasse/workflows";
import { moveOrderLinesStep, type OrderActor } from "@kasse/modules/order";
import { markFulfillmentStep } from "@kasse/modules/fulfillment";

export interface FulfillmentMoveInput {
  order_id: string;
  fulfillment_id: string;
  actor?: OrderActor | null;
}

/** Ships a fulfillment: marked shipped, its lines' shipped quantities rise; `partially_shipped` / `shipped`. */
export const createShipmentWorkflow = workflow("create-shipment", async (input: FulfillmentMoveInput, ctx) => {
  const shipped = await ctx.run(markFulfillmentStep, { order_id: input.order_id, fulfillment_id: input.fulfillment_id, field: "shipped_at" as const });
  const moved = await ctx.run(moveOrderLinesStep, { order_id: input.order_id, stage: "shipped_quantity", items: shipped.items, action: "shipment_created", actor: input.actor ?? null });
  return { fulfillment_id: shipped.id, fulfillment_status: moved.fulfillment_status };
});
