import { itemMethods } from "./items";
import { levelMethods } from "./levels";
import { inventoryQueries as q } from "./queries";
import { reservationMethods } from "./reservations";
import { variantLinkMethods } from "./variant-links";

// The service's types, every one of them (index.ts names those it publishes).
export type * from "./types";

/**
 * Inventory: items, their stock per location, reservations, and the links to product variants.
 * Stock integrity: quantities are CHECKed non-negative, `available_quantity` is a generated
 * column, and every reservation goes through one guarded `UPDATE … WHERE available_quantity >= q`
 * per (item, location) in a fixed order, in the same transaction as the reservation rows.
 * One file a section (`items.ts`, `levels.ts`, `reservations.ts` for reservations and stock
 * movements, `variant-links.ts`; `kasse check`'s integrity checks here), each plain functions over
 * `queries.ts`; the row shapes they share are in `rows.ts`. Built once per process; every method
 * runs in the transaction in progress, if any.
 * @example
 * const inventory = createInventoryService();
 * const [reservation] = await inventory.reserve([{ inventory_item_id, location_id, quantity: 2 }]);
 */
export function createInventoryService() {
  return {
    ...itemMethods,
    ...levelMethods,
    ...variantLinkMethods,
    ...reservationMethods,

    /**
     * The stock of these (item, location) pairs' live levels as `inventory-item.updated` carries it
     * (`id`: the item), ordered by item and location: what a step records after moving stock.
     */
    async levelEvents(
      pairs: ReadonlyArray<{ inventory_item_id: string; location_id: string }>,
    ): Promise<Array<{ id: string; location_id: string; stocked_quantity: number; reserved_quantity: number }>> {
      const unique = [...new Map(pairs.map((p) => [`${p.inventory_item_id}|${p.location_id}`, p])).values()];
      if (unique.length === 0) return [];
      const levels = await q.levelEvents(unique);
      return levels.sort((a, b) => `${a.id}|${a.location_id}`.localeCompare(`${b.id}|${b.location_id}`));
    },

    // Read-only invariant checks of the inventory's own tables, for `kasse check` (aggregate SQL, capped).
    /**
     * Levels breaking the stock invariants: a negative quantity, or a `reserved_quantity` that is not
     * the sum of the live reservations at that item and location (each reservation is counted there).
     */
    async checkLevels(limit = 50): Promise<Array<{ id: string; problem: string }>> {
      return (await q.badLevels({ limit })).map((r) => ({
        id: r.id,
        problem:
          r.stocked < 0 || r.reserved < 0
            ? `negative quantity (stocked ${r.stocked}, reserved ${r.reserved})`
            : `reserved ${r.reserved} but its reservations hold ${r.reservations}`,
      }));
    },

    /** The units the live reservations of each of these line items hold (over every item and location). */
    async reservedForLines(lineIds: string[]): Promise<Map<string, number>> {
      if (!lineIds.length) return new Map();
      return new Map((await q.reservedForLines({ ids: lineIds })).map((r) => [r.line_item_id, r.quantity]));
    },

    /** One page (by id) of live reservations made for a line item: their ids and line item ids. */
    reservationLinesPage: (after: string, limit: number): Promise<Array<{ id: string; line_item_id: string }>> =>
      q.reservationLinesPage({ after, limit }),
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
