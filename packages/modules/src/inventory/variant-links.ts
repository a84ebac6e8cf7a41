import { errors, generateId, isKasseError } from "@kasse/core";
import { groupBy, transaction } from "@kasse/db";
import { insertItems, itemMethods } from "./items";
import { levelMethods } from "./levels";
import { inventoryQueries as q } from "./queries";
import type { DetachedVariants } from "./types";

/** The links between product variants and inventory items, and what a variant can sell. */
export const variantLinkMethods = {
  /** One inventory item per variant (same sku and title), linked with `required_quantity` 1. */
  async createItemsForVariants(
    variants: Array<{ variant_id: string; sku: string | null; title: string }>,
  ): Promise<Array<{ variant_id: string; inventory_item_id: string }>> {
    if (variants.length === 0) return [];
    return transaction(async () => {
      const links = variants.map((v) => ({ variant_id: v.variant_id, inventory_item_id: generateId("iitem") }));
      await insertItems(variants.map((v, i) => ({ id: links[i]!.inventory_item_id, sku: v.sku, title: v.title })));
      await q.insertLinks(links.map((l) => ({ ...l, required_quantity: 1 })));
      return links;
    });
  },

  /** Links variants to existing items (e.g. to undo {@link unlinkVariants}). */
  async linkVariants(
    links: Array<{ variant_id: string; inventory_item_id: string; required_quantity?: number }>,
  ): Promise<void> {
    if (links.length === 0) return;
    const known = await itemMethods.existing([...new Set(links.map((l) => l.inventory_item_id))]);
    const missing = links.find((l) => !known.has(l.inventory_item_id));
    if (missing) throw errors.notFound(`Inventory item with id: ${missing.inventory_item_id} was not found`);
    await q.insertMissingLinks(links.map((l) => ({ ...l, required_quantity: l.required_quantity ?? 1 })));
  },

  /** Removes the links of the variants (the items stay); returns the removed links. */
  async unlinkVariants(
    variantIds: string[],
  ): Promise<Array<{ variant_id: string; inventory_item_id: string; required_quantity: number }>> {
    if (variantIds.length === 0) return [];
    return q.unlinkVariants({ ids: variantIds });
  },

  /**
   * Removed variants: their links go and, as Medusa does, an inventory item used by no other
   * variant goes with its variant (its sku becomes free). One still holding reservations stays,
   * unlinked, for the orders that hold it. Returns what it removed, as it was.
   */
  async detachVariants(variantIds: string[]): Promise<DetachedVariants> {
    const detached: DetachedVariants = { links: [], items: [], levels: [] };
    if (variantIds.length === 0) return detached;
    detached.links = await q.readLinks(variantIds);
    await q.unlinkVariants({ ids: variantIds });
    for (const itemId of new Set(detached.links.map((l) => l.inventory_item_id))) {
      if ((await variantLinkMethods.variantIdsForItem(itemId)).length > 0) continue;
      const { item, levels } = await q.readItem(itemId);
      if (!item) continue;
      try {
        await itemMethods.delete(itemId);
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
  reattachVariants: (detached: DetachedVariants): Promise<void> => q.restoreDetached(detached),

  /** The live inventory items of each variant, in one query. */
  async listVariantInventoryItems(
    variantIds: string[],
  ): Promise<Map<string, Array<{ inventory_item_id: string; required_quantity: number }>>> {
    if (variantIds.length === 0) return new Map();
    return groupBy(await q.itemsOfVariants({ ids: variantIds }), (r) => r.variant_id, {
      value: ({ variant_id: _variant, ...link }) => link,
    });
  },

  /**
   * Refuses (`invalid_data`) when an inventory item of one of the variants has no level at the
   * location: stock could not be put back there (a return is checked before it is requested).
   */
  async assertVariantsStockedAt(variantIds: string[], locationId: string): Promise<void> {
    const links = await variantLinkMethods.listVariantInventoryItems([...new Set(variantIds)]);
    const itemIds = [...new Set([...links.values()].flat().map((l) => l.inventory_item_id))];
    const stocked = new Set((await levelMethods.levelsAt(itemIds, [locationId])).map((l) => l.inventory_item_id));
    const missing = itemIds.find((id) => !stocked.has(id));
    if (missing) throw errors.invalidData(`Inventory item ${missing} is not stocked at location ${locationId}`);
  },

  /** The variants linked to an item (e.g. to read their backorder flag). */
  variantIdsForItem: async (itemId: string): Promise<string[]> =>
    (await q.variantsOfItem({ id: itemId })).map((r) => r.variant_id),

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
    const rows =
      locationIds === "all"
        ? await q.availableEverywhere({ variants: variantIds })
        : await q.availableAt({ variants: variantIds, locations: locationIds });
    for (const r of rows) {
      const sellable = Math.floor(Number(r.available) / r.required_quantity);
      const current = out.get(r.variant_id);
      out.set(r.variant_id, current === undefined ? sellable : Math.min(current, sellable));
    }
    return out;
  },
};
