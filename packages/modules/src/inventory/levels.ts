import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import { builtOnce, idList, inParam, isUniqueViolation, listPage, transaction, type Db, type Paging } from "@kasse/db";
import {
  inventoryLevel,
  type InventoryLevelBatch,
  type InventoryLevelCreate,
  type InventoryLevelRow,
  type InventoryLevelUpdate,
} from "./schema";
import { assertItem, level, liveLevel } from "./rows";
import { createInventoryService, type InventoryLevel } from "./service";

// Checkout's reservation plan reads these: built once.
const levelsOfItemsAt = builtOnce<InventoryLevelRow[], { items: string; locations: string }>((db) =>
  db
    .select()
    .from(inventoryLevel)
    .where(
      and(
        inParam(inventoryLevel.inventory_item_id, "items"),
        inParam(inventoryLevel.location_id, "locations"),
        liveLevel,
      ),
    ),
);

/** An item's stock per location (its levels): create, read, update, delete, batch. */
export function levelMethods(db: Db) {
  const inventoryLevels = {
    /** Creates levels of an item (location ids already checked by the caller); one per location. */
    async createLevels(itemId: string, inputs: InventoryLevelCreate[]): Promise<InventoryLevel[]> {
      await assertItem(db, itemId);
      const locations = inputs.map((i) => i.location_id);
      if (new Set(locations).size !== locations.length)
        throw errors.invalidData("A location may have only one level per inventory item");
      try {
        const rows = await db
          .insert(inventoryLevel)
          .values(
            inputs.map((i) => ({
              id: generateId("ilev"),
              inventory_item_id: itemId,
              location_id: i.location_id,
              stocked_quantity: i.stocked_quantity ?? 0,
              incoming_quantity: i.incoming_quantity ?? 0,
              metadata: i.metadata ?? null,
            })),
          )
          .returning();
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
      const [row] = await db
        .select()
        .from(inventoryLevel)
        .where(
          and(eq(inventoryLevel.inventory_item_id, itemId), eq(inventoryLevel.location_id, locationId), liveLevel),
        );
      if (!row) throw errors.notFound(`Inventory level for item ${itemId} at location ${locationId} was not found`);
      return level(row);
    },

    /** The levels of one item, paged. */
    async listLevels(
      itemId: string,
      filters: { location_id?: string[] },
      page: Paging,
    ): Promise<{ items: InventoryLevel[]; count: number }> {
      await assertItem(db, itemId);
      const where = and(
        eq(inventoryLevel.inventory_item_id, itemId),
        liveLevel,
        ...(filters.location_id?.length ? [inArray(inventoryLevel.location_id, filters.location_id)] : []),
      );
      const { items: rows, count: total } = await listPage(
        db,
        inventoryLevel,
        where,
        [asc(inventoryLevel.created_at), asc(inventoryLevel.id)],
        page,
      );
      return { items: rows.map(level), count: total };
    },

    /**
     * Sets stocked/incoming quantities. Lowering stock below what is reserved is refused (it
     * would oversell); raising it is always allowed, even while backorders keep it below.
     */
    async updateLevel(itemId: string, locationId: string, input: InventoryLevelUpdate): Promise<InventoryLevel> {
      const changes: Partial<InventoryLevelRow> = {};
      if (input.incoming_quantity !== undefined) changes.incoming_quantity = input.incoming_quantity;
      if (input.metadata !== undefined) changes.metadata = input.metadata;
      const at = and(
        eq(inventoryLevel.inventory_item_id, itemId),
        eq(inventoryLevel.location_id, locationId),
        liveLevel,
      );
      const guard: SQL[] = [];
      if (input.stocked_quantity !== undefined) {
        changes.stocked_quantity = input.stocked_quantity;
        guard.push(
          or(
            sql`${input.stocked_quantity} >= ${inventoryLevel.reserved_quantity}`,
            sql`${input.stocked_quantity} >= ${inventoryLevel.stocked_quantity}`,
          )!,
        );
      }
      if (Object.keys(changes).length === 0) return inventoryLevels.retrieveLevel(itemId, locationId);
      const [row] = await db
        .update(inventoryLevel)
        .set(changes)
        .where(and(at, ...guard))
        .returning();
      if (row) return level(row);
      const current = await inventoryLevels.retrieveLevel(itemId, locationId);
      throw errors.invalidData(
        `Stocked quantity ${input.stocked_quantity} of item ${itemId} at location ${locationId} cannot be lower than its reserved quantity ${current.reserved_quantity}`,
      );
    },

    /** Deletes a level; refused while it holds reservations (the guard is in the UPDATE). */
    async deleteLevel(itemId: string, locationId: string): Promise<InventoryLevel> {
      const [row] = await db
        .update(inventoryLevel)
        .set({ deleted_at: new Date() })
        .where(
          and(
            eq(inventoryLevel.inventory_item_id, itemId),
            eq(inventoryLevel.location_id, locationId),
            liveLevel,
            eq(inventoryLevel.reserved_quantity, 0),
          ),
        )
        .returning();
      if (row) return level(row);
      const current = await inventoryLevels.retrieveLevel(itemId, locationId);
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
      return transaction(db, async (t) => {
        await assertItem(t, itemId);
        const deleted: string[] = [];
        if (input.delete?.length) {
          const rows = await t
            .select({ id: inventoryLevel.id, location_id: inventoryLevel.location_id })
            .from(inventoryLevel)
            .where(
              and(
                eq(inventoryLevel.inventory_item_id, itemId),
                liveLevel,
                or(inArray(inventoryLevel.id, input.delete), inArray(inventoryLevel.location_id, input.delete)),
              ),
            );
          const unknown = input.delete.filter((ref) => !rows.some((r) => r.id === ref || r.location_id === ref));
          if (unknown.length) throw errors.notFound(`Inventory item ${itemId} has no level for: ${unknown.join(", ")}`);
          for (const row of rows)
            deleted.push((await createInventoryService(t).deleteLevel(itemId, row.location_id)).id);
        }
        const created = input.create?.length ? await createInventoryService(t).createLevels(itemId, input.create) : [];
        const updated: InventoryLevel[] = [];
        for (const { location_id, ...changes } of input.update ?? [])
          updated.push(await createInventoryService(t).updateLevel(itemId, location_id, changes));
        return { created, updated, deleted };
      });
    },

    /** Live levels of the given items at the given locations (one query), for location picking. */
    async levelsAt(itemIds: string[], locationIds: string[]): Promise<InventoryLevel[]> {
      if (itemIds.length === 0 || locationIds.length === 0) return [];
      const rows = await levelsOfItemsAt(db, { items: idList(itemIds), locations: idList(locationIds) });
      return rows.map(level);
    },
  };
  return inventoryLevels;
}

export type LevelMethods = ReturnType<typeof levelMethods>;
