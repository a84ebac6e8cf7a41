import { definitions } from "@kasse/workflows";
import type { PricePreferenceService, TaxInclusion, TaxInclusionUndo } from "./price-preference-service";
import type { PriceInput } from "./prices";
import type { PricingService, VariantPricesSnapshot } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { pricing: PricingService; pricePreference: PricePreferenceService };

const { step } = definitions<StepModules>();

/** Whether prices in a currency include tax, as set from the store's currencies. */
export type CurrencyTaxInclusion = Pick<TaxInclusion, "is_tax_inclusive"> & { currency_code: string };

/** Whether prices in a region include tax (Medusa's region form sets it with the region). */
export type RegionTaxInclusion = Pick<TaxInclusion, "is_tax_inclusive"> & { region_id: string };

/**
 * A step that sets the price preferences `preferences` names (creating missing ones); undone by
 * putting back the previous flags and removing the preferences it created.
 */
const taxInclusionStep = <I>(name: string, preferences: (input: I) => TaxInclusion[]) =>
  step(name, {
    invoke: async (input: I, ctx) => ({
      output: null,
      compensateInput: await ctx.modules.pricePreference.setTaxInclusion(preferences(input)),
    }),
    compensate: (undo: TaxInclusionUndo, ctx) => ctx.modules.pricePreference.undoTaxInclusion(undo),
  });

/** Sets the `currency_code` price preference of each currency. */
export const setCurrencyTaxInclusionStep = taxInclusionStep(
  "set-currency-tax-inclusion",
  (input: CurrencyTaxInclusion[]) =>
    input.map((c) => ({
      attribute: "currency_code" as const,
      value: c.currency_code.toLowerCase(),
      is_tax_inclusive: c.is_tax_inclusive,
    })),
);

/** Sets the `region_id` price preference of each region, as {@link setCurrencyTaxInclusionStep} does for currencies. */
export const setRegionTaxInclusionStep = taxInclusionStep("set-region-tax-inclusion", (input: RegionTaxInclusion[]) =>
  input.map((r) => ({ attribute: "region_id" as const, value: r.region_id, is_tax_inclusive: r.is_tax_inclusive })),
);

/**
 * Replaces the base prices of the `set` variants (new or re-priced) and deletes every price of the
 * `remove` ones (removed variants). Compensation puts back exactly the prices it replaced.
 */
export const replaceVariantPricesStep = step("replace-variant-prices", {
  invoke: async (input: { set: Array<{ variant_id: string; prices: PriceInput[] }>; remove: string[] }, ctx) => {
    const before = await ctx.modules.pricing.replaceVariantPrices(input);
    return { output: null, compensateInput: before };
  },
  compensate: async (before: VariantPricesSnapshot, ctx) => {
    await ctx.modules.pricing.restoreVariantPrices(before);
  },
});
