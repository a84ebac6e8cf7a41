import { step } from "@kasse/workflows";

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
