import { and, asc, eq, getTableColumns, inArray, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import { errors, generateId, isCurrencyCode } from "@kasse/core";
import {
  builtOnce,
  idList,
  inParam,
  transaction,
  type Db,
  type ListPaging,
  anyOf,
  liveRecords,
  param,
  textSearch,
} from "@kasse/db";
import {
  region,
  regionCountry,
  regionPaymentProvider,
  type CountryRow,
  type RegionCreate,
  type RegionFilters,
  type RegionRow,
  type RegionUpdate,
} from "./schema";

/** A country as regions show it. */
export type Country = CountryRow;

/** A region as the API shows it (Medusa's shape). */
export type Region = Omit<RegionRow, "deleted_at"> & {
  countries: Country[];
  payment_providers: Array<{ id: string; is_enabled: boolean }>;
};

const DEFAULT_PROVIDERS = ["pp_system_default"];
const live = isNull(region.deleted_at);

/**
 * Regions with their countries (each country in at most one region) and payment providers.
 * @example
 * const region = await createRegionService(db).create({ name: "Europe", currency_code: "eur", countries: ["de", "fr"] });
 */
export function createRegionService(db: Db) {
  const regions = liveRecords(db, region, "Region", { name: region.name, currency_code: region.currency_code });
  const service = {
    async create(input: RegionCreate): Promise<Region> {
      const currencyCode = knownCurrency(input.currency_code);
      const id = generateId("reg");
      await transaction(db, async (inner) => {
        await inner.insert(region).values({
          id,
          name: input.name,
          currency_code: currencyCode,
          automatic_taxes: input.automatic_taxes ?? true,
          metadata: input.metadata ?? null,
        });
        await assignCountries(inner, id, input.countries ?? []);
        await setProviders(inner, id, input.payment_providers ?? DEFAULT_PROVIDERS);
      });
      return service.retrieve(id);
    },

    /** Whether any region exists (the demo store is seeded only into a store without one). */
    any: (): Promise<boolean> => regions.any(),

    /** The region with its countries and providers, in one statement (every cart write and answer reads it). */
    async retrieve(id: string): Promise<Region> {
      const [row] = await regionById(db, { id });
      if (!row) throw regions.notFound(id);
      const { deleted_at: _deleted, providers, ...rest } = row;
      return { ...rest, payment_providers: providers.map((provider) => ({ id: provider, is_enabled: true })) };
    },

    /** The region's currency (what a price context needs of it), in one statement; `not_found` like `retrieve`. */
    async currencyOf(id: string): Promise<string> {
      const [row] = await currencyOfRegion(db, { id });
      if (!row) throw regions.notFound(id);
      return row.currency_code;
    },

    async list(filters: RegionFilters, page: ListPaging): Promise<{ items: Region[]; count: number }> {
      const { items, count } = await regions.list(conditions(filters), page);
      return { items: await withRelations(db, items), count };
    },

    /** Updates fields; `countries` and `payment_providers`, when given, replace the current sets. */
    async update(id: string, input: RegionUpdate): Promise<Region> {
      await service.retrieve(id);
      const { countries, payment_providers, currency_code, ...fields } = input;
      const currencyCode = currency_code === undefined ? undefined : knownCurrency(currency_code);
      await transaction(db, async (inner) => {
        const set = { ...fields, ...(currencyCode ? { currency_code: currencyCode } : {}) };
        if (Object.keys(set).length) await inner.update(region).set(set).where(eq(region.id, id));
        else await inner.update(region).set({ updated_at: new Date() }).where(eq(region.id, id));
        if (countries) {
          const wanted = countries.map((c) => c.toLowerCase());
          await inner
            .update(regionCountry)
            .set({ region_id: null })
            .where(
              and(eq(regionCountry.region_id, id), wanted.length ? notInArray(regionCountry.iso_2, wanted) : undefined),
            );
          await assignCountries(inner, id, wanted);
        }
        if (payment_providers) await setProviders(inner, id, payment_providers);
      });
      return service.retrieve(id);
    },

    /** Soft delete; the region's countries become free for another region. */
    async delete(id: string): Promise<void> {
      await service.retrieve(id);
      await transaction(db, async (inner) => {
        await inner.update(region).set({ deleted_at: new Date() }).where(eq(region.id, id));
        await inner.update(regionCountry).set({ region_id: null }).where(eq(regionCountry.region_id, id));
        await inner.delete(regionPaymentProvider).where(eq(regionPaymentProvider.region_id, id));
      });
    },

    /** The region a country belongs to, or null. */
    async forCountry(iso2: string): Promise<Region | null> {
      const [row] = await db
        .select({ region })
        .from(regionCountry)
        .innerJoin(region, eq(region.id, regionCountry.region_id))
        .where(and(eq(regionCountry.iso_2, iso2.toLowerCase()), live));
      return row ? (await withRelations(db, [row.region]))[0]! : null;
    },

    /** Countries, all or those named, for lookups such as address validation. */
    async listCountries(iso2?: string[]): Promise<Country[]> {
      const where = iso2
        ? inArray(
            regionCountry.iso_2,
            iso2.map((c) => c.toLowerCase()),
          )
        : undefined;
      return db.select().from(regionCountry).where(where).orderBy(asc(regionCountry.iso_2));
    },
  };
  return service;
}

export type RegionService = ReturnType<typeof createRegionService>;

function conditions(filters: RegionFilters): SQL[] {
  const out = anyOf(filters, { id: region.id, name: region.name });
  if (filters.currency_code?.length)
    out.push(
      inArray(
        region.currency_code,
        filters.currency_code.map((c) => c.toLowerCase()),
      ),
    );
  out.push(...textSearch(filters.q, [region.name, region.currency_code]));
  return out;
}

// A region's relations, read with every cart write and answer: built once.
const countriesOf = builtOnce<Array<typeof regionCountry.$inferSelect>, { ids: string }>((db) =>
  db.select().from(regionCountry).where(inParam(regionCountry.region_id, "ids")).orderBy(asc(regionCountry.iso_2)),
);
const providersOf = builtOnce<Array<typeof regionPaymentProvider.$inferSelect>, { ids: string }>((db) =>
  db
    .select()
    .from(regionPaymentProvider)
    .where(inParam(regionPaymentProvider.region_id, "ids"))
    .orderBy(asc(regionPaymentProvider.provider_id)),
);

// Every store catalog request with a region_id asks for its currency: built once (not once per
// service, which a transaction's modules create anew).
const currencyOfRegion = builtOnce<Array<{ currency_code: string }>, { id: string }>((db) =>
  db
    .select({ currency_code: region.currency_code })
    .from(region)
    .where(and(eq(region.id, param("id")), live)),
);

const regionById = builtOnce<Array<RegionRow & { countries: CountryRow[]; providers: string[] }>, { id: string }>(
  (db) =>
    db
      .select({
        ...getTableColumns(region),
        // The keys in the order of the table's columns, as `countriesOf` answers them.
        countries: sql<
          CountryRow[]
        >`coalesce((select json_agg(json_build_object('iso_2', c.iso_2, 'iso_3', c.iso_3, 'num_code', c.num_code, 'name', c.name, 'display_name', c.display_name, 'region_id', c.region_id) order by c.iso_2) from ${regionCountry} c where c.region_id = ${region.id}), '[]'::json)`,
        providers: sql<
          string[]
        >`coalesce((select json_agg(p.provider_id order by p.provider_id) from ${regionPaymentProvider} p where p.region_id = ${region.id}), '[]'::json)`,
      })
      .from(region)
      .where(and(eq(region.id, param("id")), live)),
);

/** Countries and providers of a page of regions: one query per relation. */
async function withRelations(tx: Db, rows: RegionRow[]): Promise<Region[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const values = { ids: idList(ids) };
  const [countries, providers] = await Promise.all([countriesOf(tx, values), providersOf(tx, values)]);
  return rows.map(({ deleted_at: _deleted, ...row }) => ({
    ...row,
    countries: countries.filter((c) => c.region_id === row.id),
    payment_providers: providers
      .filter((p) => p.region_id === row.id)
      .map((p) => ({ id: p.provider_id, is_enabled: true })),
  }));
}

/** Claims free countries for a region; a country in another region or unknown is `invalid_data`. */
async function assignCountries(tx: Db, regionId: string, codes: string[]): Promise<void> {
  const wanted = [...new Set(codes.map((c) => c.toLowerCase()))];
  if (wanted.length === 0) return;
  const rows = await tx
    .select({ iso_2: regionCountry.iso_2, region_id: regionCountry.region_id })
    .from(regionCountry)
    .where(inArray(regionCountry.iso_2, wanted))
    .for("update");
  const unknown = wanted.filter((c) => !rows.some((r) => r.iso_2 === c));
  if (unknown.length) throw errors.invalidData(`Countries with codes: ${unknown.join(", ")} do not exist`);
  const taken = rows.filter((r) => r.region_id !== null && r.region_id !== regionId).map((r) => r.iso_2);
  if (taken.length)
    throw errors.invalidData(`Countries with codes: ${taken.join(", ")} are already assigned to a region`);
  await tx.update(regionCountry).set({ region_id: regionId }).where(inArray(regionCountry.iso_2, wanted));
}

async function setProviders(tx: Db, regionId: string, providers: string[]): Promise<void> {
  await tx.delete(regionPaymentProvider).where(eq(regionPaymentProvider.region_id, regionId));
  const unique = [...new Set(providers)];
  if (unique.length)
    await tx.insert(regionPaymentProvider).values(unique.map((provider_id) => ({ region_id: regionId, provider_id })));
}

/** The lower-cased code when it is an ISO 4217 currency, else `invalid_data`. */
function knownCurrency(code: string): string {
  if (!isCurrencyCode(code)) throw errors.invalidData(`Currency with code: ${code} was not found`);
  return code.toLowerCase();
}
