import { step, workflow } from "@kasse/workflows";
import { createReturnStep, type OrderActor, type ReturnCreate } from "@kasse/modules/order";

export interface CreateReturnInput {
  order_id: string;
  return: ReturnCreate;
  actor?: OrderActor | null;
}

/** The units must be able to go back into stock where they are returned: every item stocked at the location. */
const checkReturnLocationStep = step("check-return-location", {
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
 * return's location. Nothing moves in stock until the return is received.
 */
export const createReturnWorkflow = workflow("create-return", async (input: CreateReturnInput, ctx) => {
  await ctx.run(checkReturnLocationStep, {
    order_id: input.order_id,
    line_item_ids: input.return.items.map((i) => i.id),
    location_id: input.return.location_id,
  });
  return ctx.run(createReturnStep, input);
});
