import { errors, generateId } from "@kasse/core";
import { isUniqueViolation, transaction, type Paging } from "@kasse/db";
import { inventoryQueries as q } from "./queries";
import { level } from "./rows";
import type { InventoryLevelRow } from "./schema";
import type { InventoryLevelBatch, InventoryLevelCreate, InventoryLevelUpdate } from "./shapes";
import type { InventoryLevel } from "./types";

/** Throws `not_found` unless the item is live (a level's item). */
export async function assertItem(itemId: string): Promise<void> {
  if (!(await q.liveItem({ id: itemId }))) throw errors.notFound(`Inventory item with id: ${itemId} was not found`);
}

/** An item's stock per location (its levels): create, read, update, delete, batch. */
export const levelMethods = {
  /** Creates levels of an item (location ids already checked by the caller); one per location. */
  async createLevels(itemId: string, inputs: InventoryLevelCreate[]): Promise<InventoryLevel[]> {
    await assertItem(itemId);
    const locations = inputs.map((i) => i.location_id);
    if (new Set(locations).size !== locations.length)
      throw errors.invalidData("A location may have only one level per inventory item");
    try {
      const rows = await q.insertLevels(
        inputs.map((i) => ({
          id: generateId("ilev"),
          inventory_item_id: itemId,
          location_id: i.location_id,
          stocked_quantity: i.stocked_quantity ?? 0,
          incoming_quantity: i.incoming_quantity ?? 0,
          metadata: i.metadata ?? null,
        })),
      );
      return rows.map(level);
    } catch (error) {
      if (isUniqueViolation(error))
        throw errors.conflict(
          `Inventory item ${itemId} already has a level at one of the locations ${locations.join(", ")}`,
        );
      throw error;
    }
  },

  async retrieveLevel(itemId: string, locationId: string): Promise<InventoryLevel> {
    const row = await q.levelAt({ item: itemId, location: locationId });
    if (!row) throw errors.notFound(`Inventory level for item ${itemId} at location ${locationId} was not found`);
    return level(row);
  },

  /** The levels of one item, paged. */
  async listLevels(
    itemId: string,
    filters: { location_id?: string[] },
    page: Paging,
  ): Promise<{ items: InventoryLevel[]; count: number }> {
    await assertItem(itemId);
    const { items: rows, count } = await q.listLevels(itemId, filters.location_id, page);
    return { items: rows.map(level), count };
  },

  /**
   * Sets stocked/incoming quantities. Lowering stock below what is reserved is refused (it
   * would oversell); raising it is always allowed, even while backorders keep it below.
   */
  async updateLevel(itemId: string, locationId: string, input: InventoryLevelUpdate): Promise<InventoryLevel> {
    const changes: Partial<InventoryLevelRow> = {};
    if (input.incoming_quantity !== undefined) changes.incoming_quantity = input.incoming_quantity;
    if (input.metadata !== undefined) changes.metadata = input.metadata;
    if (input.stocked_quantity !== undefined) changes.stocked_quantity = input.stocked_quantity;
    if (Object.keys(changes).length === 0) return levelMethods.retrieveLevel(itemId, locationId);
    const row = await q.updateLevel(itemId, locationId, changes, input.stocked_quantity);
    if (row) return level(row);
    const current = await levelMethods.retrieveLevel(itemId, locationId);
    throw errors.invalidData(
      `Stocked quantity ${input.stocked_quantity} of item ${itemId} at location ${locationId} cannot be lower than its reserved quantity ${current.reserved_quantity}`,
    );
  },

  /** Deletes a level; refused while it holds reservations (the guard is in the UPDATE). */
  async deleteLevel(itemId: string, locationId: string): Promise<InventoryLevel> {
    const row = await q.deleteLevel({ item: itemId, location: locationId, now: new Date() });
    if (row) return level(row);
    const current = await levelMethods.retrieveLevel(itemId, locationId);
    throw errors.invalidData(
      `Cannot delete the level of item ${itemId} at location ${locationId}: ${current.reserved_quantity} units are reserved`,
    );
  },

  /**
   * Creates, updates and deletes levels of one item in one transaction (all or nothing), with
   * the same rules as the single operations. `delete` names locations or level ids.
   */
  async batchLevels(
    itemId: string,
    input: InventoryLevelBatch,
  ): Promise<{ created: InventoryLevel[]; updated: InventoryLevel[]; deleted: string[] }> {
    return transaction(async () => {
      await assertItem(itemId);
      const deleted: string[] = [];
      if (input.delete?.length) {
        const rows = await q.levelsByRef({ item: itemId, refs: input.delete });
        const unknown = input.delete.filter((ref) => !rows.some((r) => r.id === ref || r.location_id === ref));
        if (unknown.length) throw errors.notFound(`Inventory item ${itemId} has no level for: ${unknown.join(", ")}`);
        for (const row of rows) deleted.push((await levelMethods.deleteLevel(itemId, row.location_id)).id);
      }
      const created = input.create?.length ? await levelMethods.createLevels(itemId, input.create) : [];
      const updated: InventoryLevel[] = [];
      for (const { location_id, ...changes } of input.update ?? [])
        updated.push(await levelMethods.updateLevel(itemId, location_id, changes));
      return { created, updated, deleted };
    });
  },

  /** Live levels of the given items at the given locations (one query), for location picking. */
  async levelsAt(itemIds: string[], locationIds: string[]): Promise<InventoryLevel[]> {
    if (itemIds.length === 0 || locationIds.length === 0) return [];
    return (await q.levelsAt({ items: itemIds, locations: locationIds })).map(level);
  },
};
