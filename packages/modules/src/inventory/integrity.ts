import { inventoryQueries as q } from "./queries";

/** Read-only invariant checks of the inventory's own tables, for `kasse check` (aggregate SQL, capped). */
export const integrityMethods = {
  /**
   * Levels breaking the stock invariants: a negative quantity, or a `reserved_quantity` that is not
   * the sum of the live reservations at that item and location (each reservation is counted there).
   */
  async checkLevels(limit = 50): Promise<Array<{ id: string; problem: string }>> {
    return (await q.badLevels(limit)).map((r) => ({
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
    return new Map((await q.reservedForLines(lineIds)).map((r) => [r.line_item_id, r.quantity]));
  },

  /** One page (by id) of live reservations made for a line item: their ids and line item ids. */
  reservationLinesPage: (afterId: string, limit: number): Promise<Array<{ id: string; line_item_id: string }>> =>
    q.reservationLinesPage(afterId, limit),
};
