import type { Modules } from "@kasse/modules";
import { recordEvent } from "@kasse/modules/event";
import type {
  InventoryLevel,
  InventoryLevelBatch,
  InventoryLevelCreate,
  InventoryLevelUpdate,
} from "@kasse/modules/inventory";
import { writeWithEvents } from "./events";

/** `inventory-item.updated` for levels whose stock was set. */
async function recordLevels(itemId: string, levels: InventoryLevel[]): Promise<void> {
  for (const level of levels) {
    await recordEvent("inventory-item.updated", {
      id: itemId,
      location_id: level.location_id,
      stocked_quantity: level.stocked_quantity,
      reserved_quantity: level.reserved_quantity,
    });
  }
}

/** Admin stock writes: each in one transaction with its `inventory-item.updated` events. */
export const inventoryLevels = {
  create: (m: Modules, itemId: string, inputs: InventoryLevelCreate[]) =>
    writeWithEvents(async () => {
      const created = await m.inventory.createLevels(itemId, inputs);
      await recordLevels(itemId, created);
      return created;
    }),
  update: (m: Modules, itemId: string, locationId: string, input: InventoryLevelUpdate) =>
    writeWithEvents(async () => {
      const level = await m.inventory.updateLevel(itemId, locationId, input);
      if (input.stocked_quantity !== undefined) await recordLevels(itemId, [level]);
      return level;
    }),
  batch: (m: Modules, itemId: string, input: InventoryLevelBatch) =>
    writeWithEvents(async () => {
      const result = await m.inventory.batchLevels(itemId, input);
      const stockSet = new Set(
        (input.update ?? []).filter((u) => u.stocked_quantity !== undefined).map((u) => u.location_id),
      );
      await recordLevels(itemId, [...result.created, ...result.updated.filter((l) => stockSet.has(l.location_id))]);
      return result;
    }),
};
