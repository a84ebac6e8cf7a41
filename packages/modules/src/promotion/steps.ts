import { definitions } from "@kasse/workflows";
import type { BudgetConsumption, PromotionService, PromotionUsage } from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { promotion: PromotionService };

const { step } = definitions<StepModules>();

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
    const consumptions = await ctx.modules.promotion.registerUsage(input.usages);
    return { output: consumptions, compensateInput: consumptions };
  },
  compensate: async (consumptions: BudgetConsumption[], ctx) => {
    await ctx.modules.promotion.revertUsage(consumptions);
  },
});
