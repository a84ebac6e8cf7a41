import { errors } from "@kasse/core";
import { groupBy, isUniqueViolation } from "@kasse/db";
import type { InventoryLevelRow, ReservationRow } from "./schema";
import type { InventoryLevel, Reservation } from "./types";

// Row shapes and groupings the inventory sections share.

export const key = (itemId: string, locationId: string) => `${itemId}\u0000${locationId}`;

export const level = ({ deleted_at: _deleted, ...row }: InventoryLevelRow): InventoryLevel => row;
export const reservation = ({
  deleted_at: _deleted,
  allow_backorder: _backorder,
  ...row
}: ReservationRow): Reservation => row;

/**
 * Entries summed per (item, location), in sorted order: writers that take level locks in this
 * order cannot deadlock each other. `backorder`: every entry of the group allows a backorder.
 */
export function perLevel(
  entries: Array<{ inventory_item_id: string; location_id: string; quantity: number; allow_backorder?: boolean }>,
): Array<{ item: string; location: string; quantity: number; backorder: boolean }> {
  const groups = groupBy(entries, (e) => key(e.inventory_item_id, e.location_id));
  return [...groups.keys()].sort().map((k) => {
    const group = groups.get(k)!;
    return {
      item: group[0]!.inventory_item_id,
      location: group[0]!.location_id,
      quantity: group.reduce((sum, e) => sum + e.quantity, 0),
      backorder: group.every((e) => e.allow_backorder === true),
    };
  });
}

/** A unique violation of the live sku index as `conflict` naming the sku; any other error as it is. */
export function skuConflict(error: unknown, sku: string | null | undefined): unknown {
  return isUniqueViolation(error, "inventory_item_sku_uq")
    ? errors.conflict(`An inventory item with sku: ${sku} already exists`)
    : error;
}
