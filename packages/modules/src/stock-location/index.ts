export * from "./schema";
export { createStockLocationService, type StockLocationService, type StockLocation } from "./service";
export * from "./steps";
