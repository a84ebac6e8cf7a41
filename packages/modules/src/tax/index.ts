export { createTaxService, SYSTEM_TAX_PROVIDER, type TaxService, type TaxRegion, type TaxRate } from "./service";
export { applicable, summedRate, type ApplicableTaxRate, type RegionRates, type TaxTarget } from "./overrides";
export * from "./shapes";
