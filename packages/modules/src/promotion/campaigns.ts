import { and, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import { transaction, type Db, type ListPaging, anyOf, liveRecords, textSearch } from "@kasse/db";
import {
  campaign,
  campaignBudget,
  promotion,
  type BudgetInput,
  type CampaignCreate,
  type CampaignFilters,
  type CampaignPromotions,
  type CampaignUpdate,
} from "./schema";
import { campaignViews, type CampaignView } from "./views";

/**
 * Campaign CRUD, campaign membership of promotions, and the budget's guarded counters.
 * Part of the promotion service (see `createPromotionService`).
 */
export function campaignOperations(db: Db) {
  const campaigns = liveRecords(db, campaign, "Campaign", {
    name: campaign.name,
    campaign_identifier: campaign.campaign_identifier,
    starts_at: campaign.starts_at,
    ends_at: campaign.ends_at,
  });
  const ops = {
    async createCampaign(input: CampaignCreate): Promise<CampaignView> {
      checkDates(input.starts_at ?? null, input.ends_at ?? null);
      const id = generateId("procamp");
      await transaction(db, async (t) => {
        await liveRecords(t, campaign, "Campaign").insert(
          {
            id,
            name: input.name,
            description: input.description ?? null,
            campaign_identifier: input.campaign_identifier,
            starts_at: toDate(input.starts_at),
            ends_at: toDate(input.ends_at),
            metadata: input.metadata ?? null,
          },
          identifierTaken(input.campaign_identifier),
        );
        if (input.budget) await t.insert(campaignBudget).values(budgetValues(id, input.budget));
      });
      return ops.retrieveCampaign(id);
    },

    retrieveCampaign: async (id: string): Promise<CampaignView> =>
      (await campaignViews(db, [await campaigns.retrieve(id)], true))[0]!,

    async listCampaigns(filters: CampaignFilters, page: ListPaging): Promise<{ items: CampaignView[]; count: number }> {
      const { items, count } = await campaigns.list(conditions(filters), page);
      return { items: await campaignViews(db, items, true), count };
    },

    async updateCampaign(id: string, input: CampaignUpdate): Promise<CampaignView> {
      const existing = await ops.retrieveCampaign(id);
      const starts = input.starts_at === undefined ? existing.starts_at : toDate(input.starts_at);
      const ends = input.ends_at === undefined ? existing.ends_at : toDate(input.ends_at);
      checkDates(starts?.toISOString() ?? null, ends?.toISOString() ?? null);
      const { budget, starts_at, ends_at, ...fields } = input;
      await transaction(db, async (t) => {
        const set = {
          ...fields,
          ...(starts_at !== undefined ? { starts_at: toDate(starts_at) } : {}),
          ...(ends_at !== undefined ? { ends_at: toDate(ends_at) } : {}),
        };
        if (Object.keys(set).length)
          await liveRecords(t, campaign, "Campaign").update(id, set, identifierTaken(input.campaign_identifier ?? ""));
        if (budget === null) await t.delete(campaignBudget).where(eq(campaignBudget.campaign_id, id));
        else if (budget) {
          if (!existing.budget) await t.insert(campaignBudget).values(budgetValues(id, budget));
          else {
            if (budget.type && budget.type !== existing.budget.type)
              throw errors.invalidData("budget.type cannot be changed once a campaign has a budget");
            const set: Partial<typeof campaignBudget.$inferInsert> = {};
            if (budget.limit !== undefined) set.limit = budget.limit;
            if (budget.currency_code !== undefined) set.currency_code = budget.currency_code?.toLowerCase() ?? null;
            if (existing.budget.type === "spend" && set.currency_code === null)
              throw errors.invalidData("budget.currency_code is required for a spend budget");
            if (Object.keys(set).length)
              await t.update(campaignBudget).set(set).where(eq(campaignBudget.campaign_id, id));
          }
        }
      });
      return ops.retrieveCampaign(id);
    },

    /** Soft delete; its promotions stay, detached from the campaign (as Medusa). */
    async deleteCampaign(id: string): Promise<void> {
      await transaction(db, async (t) => {
        await t.update(promotion).set({ campaign_id: null }).where(eq(promotion.campaign_id, id));
        await liveRecords(t, campaign, "Campaign").softDelete(id);
      });
    },

    /** Adds promotions to the campaign (moving them from another one) and removes others; unknown ids write nothing. */
    async updateCampaignPromotions(id: string, input: CampaignPromotions): Promise<CampaignView> {
      await ops.retrieveCampaign(id);
      const add = [...new Set(input.add ?? [])];
      const remove = [...new Set(input.remove ?? [])];
      const overlap = add.find((p) => remove.includes(p));
      if (overlap) throw errors.invalidData(`Promotion ${overlap} cannot be both added and removed`);
      await transaction(db, async (t) => {
        const ids = [...add, ...remove];
        const found = ids.length
          ? await t
              .select({ id: promotion.id, campaign_id: promotion.campaign_id })
              .from(promotion)
              .where(and(inArray(promotion.id, ids), isNull(promotion.deleted_at)))
          : [];
        const missing = ids.find((p) => !found.some((f) => f.id === p));
        if (missing) throw errors.notFound(`Promotion with id: ${missing} was not found`);
        const foreign = remove.find((p) => found.find((f) => f.id === p)!.campaign_id !== id);
        if (foreign) throw errors.invalidData(`Promotion ${foreign} is not part of campaign ${id}`);
        if (add.length) await t.update(promotion).set({ campaign_id: id }).where(inArray(promotion.id, add));
        if (remove.length) await t.update(promotion).set({ campaign_id: null }).where(inArray(promotion.id, remove));
      });
      return ops.retrieveCampaign(id);
    },

    /**
     * Consumes `amount` of the campaign's budget (1 for a usage budget, minor units for spend) with
     * one guarded UPDATE, so concurrent orders can never push `used` past `limit`. False when
     * the budget cannot take it; true when it did or the campaign has no budget.
     */
    async consumeBudget(campaignId: string, amount: number): Promise<boolean> {
      const updated = await db
        .update(campaignBudget)
        .set({ used: sql`${campaignBudget.used} + ${amount}` })
        .where(
          and(
            eq(campaignBudget.campaign_id, campaignId),
            or(isNull(campaignBudget.limit), sql`${campaignBudget.used} + ${amount} <= ${campaignBudget.limit}`),
          ),
        )
        .returning({ id: campaignBudget.id });
      if (updated.length) return true;
      const [budget] = await db
        .select({ id: campaignBudget.id })
        .from(campaignBudget)
        .where(eq(campaignBudget.campaign_id, campaignId));
      return !budget;
    },

    /** Gives back what {@link consumeBudget} took (never below zero). */
    async releaseBudget(campaignId: string, amount: number): Promise<void> {
      await db
        .update(campaignBudget)
        .set({ used: sql`greatest(${campaignBudget.used} - ${amount}, 0)` })
        .where(eq(campaignBudget.campaign_id, campaignId));
    },
  };
  return ops;
}

function budgetValues(campaignId: string, budget: BudgetInput): typeof campaignBudget.$inferInsert {
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

function conditions(filters: CampaignFilters): SQL[] {
  const out = anyOf(filters, { id: campaign.id, campaign_identifier: campaign.campaign_identifier });
  out.push(...textSearch(filters.q, [campaign.name, campaign.campaign_identifier, campaign.description]));
  return out;
}
