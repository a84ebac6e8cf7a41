import { and, asc, eq, getTableColumns, not, sql, type SQL } from "drizzle-orm";
import { db, first, inFilters, inList, liveRecords, rowsOf, statement, textSearch, type Placeholders } from "@kasse/db";
import { region, regionCountry, regionPaymentProvider, type CountryRow } from "./schema";
import type { RegionFilters } from "./shapes";

// The region module's SQL: the only file of the module that imports drizzle and its tables.

const regions = liveRecords(region, "Region", { name: region.name, currency_code: region.currency_code });

const deleteProviders = statement((v: Placeholders<{ region_id: string }>) =>
  db.delete(regionPaymentProvider).where(eq(regionPaymentProvider.region_id, v.region_id)),
);

/** The filters of a region list as conditions. */
const conditions = (filters: RegionFilters): SQL[] => [
  ...inFilters(filters, { id: region.id, name: region.name, currency_code: region.currency_code }, ["currency_code"]),
  ...textSearch(filters.q, [region.name, region.currency_code]),
];

/** Named statements on the region tables, run on the current handle. */
export const regionQueries = {
  ...regions,
  list: regions.listBy(conditions),
  /** Sets `fields` on the region (its `updated_at` too). */
  update: (id: string, fields: Partial<typeof region.$inferInsert>) =>
    db
      .update(region)
      .set({ ...fields, updated_at: new Date() })
      .where(eq(region.id, id)),
  /** The live region with its countries and its providers' ids: every cart write and answer reads it. */
  byId: first(
    statement((v: Placeholders<{ id: string }>) =>
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
        .where(and(eq(region.id, v.id), regions.live)),
    ),
  ),
  /** The live region's currency: every store catalog request with a region_id asks for it. */
  currencyOf: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .select({ currency_code: region.currency_code })
        .from(region)
        .where(and(eq(region.id, v.id), regions.live)),
    ),
  ),
  countriesOf: rowsOf(regionCountry, regionCountry.region_id, { order: [asc(regionCountry.iso_2)] }),
  providersOf: rowsOf(regionPaymentProvider, regionPaymentProvider.region_id, {
    order: [asc(regionPaymentProvider.provider_id)],
  }),
  /** The live region the country `iso_2` belongs to. */
  regionOfCountry: first(
    statement((v: Placeholders<{ iso_2: string }>) =>
      db
        .select({ region })
        .from(regionCountry)
        .innerJoin(region, eq(region.id, regionCountry.region_id))
        .where(and(eq(regionCountry.iso_2, v.iso_2), regions.live)),
    ),
  ),
  /** Countries, all or those named. */
  countries: (iso2?: string[]): Promise<CountryRow[]> =>
    db
      .select()
      .from(regionCountry)
      .where(iso2 ? inList(regionCountry.iso_2, iso2) : undefined)
      .orderBy(asc(regionCountry.iso_2)),
  /** The countries `codes` that exist, locked for the rest of the transaction, with their regions. */
  lockCountries: statement((v: Placeholders<{ codes: string[] }>) =>
    db
      .select({ iso_2: regionCountry.iso_2, region_id: regionCountry.region_id })
      .from(regionCountry)
      .where(inList(regionCountry.iso_2, v.codes))
      .for("update"),
  ),
  assignCountries: statement((v: Placeholders<{ region_id: string; codes: string[] }>) =>
    db.update(regionCountry).set({ region_id: v.region_id }).where(inList(regionCountry.iso_2, v.codes)),
  ),
  /** Frees the region's countries but those in `keep`. */
  freeCountries: statement((v: Placeholders<{ region_id: string; keep: string[] }>) =>
    db
      .update(regionCountry)
      .set({ region_id: null })
      .where(and(eq(regionCountry.region_id, v.region_id), not(inList(regionCountry.iso_2, v.keep)))),
  ),
  /** Replaces the region's payment providers. */
  async setProviders(regionId: string, providers: string[]): Promise<void> {
    await deleteProviders({ region_id: regionId });
    if (providers.length)
      await db
        .insert(regionPaymentProvider)
        .values(providers.map((provider_id) => ({ region_id: regionId, provider_id })));
  },
};
