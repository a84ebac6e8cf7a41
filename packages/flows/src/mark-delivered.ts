import { workflow } from "./definitions";
import { moveFulfillment, type FulfillmentMoveInput } from "./create-shipment";

/** Marks a shipped fulfillment delivered: its lines' delivered quantities rise; `partially_delivered` / `delivered`. */
export const markDeliveredWorkflow = workflow("mark-delivered", async (input: FulfillmentMoveInput, ctx) => {
  const { marked, fulfillment_status } = await moveFulfillment(ctx, input, {
    doing: "delivered",
    mark: { field: "delivered_at" },
    stage: "delivered_quantity",
    action: "fulfillment_delivered",
  });
  return { fulfillment_id: marked.id, fulfillment_status };
});
