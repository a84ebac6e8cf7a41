import { and, eq, isNull } from "drizzle-orm";
import { errors } from "@kasse/core";
import { isUniqueViolation, type Db } from "@kasse/db";
import {
  inventoryItem,
  inventoryLevel,
  reservationItem,
  type InventoryItemRow,
  type InventoryLevelRow,
  type ReservationRow,
} from "./schema";
import type { InventoryLevel, Reservation } from "./service";

// Row helpers the inventory sections share.

export const liveItem = isNull(inventoryItem.deleted_at);
export const liveLevel = isNull(inventoryLevel.deleted_at);
export const liveReservation = isNull(reservationItem.deleted_at);
export const key = (itemId: string, locationId: string) => `${itemId}\u0000${locationId}`;
export const levelAt = (itemId: string, locationId: string) =>
  and(eq(inventoryLevel.inventory_item_id, itemId), eq(inventoryLevel.location_id, locationId), liveLevel);

/** Throws `not_found` unless the item is live (a level's item). */
export async function assertItem(tx: Db, itemId: string): Promise<void> {
  const [row] = await tx
    .select({ id: inventoryItem.id })
    .from(inventoryItem)
    .where(and(eq(inventoryItem.id, itemId), liveItem));
  if (!row) throw errors.notFound(`Inventory item with id: ${itemId} was not found`);
}

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
export function groupByLevel(
  entries: Array<{ inventory_item_id: string; location_id: string; quantity: number; allow_backorder?: boolean }>,
) {
  const groups = new Map<string, { item: string; location: string; quantity: number; backorder: boolean }>();
  for (const e of entries) {
    const k = key(e.inventory_item_id, e.location_id);
    const g = groups.get(k) ?? { item: e.inventory_item_id, location: e.location_id, quantity: 0, backorder: true };
    g.quantity += e.quantity;
    g.backorder &&= e.allow_backorder === true;
    groups.set(k, g);
  }
  return [...groups.keys()].sort().map((k) => groups.get(k)!);
}

export async function insertItems(tx: Db, values: Array<Partial<InventoryItemRow> & { id: string }>): Promise<void> {
  try {
    await tx.insert(inventoryItem).values(values);
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

export function skuConflict(error: unknown, sku: string | null | undefined): unknown {
  return isUniqueViolation(error, "inventory_item_sku_uq")
    ? errors.conflict(`An inventory item with sku: ${sku} already exists`)
    : error;
}
