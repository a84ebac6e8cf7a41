export {
  calculatePrice,
  listApplies,
  type CalculatedPrice,
  type CandidateList,
  type CandidatePrice,
  type PricingContext,
} from "./calculate";
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
export {
  replaceVariantPricesStep,
  setCurrencyTaxInclusionStep,
  setRegionTaxInclusionStep,
  type CurrencyTaxInclusion,
  type RegionTaxInclusion,
} from "./steps";
export {
  CalculatedPriceView,
  PriceListCreate,
  PriceListPriceCreate,
  PriceListPriceUpdate,
  PriceListPricesBatch,
  PriceListRules,
  PriceListUpdate,
  PriceListView,
  PricePreferenceCreate,
  PricePreferenceUpdate,
  PricePreferenceView,
  PriceView,
  VariantPriceInput,
  type PriceListFilters,
  type PriceListRow,
  type PricePreferenceFilters,
  type PricePreferenceRow,
  type PriceRow,
} from "./shapes";
