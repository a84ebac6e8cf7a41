import { and, asc, eq, getTableColumns, isNull, not, sql, type SQL } from "drizzle-orm";
import { db, inFilters, inList, liveRecords, rowsOf, statement, textSearch, type Placeholders } from "@kasse/db";
import { region, regionCountry, regionPaymentProvider, type CountryRow, type RegionRow } from "./schema";
import type { RegionFilters } from "./shapes";

// The region module's SQL: the only file of the module that imports drizzle and its tables.

const regions = liveRecords(region, "Region", { name: region.name, currency_code: region.currency_code });
const live = isNull(region.deleted_at);

// Every cart write and answer reads its region with its countries and providers: one statement.
const byId = statement((v: Placeholders<{ id: string }>) =>
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
    .where(and(eq(region.id, v.id), live)),
);

// Every store catalog request with a region_id asks for its currency.
const currencyOf = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ currency_code: region.currency_code })
    .from(region)
    .where(and(eq(region.id, v.id), live)),
);

const countriesOf = rowsOf(regionCountry, regionCountry.region_id, { order: [asc(regionCountry.iso_2)] });

const providersOf = rowsOf(regionPaymentProvider, regionPaymentProvider.region_id, {
  order: [asc(regionPaymentProvider.provider_id)],
});

const lockCountries = statement((v: Placeholders<{ codes: string[] }>) =>
  db
    .select({ iso_2: regionCountry.iso_2, region_id: regionCountry.region_id })
    .from(regionCountry)
    .where(inList(regionCountry.iso_2, v.codes))
    .for("update"),
);

const assignCountries = statement((v: Placeholders<{ region_id: string; codes: string[] }>) =>
  db.update(regionCountry).set({ region_id: v.region_id }).where(inList(regionCountry.iso_2, v.codes)),
);

const freeCountries = statement((v: Placeholders<{ region_id: string; keep: string[] }>) =>
  db
    .update(regionCountry)
    .set({ region_id: null })
    .where(and(eq(regionCountry.region_id, v.region_id), not(inList(regionCountry.iso_2, v.keep)))),
);

const deleteProviders = statement((v: Placeholders<{ region_id: string }>) =>
  db.delete(regionPaymentProvider).where(eq(regionPaymentProvider.region_id, v.region_id)),
);

const regionOfCountry = statement((v: Placeholders<{ iso_2: string }>) =>
  db
    .select({ region })
    .from(regionCountry)
    .innerJoin(region, eq(region.id, regionCountry.region_id))
    .where(and(eq(regionCountry.iso_2, v.iso_2), live)),
);

/** The filters of a region list as conditions. */
function conditions(filters: RegionFilters): SQL[] {
  const { id, name, currency_code } = region;
  return [
    ...inFilters(filters, { id, name, currency_code }, ["currency_code"]),
    ...textSearch(filters.q, [name, currency_code]),
  ];
}

/** Named statements on the region tables, run on the current handle. */
export const regionQueries = {
  notFound: regions.notFound,
  any: regions.any,
  insert: (row: typeof region.$inferInsert) => regions.insert(row),
  /** Sets `fields` on the region (its `updated_at` too). */
  update: (id: string, fields: Partial<typeof region.$inferInsert>) =>
    db
      .update(region)
      .set({ ...fields, updated_at: new Date() })
      .where(eq(region.id, id)),
  softDelete: regions.softDelete,
  list: regions.listBy(conditions),
  /** The live region with its countries and its providers' ids. */
  byId: async (id: string) => (await byId({ id }))[0],
  currencyOf: async (id: string): Promise<string | undefined> => (await currencyOf({ id }))[0]?.currency_code,
  countriesOf,
  providersOf,
  /** The live region `iso2` belongs to. */
  regionOfCountry: async (iso2: string): Promise<RegionRow | undefined> =>
    (await regionOfCountry({ iso_2: iso2 }))[0]?.region,
  /** Countries, all or those named. */
  countries: (iso2?: string[]): Promise<CountryRow[]> =>
    db
      .select()
      .from(regionCountry)
      .where(iso2 ? inList(regionCountry.iso_2, iso2) : undefined)
      .orderBy(asc(regionCountry.iso_2)),
  /** The countries `codes` that exist, locked for the rest of the transaction, with their regions. */
  lockCountries: (codes: string[]) => lockCountries({ codes }),
  assignCountries: (regionId: string, codes: string[]) => assignCountries({ region_id: regionId, codes }),
  /** Frees the region's countries but those in `keep`. */
  freeCountries: (regionId: string, keep: string[]) => freeCountries({ region_id: regionId, keep }),
  /** Replaces the region's payment providers. */
  async setProviders(regionId: string, providers: string[]): Promise<void> {
    await deleteProviders({ region_id: regionId });
    if (providers.length)
      await db
        .insert(regionPaymentProvider)
        .values(providers.map((provider_id) => ({ region_id: regionId, provider_id })));
  },
};
