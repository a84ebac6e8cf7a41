import { and, eq, isNull } from "drizzle-orm";
import { generateId } from "@kasse/core";
import { type Db } from "@kasse/db";
import { step } from "@kasse/workflows";
import { pricePreference } from "./schema";
import type { PriceInput } from "./prices";
import type { VariantPricesSnapshot } from "./service";

/** Whether prices in a currency include tax, as set from the store's currencies. */
export interface CurrencyTaxInclusion {
  currency_code: string;
  is_tax_inclusive: boolean;
}

/** Whether prices in a region include tax (Medusa's region form sets it with the region). */
export interface RegionTaxInclusion {
  region_id: string;
  is_tax_inclusive: boolean;
}

type Preference = { attribute: "currency_code" | "region_id"; value: string; is_tax_inclusive: boolean };
type Undo = Array<{ id: string; created: boolean; is_tax_inclusive: boolean }>;

/** Sets each preference's flag inside the step's transaction (creating it when missing); returns how to undo it. */
async function setPreferences(tx: Db, preferences: Preference[]): Promise<Undo> {
  const undo: Undo = [];
  for (const { attribute, value, is_tax_inclusive } of preferences) {
    const [existing] = await tx
      .select()
      .from(pricePreference)
      .where(
        and(
          eq(pricePreference.attribute, attribute),
          eq(pricePreference.value, value),
          isNull(pricePreference.deleted_at),
        ),
      );
    if (existing) {
      if (existing.is_tax_inclusive === is_tax_inclusive) continue;
      await tx
        .update(pricePreference)
        .set({ is_tax_inclusive, updated_at: new Date() })
        .where(eq(pricePreference.id, existing.id));
      undo.push({ id: existing.id, created: false, is_tax_inclusive: existing.is_tax_inclusive });
    } else {
      const id = generateId("prpref");
      await tx.insert(pricePreference).values({ id, attribute, value, is_tax_inclusive });
      undo.push({ id, created: true, is_tax_inclusive: false });
    }
  }
  return undo;
}

/** Puts back the flags {@link setPreferences} changed and removes the preferences it created. */
async function undoPreferences(undo: Undo, tx: Db): Promise<void> {
  for (const entry of undo) {
    if (entry.created) await tx.delete(pricePreference).where(eq(pricePreference.id, entry.id));
    else
      await tx
        .update(pricePreference)
        .set({ is_tax_inclusive: entry.is_tax_inclusive })
        .where(eq(pricePreference.id, entry.id));
  }
}

/**
 * Sets the `currency_code` price preference of each currency (creating it when missing); undone by
 * putting back the previous flags and removing the preferences it created.
 */
export const setCurrencyTaxInclusionStep = step("set-currency-tax-inclusion", {
  invoke: async (input: CurrencyTaxInclusion[], ctx) => {
    const undo = await setPreferences(
      ctx.tx,
      input.map((c) => ({
        attribute: "currency_code",
        value: c.currency_code.toLowerCase(),
        is_tax_inclusive: c.is_tax_inclusive,
      })),
    );
    return { output: null, compensateInput: undo };
  },
  compensate: (undo: Undo, ctx) => undoPreferences(undo, ctx.tx),
});

/** Sets the `region_id` price preference of each region, as {@link setCurrencyTaxInclusionStep} does for currencies. */
export const setRegionTaxInclusionStep = step("set-region-tax-inclusion", {
  invoke: async (input: RegionTaxInclusion[], ctx) => {
    const undo = await setPreferences(
      ctx.tx,
      input.map((r) => ({ attribute: "region_id", value: r.region_id, is_tax_inclusive: r.is_tax_inclusive })),
    );
    return { output: null, compensateInput: undo };
  },
  compensate: (undo: Undo, ctx) => undoPreferences(undo, ctx.tx),
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
