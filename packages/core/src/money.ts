import { Type, type IntegerOptions, type TSchema } from "@sinclair/typebox";
import { errors } from "./errors";

/**
 * The schema keyword that marks a money amount (integer minor units inside Kasse). The API's
 * Medusa dialect converts every field carrying it, in requests and answers, between minor units
 * and Medusa's major units (`1999` ⇄ `19.99` in USD); nothing else converts money. Its value is
 * `true`, or `{when: {field, in}}` for a field that is money only when a sibling field has one of
 * the given values (a promotion's `value` when its `type` is `fixed`).
 */
export const MONEY_KEYWORD = "x-money";

/** The condition of a field that is money only for some values of a sibling field. */
export interface MoneyCondition {
  field: string;
  in: readonly string[];
  /** The sibling's value when a request leaves it out (a campaign budget is `spend` unless told). */
  default?: string;
}

/** What a schema's money marker says: always money, money under a condition, or not money. */
export type MoneyMarker = true | { when: MoneyCondition };

/**
 * The largest amount a request may carry, in minor units: 10^13 (100 billion in a two-decimal
 * currency). Far above any price, yet a thousand such amounts still add up below
 * {@link MAX_TOTAL}, so ordinary sums never come near the checked limit.
 */
export const MAX_AMOUNT = 10_000_000_000_000;

/**
 * The largest total Kasse computes: JavaScript's safe integer (2^53 − 1), beyond which a number
 * is no longer exact. Every cart and order total is summed by {@link addMoney} and
 * {@link multiplyMoney}, which refuse to go past it.
 */
export const MAX_TOTAL = Number.MAX_SAFE_INTEGER;

/** The one check of every money sum and product: exact, or 400 `invalid_data`. */
function checkedTotal(value: number): number {
  if (!Number.isSafeInteger(value))
    throw errors.invalidData(
      `The total would exceed ${MAX_TOTAL.toLocaleString("en")} minor units, the largest amount Kasse computes exactly`,
    );
  return value;
}

/**
 * The sum of amounts in minor units, checked: an exact integer, or 400 `invalid_data` when it
 * would leave the safe range (a total of absurd prices), never a rounded number.
 * @example
 * addMoney(1999, 500); // 2499
 */
export function addMoney(...amounts: number[]): number {
  let sum = 0;
  // Each partial sum is checked: a float sum of safe integers is exact while it stays safe.
  for (const amount of amounts) sum = checkedTotal(sum + checkedTotal(amount));
  return sum;
}

/**
 * A line's amount (`unit × quantity`) in minor units, checked as {@link addMoney} is.
 * @example
 * multiplyMoney(1999, 3); // 5997
 */
export function multiplyMoney(unit: number, quantity: number): number {
  return checkedTotal(checkedTotal(unit) * checkedTotal(quantity));
}

/**
 * A money amount in a request: integer minor units, 0 or more by default (pass `minimum` to
 * change it), at most {@link MAX_AMOUNT}. Every amount a route takes is one of these, so the
 * Medusa dialect converts it; a route-walk test fails on a money field that is not.
 */
export const Money = (options: IntegerOptions = {}) =>
  Type.Integer({ minimum: 0, maximum: MAX_AMOUNT, ...options, [MONEY_KEYWORD]: true });

/** A money amount in an answer: integer minor units, any sign (a difference, a refund due). */
export const MoneyView = (options: IntegerOptions = {}) => Type.Integer({ ...options, [MONEY_KEYWORD]: true });

/**
 * Marks `schema` as money only when the sibling `field` of the same object has one of `values`:
 * `MoneyWhen("type", ["fixed"], Type.Number())` for a promotion's `value`, a percentage
 * otherwise. The schema may be a number, a numeric string, or an array or union of those (a
 * promotion rule's `values` on a `subtotal` attribute); the dialect converts every number and
 * numeric string in it. `fallback` is the sibling's value when a request leaves it out.
 */
export function MoneyWhen<T extends TSchema>(
  field: string,
  values: readonly string[],
  schema: T,
  fallback?: string,
): T {
  return {
    ...schema,
    [MONEY_KEYWORD]: { when: { field, in: [...values], ...(fallback === undefined ? {} : { default: fallback }) } },
  };
}

/** The money marker of a schema, or undefined when it is not money. */
export function moneyMarker(schema: TSchema | undefined): MoneyMarker | undefined {
  const marker = (schema as Record<string, unknown> | undefined)?.[MONEY_KEYWORD];
  return marker === true || (typeof marker === "object" && marker !== null) ? (marker as MoneyMarker) : undefined;
}
