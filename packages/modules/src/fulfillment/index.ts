export * from "./shapes";
export * from "./steps";
export * from "./providers";
export { priceFor } from "./price-for";
export { createShippingOptionTypeService, type ShippingOptionTypeService } from "./option-types";
export {
  createFulfillmentService,
  isReturnOption,
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
