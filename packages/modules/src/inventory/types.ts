import type { RowSnapshot } from "@kasse/db";
import type { InventoryItemRow, InventoryItemVariantRow, InventoryLevelRow, ReservationRow } from "./schema";
import type { ReservationCreate } from "./shapes";

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
/** What `detachVariants` removed, for `reattachVariants` to put back. */
export interface DetachedVariants {
  links: Array<RowSnapshot<InventoryItemVariantRow>>;
  /** The items that went with their last variant, and their levels, as they were. */
  items: Array<RowSnapshot<InventoryItemRow>>;
  levels: Array<RowSnapshot<InventoryLevelRow>>;
}
