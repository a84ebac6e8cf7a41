import { type Db } from "@kasse/db";
import { type InventoryItemRow, type InventoryLevelRow, type ReservationCreate, type ReservationRow } from "./schema";

/** A location level as the API shows it. */
export type InventoryLevel = Omit<InventoryLevelRow, "deleted_at">;
/** An inventory item with its levels and its totals over them. */
export type InventoryItem = Omit<InventoryItemRow, "deleted_at"> & {
  location_levels: InventoryLevel[];
  stocked_quantity: number;
  reserved_quantity: number;
};
/** A reservation as the API shows it. */
export type Reservation = Omit<ReservationRow, "deleted_at" | "allow_backorder">;

/** One reservation to make: `allow_backorder` is the variant's flag, passed in by the caller. */
export type ReserveInput = ReservationCreate & { allow_backorder?: boolean; created_by?: string | null };
/** What consuming a reservation took, so that it can be restored exactly. */
export interface ConsumedReservation {
  reservation_id: string;
  inventory_item_id: string;
  location_id: string;
  quantity: number;
  /** The reservation was used up and deleted. */
  deleted: boolean;
}
/** Order lines to reserve, and where: the locations of the order's sales channel, in preference order. */
export interface ReserveForLinesInput {
  lines: Array<{ line_item_id: string; variant_id: string; quantity: number; allow_backorder?: boolean }>;
  location_ids: string[];
  strategy?: "single_location_first" | "per_item";
}
/** A change of stocked quantity at a location (positive: received, negative: removed). */
export interface StockAdjustment {
  inventory_item_id: string;
  location_id: string;
  adjustment: number;
}
import { integrityMethods } from "./integrity";
import { itemMethods } from "./items";
import { levelMethods } from "./levels";
import { reservationMethods } from "./reservations";
import { variantLinkMethods } from "./variant-links";

/**
 * Inventory: items, their stock per location, reservations, and the links to product variants.
 * Stock integrity: quantities are CHECKed non-negative, `available_quantity` is a generated
 * column, and every reservation goes through one guarded `UPDATE … WHERE available_quantity >= q`
 * per (item, location) in a fixed order, in the same transaction as the reservation rows.
 * One file a section: `items.ts`, `levels.ts`, `reservations.ts` (reservations and stock
 * movements), `variant-links.ts`; the row helpers they share are in `rows.ts`.
 * @example
 * const inventory = createInventoryService(db);
 * const [reservation] = await inventory.reserve([{ inventory_item_id, location_id, quantity: 2 }]);
 */
export function createInventoryService(db: Db) {
  const inventoryLevels = levelMethods(db);
  const items = itemMethods(db);
  const variantLinks = variantLinkMethods(db, items, inventoryLevels);
  return {
    ...items,
    ...inventoryLevels,
    ...variantLinks,
    ...reservationMethods(db, inventoryLevels, variantLinks),
    ...integrityMethods(db),
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
