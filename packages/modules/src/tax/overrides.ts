import type { TaxRateRuleReference } from "./schema";

/** A rate as a cart's tax line takes it. */
export interface ApplicableTaxRate {
  id: string;
  tax_region_id: string;
  rate: number;
  code: string;
  name: string;
}

/** One tax region's rates covering an address: its default and its override rates with their targets. */
export interface RegionRates {
  default: ApplicableTaxRate | null;
  overrides: Array<{ rate: ApplicableTaxRate; targets: Array<{ reference: TaxRateRuleReference; id: string }> }>;
}

/** What a rate may target: a cart line's product and product type, or a shipping method's option. */
export interface TaxTarget {
  product_id?: string | null;
  product_type_id?: string | null;
  shipping_option_id?: string | null;
}

/**
 * The rates that apply to `target` under the regions covering an address (the province's first,
 * then the country's, as `ratesFor` lists them): in the first region that has an override for it,
 * the overrides naming its product, else those naming its product type (or, for a shipping method,
 * its option); without any, the first region's default (the province's, else the country's); none
 * when no region has one. Several matching overrides each give a tax line.
 */
export function applicable(regions: RegionRates[], target: TaxTarget): ApplicableTaxRate[] {
  const order: Array<[TaxRateRuleReference, string | null | undefined]> = [
    ["product", target.product_id],
    ["product_type", target.product_type_id],
    ["shipping_option", target.shipping_option_id],
  ];
  for (const region of regions) {
    for (const [reference, id] of order) {
      if (!id) continue;
      const matches = region.overrides.filter((o) => o.targets.some((t) => t.reference === reference && t.id === id));
      if (matches.length) return matches.map((m) => m.rate);
    }
  }
  const fallback = regions.find((r) => r.default)?.default;
  return fallback ? [fallback] : [];
}

/** The summed rate (percent) of what applies to `target` (see {@link applicable}): what one line or method is taxed at. */
export function summedRate(regions: RegionRates[], target: TaxTarget): number {
  return applicable(regions, target).reduce((sum, r) => sum + r.rate, 0);
}
