import { sql } from "drizzle-orm";
import { queryRows, type Db } from "@kasse/db";

/** Read-only invariant checks of the inventory's own tables, for `kasse check` (aggregate SQL, capped). */
export function integrityMethods(db: Db) {
  return {
    /**
     * Levels breaking the stock invariants: a negative quantity, or a `reserved_quantity` that is not
     * the sum of the live reservations at that item and location (each reservation is counted there).
     */
    async checkLevels(limit = 50): Promise<Array<{ id: string; problem: string }>> {
      const rows = await queryRows<{ id: string; stocked: number; reserved: number; reservations: number }>(
        db,
        sql`select l.id, l.stocked_quantity as stocked, l.reserved_quantity as reserved, coalesce(r.total, 0)::int as reservations
            from inventory_level l
            left join (select inventory_item_id, location_id, sum(quantity) as total from reservation_item where deleted_at is null group by inventory_item_id, location_id) r
              on r.inventory_item_id = l.inventory_item_id and r.location_id = l.location_id
            where l.deleted_at is null and (l.stocked_quantity < 0 or l.reserved_quantity < 0 or l.reserved_quantity <> coalesce(r.total, 0))
            order by l.id limit ${limit}`,
      );
      return rows.map((r) => ({
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
      const rows = await queryRows<{ line_item_id: string; quantity: number }>(
        db,
        sql`select line_item_id, sum(quantity)::int as quantity from reservation_item where deleted_at is null and line_item_id in ${lineIds} group by line_item_id`,
      );
      return new Map(rows.map((r) => [r.line_item_id, r.quantity]));
    },

    /** One page (by id) of live reservations made for a line item: their ids and line item ids. */
    async reservationLinesPage(afterId: string, limit: number): Promise<Array<{ id: string; line_item_id: string }>> {
      return queryRows(
        db,
        sql`select id, line_item_id from reservation_item where deleted_at is null and line_item_id is not null and id > ${afterId} order by id limit ${limit}`,
      );
    },
  };
}
