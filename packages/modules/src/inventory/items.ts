import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import {
  likePattern,
  transaction,
  type Db,
  type ListPaging,
  anyOf,
  liveRecords,
  rowsByParent,
  sqlList,
} from "@kasse/db";
import {
  inventoryItem,
  inventoryItemVariant,
  inventorySearchText,
  inventoryLevel,
  reservationItem,
  type InventoryItemCreate,
  type InventoryItemFilters,
  type InventoryItemRow,
  type InventoryItemUpdate,
} from "./schema";
import { insertItems, level, liveItem, liveLevel, liveReservation, skuConflict } from "./rows";
import { createInventoryService, type InventoryItem } from "./service";

/** Inventory items: create, read, list, update and delete (with their levels and variant links). */
export function itemMethods(db: Db) {
  const records = liveRecords(db, inventoryItem, "Inventory item", {
    sku: inventoryItem.sku,
    title: inventoryItem.title,
  });
  /** Adds each item's live levels (one query for the page) and its totals. */
  async function withLevels(rows: InventoryItemRow[]): Promise<InventoryItem[]> {
    const levels = await rowsByParent(db, inventoryLevel, "inventory_item_id", rows, {
      where: liveLevel,
      order: [asc(inventoryLevel.created_at), asc(inventoryLevel.id)],
    });
    return rows.map(({ deleted_at: _deleted, ...row }) => {
      const own = levels.get(row.id)!.map(level);
      return {
        ...row,
        location_levels: own,
        stocked_quantity: own.reduce((sum, l) => sum + l.stocked_quantity, 0),
        reserved_quantity: own.reduce((sum, l) => sum + l.reserved_quantity, 0),
      };
    });
  }

  const items = {
    async create(input: InventoryItemCreate): Promise<InventoryItem> {
      return transaction(db, async (t) => {
        const { location_levels, ...fields } = input;
        const id = generateId("iitem");
        await insertItems(t, [{ ...itemValues(fields), id }]);
        if (location_levels?.length) await createInventoryService(t).createLevels(id, location_levels);
        return createInventoryService(t).retrieve(id);
      });
    },

    retrieve: async (id: string): Promise<InventoryItem> => (await withLevels([await records.retrieve(id)]))[0]!,

    async list(filters: InventoryItemFilters, page: ListPaging): Promise<{ items: InventoryItem[]; count: number }> {
      const { items: rows, count } = await records.list(itemConditions(filters), page);
      return { items: await withLevels(rows), count };
    },

    async update(id: string, input: InventoryItemUpdate): Promise<InventoryItem> {
      const changes = itemValues(input);
      if (Object.keys(changes).length) {
        try {
          await records.update(id, changes);
        } catch (error) {
          throw skuConflict(error, input.sku);
        }
      }
      return items.retrieve(id);
    },

    /** Soft delete with its levels and variant links; refused while the item holds reservations. */
    async delete(id: string): Promise<void> {
      await transaction(db, async (t) => {
        const [row] = await t
          .select({ id: inventoryItem.id })
          .from(inventoryItem)
          .where(and(eq(inventoryItem.id, id), liveItem))
          .for("update");
        if (!row) throw records.notFound(id);
        // Reserving updates the level row before inserting the reservation: holding the level
        // locks makes the check below see every reservation committed before or after us.
        await t
          .select({ id: inventoryLevel.id })
          .from(inventoryLevel)
          .where(and(eq(inventoryLevel.inventory_item_id, id), liveLevel))
          .orderBy(inventoryLevel.id)
          .for("update");
        const [held] = await t
          .select({ id: reservationItem.id })
          .from(reservationItem)
          .where(and(eq(reservationItem.inventory_item_id, id), liveReservation))
          .limit(1);
        if (held) throw errors.invalidData(`Cannot delete inventory item ${id}: it has reservations`);
        const now = new Date();
        await t
          .update(inventoryLevel)
          .set({ deleted_at: now })
          .where(and(eq(inventoryLevel.inventory_item_id, id), liveLevel));
        await t.delete(inventoryItemVariant).where(eq(inventoryItemVariant.inventory_item_id, id));
        await t.update(inventoryItem).set({ deleted_at: now }).where(eq(inventoryItem.id, id));
      });
    },

    /** The ids among `ids` that are live items. */
    async existing(ids: string[]): Promise<Set<string>> {
      return records.existing(ids);
    },
  };
  return items;
}

export type ItemMethods = ReturnType<typeof itemMethods>;

function itemValues(input: InventoryItemUpdate): Partial<InventoryItemRow> {
  const out: Partial<InventoryItemRow> = {};
  for (const [field, value] of Object.entries(input))
    if (value !== undefined) (out as Record<string, unknown>)[field] = value;
  if (typeof out.origin_country === "string") out.origin_country = out.origin_country.toLowerCase();
  return out;
}

function itemConditions(filters: InventoryItemFilters): SQL[] {
  const out = anyOf(filters, { id: inventoryItem.id, sku: inventoryItem.sku });
  if (filters.location_id?.length) {
    out.push(
      sql`exists (select 1 from ${inventoryLevel} where ${inventoryLevel.inventory_item_id} = ${inventoryItem.id} and ${inventoryLevel.deleted_at} is null and ${inventoryLevel.location_id} in (${sqlList(filters.location_id)}))`,
    );
  }
  if (filters.q) {
    const pattern = likePattern(filters.q);
    out.push(sql`${inventorySearchText()} ilike ${pattern}`);
  }
  return out;
}
