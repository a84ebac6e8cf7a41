export {
  FulfillmentItemView,
  FulfillmentLabelInput,
  FulfillmentSetCreate,
  FulfillmentSetView,
  FulfillmentView,
  GEO_ZONE_TYPES,
  GeoZoneInput,
  GeoZoneUpdateInput,
  GeoZoneView,
  ServiceZoneCreate,
  ServiceZoneUpdate,
  ServiceZoneView,
  ShipmentCreate,
  ShippingOptionCreate,
  ShippingOptionPriceInput,
  ShippingOptionPriceView,
  ShippingOptionRule,
  ShippingOptionTypeCreate,
  ShippingOptionTypeUpdate,
  ShippingOptionTypeView,
  ShippingOptionUpdate,
  ShippingOptionView,
  ShippingProfileCreate,
  ShippingProfileView,
  type FulfillmentItemRow,
  type FulfillmentLabel,
  type FulfillmentRow,
  type FulfillmentSetRow,
  type GeoZoneRow,
  type ServiceZoneRow,
  type ShippingOptionFilters,
  type ShippingOptionPriceRow,
  type ShippingOptionRow,
  type ShippingOptionTypeRow,
  type ShippingProfileRow,
} from "./shapes";
export { priceFor } from "./price-for";
export {
  createShippingOptionTypeService,
  type ShippingOptionTypeFilters,
  type ShippingOptionTypeService,
} from "./option-types";
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
