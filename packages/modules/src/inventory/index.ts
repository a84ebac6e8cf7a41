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
export * from "./steps";
