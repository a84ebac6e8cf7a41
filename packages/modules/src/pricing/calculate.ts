import type { PriceListRow, PriceRow } from "./schema";

/** A stored price as the calculation sees it. */
export type CandidatePrice = Pick<
  PriceRow,
  "id" | "amount" | "currency_code" | "min_quantity" | "max_quantity" | "region_id" | "price_list_id"
>;

/** A price list as the calculation sees it; `rules` maps an attribute to its allowed values. */
export type CandidateList = Pick<PriceListRow, "id" | "type" | "status" | "starts_at" | "ends_at"> & {
  rules: Record<string, string[]>;
};

/** Who is buying, where and how many. */
export interface PricingContext {
  currency_code: string;
  region_id?: string | null;
  quantity?: number;
  customer_group_ids?: string[];
  /** Whether prices of this context include tax (from price preferences; a service caller that already read it passes it). */
  is_tax_inclusive?: boolean;
  now: Date;
}

/** The price a customer pays and the one it is compared with (Medusa's `calculated_price`). */
export interface CalculatedPrice {
  id: string;
  calculated_amount: number;
  original_amount: number;
  currency_code: string;
  is_calculated_price_tax_inclusive: boolean;
  is_original_price_tax_inclusive: boolean;
  calculated_price: PriceRef;
  original_price: PriceRef;
}

/** Which price a calculated amount comes from: the price, its list and tier. */
type PriceRef = Pick<PriceRow, "id" | "price_list_id" | "min_quantity" | "max_quantity"> & {
  price_list_type: PriceListRow["type"] | null;
};

interface Ranked {
  price: CandidatePrice;
  list: CandidateList | null;
}

/**
 * Picks one variant's price for a context. Candidates must match the currency, the quantity
 * range (bounds inclusive), the region rule (a price with a region applies only in it) and,
 * for list prices, an active list whose dates contain `now` and whose every rule matches.
 * The original price is the best `override` list price, else the best base price; a `sale`
 * price replaces it only when lower. The best base or override price is the most specific
 * (region rule, then quantity tier, then list rules), then the lowest amount; the best sale
 * price is the lowest, then the most specific. The smallest id breaks any remaining tie.
 * Returns null when nothing applies.
 */
export function calculatePrice(
  prices: readonly CandidatePrice[],
  lists: ReadonlyMap<string, CandidateList>,
  context: PricingContext,
): CalculatedPrice | null {
  const quantity = context.quantity ?? 1;
  const currency = context.currency_code.toLowerCase();
  const applicable: Ranked[] = [];
  for (const price of prices) {
    if (price.currency_code.toLowerCase() !== currency) continue;
    if (price.min_quantity !== null && quantity < price.min_quantity) continue;
    if (price.max_quantity !== null && quantity > price.max_quantity) continue;
    if (price.region_id !== null && price.region_id !== (context.region_id ?? null)) continue;
    let list: CandidateList | null = null;
    if (price.price_list_id !== null) {
      list = lists.get(price.price_list_id) ?? null;
      if (!list || !listApplies(list, context)) continue;
    }
    applicable.push({ price, list });
  }
  const best = (kind: "base" | "sale" | "override") =>
    applicable
      .filter((c) => (kind === "base" ? c.list === null : c.list?.type === kind))
      .sort(kind === "sale" ? cheapestFirst : mostSpecificFirst)[0];

  const original = best("override") ?? best("base");
  const sale = best("sale");
  const calculated = sale && (!original || sale.price.amount < original.price.amount) ? sale : original;
  if (!calculated) return null;
  const base = original ?? calculated;
  const taxInclusive = context.is_tax_inclusive ?? false;
  return {
    id: calculated.price.id,
    calculated_amount: calculated.price.amount,
    original_amount: base.price.amount,
    currency_code: currency,
    is_calculated_price_tax_inclusive: taxInclusive,
    is_original_price_tax_inclusive: taxInclusive,
    calculated_price: describe(calculated),
    original_price: describe(base),
  };
}

/** Whether a list is in effect for the context: active, dated around `now`, every rule matched. */
export function listApplies(
  list: CandidateList,
  context: Pick<PricingContext, "region_id" | "customer_group_ids" | "now">,
): boolean {
  if (list.status !== "active") return false;
  if (list.starts_at && list.starts_at.getTime() > context.now.getTime()) return false;
  if (list.ends_at && list.ends_at.getTime() <= context.now.getTime()) return false;
  for (const [attribute, values] of Object.entries(list.rules)) {
    if (values.length === 0) continue;
    if (attribute === "region_id") {
      if (!context.region_id || !values.includes(context.region_id)) return false;
    } else if (attribute === "customer_group_id") {
      if (!(context.customer_group_ids ?? []).some((g) => values.includes(g))) return false;
    } else return false; // a rule on an attribute the context cannot answer never matches
  }
  return true;
}

function specificity({ price, list }: Ranked): number {
  const ruleCount = list ? Object.values(list.rules).filter((v) => v.length > 0).length : 0;
  return (
    (price.region_id !== null ? 8 : 0) +
    (price.min_quantity !== null || price.max_quantity !== null ? 4 : 0) +
    ruleCount
  );
}

const byId = (a: Ranked, b: Ranked) => (a.price.id < b.price.id ? -1 : a.price.id > b.price.id ? 1 : 0);
const mostSpecificFirst = (a: Ranked, b: Ranked) =>
  specificity(b) - specificity(a) || a.price.amount - b.price.amount || byId(a, b);
const cheapestFirst = (a: Ranked, b: Ranked) =>
  a.price.amount - b.price.amount || specificity(b) - specificity(a) || byId(a, b);

function describe({ price, list }: Ranked): PriceRef {
  return {
    id: price.id,
    price_list_id: list?.id ?? null,
    price_list_type: list?.type ?? null,
    min_quantity: price.min_quantity,
    max_quantity: price.max_quantity,
  };
}
