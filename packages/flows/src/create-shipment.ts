import { workflow, type FlowContext } from "./definitions";
import { checkOrderOpenStep, moveOrderLinesStep, type LineStage, type OrderActor } from "@kasse/modules/order";
import { markFulfillmentStep, type ShipmentCreate } from "@kasse/modules/fulfillment";

export interface FulfillmentMoveInput {
  order_id: string;
  fulfillment_id: string;
  actor?: OrderActor | null;
}

export type CreateShipmentInput = FulfillmentMoveInput & { shipment?: ShipmentCreate };

/**
 * What shipping, delivering and canceling a fulfillment do alike: the order must be open (`doing`),
 * the fulfillment is marked (`mark`: the field set, a shipment's labels) and its lines' `stage`
 * quantities move by its items (back down for a cancel); answers the fulfillment and the order's
 * new `fulfillment_status`.
 */
export async function moveFulfillment(
  ctx: FlowContext,
  input: FulfillmentMoveInput,
  how: {
    doing: string;
    mark: { field: "shipped_at" | "delivered_at" | "canceled_at"; shipment?: ShipmentCreate };
    stage: LineStage;
    action: string;
    back?: boolean;
  },
) {
  await ctx.run(checkOrderOpenStep, { order_id: input.order_id, doing: how.doing });
  const marked = await ctx.run(markFulfillmentStep, {
    order_id: input.order_id,
    fulfillment_id: input.fulfillment_id,
    ...how.mark,
  });
  const moved = await ctx.run(moveOrderLinesStep, {
    order_id: input.order_id,
    stage: how.stage,
    items: how.back ? marked.items.map((i) => ({ id: i.id, quantity: -i.quantity })) : marked.items,
    action: how.action,
    actor: input.actor ?? null,
  });
  return { marked, fulfillment_status: moved.fulfillment_status };
}

/**
 * Ships a fulfillment whole: marked shipped with the carrier's labels, its lines' shipped
 * quantities rise; `partially_shipped` / `shipped`. Items named in the shipment must be exactly
 * the fulfillment's.
 */
export const createShipmentWorkflow = workflow("create-shipment", async (input: CreateShipmentInput, ctx) => {
  const { marked, fulfillment_status } = await moveFulfillment(ctx, input, {
    doing: "shipped",
    mark: { field: "shipped_at", shipment: input.shipment ?? {} },
    stage: "shipped_quantity",
    action: "shipment_created",
  });
  return { fulfillment_id: marked.id, fulfillment_status };
});
