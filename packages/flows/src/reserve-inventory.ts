import { workflow, type WorkflowContext } from "@kasse/workflows";
import { reserveLineItemsStep, type ReservedItem } from "@kasse/modules/inventory";
import { salesChannelLocationsStep } from "@kasse/modules/stock-location";

/** Order lines to reserve. `manage_inventory` and `allow_backorder` are the variant's flags (the inventory module does not know them). */
export interface ReserveInventoryInput {
  sales_channel_id: string;
  items: Array<{ line_item_id: string; variant_id: string; quantity: number; manage_inventory?: boolean; allow_backorder?: boolean }>;
  /** `single_location_first` (default): one location for the whole order when one can serve it, else per item. */
  location_strategy?: "single_location_first" | "per_item";
}

/**
 * Reserves the lines' inventory at the locations of the sales channel, as two journaled steps:
 * call it inside a larger workflow (cart completion) so its compensation, releasing exactly the
 * reservations made, runs when a later step fails. Fails with `invalid_data` "Insufficient
 * inventory …" and reserves nothing when an item cannot be served.
 * @example
 * const reservations = await reserveInventory(ctx, { sales_channel_id: cart.sales_channel_id, items });
 */
export async function reserveInventory(ctx: WorkflowContext, input: ReserveInventoryInput): Promise<ReservedItem[]> {
  const location_ids = await ctx.run(salesChannelLocationsStep, [input.sales_channel_id]);
  const lines = input.items
    .filter((item) => item.manage_inventory !== false)
    .map((item) => ({ line_item_id: item.line_item_id, variant_id: item.variant_id, quantity: item.quantity, allow_backorder: item.allow_backorder === true }));
  return ctx.run(reserveLineItemsStep, { lines, location_ids, strategy: input.location_strategy ?? "single_location_first" });
}

/** {@link reserveInventory} as a workflow of its own. */
export const reserveInventoryWorkflow = workflow("reserve-inventory", (input: ReserveInventoryInput, ctx) => reserveInventory(ctx, input));
