import type { Db } from "@kasse/db";
import { recordEvent } from "@kasse/modules/event";
import { createInventoryService, type InventoryLevel, type InventoryLevelBatch, type InventoryLevelCreate, type InventoryLevelUpdate } from "@kasse/modules/inventory";
import { withEvents } from "./events";

/** `inventory-item.updated` for levels whose stock was set. */
async function recordLevels(tx: Db, itemId: string, levels: InventoryLevel[]): Promise<void> {
  for (const level of levels) {
    await recordEvent(tx, "inventory-item.updated", { id: itemId, location_id: level.location_id, stocked_quantity: level.stocked_quantity, reserved_quantity: level.reserved_quantity });
  }
}

/** Admin stock writes: each in one transaction with its `inventory-item.updated` events. */
export const inventoryLevels = {
  create: (db: Db, itemId: string, inputs: InventoryLevelCreate[]) =>
    withEvents(db, async (tx) => {
      const created = await createInventoryService(tx).createLevels(itemId, inputs);
      await recordLevels(tx, itemId, created);
      return created;
    }),
  update: (db: Db, itemId: string, locationId: string, input: InventoryLevelUpdate) =>
    withEvents(db, async (tx) => {
      const level = await createInventoryService(tx).updateLevel(itemId, locationId, input);
      if (input.stocked_quantity !== undefined) await recordLevels(tx, itemId, [level]);
      return level;
    }),
  batch: (db: Db, itemId: string, input: InventoryLevelBatch) =>
    withEvents(db, async (tx) => {
      const result = await createInventoryService(tx).batchLevels(itemId, input);
      const stockSet = new Set((input.update ?? []).filter((u) => u.stocked_quantity !== undefined).map((u) => u.location_id));
      await recordLevels(tx, itemId, [...result.created, ...result.updated.filter((l) => stockSet.has(l.location_id))]);
      return result;
    }),
};
