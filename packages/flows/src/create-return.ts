import { step, workflow } from "./definitions";
import {
  confirmReturnRequestStep,
  createReturnStep,
  type OrderActor,
  type ReturnCreateInput,
} from "@kasse/modules/order";

export interface CreateReturnInput {
  order_id: string;
  return: ReturnCreateInput;
  actor?: OrderActor | null;
}

/** Confirms the pending request of a return (Medusa's `POST /admin/returns/{id}/request`). */
export interface ConfirmReturnRequestInput {
  return_id: string;
  actor?: OrderActor | null;
  /** The shopper is not mailed of the request. */
  no_notification?: boolean;
}

/** The units must be able to go back into stock where they are returned: every item stocked at the location. */
export const checkReturnLocationStep = step("check-return-location", {
  invoke: async (input: { order_id: string; line_item_ids: string[]; location_id: string }, ctx) => {
    const order = await ctx.modules.order.retrieve(input.order_id);
    const wanted = new Set(input.line_item_ids);
    const variantIds = order.items.flatMap((i) => (wanted.has(i.id) && i.variant_id ? [i.variant_id] : []));
    await ctx.modules.inventory.assertVariantsStockedAt(variantIds, input.location_id);
    return { output: null };
  },
});

/**
 * Requests a return of fulfilled units: quantities ≤ fulfilled − already requested, reasons must
 * exist, the order must be open (not canceled or archived), and every item must be stocked at the
 * return's location. Nothing moves in stock until the return is received. Given a `return_id`, it
 * first confirms that return's pending request (Medusa's order-change protocol) and requests what
 * the request's actions say, under the id reserved for it; undone, the request is pending again.
 */
export const createReturnWorkflow = workflow(
  "create-return",
  async (input: CreateReturnInput | ConfirmReturnRequestInput, ctx) => {
    const request =
      "return_id" in input
        ? await ctx.run(confirmReturnRequestStep, { return_id: input.return_id, actor: input.actor ?? null })
        : { order_id: input.order_id, return: input.return, return_id: null };
    await ctx.run(checkReturnLocationStep, {
      order_id: request.order_id,
      line_item_ids: request.return.items.map((i) => i.id),
      location_id: request.return.location_id,
    });
    return ctx.run(createReturnStep, {
      order_id: request.order_id,
      return: request.return,
      return_id: request.return_id,
      actor: input.actor ?? null,
      no_notification: "no_notification" in input ? input.no_notification : false,
    });
  },
);
