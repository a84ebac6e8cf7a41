export { createTaxService, SYSTEM_TAX_PROVIDER, type TaxService, type TaxRegion, type TaxRate } from "./service";
export { applicable, summedRate, type ApplicableTaxRate, type RegionRates, type TaxTarget } from "./overrides";
export { type TaxRateFilters } from "./queries";
export {
  TAX_RATE_RULE_REFERENCES,
  TaxRateCreate,
  TaxRateInput,
  TaxRateRuleInput,
  TaxRateRuleView,
  TaxRateUpdate,
  TaxRateView,
  TaxRegionCreate,
  TaxRegionView,
  type TaxRateRow,
  type TaxRateRuleReference,
  type TaxRateRuleRow,
  type TaxRegionFilters,
  type TaxRegionRow,
} from "./shapes";
