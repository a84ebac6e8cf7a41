import { errors, generateId } from "@kasse/core";
import { groupBy, isUniqueViolation, transaction, viewPage, type ListPaging } from "@kasse/db";
import { taxQueries as q } from "./queries";
import type { TaxRateRow, TaxRateRuleRow, TaxRegionRow } from "./schema";
import type {
  TaxRateCreate,
  TaxRateFilters,
  TaxRateRuleInput,
  TaxRateUpdate,
  TaxRegionCreate,
  TaxRegionFilters,
} from "./shapes";
import { applicable, type ApplicableTaxRate, type RegionRates } from "./overrides";

/** A tax rate as the API shows it (its `rules` when read through the rate APIs). */
export type TaxRate = Omit<TaxRateRow, "deleted_at"> & { rules?: TaxRateRuleRow[] };

/**
 * The one tax provider: Kasse computes tax itself from its regions' rates (Medusa calls this
 * provider `tp_system`). Every tax region answers it, and a region may name it and no other.
 */
export const SYSTEM_TAX_PROVIDER = "tp_system";

/** A tax region as the API shows it (Medusa's shape). */
export type TaxRegion = Omit<TaxRegionRow, "deleted_at"> & {
  provider_id: string;
  tax_rates: TaxRate[];
  parent: Omit<TaxRegion, "parent" | "children"> | null;
  children: Array<Omit<TaxRegion, "parent" | "children">>;
};

/**
 * Tax regions (country, then province) with their rates, and the rate lookup checkout uses.
 * @example
 * const taxes = createTaxService();
 * await taxes.create({ country_code: "de", default_tax_rate: { rate: 19, code: "DE19", name: "MwSt" } });
 * await taxes.rateFor("de"); // { rate: 19, code: "DE19", ... }
 */
export function createTaxService() {
  const service = {
    /** A province region links to its country's region (given or found); one live region per place. */
    async create(input: TaxRegionCreate, createdBy: string | null = null): Promise<TaxRegion> {
      if (input.provider_id && input.provider_id !== SYSTEM_TAX_PROVIDER)
        throw errors.invalidData(
          `Tax provider ${input.provider_id} is not available; Kasse computes taxes with ${SYSTEM_TAX_PROVIDER}`,
        );
      const country = input.country_code.toLowerCase();
      const province = input.province_code?.toLowerCase() ?? null;
      let parentId = input.parent_id ?? null;
      if (parentId) {
        const parent = await service.retrieve(parentId).catch(() => null);
        if (!parent) throw errors.invalidData(`Parent tax region with id: ${parentId} was not found`);
        if (parent.country_code !== country || parent.province_code !== null)
          throw errors.invalidData("A parent tax region must be the country region of the same country");
      }
      if (province && !parentId) {
        const parent = await q.countryRegion({ country });
        if (!parent)
          throw errors.invalidData(
            `Create a tax region for country ${country} before one for its province ${province}`,
          );
        parentId = parent.id;
      }
      if (!province && parentId) throw errors.invalidData("Only a province tax region can have a parent");
      const id = generateId("txreg");
      try {
        await transaction(async () => {
          await q.insertRegion({
            id,
            country_code: country,
            province_code: province,
            parent_id: parentId,
            created_by: createdBy,
            metadata: input.metadata ?? null,
          });
          const rate = input.default_tax_rate;
          if (rate) await q.insertRate(newRate(generateId("txr"), id, { ...rate, is_default: true }, createdBy));
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.invalidData(`A tax region for ${province ? `${country}-${province}` : country} already exists`);
        throw error;
      }
      return service.retrieve(id);
    },

    retrieve: async (id: string): Promise<TaxRegion> => (await withRates([await q.retrieveRegion(id)]))[0]!,

    list: (filters: TaxRegionFilters, page: ListPaging) => viewPage(q.listRegions(filters, page), withRates),

    /** A tax rate with its rules, by id (`not_found` when missing or deleted). */
    retrieveRate: async (id: string): Promise<RateWithRules> => (await withRules([await q.retrieveRate(id)]))[0]!,

    /** Tax rates across regions with their rules, filtered by region, code, default flag or a search in code and name. */
    listRates: (filters: TaxRateFilters, page: ListPaging) => viewPage(q.listRates(filters, page), withRules),

    /**
     * A rate of a live region: its default (one per region, taking no rules) or an override that
     * applies to its `rules`' targets (whose existence the caller checked). All or nothing.
     */
    async createRate(input: TaxRateCreate, createdBy: string | null = null): Promise<RateWithRules> {
      const region = await q.findRegion(input.tax_region_id);
      if (!region) throw errors.invalidData(`Tax region with id: ${input.tax_region_id} was not found`);
      if (input.is_default && input.rules?.length) throw defaultTakesNoRules();
      const id = generateId("txr");
      await transaction(async () => {
        await q.insertRate(newRate(id, region.id, input, createdBy), defaultTaken(region.id));
        await insertRules(id, input.rules ?? [], createdBy);
      });
      return service.retrieveRate(id);
    },

    /** Updates a rate; `rules`, when given, replaces its rules. All or nothing. */
    async updateRate(id: string, input: TaxRateUpdate, createdBy: string | null = null): Promise<RateWithRules> {
      return transaction(async () => {
        const current = await service.retrieveRate(id);
        const { rules, ...fields } = input;
        const isDefault = fields.is_default ?? current.is_default;
        if (isDefault && (rules ?? current.rules).length) throw defaultTakesNoRules();
        if (Object.keys(fields).length) await q.updateRate(id, fields, defaultTaken(current.tax_region_id));
        if (rules) {
          await q.deleteRulesOf({ rate_id: id, now: new Date() });
          await insertRules(id, rules, createdBy);
        }
        return service.retrieveRate(id);
      });
    },

    /** Soft-deletes a rate and its rules. */
    async deleteRate(id: string): Promise<void> {
      await transaction(async () => {
        await q.deleteRate(id);
        await q.deleteRulesOf({ rate_id: id, now: new Date() });
      });
    },

    /** Adds one target to an override rate; a target it already has is a conflict. */
    async addRateRule(id: string, rule: TaxRateRuleInput, createdBy: string | null = null): Promise<RateWithRules> {
      const rate = await q.retrieveRate(id);
      if (rate.is_default) throw defaultTakesNoRules();
      await insertRules(id, [rule], createdBy);
      return service.retrieveRate(id);
    },

    /** Removes one rule of a rate (`not_found` unless it is a live rule of that rate). */
    async deleteRateRule(id: string, ruleId: string): Promise<RateWithRules> {
      await q.retrieveRate(id);
      if (!(await q.deleteRule({ rate_id: id, id: ruleId, now: new Date() })))
        throw errors.notFound(`Tax rate rule with id: ${ruleId} was not found`);
      return service.retrieveRate(id);
    },

    /**
     * Every live rate of the tax regions covering an address (the province's first, then the
     * country's), with the override rates' targets, in one statement: what `applicable` picks each
     * line's and shipping method's rates from. Empty when no tax region covers the address.
     */
    async ratesFor(countryCode: string, provinceCode?: string | null): Promise<RegionRates[]> {
      const country = countryCode.toLowerCase();
      const province = provinceCode?.toLowerCase() ?? null;
      const rows = await q.ratesOfCountry({ country });
      const places: Array<string | null> = province ? [province, null] : [null];
      return places.flatMap((place) => {
        const own = rows.filter((r) => r.province_code === place);
        if (own.length === 0) return [];
        const byRate = new Map<string, RegionRates["overrides"][number]>();
        let fallback: RegionRates["default"] = null;
        for (const row of own) {
          const rate = {
            id: row.id,
            tax_region_id: row.tax_region_id,
            rate: row.rate ?? 0,
            code: row.code,
            name: row.name,
          };
          if (row.is_default) {
            fallback = rate;
            continue;
          }
          const entry = byRate.get(row.id) ?? { rate, targets: [] };
          if (row.reference && row.reference_id) entry.targets.push({ reference: row.reference, id: row.reference_id });
          byRate.set(row.id, entry);
        }
        return [{ default: fallback, overrides: [...byRate.values()] }];
      });
    },

    /** Soft-deletes the region, its provinces and all their rates. */
    async delete(id: string): Promise<void> {
      await service.retrieve(id);
      const now = new Date();
      await transaction(async () => {
        const ids = [id, ...(await q.childIds({ parent_id: id })).map((r) => r.id)];
        await q.deleteRegions({ ids, now });
        await q.deleteRatesOfRegions({ ids, now });
      });
    },

    /**
     * The default rate for an address: the province's when it has one, else the country's;
     * null when no tax region covers the address (no tax).
     */
    async rateFor(countryCode: string, provinceCode?: string | null): Promise<ApplicableTaxRate | null> {
      return applicable(await service.ratesFor(countryCode, provinceCode), {})[0] ?? null;
    },
  };
  return service;
}

export type TaxService = ReturnType<typeof createTaxService>;

/** A tax rate with its live rules, oldest first (products, then product types, then shipping options, when added together). */
type RateWithRules = TaxRate & { rules: TaxRateRuleRow[] };

const defaultTakesNoRules = () =>
  errors.invalidData("A default tax rate applies to everything in its region; it takes no rules");

/** The row of a new rate `id` of the region `regionId`. */
const newRate = (
  id: string,
  regionId: string,
  rate: Omit<TaxRateCreate, "tax_region_id" | "rules">,
  createdBy: string | null,
) => ({
  id,
  tax_region_id: regionId,
  rate: rate.rate ?? null,
  code: rate.code,
  name: rate.name,
  is_default: rate.is_default ?? false,
  is_combinable: rate.is_combinable ?? false,
  created_by: createdBy,
  metadata: rate.metadata ?? null,
});

/** A second default rate of a region is refused (one per region: `tax_rate_default_uq`). */
const defaultTaken = (regionId: string) =>
  `Tax region ${regionId} already has a default tax rate; update that one instead`;

/** Adds targets to a rate; one the rate already has (or named twice) is a conflict. */
async function insertRules(rateId: string, rules: TaxRateRuleInput[], createdBy: string | null): Promise<void> {
  if (rules.length === 0) return;
  try {
    await q.insertRules(
      rules.map((rule) => ({
        id: generateId("txrule"),
        tax_rate_id: rateId,
        reference: rule.reference,
        reference_id: rule.reference_id,
        created_by: createdBy,
      })),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.conflict(`Tax rate ${rateId} already has one of these rules`);
    throw error;
  }
}

/** The live rules of a page of rates: one query. */
async function withRules(rows: TaxRateRow[]): Promise<RateWithRules[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const rules = groupBy(await q.rulesOf(ids), (rule) => rule.tax_rate_id, { keys: ids });
  return rows.map(({ deleted_at: _d, ...row }) => ({ ...row, rules: rules.get(row.id)! }));
}

/**
 * A page of regions as Medusa answers them: each with its live rates (default first), its live
 * province regions (`children`, with their rates) and its `parent` (null for a country). Three
 * queries for the page: the children, the parents, then every one's rates.
 */
async function withRates(rows: TaxRegionRow[]): Promise<TaxRegion[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const parentIds = [...new Set(rows.flatMap((r) => (r.parent_id ? [r.parent_id] : [])))];
  const [childRows, parents] = await Promise.all([
    q.childrenOf(ids),
    parentIds.length ? q.regionsByIds(parentIds) : Promise.resolve([] as TaxRegionRow[]),
  ]);
  const children = groupBy(childRows, (child) => child.parent_id!, { keys: ids });
  const all = [...rows, ...childRows, ...parents];
  const allIds = all.map((row) => row.id);
  const rates = groupBy(await q.ratesOfRegions(allIds), (rate) => rate.tax_region_id, { keys: allIds });
  // A region as a relation of another (`parent`, `children`): with its rates, without its own relations.
  const shown = ({ deleted_at: _d, ...row }: TaxRegionRow): Omit<TaxRegion, "parent" | "children"> => ({
    ...row,
    provider_id: SYSTEM_TAX_PROVIDER,
    tax_rates: [...rates.get(row.id)!]
      .sort((a, b) => Number(b.is_default) - Number(a.is_default))
      .map(({ deleted_at: _rd, ...rate }) => rate),
  });
  const parentById = new Map(parents.map((p) => [p.id, p]));
  return rows.map((row) => {
    const parent = row.parent_id ? parentById.get(row.parent_id) : undefined;
    return {
      ...shown(row),
      parent: parent ? shown(parent) : null,
      children: children.get(row.id)!.map(shown),
    };
  });
}
