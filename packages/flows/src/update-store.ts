import { workflow } from "./definitions";
import { setCurrencyTaxInclusionStep } from "@kasse/modules/pricing";
import { updateStoreStep, type UpdateStoreStepInput } from "@kasse/modules/store";

/**
 * Updates the store (Medusa's `POST /admin/stores/{id}`): its fields and supported currencies,
 * and, for each supported currency that says `is_tax_inclusive`, the currency's price preference.
 */
export const updateStoreWorkflow = workflow("update-store", async (input: UpdateStoreStepInput, ctx) => {
  const store = await ctx.run(updateStoreStep, input);
  const inclusion = (input.update.supported_currencies ?? []).flatMap((c) =>
    c.is_tax_inclusive === undefined ? [] : [{ currency_code: c.currency_code, is_tax_inclusive: c.is_tax_inclusive }],
  );
  if (inclusion.length > 0) await ctx.run(setCurrencyTaxInclusionStep, inclusion);
  return store;
});
