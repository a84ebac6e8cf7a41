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
  type DetachedVariants,
} from "./service";
export * from "./steps";
export * from "./shapes";
