import { errors, generateId } from "@kasse/core";
import { transaction, viewPage, type ListPaging } from "@kasse/db";
import { promotionQueries as q } from "./queries";
import type { BudgetInput, CampaignCreate, CampaignFilters, CampaignPromotions, CampaignUpdate } from "./shapes";
import { campaignViews, type CampaignView } from "./views";

/**
 * Campaign CRUD, campaign membership of promotions, and the budget's guarded counters.
 * Part of the promotion service (see `createPromotionService`).
 */
export function campaignOperations() {
  const ops = {
    async createCampaign(input: CampaignCreate): Promise<CampaignView> {
      const { budget, starts_at, ends_at, ...fields } = input;
      checkDates(starts_at ?? null, ends_at ?? null);
      const id = generateId("procamp");
      await transaction(async () => {
        await q.insertCampaign(
          { ...fields, id, starts_at: toDate(starts_at), ends_at: toDate(ends_at) },
          identifierTaken(input.campaign_identifier),
        );
        if (budget) await q.insertBudget(budgetValues(id, budget));
      });
      return ops.retrieveCampaign(id);
    },

    retrieveCampaign: async (id: string): Promise<CampaignView> =>
      (await campaignViews([await q.retrieveCampaign(id)], true))[0]!,

    listCampaigns: (filters: CampaignFilters, page: ListPaging) =>
      viewPage(q.listCampaigns(filters, page), (rows) => campaignViews(rows, true)),

    async updateCampaign(id: string, input: CampaignUpdate): Promise<CampaignView> {
      const existing = await ops.retrieveCampaign(id);
      const starts = input.starts_at === undefined ? existing.starts_at : toDate(input.starts_at);
      const ends = input.ends_at === undefined ? existing.ends_at : toDate(input.ends_at);
      checkDates(starts?.toISOString() ?? null, ends?.toISOString() ?? null);
      const { budget, starts_at, ends_at, ...fields } = input;
      await transaction(async () => {
        const set = {
          ...fields,
          ...(starts_at !== undefined ? { starts_at: toDate(starts_at) } : {}),
          ...(ends_at !== undefined ? { ends_at: toDate(ends_at) } : {}),
        };
        if (Object.keys(set).length) await q.updateCampaign(id, set, identifierTaken(input.campaign_identifier ?? ""));
        if (budget === null) await q.deleteBudget({ campaign_id: id });
        else if (budget) {
          if (!existing.budget) await q.insertBudget(budgetValues(id, budget));
          else {
            if (budget.type && budget.type !== existing.budget.type)
              throw errors.invalidData("budget.type cannot be changed once a campaign has a budget");
            const set: { limit?: number | null; currency_code?: string | null } = {};
            if (budget.limit !== undefined) set.limit = budget.limit;
            if (budget.currency_code !== undefined) set.currency_code = budget.currency_code?.toLowerCase() ?? null;
            if (existing.budget.type === "spend" && set.currency_code === null)
              throw errors.invalidData("budget.currency_code is required for a spend budget");
            if (Object.keys(set).length) await q.updateBudget({ campaign_id: id, ...set, updated_at: new Date() });
          }
        }
      });
      return ops.retrieveCampaign(id);
    },

    /** Soft delete; its promotions stay, detached from the campaign (as Medusa). */
    async deleteCampaign(id: string): Promise<void> {
      await transaction(async () => {
        await q.detachCampaign({ campaign_id: id, updated_at: new Date() });
        await q.softDeleteCampaign(id);
      });
    },

    /** Adds promotions to the campaign (moving them from another one) and removes others; unknown ids write nothing. */
    async updateCampaignPromotions(id: string, input: CampaignPromotions): Promise<CampaignView> {
      await ops.retrieveCampaign(id);
      const add = [...new Set(input.add ?? [])];
      const remove = [...new Set(input.remove ?? [])];
      const overlap = add.find((p) => remove.includes(p));
      if (overlap) throw errors.invalidData(`Promotion ${overlap} cannot be both added and removed`);
      await transaction(async () => {
        const ids = [...add, ...remove];
        const found = ids.length ? await q.liveWithCampaign({ ids }) : [];
        const missing = ids.find((p) => !found.some((f) => f.id === p));
        if (missing) throw errors.notFound(`Promotion with id: ${missing} was not found`);
        const foreign = remove.find((p) => found.find((f) => f.id === p)!.campaign_id !== id);
        if (foreign) throw errors.invalidData(`Promotion ${foreign} is not part of campaign ${id}`);
        const updated_at = new Date();
        if (add.length) await q.setCampaign({ ids: add, campaign_id: id, updated_at });
        if (remove.length) await q.setCampaign({ ids: remove, campaign_id: null, updated_at });
      });
      return ops.retrieveCampaign(id);
    },

    /**
     * Consumes `amount` of the campaign's budget (1 for a usage budget, minor units for spend) with
     * one guarded UPDATE, so concurrent orders can never push `used` past `limit`. False when
     * the budget cannot take it; true when it did or the campaign has no budget.
     */
    async consumeBudget(campaignId: string, amount: number): Promise<boolean> {
      if (await q.consumeBudget({ campaign_id: campaignId, amount, updated_at: new Date() })) return true;
      return !(await q.budgetIdOf({ campaign_id: campaignId }));
    },

    /** Gives back what {@link consumeBudget} took (never below zero). */
    async releaseBudget(campaignId: string, amount: number): Promise<void> {
      await q.releaseBudget({ campaign_id: campaignId, amount, updated_at: new Date() });
    },
  };
  return ops;
}

function budgetValues(campaignId: string, budget: BudgetInput) {
  const type = budget.type ?? "spend";
  const currency_code = budget.currency_code?.toLowerCase() ?? null;
  if (type === "spend" && budget.limit != null && !currency_code)
    throw errors.invalidData("budget.currency_code is required for a spend budget");
  if (type === "usage" && currency_code)
    throw errors.invalidData("budget.currency_code applies only to a spend budget");
  return { id: generateId("probudg"), campaign_id: campaignId, type, limit: budget.limit ?? null, currency_code };
}

function checkDates(starts: string | null, ends: string | null): void {
  if (starts && ends && new Date(starts) > new Date(ends)) throw errors.invalidData("starts_at must be before ends_at");
}

const toDate = (value: string | null | undefined): Date | null => (value ? new Date(value) : null);

const identifierTaken = (identifier: string) => `Campaign with campaign_identifier: ${identifier} already exists`;
