export * from "./schema";
export { createTaxService, SYSTEM_TAX_PROVIDER, type TaxService, type TaxRegion, type TaxRate } from "./service";
export { applicable, type ApplicableTaxRate, type RegionRates, type TaxTarget } from "./overrides";
