import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import {
  db,
  first,
  inFilters,
  inList,
  insertRows,
  liveRecords,
  rowsOf,
  statement,
  textSearch,
  type Placeholders,
} from "@kasse/db";
import { taxRate, taxRateRule, taxRegion } from "./schema";
import type { TaxRateFilters, TaxRegionFilters } from "./shapes";

// The tax module's SQL: the only file of the module that imports drizzle and its tables.

const regions = liveRecords(taxRegion, "TaxRegion", {
  country_code: taxRegion.country_code,
  province_code: taxRegion.province_code,
});
const rates = liveRecords(taxRate, "Tax rate", { code: taxRate.code, name: taxRate.name, rate: taxRate.rate });
const liveRule = isNull(taxRateRule.deleted_at);

/** The filters of a tax region list as conditions. */
const regionConditions = (filters: TaxRegionFilters): SQL[] => {
  const { id, country_code, province_code, parent_id } = taxRegion;
  return [
    ...inFilters(filters, { id, country_code, province_code, parent_id }, ["country_code", "province_code"]),
    ...textSearch(filters.q, [country_code, province_code]),
  ];
};

/** The filters of a tax rate list as conditions. */
const rateConditions = (filters: TaxRateFilters): SQL[] => [
  ...inFilters(filters, { id: taxRate.id, tax_region_id: taxRate.tax_region_id, code: taxRate.code }),
  ...(filters.is_default === undefined ? [] : [eq(taxRate.is_default, filters.is_default)]),
  ...textSearch(filters.q, [taxRate.code, taxRate.name]),
];

/** Named statements on the tax tables, run on the current handle. */
export const taxQueries = {
  retrieveRegion: regions.retrieve,
  findRegion: regions.find,
  insertRegion: regions.insert,
  listRegions: regions.listBy(regionConditions),
  /** The live country region (no province) of `country`. */
  countryRegion: first(
    statement((v: Placeholders<{ country: string }>) =>
      db
        .select({ id: taxRegion.id })
        .from(taxRegion)
        .where(and(eq(taxRegion.country_code, v.country), isNull(taxRegion.province_code), regions.live)),
    ),
  ),
  /** The ids of the live province regions of `parent_id`. */
  childIds: statement((v: Placeholders<{ parent_id: string }>) =>
    db
      .select({ id: taxRegion.id })
      .from(taxRegion)
      .where(and(eq(taxRegion.parent_id, v.parent_id), regions.live)),
  ),
  /** Soft-deletes the regions `ids`. */
  deleteRegions: statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
    db.update(taxRegion).set({ deleted_at: v.now, updated_at: v.now }).where(inList(taxRegion.id, v.ids)),
  ),
  /** Soft-deletes the live rates of the regions `ids`. */
  deleteRatesOfRegions: statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
    db
      .update(taxRate)
      .set({ deleted_at: v.now, updated_at: v.now })
      .where(and(inList(taxRate.tax_region_id, v.ids), rates.live)),
  ),
  /**
   * The rates of a country's tax regions with their override targets: every cart write that computes
   * tax reads them (`ratesFor`).
   */
  ratesOfCountry: statement((v: Placeholders<{ country: string }>) =>
    db
      .select({
        id: taxRate.id,
        tax_region_id: taxRate.tax_region_id,
        rate: taxRate.rate,
        code: taxRate.code,
        name: taxRate.name,
        is_default: taxRate.is_default,
        province_code: taxRegion.province_code,
        reference: taxRateRule.reference,
        reference_id: taxRateRule.reference_id,
      })
      .from(taxRate)
      .innerJoin(taxRegion, eq(taxRegion.id, taxRate.tax_region_id))
      .leftJoin(taxRateRule, and(eq(taxRateRule.tax_rate_id, taxRate.id), liveRule))
      .where(and(eq(taxRegion.country_code, v.country), regions.live, rates.live))
      .orderBy(asc(taxRate.created_at), asc(taxRate.id)),
  ),

  retrieveRate: rates.retrieve,
  insertRate: rates.insert,
  updateRate: rates.update,
  listRates: rates.listBy(rateConditions),
  deleteRate: rates.softDelete,

  insertRules: insertRows(taxRateRule),
  /** Soft-deletes the live rules of a rate. */
  deleteRulesOf: statement((v: Placeholders<{ rate_id: string; now: Date }>) =>
    db
      .update(taxRateRule)
      .set({ deleted_at: v.now, updated_at: v.now })
      .where(and(eq(taxRateRule.tax_rate_id, v.rate_id), liveRule)),
  ),
  /** Soft-deletes the live rule `id` of the rate `rate_id`; answers it when there was one. */
  deleteRule: first(
    statement((v: Placeholders<{ rate_id: string; id: string; now: Date }>) =>
      db
        .update(taxRateRule)
        .set({ deleted_at: v.now, updated_at: v.now })
        .where(and(eq(taxRateRule.id, v.id), eq(taxRateRule.tax_rate_id, v.rate_id), liveRule))
        .returning({ id: taxRateRule.id }),
    ),
  ),

  /** The live rules of the rates `ids`, oldest first. */
  rulesOf: rowsOf(taxRateRule, taxRateRule.tax_rate_id, {
    where: liveRule,
    order: [asc(taxRateRule.created_at), asc(taxRateRule.reference), asc(taxRateRule.id)],
  }),
  /** The live province regions of the regions `ids`, by province. */
  childrenOf: rowsOf(taxRegion, taxRegion.parent_id, {
    where: regions.live,
    order: [asc(taxRegion.province_code), asc(taxRegion.id)],
  }),
  regionsByIds: rowsOf(taxRegion, taxRegion.id, { where: regions.live }),
  /** The live rates of the regions `ids`, oldest first. */
  ratesOfRegions: rowsOf(taxRate, taxRate.tax_region_id, {
    where: rates.live,
    order: [asc(taxRate.created_at), asc(taxRate.id)],
  }),
};
