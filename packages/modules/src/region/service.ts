import { errors, generateId, isCurrencyCode } from "@kasse/core";
import { groupBy, transaction, viewPage, type ListPaging } from "@kasse/db";
import { regionQueries as q } from "./queries";
import type { CountryRow, RegionRow } from "./schema";
import type { RegionCreate, RegionFilters, RegionUpdate } from "./shapes";

/** A country as regions show it. */
export type Country = CountryRow;

/** A region as the API shows it (Medusa's shape). */
export type Region = Omit<RegionRow, "deleted_at"> & {
  countries: Country[];
  payment_providers: Array<{ id: string; is_enabled: boolean }>;
};

const DEFAULT_PROVIDERS = ["pp_system_default"];

/**
 * Regions with their countries (each country in at most one region) and payment providers. Built
 * once per process; every method runs in the transaction in progress, if any.
 * @example
 * const region = await createRegionService().create({ name: "Europe", currency_code: "eur", countries: ["de", "fr"] });
 */
export function createRegionService() {
  const service = {
    async create(input: RegionCreate): Promise<Region> {
      const currencyCode = knownCurrency(input.currency_code);
      const id = generateId("reg");
      await transaction(async () => {
        await q.insert({
          id,
          name: input.name,
          currency_code: currencyCode,
          automatic_taxes: input.automatic_taxes ?? true,
          metadata: input.metadata ?? null,
        });
        await assignCountries(id, input.countries ?? []);
        await q.setProviders(id, [...new Set(input.payment_providers ?? DEFAULT_PROVIDERS)]);
      });
      return service.retrieve(id);
    },

    /** Whether any region exists (the demo store is seeded only into a store without one). */
    any: q.any,

    /** The region with its countries and providers, in one statement (every cart write and answer reads it). */
    async retrieve(id: string): Promise<Region> {
      const row = await q.byId({ id });
      if (!row) throw q.notFound(id);
      const { deleted_at: _deleted, providers, ...rest } = row;
      return { ...rest, payment_providers: providers.map((provider) => ({ id: provider, is_enabled: true })) };
    },

    /** The region's currency (what a price context needs of it), in one statement; `not_found` like `retrieve`. */
    async currencyOf(id: string): Promise<string> {
      const row = await q.currencyOf({ id });
      if (!row) throw q.notFound(id);
      return row.currency_code;
    },

    list: (filters: RegionFilters, page: ListPaging) => viewPage(q.list(filters, page), withRelations),

    /** Updates fields; `countries` and `payment_providers`, when given, replace the current sets. */
    async update(id: string, input: RegionUpdate): Promise<Region> {
      await service.retrieve(id);
      const { countries, payment_providers, currency_code, ...fields } = input;
      const currencyCode = currency_code === undefined ? undefined : knownCurrency(currency_code);
      await transaction(async () => {
        await q.update(id, { ...fields, ...(currencyCode ? { currency_code: currencyCode } : {}) });
        if (countries) {
          const wanted = countries.map((c) => c.toLowerCase());
          await q.freeCountries({ region_id: id, keep: wanted });
          await assignCountries(id, wanted);
        }
        if (payment_providers) await q.setProviders(id, [...new Set(payment_providers)]);
      });
      return service.retrieve(id);
    },

    /** Soft delete; the region's countries become free for another region. */
    async delete(id: string): Promise<void> {
      await transaction(async () => {
        await q.softDelete(id);
        await q.freeCountries({ region_id: id, keep: [] });
        await q.setProviders(id, []);
      });
    },

    /** The region a country belongs to, or null. */
    async forCountry(iso2: string): Promise<Region | null> {
      const row = await q.regionOfCountry({ iso_2: iso2.toLowerCase() });
      return row ? (await withRelations([row.region]))[0]! : null;
    },

    /** Countries, all or those named, for lookups such as address validation. */
    listCountries: (iso2?: string[]): Promise<Country[]> => q.countries(iso2?.map((c) => c.toLowerCase())),
  };
  return service;
}

export type RegionService = ReturnType<typeof createRegionService>;

/** Countries and providers of a page of regions: one query per relation. */
async function withRelations(rows: RegionRow[]): Promise<Region[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [countries, providers] = await Promise.all([q.countriesOf(ids), q.providersOf(ids)]);
  const countriesByRegion = groupBy(countries, (c) => c.region_id);
  const providersByRegion = groupBy(providers, (p) => p.region_id);
  return rows.map(({ deleted_at: _deleted, ...row }) => ({
    ...row,
    countries: countriesByRegion.get(row.id) ?? [],
    payment_providers: (providersByRegion.get(row.id) ?? []).map((p) => ({ id: p.provider_id, is_enabled: true })),
  }));
}

/** Claims free countries for a region; a country in another region or unknown is `invalid_data`. */
async function assignCountries(regionId: string, codes: string[]): Promise<void> {
  const wanted = [...new Set(codes.map((c) => c.toLowerCase()))];
  if (wanted.length === 0) return;
  const rows = await q.lockCountries({ codes: wanted });
  const unknown = wanted.filter((c) => !rows.some((r) => r.iso_2 === c));
  if (unknown.length) throw errors.invalidData(`Countries with codes: ${unknown.join(", ")} do not exist`);
  const taken = rows.filter((r) => r.region_id !== null && r.region_id !== regionId).map((r) => r.iso_2);
  if (taken.length)
    throw errors.invalidData(`Countries with codes: ${taken.join(", ")} are already assigned to a region`);
  await q.assignCountries({ region_id: regionId, codes: wanted });
}

/** The lower-cased code when it is an ISO 4217 currency, else `invalid_data`. */
function knownCurrency(code: string): string {
  if (!isCurrencyCode(code)) throw errors.invalidData(`Currency with code: ${code} was not found`);
  return code.toLowerCase();
}
