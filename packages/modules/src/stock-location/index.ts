export { createStockLocationService, type StockLocationService, type StockLocation } from "./service";
export { deleteStockLocationStep } from "./steps";
export {
  StockLocationAddressInput,
  StockLocationAddressView,
  StockLocationCreate,
  StockLocationFulfillmentProviders,
  StockLocationSalesChannels,
  StockLocationUpdate,
  StockLocationView,
  type StockLocationAddressRow,
  type StockLocationFilters,
  type StockLocationRow,
} from "./shapes";
