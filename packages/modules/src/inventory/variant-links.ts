import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { errors, generateId, isKasseError } from "@kasse/core";
import {
  builtOnce,
  idList,
  inParam,
  readRows,
  restoreRows,
  transaction,
  type Db,
  type RowSnapshot,
  groupByParent,
} from "@kasse/db";
import {
  inventoryItem,
  inventoryItemVariant,
  inventoryLevel,
  type InventoryItemRow,
  type InventoryLevelRow,
} from "./schema";
import { insertItems, liveItem, liveLevel } from "./rows";

// A variant's inventory items, and its sellable quantity: read by every line added and by checkout,
// built once.
const itemsOfVariants = builtOnce<
  Array<{ variant_id: string; inventory_item_id: string; required_quantity: number }>,
  { ids: string }
>((db) =>
  db
    .select({
      variant_id: inventoryItemVariant.variant_id,
      inventory_item_id: inventoryItemVariant.inventory_item_id,
      required_quantity: inventoryItemVariant.required_quantity,
    })
    .from(inventoryItemVariant)
    .innerJoin(inventoryItem, and(eq(inventoryItem.id, inventoryItemVariant.inventory_item_id), liveItem))
    .where(inParam(inventoryItemVariant.variant_id, "ids"))
    .orderBy(inventoryItemVariant.created_at, inventoryItemVariant.inventory_item_id),
);
/** Per variant and linked item: its required quantity and the available quantity at the levels `atLocations` keeps. */
const availableOf = <V extends { variants: string }>(atLocations: SQL) =>
  builtOnce<Array<{ variant_id: string; required_quantity: number; available: string | number }>, V>((db) =>
    db
      .select({
        variant_id: inventoryItemVariant.variant_id,
        required_quantity: inventoryItemVariant.required_quantity,
        available: sql<string | number>`coalesce(sum(${inventoryLevel.available_quantity}), 0)`,
      })
      .from(inventoryItemVariant)
      .innerJoin(inventoryItem, and(eq(inventoryItem.id, inventoryItemVariant.inventory_item_id), liveItem))
      .leftJoin(
        inventoryLevel,
        and(eq(inventoryLevel.inventory_item_id, inventoryItemVariant.inventory_item_id), liveLevel, atLocations),
      )
      .where(inParam(inventoryItemVariant.variant_id, "variants"))
      .groupBy(
        inventoryItemVariant.variant_id,
        inventoryItemVariant.inventory_item_id,
        inventoryItemVariant.required_quantity,
      ),
  );
const availableEverywhere = availableOf<{ variants: string }>(sql`true`);
// No location given: an empty list, which no level's location is in.
const availableAt = availableOf<{ variants: string; locations: string }>(
  inParam(inventoryLevel.location_id, "locations"),
);

/** What {@link VariantLinkMethods.detachVariants} removed, for {@link VariantLinkMethods.reattachVariants} to put back. */
export interface DetachedVariants {
  links: Array<RowSnapshot<typeof inventoryItemVariant.$inferSelect>>;
  /** The items that went with their last variant, and their levels, as they were. */
  items: Array<RowSnapshot<InventoryItemRow>>;
  levels: Array<RowSnapshot<InventoryLevelRow>>;
}
import type { ItemMethods } from "./items";
import type { LevelMethods } from "./levels";

/** The links between product variants and inventory items, and what a variant can sell. */
export function variantLinkMethods(db: Db, items: ItemMethods, inventoryLevels: LevelMethods) {
  const variantLinks = {
    /** One inventory item per variant (same sku and title), linked with `required_quantity` 1. */
    async createItemsForVariants(
      variants: Array<{ variant_id: string; sku: string | null; title: string }>,
    ): Promise<Array<{ variant_id: string; inventory_item_id: string }>> {
      if (variants.length === 0) return [];
      return transaction(db, async (t) => {
        const links = variants.map((v) => ({ variant_id: v.variant_id, inventory_item_id: generateId("iitem") }));
        await insertItems(
          t,
          variants.map((v, i) => ({ id: links[i]!.inventory_item_id, sku: v.sku, title: v.title })),
        );
        await t.insert(inventoryItemVariant).values(links.map((l) => ({ ...l, required_quantity: 1 })));
        return links;
      });
    },

    /** Links variants to existing items (e.g. to undo {@link unlinkVariants}). */
    async linkVariants(
      links: Array<{ variant_id: string; inventory_item_id: string; required_quantity?: number }>,
    ): Promise<void> {
      if (links.length === 0) return;
      const known = await items.existing([...new Set(links.map((l) => l.inventory_item_id))]);
      const missing = links.find((l) => !known.has(l.inventory_item_id));
      if (missing) throw errors.notFound(`Inventory item with id: ${missing.inventory_item_id} was not found`);
      await db
        .insert(inventoryItemVariant)
        .values(
          links.map((l) => ({
            variant_id: l.variant_id,
            inventory_item_id: l.inventory_item_id,
            required_quantity: l.required_quantity ?? 1,
          })),
        )
        .onConflictDoNothing();
    },

    /** Removes the links of the variants (the items stay); returns the removed links. */
    async unlinkVariants(
      variantIds: string[],
    ): Promise<Array<{ variant_id: string; inventory_item_id: string; required_quantity: number }>> {
      if (variantIds.length === 0) return [];
      return db.delete(inventoryItemVariant).where(inArray(inventoryItemVariant.variant_id, variantIds)).returning({
        variant_id: inventoryItemVariant.variant_id,
        inventory_item_id: inventoryItemVariant.inventory_item_id,
        required_quantity: inventoryItemVariant.required_quantity,
      });
    },

    /**
     * Removed variants: their links go and, as Medusa does, an inventory item used by no other
     * variant goes with its variant (its sku becomes free). One still holding reservations stays,
     * unlinked, for the orders that hold it. Returns what it removed, as it was.
     */
    async detachVariants(variantIds: string[]): Promise<DetachedVariants> {
      const detached: DetachedVariants = { links: [], items: [], levels: [] };
      if (variantIds.length === 0) return detached;
      detached.links = await readRows(db, inventoryItemVariant, inArray(inventoryItemVariant.variant_id, variantIds), {
        lock: true,
      });
      await db.delete(inventoryItemVariant).where(inArray(inventoryItemVariant.variant_id, variantIds));
      for (const itemId of new Set(detached.links.map((l) => l.inventory_item_id))) {
        if ((await variantLinks.variantIdsForItem(itemId)).length > 0) continue;
        const [item] = await readRows(db, inventoryItem, and(eq(inventoryItem.id, itemId), liveItem));
        if (!item) continue;
        const levels = await readRows(db, inventoryLevel, and(eq(inventoryLevel.inventory_item_id, itemId), liveLevel));
        try {
          await items.delete(itemId);
        } catch (error) {
          if (!(isKasseError(error) && error.type === "invalid_data")) throw error;
          continue;
        }
        detached.items.push(item);
        detached.levels.push(...levels);
      }
      return detached;
    },

    /** Puts back what {@link detachVariants} removed: the items with their levels, then the links. */
    async reattachVariants(detached: DetachedVariants): Promise<void> {
      await restoreRows(db, inventoryItem, detached.items);
      await restoreRows(db, inventoryLevel, detached.levels);
      await restoreRows(db, inventoryItemVariant, detached.links);
    },

    /** The live inventory items of each variant, in one query. */
    async listVariantInventoryItems(
      variantIds: string[],
    ): Promise<Map<string, Array<{ inventory_item_id: string; required_quantity: number }>>> {
      return groupByParent(
        variantIds,
        (ids) => itemsOfVariants(db, { ids: idList(ids) }),
        (r) => r.variant_id,
        { value: ({ variant_id: _variant, ...link }) => link },
      );
    },

    /**
     * Refuses (`invalid_data`) when an inventory item of one of the variants has no level at the
     * location: stock could not be put back there (a return is checked before it is requested).
     */
    async assertVariantsStockedAt(variantIds: string[], locationId: string): Promise<void> {
      const links = await variantLinks.listVariantInventoryItems([...new Set(variantIds)]);
      const itemIds = [...new Set([...links.values()].flat().map((l) => l.inventory_item_id))];
      const stocked = new Set((await inventoryLevels.levelsAt(itemIds, [locationId])).map((l) => l.inventory_item_id));
      const missing = itemIds.find((id) => !stocked.has(id));
      if (missing) throw errors.invalidData(`Inventory item ${missing} is not stocked at location ${locationId}`);
    },

    /** The variants linked to an item (e.g. to read their backorder flag). */
    async variantIdsForItem(itemId: string): Promise<string[]> {
      const rows = await db
        .select({ variant_id: inventoryItemVariant.variant_id })
        .from(inventoryItemVariant)
        .where(eq(inventoryItemVariant.inventory_item_id, itemId));
      return rows.map((r) => r.variant_id);
    },

    /**
     * Sellable quantity per variant over the given locations (`"all"`: every location), in one query for a whole page:
     * for each linked item, the sum of `available_quantity` at those locations divided by its
     * `required_quantity` (rounded down), and the smallest over the items. Variants without
     * inventory items are absent from the map.
     */
    async availableQuantities(variantIds: string[], locationIds: string[] | "all"): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      if (variantIds.length === 0) return out;
      // "all": every location's stock (the Admin's view of a variant); else only those given (none: nothing).
      const variants = idList(variantIds);
      const rows =
        locationIds === "all"
          ? await availableEverywhere(db, { variants })
          : await availableAt(db, { variants, locations: idList(locationIds) });
      for (const r of rows) {
        const sellable = Math.floor(Number(r.available) / r.required_quantity);
        const current = out.get(r.variant_id);
        out.set(r.variant_id, current === undefined ? sellable : Math.min(current, sellable));
      }
      return out;
    },
  };
  return variantLinks;
}

export type VariantLinkMethods = ReturnType<typeof variantLinkMethods>;
