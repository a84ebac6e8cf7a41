import assert from "node:assert/strict";
import { click, fill, open, toast } from "../ui";
import { eventually, type DashboardAction } from "./action";

interface Level {
  location_id: string;
  stocked_quantity: number;
}

/** Sets the stock of the seeded inventory item at the seeded location through the location's adjust form. */
export const editStock: DashboardAction = {
  name: "inventory-edit-stock",
  async run({ page, kasse, api, seeded, shot }) {
    await open(page, kasse.origin, `/inventory/${seeded.inventoryItemId}/locations/${seeded.locationId}`);
    await fill(page, "stocked_quantity", "250");
    await click(page, "Save");
    await toast(page);
    await eventually(async () => {
      const { inventory_levels } = await api<{ inventory_levels: Level[] }>(
        "GET",
        `/admin/inventory-items/${seeded.inventoryItemId}/location-levels`,
      );
      assert.equal(inventory_levels.find((l) => l.location_id === seeded.locationId)?.stocked_quantity, 250);
    });
    await open(page, kasse.origin, `/inventory/${seeded.inventoryItemId}`);
    await shot("stocked");
  },
};
