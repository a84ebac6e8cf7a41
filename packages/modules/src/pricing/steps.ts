import { and, eq, isNull } from "drizzle-orm";
import { generateId } from "@kasse/db";
import { step } from "@kasse/workflows";
import { pricePreference } from "./schema";
import type { PriceInput } from "./prices";
import type { VariantPricesSnapshot } from "./service";

/** Whether prices in a currency include tax, as set from the store's currencies. */
export interface CurrencyTaxInclusion {
  currency_code: string;
  is_tax_inclusive: boolean;
}

type Undo = Array<{ id: string; created: boolean; is_tax_inclusive: boolean }>;

/**
 * Sets the `currency_code` price preference of each currency (creating it when missing); undone by
 * putting back the previous flags and removing the preferences it created.
 */
export const setCurrencyTaxInclusionStep = step("set-currency-tax-inclusion", {
  invoke: async (input: CurrencyTaxInclusion[], ctx) => {
    const undo: Undo = [];
    for (const { currency_code, is_tax_inclusive } of input) {
      const value = currency_code.toLowerCase();
      const [existing] = await ctx.tx
        .select()
        .from(pricePreference)
        .where(
          and(
            eq(pricePreference.attribute, "currency_code"),
            eq(pricePreference.value, value),
            isNull(pricePreference.deleted_at),
          ),
        );
      if (existing) {
        if (existing.is_tax_inclusive === is_tax_inclusive) continue;
        await ctx.tx
          .update(pricePreference)
          .set({ is_tax_inclusive, updated_at: new Date() })
          .where(eq(pricePreference.id, existing.id));
        undo.push({ id: existing.id, created: false, is_tax_inclusive: existing.is_tax_inclusive });
      } else {
        const id = generateId("prpref");
        await ctx.tx.insert(pricePreference).values({ id, attribute: "currency_code", value, is_tax_inclusive });
        undo.push({ id, created: true, is_tax_inclusive: false });
      }
    }
    return { output: null, compensateInput: undo };
  },
  compensate: async (undo: Undo, ctx) => {
    for (const entry of undo) {
      if (entry.created) await ctx.tx.delete(pricePreference).where(eq(pricePreference.id, entry.id));
      else
        await ctx.tx
          .update(pricePreference)
          .set({ is_tax_inclusive: entry.is_tax_inclusive })
          .where(eq(pricePreference.id, entry.id));
    }
  },
});

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
