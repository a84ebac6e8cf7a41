export * from "./schema";
export { createTaxService, type TaxService, type TaxRegion, type TaxRate, type ApplicableTaxRate } from "./service";
