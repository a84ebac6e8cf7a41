// The stock-location module's tables, for tests, migrations and `kasse check` only
// (`@kasse/modules/stock-location/tables`; lint forbids it elsewhere): everything else goes through the service.
export {
  salesChannelStockLocation,
  stockLocation,
  stockLocationAddress,
  stockLocationProviderExclusion,
} from "./schema";
