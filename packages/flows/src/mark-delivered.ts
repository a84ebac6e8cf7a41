import { workflow } from "@kasse/workflows";
import { checkOrderOpenStep, moveOrderLinesStep } from "@kasse/modules/order";
import { markFulfillmentStep } from "@kasse/modules/fulfillment";
import type { FulfillmentMoveInput } from "./create-shipment";

/** Marks a shipped fulfillment delivered: its lines' delivered quantities rise; `partially_delivered` / `delivered`. */
export const markDeliveredWorkflow = workflow("mark-delivered", async (input: FulfillmentMoveInput, ctx) => {
  await ctx.run(checkOrderOpenStep, { order_id: input.order_id, doing: "delivered" });
  const delivered = await ctx.run(markFulfillmentStep, {
    order_id: input.order_id,
    fulfillment_id: input.fulfillment_id,
    field: "delivered_at" as const,
  });
  const moved = await ctx.run(moveOrderLinesStep, {
    order_id: input.order_id,
    stage: "delivered_quantity",
    items: delivered.items,
    action: "fulfillment_delivered",
    actor: input.actor ?? null,
  });
  return { fulfillment_id: delivered.id, fulfillment_status: moved.fulfillment_status };
});
