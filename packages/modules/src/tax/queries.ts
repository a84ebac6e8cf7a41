import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import {
  db,
  inFilters,
  inList,
  insertRows,
  liveRecords,
  rowsOf,
  statement,
  textSearch,
  type Placeholders,
  type ListFilters,
} from "@kasse/db";
import { taxRate, taxRateRule, taxRegion, type TaxRateRow } from "./schema";
import type { TaxRegionFilters } from "./shapes";

// The tax module's SQL: the only file of the module that imports drizzle and its tables.

const regions = liveRecords(taxRegion, "TaxRegion", {
  country_code: taxRegion.country_code,
  province_code: taxRegion.province_code,
});
const rates = liveRecords(taxRate, "Tax rate", { code: taxRate.code, name: taxRate.name, rate: taxRate.rate });
const liveRule = isNull(taxRateRule.deleted_at);

// The rates of a country's tax regions with their override targets: every cart write that
// computes tax reads them (`ratesFor`).
const ratesOfCountry = statement((v: Placeholders<{ country: string }>) =>
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
);

const countryRegion = statement((v: Placeholders<{ country: string }>) =>
  db
    .select({ id: taxRegion.id })
    .from(taxRegion)
    .where(and(eq(taxRegion.country_code, v.country), isNull(taxRegion.province_code), regions.live)),
);

const childIds = statement((v: Placeholders<{ parent_id: string }>) =>
  db
    .select({ id: taxRegion.id })
    .from(taxRegion)
    .where(and(eq(taxRegion.parent_id, v.parent_id), regions.live)),
);

const deleteRegions = statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
  db.update(taxRegion).set({ deleted_at: v.now, updated_at: v.now }).where(inList(taxRegion.id, v.ids)),
);

const deleteRatesOfRegions = statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
  db
    .update(taxRate)
    .set({ deleted_at: v.now, updated_at: v.now })
    .where(and(inList(taxRate.tax_region_id, v.ids), rates.live)),
);

const deleteRate = statement((v: Placeholders<{ id: string; now: Date }>) =>
  db.update(taxRate).set({ deleted_at: v.now, updated_at: v.now }).where(eq(taxRate.id, v.id)),
);

const deleteRulesOf = statement((v: Placeholders<{ rate_id: string; now: Date }>) =>
  db
    .update(taxRateRule)
    .set({ deleted_at: v.now, updated_at: v.now })
    .where(and(eq(taxRateRule.tax_rate_id, v.rate_id), liveRule)),
);

const deleteRule = statement((v: Placeholders<{ rate_id: string; id: string; now: Date }>) =>
  db
    .update(taxRateRule)
    .set({ deleted_at: v.now, updated_at: v.now })
    .where(and(eq(taxRateRule.id, v.id), eq(taxRateRule.tax_rate_id, v.rate_id), liveRule))
    .returning({ id: taxRateRule.id }),
);

const insertRules = insertRows(taxRateRule);

const rulesOf = rowsOf(taxRateRule, taxRateRule.tax_rate_id, {
  where: liveRule,
  order: [asc(taxRateRule.created_at), asc(taxRateRule.reference), asc(taxRateRule.id)],
});

const childrenOf = rowsOf(taxRegion, taxRegion.parent_id, {
  where: regions.live,
  order: [asc(taxRegion.province_code), asc(taxRegion.id)],
});

const regionsByIds = rowsOf(taxRegion, taxRegion.id, { where: regions.live });

const ratesOfRegions = rowsOf(taxRate, taxRate.tax_region_id, {
  where: rates.live,
  order: [asc(taxRate.created_at), asc(taxRate.id)],
});

/** The filters of a tax region list as conditions. */
function regionConditions(filters: TaxRegionFilters): SQL[] {
  const { id, country_code, province_code, parent_id } = taxRegion;
  return [
    ...inFilters(filters, { id, country_code, province_code, parent_id }, ["country_code", "province_code"]),
    ...textSearch(filters.q, [country_code, province_code]),
  ];
}

/** What a tax rate list filters on. */
export interface TaxRateFilters extends ListFilters {
  tax_region_id?: string[];
  code?: string[];
  is_default?: boolean;
}

/** The filters of a tax rate list as conditions. */
function rateConditions(filters: TaxRateFilters): SQL[] {
  const out = inFilters(filters, { id: taxRate.id, tax_region_id: taxRate.tax_region_id, code: taxRate.code });
  if (filters.is_default !== undefined) out.push(eq(taxRate.is_default, filters.is_default));
  out.push(...textSearch(filters.q, [taxRate.code, taxRate.name]));
  return out;
}

/** Named statements on the tax tables, run on the current handle. */
export const taxQueries = {
  retrieveRegion: regions.retrieve,
  findRegion: regions.find,
  insertRegion: (row: typeof taxRegion.$inferInsert) => regions.insert(row),
  listRegions: regions.listBy(regionConditions),
  /** The live country region (no province) of `country`. */
  countryRegion: async (country: string) => (await countryRegion({ country }))[0],
  /** The ids of the live province regions of `parentId`. */
  childIds: async (parentId: string) => (await childIds({ parent_id: parentId })).map((r) => r.id),
  /** Soft-deletes the regions `ids` and their live rates. */
  async deleteRegions(ids: string[], now: Date): Promise<void> {
    await deleteRegions({ ids, now });
    await deleteRatesOfRegions({ ids, now });
  },
  ratesOfCountry: (country: string) => ratesOfCountry({ country }),

  retrieveRate: rates.retrieve,
  insertRate: (row: typeof taxRate.$inferInsert) => rates.insert(row),
  updateRate: (id: string, fields: Partial<typeof taxRate.$inferInsert>) => rates.update(id, fields),
  listRates: rates.listBy(rateConditions),
  /** Soft-deletes the rate and its live rules. */
  async deleteRate(id: string, now: Date): Promise<void> {
    await deleteRate({ id, now });
    await deleteRulesOf({ rate_id: id, now });
  },

  insertRules: (rows: Array<typeof taxRateRule.$inferInsert>) => insertRules(rows),
  /** Soft-deletes the live rules of a rate. */
  deleteRulesOf: (rateId: string, now: Date) => deleteRulesOf({ rate_id: rateId, now }),
  /** Soft-deletes the live rule `id` of the rate; whether there was one. */
  deleteRule: async (rateId: string, id: string, now: Date) =>
    (await deleteRule({ rate_id: rateId, id, now })).length > 0,

  /** The live rules of the rates `ids`, oldest first. */
  rulesOf,
  /** The live province regions of the regions `ids`, by province. */
  childrenOf,
  regionsByIds,
  /** The live rates of the regions `ids`, oldest first. */
  ratesOfRegions: (ids: string[]): Promise<TaxRateRow[]> => ratesOfRegions(ids),
};
