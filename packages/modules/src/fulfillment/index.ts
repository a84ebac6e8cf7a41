export * from "./schema";
export { priceFor } from "./price-for";
export {
  createShippingOptionTypeService,
  type ShippingOptionTypeFilters,
  type ShippingOptionTypeService,
} from "./option-types";
export {
  createFulfillmentService,
  type DeletedZoneRecords,
  type FulfillmentService,
  type ShippingOption,
} from "./service";
export { inGeoZone, type FulfillmentSet, type ServiceZone, type ZoneAddress } from "./zones";
export {
  createFulfillmentRecordService,
  type FulfillmentRecordService,
  type Fulfillment,
  type FulfillmentRecordCreate,
} from "./records";
export * from "./steps";
export {
  createFulfillmentProviderRegistry,
  createTestFulfillmentProvider,
  defaultFulfillmentProviders,
  manualFulfillmentProvider,
  type FulfillmentProvider,
  type FulfillmentProviderCall,
  type FulfillmentProviderRegistry,
} from "./providers";
