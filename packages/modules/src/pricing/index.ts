export * from "./calculate";
export type { Price, PriceInput } from "./prices";
export { createPricingService, type PricingService, type PriceContext, type VariantPricesSnapshot } from "./service";
export {
  createPriceListService,
  type PriceListService,
  type PriceList,
  type PriceListBatchResult,
} from "./price-list-service";
export {
  createPricePreferenceService,
  type PricePreferenceService,
  type PricePreference,
  type TaxInclusion,
  type TaxInclusionUndo,
} from "./price-preference-service";
export * from "./steps";
export * from "./shapes";
