import { and, asc, eq, inArray, isNull, type SQL } from "drizzle-orm";
import {
  errors,
  generateId,
  isUniqueViolation,
  transaction,
  type Db,
  type ListPaging,
  anyOf,
  liveRecords,
  rowsByParent,
  textSearch,
} from "@kasse/db";
import {
  taxRate,
  taxRegion,
  type TaxRateRow,
  type TaxRegionCreate,
  type TaxRegionFilters,
  type TaxRegionRow,
} from "./schema";

/** A tax rate as the API shows it. */
export type TaxRate = Omit<TaxRateRow, "deleted_at">;

/**
 * The one tax provider: Kasse computes tax itself from its regions' rates (Medusa calls this
 * provider `tp_system`). Every tax region answers it, and a region may name it and no other.
 */
export const SYSTEM_TAX_PROVIDER = "tp_system";

/** A tax region as the API shows it (Medusa's shape). */
export type TaxRegion = Omit<TaxRegionRow, "deleted_at"> & { provider_id: string; tax_rates: TaxRate[] };

/** The rate that applies to an address, for checkout. */
export interface ApplicableTaxRate {
  id: string;
  tax_region_id: string;
  rate: number;
  code: string;
  name: string;
}

const liveRegion = isNull(taxRegion.deleted_at);
const liveRate = isNull(taxRate.deleted_at);

/**
 * Tax regions (country, then province) with their rates, and the rate lookup checkout uses.
 * @example
 * const taxes = createTaxService(db);
 * await taxes.create({ country_code: "de", default_tax_rate: { rate: 19, code: "DE19", name: "MwSt" } });
 * await taxes.rateFor("de"); // { rate: 19, code: "DE19", ... }
 */
export function createTaxService(db: Db) {
  const regions = liveRecords(db, taxRegion, "TaxRegion", {
    country_code: taxRegion.country_code,
    province_code: taxRegion.province_code,
  });
  const rates = liveRecords(db, taxRate, "Tax rate", { code: taxRate.code, name: taxRate.name, rate: taxRate.rate });
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
        const [parent] = await db
          .select({ id: taxRegion.id })
          .from(taxRegion)
          .where(and(eq(taxRegion.country_code, country), isNull(taxRegion.province_code), liveRegion));
        if (!parent)
          throw errors.invalidData(
            `Create a tax region for country ${country} before one for its province ${province}`,
          );
        parentId = parent.id;
      }
      if (!province && parentId) throw errors.invalidData("Only a province tax region can have a parent");
      const id = generateId("txreg");
      try {
        await transaction(db, async (inner) => {
          await inner.insert(taxRegion).values({
            id,
            country_code: country,
            province_code: province,
            parent_id: parentId,
            created_by: createdBy,
            metadata: input.metadata ?? null,
          });
          const rate = input.default_tax_rate;
          if (rate) {
            await inner.insert(taxRate).values({
              id: generateId("txr"),
              tax_region_id: id,
              rate: rate.rate ?? null,
              code: rate.code,
              name: rate.name,
              is_default: true,
              is_combinable: rate.is_combinable ?? false,
              created_by: createdBy,
              metadata: rate.metadata ?? null,
            });
          }
        });
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.invalidData(`A tax region for ${province ? `${country}-${province}` : country} already exists`);
        throw error;
      }
      return service.retrieve(id);
    },

    retrieve: async (id: string): Promise<TaxRegion> => (await withRates(db, [await regions.retrieve(id)]))[0]!,

    async list(filters: TaxRegionFilters, page: ListPaging): Promise<{ items: TaxRegion[]; count: number }> {
      const { items, count } = await regions.list(conditions(filters), page);
      return { items: await withRates(db, items), count };
    },

    /** A tax rate by id (`not_found` when missing or deleted). */
    retrieveRate: (id: string): Promise<TaxRateRow> => rates.retrieve(id),

    /** Tax rates across regions, filtered by region, code, default flag or a search in code and name. */
    listRates(
      filters: { id?: string[]; tax_region_id?: string[]; code?: string[]; is_default?: boolean; q?: string },
      page: ListPaging,
    ): Promise<{ items: TaxRateRow[]; count: number }> {
      const conditions = anyOf(filters, { id: taxRate.id, tax_region_id: taxRate.tax_region_id, code: taxRate.code });
      if (filters.is_default !== undefined) conditions.push(eq(taxRate.is_default, filters.is_default));
      conditions.push(...textSearch(filters.q, [taxRate.code, taxRate.name]));
      return rates.list(conditions, page);
    },

    /** Soft-deletes the region, its provinces and all their rates. */
    async delete(id: string): Promise<void> {
      await service.retrieve(id);
      const now = new Date();
      await transaction(db, async (inner) => {
        const children = await inner
          .select({ id: taxRegion.id })
          .from(taxRegion)
          .where(and(eq(taxRegion.parent_id, id), liveRegion));
        const ids = [id, ...children.map((c) => c.id)];
        await inner.update(taxRegion).set({ deleted_at: now }).where(inArray(taxRegion.id, ids));
        await inner
          .update(taxRate)
          .set({ deleted_at: now })
          .where(and(inArray(taxRate.tax_region_id, ids), liveRate));
      });
    },

    /**
     * The default rate for an address: the province's when it has one, else the country's;
     * null when no tax region covers the address (no tax).
     */
    async rateFor(countryCode: string, provinceCode?: string | null): Promise<ApplicableTaxRate | null> {
      const country = countryCode.toLowerCase();
      const rows = await db
        .select({
          id: taxRate.id,
          tax_region_id: taxRate.tax_region_id,
          rate: taxRate.rate,
          code: taxRate.code,
          name: taxRate.name,
          province_code: taxRegion.province_code,
        })
        .from(taxRate)
        .innerJoin(taxRegion, eq(taxRegion.id, taxRate.tax_region_id))
        .where(and(eq(taxRegion.country_code, country), liveRegion, liveRate, eq(taxRate.is_default, true)));
      const province = provinceCode?.toLowerCase() ?? null;
      const match =
        (province && rows.find((r) => r.province_code === province)) || rows.find((r) => r.province_code === null);
      if (!match) return null;
      return {
        id: match.id,
        tax_region_id: match.tax_region_id,
        rate: match.rate ?? 0,
        code: match.code,
        name: match.name,
      };
    },
  };
  return service;
}

export type TaxService = ReturnType<typeof createTaxService>;

function conditions(filters: TaxRegionFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id?.length) out.push(inArray(taxRegion.id, filters.id));
  if (filters.country_code?.length)
    out.push(
      inArray(
        taxRegion.country_code,
        filters.country_code.map((c) => c.toLowerCase()),
      ),
    );
  if (filters.province_code?.length)
    out.push(
      inArray(
        taxRegion.province_code,
        filters.province_code.map((c) => c.toLowerCase()),
      ),
    );
  if (filters.parent_id?.length) out.push(inArray(taxRegion.parent_id, filters.parent_id));
  out.push(...textSearch(filters.q, [taxRegion.country_code, taxRegion.province_code]));
  return out;
}

/** The live rates of a page of regions, default first: one query. */
async function withRates(tx: Db, rows: TaxRegionRow[]): Promise<TaxRegion[]> {
  const rates = await rowsByParent(tx, taxRate, "tax_region_id", rows, {
    where: liveRate,
    order: [asc(taxRate.created_at), asc(taxRate.id)],
  });
  return rows.map(({ deleted_at: _d, ...row }) => ({
    ...row,
    provider_id: SYSTEM_TAX_PROVIDER,
    tax_rates: rates
      .get(row.id)!
      .sort((a, b) => Number(b.is_default) - Number(a.is_default))
      .map(({ deleted_at: _rd, ...rate }) => rate),
  }));
}
