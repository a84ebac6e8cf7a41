export * from "./schema";
export {
  createInventoryService,
  type InventoryService,
  type InventoryItem,
  type InventoryLevel,
  type Reservation,
  type ReserveInput,
  type ConsumedReservation,
  type StockAdjustment,
  type ReserveForLinesInput,
} from "./service";
export type { DetachedVariants } from "./variant-links";
export * from "./steps";
