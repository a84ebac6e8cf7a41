import type { ShippingOptionPriceRow } from "./schema";

/**
 * The amount a shipping option costs in a context: a price for the region wins over a price for
 * the currency; `undefined` when the option has no price there (it is then not offered).
 */
export function priceFor(
  prices: readonly Pick<ShippingOptionPriceRow, "currency_code" | "region_id" | "amount">[],
  context: { region_id?: string | null; currency_code: string },
): number | undefined {
  if (context.region_id) {
    const regional = prices.find((p) => p.region_id === context.region_id);
    if (regional) return regional.amount;
  }
  return prices.find((p) => p.region_id === null && p.currency_code === context.currency_code)?.amount;
}
