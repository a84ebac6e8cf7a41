import { step } from "@kasse/workflows";
import { createPromotionService, type BudgetConsumption, type PromotionUsage } from "./service";

/** Input of {@link registerPromotionUsage}: what each promotion gave the order being placed. */
export interface RegisterPromotionUsageInput {
  usages: PromotionUsage[];
}

/**
 * Checkout step: consumes the campaign budgets the order's promotions use, with the guarded
 * update (so a budget used up by a concurrent order fails this step with `invalid_data`, not
 * retried, and the workflow compensates). Its compensation gives the budget back when a later
 * step fails.
 */
export const registerPromotionUsage = step("register-promotion-usage", {
  invoke: async (input: RegisterPromotionUsageInput, ctx) => {
    const consumptions = await createPromotionService(ctx.tx).registerUsage(input.usages, ctx.tx);
    return { output: consumptions, compensateInput: consumptions };
  },
  compensate: async (consumptions: BudgetConsumption[], ctx) => {
    await createPromotionService(ctx.tx).revertUsage(consumptions, ctx.tx);
  },
});
