export * from "./schema";
export {
  createTaxService,
  SYSTEM_TAX_PROVIDER,
  type TaxService,
  type TaxRegion,
  type TaxRate,
  type ApplicableTaxRate,
} from "./service";
