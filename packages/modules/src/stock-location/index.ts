export { createStockLocationService, type StockLocationService, type StockLocation } from "./service";
export * from "./steps";
export * from "./shapes";
