import { definitions } from "@kasse/workflows";
import type { StockLocationService } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { stockLocation: StockLocationService };

const { step } = definitions<StepModules>();

/**
 * Soft-deletes a stock location with its sales channel links (404 when unknown). The last step of
 * a location's deletion: nothing after it can fail, so it has no compensation.
 */
export const deleteStockLocationStep = step("delete-stock-location", {
  invoke: async (input: { id: string }, ctx) => {
    await ctx.modules.stockLocation.delete(input.id);
    return { output: input.id };
  },
});
