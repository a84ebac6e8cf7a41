import { errors, generateId } from "@kasse/core";
import { groupBy, transaction, type ListPaging } from "@kasse/db";
import { levelMethods } from "./levels";
import { inventoryQueries as q } from "./queries";
import { level, skuConflict } from "./rows";
import type { InventoryItemRow } from "./schema";
import type { InventoryItemCreate, InventoryItemFilters, InventoryItemUpdate } from "./shapes";
import type { InventoryItem } from "./types";

/** Adds each item's live levels (one query for the page) and its totals. */
async function withLevels(rows: InventoryItemRow[]): Promise<InventoryItem[]> {
  if (rows.length === 0) return [];
  const levels = groupBy(await q.levelsOfItems(rows.map((r) => r.id)), (l) => l.inventory_item_id, { value: level });
  return rows.map(({ deleted_at: _deleted, ...row }) => {
    const own = levels.get(row.id) ?? [];
    return {
      ...row,
      location_levels: own,
      stocked_quantity: own.reduce((sum, l) => sum + l.stocked_quantity, 0),
      reserved_quantity: own.reduce((sum, l) => sum + l.reserved_quantity, 0),
    };
  });
}

/** Inserts items, a taken sku as `conflict`. */
export async function insertItems(values: Array<Partial<InventoryItemRow> & { id: string }>): Promise<void> {
  try {
    await q.insertItems(values);
  } catch (error) {
    throw skuConflict(
      error,
      values
        .map((v) => v.sku)
        .filter(Boolean)
        .join(", "),
    );
  }
}

/** Inventory items: create, read, list, update and delete (with their levels and variant links). */
export const itemMethods = {
  async create(input: InventoryItemCreate): Promise<InventoryItem> {
    return transaction(async () => {
      const { location_levels, ...fields } = input;
      const id = generateId("iitem");
      await insertItems([{ ...itemValues(fields), id }]);
      if (location_levels?.length) await levelMethods.createLevels(id, location_levels);
      return itemMethods.retrieve(id);
    });
  },

  retrieve: async (id: string): Promise<InventoryItem> => (await withLevels([await q.retrieveItem(id)]))[0]!,

  async list(filters: InventoryItemFilters, page: ListPaging): Promise<{ items: InventoryItem[]; count: number }> {
    const { items: rows, count } = await q.listItems(filters, page);
    return { items: await withLevels(rows), count };
  },

  async update(id: string, input: InventoryItemUpdate): Promise<InventoryItem> {
    const changes = itemValues(input);
    if (Object.keys(changes).length) {
      try {
        await q.updateItem(id, changes);
      } catch (error) {
        throw skuConflict(error, input.sku);
      }
    }
    return itemMethods.retrieve(id);
  },

  /** Soft delete with its levels and variant links; refused while the item holds reservations. */
  async delete(id: string): Promise<void> {
    await transaction(async () => {
      await q.lockItem(id);
      // Reserving updates the level row before inserting the reservation: holding the level
      // locks makes the check below see every reservation committed before or after us.
      await q.lockLevelsOfItem({ id });
      if (await q.reservationOfItem({ id }))
        throw errors.invalidData(`Cannot delete inventory item ${id}: it has reservations`);
      const now = new Date();
      await q.deleteLevelsOfItem({ id, now });
      await q.deleteLinksOfItem({ id });
      await q.deleteItem({ id, now });
    });
  },

  /** The ids among `ids` that are live items. */
  existing: q.existingItems,
};

function itemValues(input: InventoryItemUpdate): Partial<InventoryItemRow> {
  const out: Partial<InventoryItemRow> = {};
  for (const [field, value] of Object.entries(input))
    if (value !== undefined) (out as Record<string, unknown>)[field] = value;
  if (typeof out.origin_country === "string") out.origin_country = out.origin_country.toLowerCase();
  return out;
}
