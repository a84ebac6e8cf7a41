import { workflow, type WorkflowContext } from "@kasse/workflows";
import { adjustStockStep, consumeLineItemsStep, receiveVariantsStep, type ConsumedReservation, type StockAdjustment } from "@kasse/modules/inventory";

/** Stock movements: fulfilled lines, received returns, and direct corrections. */
export interface AdjustStockInput {
  /** Fulfillment: each line's reservations are consumed and its units leave stock. */
  fulfill?: Array<{ line_item_id: string; variant_id: string; quantity: number }>;
  /** Return receipt: the variants' units come back into stock at the location. */
  receive?: Array<{ variant_id: string; location_id: string; quantity: number }>;
  /** Direct changes of stocked quantity per item and location. */
  adjustments?: StockAdjustment[];
}

export interface AdjustStockResult {
  consumed: ConsumedReservation[];
  received: StockAdjustment[];
  adjusted: StockAdjustment[];
}

/**
 * Applies stock movements as journaled steps inside a workflow (fulfillment, return receipt);
 * each is undone exactly when a later step fails.
 */
export async function adjustStock(ctx: WorkflowContext, input: AdjustStockInput): Promise<AdjustStockResult> {
  const consumed = input.fulfill?.length ? await ctx.run(consumeLineItemsStep, input.fulfill) : [];
  const received = input.receive?.length ? await ctx.run(receiveVariantsStep, input.receive) : [];
  const adjusted = input.adjustments?.length ? await ctx.run(adjustStockStep, input.adjustments) : [];
  return { consumed, received, adjusted };
}

/** {@link adjustStock} as a workflow of its own. */
export const adjustStockWorkflow = workflow("adjust-stock", (input: AdjustStockInput, ctx) => adjustStock(ctx, input));
