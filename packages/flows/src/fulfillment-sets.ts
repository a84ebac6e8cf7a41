import type { Modules } from "@kasse/modules";
import { deleteLocationFulfillmentSetsStep, type FulfillmentSetCreate } from "@kasse/modules/fulfillment";
import { deleteStockLocationStep } from "@kasse/modules/stock-location";
import { workflow } from "./definitions";

/**
 * Creates a fulfillment set of a stock location (Medusa's "enable shipping / pickup" of a
 * location): the location must exist (404), then the set is one fulfillment module write.
 * Returns the location.
 */
export async function createLocationFulfillmentSet(m: Modules, stockLocationId: string, input: FulfillmentSetCreate) {
  const location = await m.stockLocation.retrieve(stockLocationId);
  await m.fulfillment.createSet(stockLocationId, input);
  return location;
}

/**
 * Deletes a stock location: first its fulfillment sets with their service zones, geo zones and
 * shipping options (fulfillment module), then the location and its channel links (stock-location
 * module; 404 when unknown, which puts the sets back).
 */
export const deleteStockLocationWorkflow = workflow("delete-stock-location", async (input: { id: string }, ctx) => {
  await ctx.run(deleteLocationFulfillmentSetsStep, { stock_location_id: input.id });
  return ctx.run(deleteStockLocationStep, { id: input.id });
});
