import { addMoney, multiplyMoney } from "@kasse/core";

/**
 * Cart totals: one pure function, integer minor units throughout.
 *
 * Per line (a line item, or a shipping method with `quantity` 1 and `unit_price` = its amount):
 * - `gross` = unit_price × quantity (the catalog amount; includes tax when `is_tax_inclusive`).
 * - `discount` = the sum of the line's adjustments, capped at `gross` (promotions are priced on
 *   the catalog amount, so on a tax-inclusive line they are tax-inclusive too).
 * - `rate` = the sum of the line's tax rates, in percent.
 * - Tax-exclusive line: `subtotal` = gross, `discount_total` = discount,
 *   `tax_total` = round((subtotal − discount_total) × rate / 100).
 * - Tax-inclusive line: `total` = gross − discount (the customer pays the sticker price),
 *   `tax_total` = round(total × rate / (100 + rate)) (the tax contained in it),
 *   `subtotal` = gross − round(gross × rate / (100 + rate)) (the catalog amount without its tax),
 *   `discount_total` = subtotal − (total − tax_total) (the discount without its tax).
 * - `original_total` = the line's total as it would be without discounts.
 * - Rounding: once per line, half up, on exact integer arithmetic (rates to 1/1000 of a percent).
 * - Every sum and product is checked (`addMoney`, `multiplyMoney` of `@kasse/db`): a cart whose
 *   totals would leave JavaScript's exact integers is refused with 400 `invalid_data`.
 *
 * Identities guaranteed (and tested), all values non-negative integers:
 * - line: `total = subtotal − discount_total + tax_total`, `discount_total ≤ subtotal`.
 * - cart: `item_* = Σ items' *`, `shipping_* = Σ shipping methods' *` (subtotal, discount_total,
 *   tax_total, total; `shipping_total` is the methods' total, after discount and with tax, as in Medusa v2),
 *   `subtotal = item_subtotal` (items only, without shipping and taxes, as the Medusa v2 starters show it),
 *   `discount_total = item_discount_total + shipping_discount_total`,
 *   `tax_total = item_tax_total + shipping_tax_total`,
 *   `total = item_total + shipping_total = subtotal + shipping_subtotal − discount_total + tax_total`.
 */

/** A line's money inputs. */
export interface TotalsLineInput {
  unit_price: number;
  quantity: number;
  is_tax_inclusive: boolean;
  /** Tax rates in percent (e.g. 19 or 7.5); their sum applies. */
  tax_rates: readonly number[];
  /** Adjustment amounts (discounts), minor units. */
  discounts: readonly number[];
}

/** A shipping method's money inputs. */
export type TotalsShippingInput = Omit<TotalsLineInput, "unit_price" | "quantity"> & { amount: number };

/** The computed money of one line or shipping method. */
export interface LineTotals {
  subtotal: number;
  discount_total: number;
  tax_total: number;
  total: number;
  original_total: number;
}

/** Everything `computeTotals` returns: per item, per shipping method (input order) and the cart. */
export type ComputedTotals = ReturnType<typeof computeTotals>;

/** The cart's totals. */
export type CartTotals = ComputedTotals["cart"];

/**
 * Computes line, shipping and cart totals per the rules in this file's header.
 * @example
 * computeTotals({ items: [{ unit_price: 1000, quantity: 2, is_tax_inclusive: false, tax_rates: [19], discounts: [] }], shipping_methods: [] })
 * // items[0]: { subtotal: 2000, discount_total: 0, tax_total: 380, total: 2380, original_total: 2380 }
 */
export function computeTotals(input: {
  items: readonly TotalsLineInput[];
  shipping_methods: readonly TotalsShippingInput[];
}) {
  const items = input.items.map((item) => lineTotals(lineGross(item), item));
  const shipping_methods = input.shipping_methods.map((method) => lineTotals(method.amount, method));
  const sum = (lines: LineTotals[], key: keyof LineTotals) => addMoney(...lines.map((line) => line[key]));
  const sums = (lines: LineTotals[]) => ({
    subtotal: sum(lines, "subtotal"),
    discount: sum(lines, "discount_total"),
    tax: sum(lines, "tax_total"),
    total: sum(lines, "total"),
    original: sum(lines, "original_total"),
  });
  const item = sums(items);
  const ship = sums(shipping_methods);
  return {
    items,
    shipping_methods,
    cart: {
      item_subtotal: item.subtotal,
      item_discount_total: item.discount,
      item_tax_total: item.tax,
      item_total: item.total,
      shipping_subtotal: ship.subtotal,
      shipping_discount_total: ship.discount,
      shipping_tax_total: ship.tax,
      shipping_total: ship.total,
      subtotal: item.subtotal,
      discount_total: addMoney(item.discount, ship.discount),
      tax_total: addMoney(item.tax, ship.tax),
      total: addMoney(item.total, ship.total),
      original_total: addMoney(item.original, ship.original),
    },
  };
}

function lineTotals(gross: number, line: Omit<TotalsShippingInput, "amount">): LineTotals {
  assertAmount(gross, "amount");
  for (const d of line.discounts) assertAmount(d, "discount");
  const rate = rateInMilli(line.tax_rates);
  const discount = Math.min(gross, addMoney(...line.discounts));
  if (!line.is_tax_inclusive) {
    const taxable = gross - discount;
    const tax = taxOnNet(taxable, rate);
    return {
      subtotal: gross,
      discount_total: discount,
      tax_total: tax,
      total: addMoney(taxable, tax),
      original_total: addMoney(gross, taxOnNet(gross, rate)),
    };
  }
  const total = gross - discount;
  const tax = taxInGross(total, rate);
  const subtotal = gross - taxInGross(gross, rate);
  return { subtotal, discount_total: subtotal - (total - tax), tax_total: tax, total, original_total: gross };
}

const SCALE = 100_000n; // 100 % in thousandths of a percent

/** The summed rate in thousandths of a percent, so 7.125 % stays exact. */
function rateInMilli(rates: readonly number[]): bigint {
  let milli = 0n;
  for (const rate of rates) {
    if (!Number.isFinite(rate) || rate < 0) throw new RangeError(`Invalid tax rate: ${rate}`);
    milli += BigInt(Math.round(rate * 1000));
  }
  return milli;
}

/** Tax on a tax-exclusive amount: round(amount × rate / 100), half up. */
function taxOnNet(amount: number, rate: bigint): number {
  return roundDiv(BigInt(amount) * rate, SCALE);
}

/** Tax contained in a tax-inclusive amount: round(amount × rate / (100 + rate)), half up. */
function taxInGross(amount: number, rate: bigint): number {
  return roundDiv(BigInt(amount) * rate, SCALE + rate);
}

/** n / d rounded half up, for n ≥ 0 and d > 0 (checked: a tax beyond the exact range is refused). */
function roundDiv(n: bigint, d: bigint): number {
  return addMoney(Number((2n * n + d) / (2n * d)));
}

/** A line's catalog amount, unit price × quantity (checked). */
function lineGross(item: TotalsLineInput): number {
  assertAmount(item.unit_price, "unit price");
  return multiplyMoney(item.unit_price, item.quantity);
}

function assertAmount(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`Invalid ${what}: ${value} (a non-negative integer in minor units)`);
}
