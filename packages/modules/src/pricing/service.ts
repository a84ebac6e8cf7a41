import { errors } from "@kasse/core";
import { groupBy, transaction, type RowSnapshot } from "@kasse/db";
import { calculatePrice, type CalculatedPrice, type CandidateList, type PricingContext } from "./calculate";
import { insertPrices, ruleMap, toDate, toPrice, validatePrices, type Price, type PriceInput } from "./prices";
import { pricingQueries as q } from "./queries";
import type { PriceRow } from "./schema";

/** Variants' prices as they were before {@link PricingService.replaceVariantPrices} changed them. */
export interface VariantPricesSnapshot {
  /** Variants whose base prices were replaced. */
  based: string[];
  /** Variants whose every price (base and price list) was deleted. */
  removed: string[];
  rows: Array<RowSnapshot<PriceRow>>;
}

/** Who is buying, where and how many: what `calculatePrices` needs. */
export type PriceContext = Partial<Omit<PricingContext, "now">>;

/**
 * Variants' money amounts: base prices and the price calculation over base and list prices. Built
 * once per process; every method runs in the transaction in progress, if any.
 * @example
 * const pricing = createPricingService();
 * await pricing.setVariantPrices("variant_1", [{ currency_code: "eur", amount: 1000 }]);
 * const prices = await pricing.calculatePrices(["variant_1"], { currency_code: "eur" });
 */
export function createPricingService() {
  const service = {
    /** Refuses prices that cannot be written (400), before a saga writes anything else. Reads nothing. */
    validate: validatePrices,

    /** Replaces the variant's base prices (price list prices are left alone). */
    async setVariantPrices(variantId: string, prices: PriceInput[]): Promise<Price[]> {
      validatePrices(prices);
      return transaction(async () => {
        await q.deleteBasePrices({ variant_id: variantId });
        return insertPrices(
          null,
          prices.map((p) => ({ ...p, variant_id: variantId })),
        );
      });
    },

    /** Base prices of many variants in one query, keyed by variant id (every id present). */
    async listVariantPrices(variantIds: string[]): Promise<Map<string, Price[]>> {
      if (variantIds.length === 0) return new Map();
      return groupBy(await q.basePricesOf({ ids: variantIds }), (r) => r.variant_id, {
        value: toPrice,
        keys: variantIds,
      });
    },

    /** Deletes every price of the variants, base and list prices (the variants are gone). */
    async deleteVariantPrices(variantIds: string[]): Promise<void> {
      if (variantIds.length === 0) return;
      await q.deletePricesOfVariants({ ids: variantIds });
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
      const rows = await q.readTouched(based, removed);
      for (const { variant_id, prices } of input.set) await service.setVariantPrices(variant_id, prices);
      await service.deleteVariantPrices(removed);
      return { based, removed, rows };
    },

    /** Puts back the prices a {@link replaceVariantPrices} replaced (the ones it wrote go). */
    async restoreVariantPrices(snapshot: VariantPricesSnapshot): Promise<void> {
      if (snapshot.based.length + snapshot.removed.length === 0) return;
      await q.restorePrices(snapshot.based, snapshot.removed, snapshot.rows);
    },

    /** Whether prices in this currency (and region) include tax: the region's preference, else the currency's. */
    async taxInclusive(currencyCode: string, regionId: string | null): Promise<boolean> {
      const preferences = await q.preferencesFor({ currency: currencyCode.toLowerCase(), region: regionId });
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
        q.candidatePrices({ ids: variantIds, currency }),
        context.is_tax_inclusive ?? service.taxInclusive(currency, context.region_id ?? null),
      ]);
      const lists = new Map<string, CandidateList>();
      for (const { list, rules } of rows)
        if (list && !lists.has(list.id))
          lists.set(list.id, {
            ...list,
            starts_at: toDate(list.starts_at),
            ends_at: toDate(list.ends_at),
            rules: ruleMap(rules ?? []),
          });
      const byVariant = groupBy(rows, (row) => row.price.variant_id, { value: (row) => row.price });
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
