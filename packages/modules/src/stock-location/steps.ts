import { step } from "@kasse/workflows";
import { createStockLocationService } from "./service";

/** The live locations serving the sales channels, oldest first (read only: nothing to undo). */
export const salesChannelLocationsStep = step("sales-channel-locations", {
  invoke: async (salesChannelIds: string[], ctx) => ({ output: await createStockLocationService(ctx.tx).locationIdsForSalesChannels(salesChannelIds, ctx.tx) }),
});
