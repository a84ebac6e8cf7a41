import { errors, generateId, isCurrencyCode } from "@kasse/core";
import { pricingQueries as q } from "./queries";
import type { PriceRow } from "./schema";
import type { VariantPriceInput } from "./shapes";

/** A price as the Admin API shows it (Medusa's shape): the region rule sits under `rules`. */
export type Price = Omit<PriceRow, "region_id" | "deleted_at"> & { rules: { region_id?: string } };

/** A price to write: base or list price, before ids. */
export type PriceInput = VariantPriceInput;

/** The API shape of a stored price. */
export function toPrice(row: PriceRow): Price {
  return {
    id: row.id,
    variant_id: row.variant_id,
    price_list_id: row.price_list_id,
    currency_code: row.currency_code,
    amount: row.amount,
    min_quantity: row.min_quantity,
    max_quantity: row.max_quantity,
    rules: row.region_id ? { region_id: row.region_id } : {},
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Checks prices before they are written (the service is also called directly, not only through
 * validated routes): integer non-negative amounts, sane quantity ranges, ISO 4217 currencies.
 */
export function validatePrices(prices: readonly PriceInput[]): void {
  for (const p of prices) {
    if (!Number.isSafeInteger(p.amount) || p.amount < 0)
      throw errors.invalidData(`Price amount must be a non-negative integer in minor units, got ${String(p.amount)}`);
    for (const q of [p.min_quantity, p.max_quantity]) {
      if (q !== undefined && q !== null && (!Number.isSafeInteger(q) || q < 0))
        throw errors.invalidData(`Price quantities must be non-negative integers, got ${String(q)}`);
    }
    if (p.min_quantity != null && p.max_quantity != null && p.min_quantity > p.max_quantity)
      throw errors.invalidData("Price min_quantity cannot exceed max_quantity");
    if (typeof p.currency_code !== "string" || !/^[A-Za-z]{3}$/.test(p.currency_code))
      throw errors.invalidData(`Invalid currency code '${String(p.currency_code)}'`);
  }
  const codes = [...new Set(prices.map((p) => p.currency_code.toLowerCase()))];
  const unknown = codes.filter((c) => !isCurrencyCode(c));
  if (unknown.length) throw errors.invalidData(`Currencies with codes: ${unknown.join(", ")} were not found`);
}

/** Inserts prices of the list `listId` (base prices: null) and answers them as the API shows them. */
export async function insertPrices(
  listId: string | null,
  prices: ReadonlyArray<PriceInput & { variant_id: string }>,
): Promise<Price[]> {
  if (prices.length === 0) return [];
  const rows = await q.insertPrices(
    prices.map((p) => ({
      id: generateId("price"),
      variant_id: p.variant_id,
      price_list_id: listId,
      ...priceValues(p),
    })),
  );
  return rows.map(toPrice);
}

/** Rules as `{attribute: values[]}`, each attribute's values in the order given. */
export function ruleMap(rules: Iterable<{ attribute: string; value: string }>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of rules) (out[r.attribute] ??= []).push(r.value);
  return out;
}

/** A time given as a Date or its text (timestamps selected beside a json subquery may arrive either way). */
export function toDate(value: Date | string | null | undefined): Date | null {
  if (value === undefined || value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

/** The row values of a price input. */
export function priceValues(
  p: PriceInput,
): Pick<PriceRow, "currency_code" | "amount" | "min_quantity" | "max_quantity" | "region_id"> {
  return {
    currency_code: p.currency_code.toLowerCase(),
    amount: p.amount,
    min_quantity: p.min_quantity ?? null,
    max_quantity: p.max_quantity ?? null,
    region_id: p.rules?.region_id ?? null,
  };
}
