import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import {
  builtOnce,
  idList,
  inParam,
  param,
  readRows,
  restoreRows,
  transaction,
  type Db,
  type RowSnapshot,
  groupByParent,
} from "@kasse/db";
import { calculatePrice, type CalculatedPrice, type CandidateList, type CandidatePrice } from "./calculate";
import { priceValues, toPrice, validatePrices, type Price, type PriceInput } from "./prices";
import { price, priceList, pricePreference, type PriceListRow, type PricePreferenceRow, type PriceRow } from "./schema";

/** Variants' prices as they were before {@link PricingService.replaceVariantPrices} changed them. */
export interface VariantPricesSnapshot {
  /** Variants whose base prices were replaced. */
  based: string[];
  /** Variants whose every price (base and price list) was deleted. */
  removed: string[];
  rows: Array<RowSnapshot<PriceRow>>;
}

/** Who is buying, where and how many: what `calculatePrices` needs. */
export interface PriceContext {
  currency_code?: string;
  region_id?: string;
  quantity?: number;
  customer_group_ids?: string[];
  /** Whether the prices include tax, when the caller already read it ({@link PricingService.taxInclusive}). */
  is_tax_inclusive?: boolean;
}

// A cart write prices its lines with these: built once (`ids`: the variants, an `idList`).
const candidatePrices = builtOnce<
  Array<{
    price: PriceRow;
    list: Pick<PriceListRow, "id" | "type" | "status" | "starts_at" | "ends_at"> | null;
    rules: Array<{ attribute: string; value: string }> | null;
  }>,
  { ids: string; currency: string }
>((db) =>
  db
    .select({
      price,
      list: {
        id: priceList.id,
        type: priceList.type,
        status: priceList.status,
        starts_at: priceList.starts_at,
        ends_at: priceList.ends_at,
      },
      rules: sql<Array<{
        attribute: string;
        value: string;
      }> | null>`(select json_agg(json_build_object('attribute', r.attribute, 'value', r.value)) from price_list_rule r where r.price_list_id = ${price.price_list_id})`,
    })
    .from(price)
    .leftJoin(priceList, eq(priceList.id, price.price_list_id))
    .where(
      and(
        inParam(price.variant_id, "ids"),
        eq(price.currency_code, param("currency")),
        or(isNull(price.price_list_id), and(eq(priceList.status, "active"), isNull(priceList.deleted_at))),
      ),
    ),
);
// `region` null (no region) matches no row.
const preferencesFor = builtOnce<PricePreferenceRow[], { currency: string; region: string | null }>((db) =>
  db
    .select()
    .from(pricePreference)
    .where(
      and(
        isNull(pricePreference.deleted_at),
        or(
          and(eq(pricePreference.attribute, "currency_code"), eq(pricePreference.value, param("currency"))),
          and(eq(pricePreference.attribute, "region_id"), eq(pricePreference.value, param("region"))),
        ),
      ),
    ),
);

/** The base prices of `based` variants and every price of `removed` ones. */
function touched(based: string[], removed: string[]) {
  return or(
    based.length ? and(inArray(price.variant_id, based), isNull(price.price_list_id)) : undefined,
    removed.length ? inArray(price.variant_id, removed) : undefined,
    sql`false`,
  );
}

/**
 * Variants' money amounts: base prices and the price calculation over base and list prices.
 * @example
 * const pricing = createPricingService(db);
 * await pricing.setVariantPrices("variant_1", [{ currency_code: "eur", amount: 1000 }]);
 * const prices = await pricing.calculatePrices(["variant_1"], { currency_code: "eur" });
 */
export function createPricingService(db: Db) {
  const service = {
    /** Refuses prices that cannot be written (400), before a saga writes anything else. Reads nothing. */
    validate(prices: readonly PriceInput[]): void {
      validatePrices(prices);
    },

    /** Replaces the variant's base prices (price list prices are left alone). */
    async setVariantPrices(variantId: string, prices: PriceInput[]): Promise<Price[]> {
      validatePrices(prices);
      return transaction(db, async (inner) => {
        await inner.delete(price).where(and(eq(price.variant_id, variantId), isNull(price.price_list_id)));
        if (prices.length === 0) return [];
        const rows = await inner
          .insert(price)
          .values(
            prices.map((p) => ({
              id: generateId("price"),
              variant_id: variantId,
              price_list_id: null,
              ...priceValues(p),
            })),
          )
          .returning();
        return rows.map(toPrice);
      });
    },

    /** Base prices of many variants in one query, keyed by variant id (every id present). */
    async listVariantPrices(variantIds: string[]): Promise<Map<string, Price[]>> {
      return groupByParent(
        variantIds,
        (ids) =>
          db
            .select()
            .from(price)
            .where(and(inArray(price.variant_id, ids), isNull(price.price_list_id)))
            .orderBy(asc(price.currency_code), asc(price.min_quantity), asc(price.id)),
        (r) => r.variant_id,
        { value: toPrice, everyParent: true },
      );
    },

    /** Deletes every price of the variants, base and list prices (the variants are gone). */
    async deleteVariantPrices(variantIds: string[]): Promise<void> {
      if (variantIds.length === 0) return;
      await db.delete(price).where(inArray(price.variant_id, variantIds));
    },

    /**
     * Replaces the base prices of the `set` variants and deletes every price of the `remove` ones
     * (their variants are gone), returning the prices it replaced so
     * {@link restoreVariantPrices} can put them back.
     */
    async replaceVariantPrices(input: {
      set: Array<{ variant_id: string; prices: PriceInput[] }>;
      remove: string[];
    }): Promise<VariantPricesSnapshot> {
      for (const { prices } of input.set) validatePrices(prices);
      const based = [...new Set(input.set.map((s) => s.variant_id))];
      const removed = [...new Set(input.remove)];
      const rows = await readRows(db, price, touched(based, removed));
      for (const { variant_id, prices } of input.set) await service.setVariantPrices(variant_id, prices);
      await service.deleteVariantPrices(removed);
      return { based, removed, rows };
    },

    /** Puts back the prices a {@link replaceVariantPrices} replaced (the ones it wrote go). */
    async restoreVariantPrices(snapshot: VariantPricesSnapshot): Promise<void> {
      if (snapshot.based.length + snapshot.removed.length === 0) return;
      await db.delete(price).where(touched(snapshot.based, snapshot.removed));
      await restoreRows(db, price, snapshot.rows);
    },

    /** Whether prices in this currency (and region) include tax: the region's preference, else the currency's. */
    async taxInclusive(currencyCode: string, regionId: string | null): Promise<boolean> {
      const preferences = await preferencesFor(db, { currency: currencyCode.toLowerCase(), region: regionId });
      const preference =
        preferences.find((p) => p.attribute === "region_id") ??
        preferences.find((p) => p.attribute === "currency_code");
      return preference?.is_tax_inclusive ?? false;
    },

    /**
     * The `calculated_price` of each variant for a context, in two queries for any number of
     * variants. A variant without an applicable price is absent from the map.
     */
    async calculatePrices(variantIds: string[], context: PriceContext): Promise<Map<string, CalculatedPrice>> {
      return (await service.priceVariants(variantIds, context)).prices;
    },

    /**
     * {@link calculatePrices}, and until when they hold without a write: the first start or end
     * after now of an active price list with a price for one of the variants (null: none), when
     * the same reads may give other prices (a cart stores it as `priced_until`).
     */
    async priceVariants(
      variantIds: string[],
      context: PriceContext,
    ): Promise<{ prices: Map<string, CalculatedPrice>; valid_until: Date | null }> {
      const out = new Map<string, CalculatedPrice>();
      if (!context.currency_code)
        throw errors.invalidData("A currency_code or region_id is required to calculate prices");
      const currency = context.currency_code.toLowerCase();
      if (variantIds.length === 0) return { prices: out, valid_until: null };
      const [rows, is_tax_inclusive] = await Promise.all([
        candidatePrices(db, { ids: idList(variantIds), currency }),
        context.is_tax_inclusive ?? service.taxInclusive(currency, context.region_id ?? null),
      ]);
      const lists = new Map<string, CandidateList>();
      const byVariant = new Map<string, CandidatePrice[]>();
      for (const row of rows) {
        if (row.list && !lists.has(row.list.id)) {
          const rules: Record<string, string[]> = {};
          for (const r of row.rules ?? []) (rules[r.attribute] ??= []).push(r.value);
          lists.set(row.list.id, {
            ...row.list,
            starts_at: toDate(row.list.starts_at),
            ends_at: toDate(row.list.ends_at),
            rules,
          });
        }
        const list = byVariant.get(row.price.variant_id) ?? [];
        list.push(row.price);
        byVariant.set(row.price.variant_id, list);
      }
      const pricingContext = {
        ...context,
        currency_code: currency,
        is_tax_inclusive,
        now: new Date(),
      };
      for (const [variantId, candidates] of byVariant) {
        const result = calculatePrice(candidates, lists, pricingContext);
        if (result) out.set(variantId, result);
      }
      return { prices: out, valid_until: nextBoundary(lists.values(), pricingContext.now) };
    },
  };
  return service;
}

export type PricingService = ReturnType<typeof createPricingService>;

/** The first start or end of these lists after `now` (a list applies from its start, and no longer at its end). */
function nextBoundary(lists: Iterable<CandidateList>, now: Date): Date | null {
  let next: Date | null = null;
  for (const list of lists)
    for (const at of [list.starts_at, list.ends_at])
      if (at && at.getTime() > now.getTime() && (!next || at.getTime() < next.getTime())) next = at;
  return next;
}

// Timestamps selected alongside a json subquery arrive as Date on both drivers; keep it robust to strings.
function toDate(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}
