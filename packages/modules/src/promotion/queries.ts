import { and, asc, eq, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import {
  db,
  first,
  inFilters,
  inList,
  insertRows,
  liveRecords,
  rowsOf,
  statement,
  textSearch,
  type Placeholders,
} from "@kasse/db";
import {
  applicationMethod,
  campaign,
  campaignBudget,
  promotion,
  promotionRule,
  type CampaignBudgetRow,
  type PromotionRuleRow,
} from "./schema";
import type { CampaignFilters, PromotionFilters } from "./shapes";
import type { CheckedMethod } from "./validation";

// The promotion module's SQL (promotions, their methods and rules, campaigns and budgets): the only
// file of the module that imports drizzle and its tables.

const promotions = liveRecords(promotion, "Promotion", {
  code: promotion.code,
  type: promotion.type,
  status: promotion.status,
});
const campaigns = liveRecords(campaign, "Campaign", {
  name: campaign.name,
  campaign_identifier: campaign.campaign_identifier,
  starts_at: campaign.starts_at,
  ends_at: campaign.ends_at,
});

/** A rule's stored fields that a batch may change. */
type RuleFields = Pick<PromotionRuleRow, "attribute" | "operator" | "description" | "values">;

/** The filters of a promotion list as conditions. */
function promotionConditions(filters: PromotionFilters): SQL[] {
  const { id, code, campaign_id, status } = promotion;
  const out = inFilters(filters, { id, code: sql`lower(${code})`, campaign_id, status }, ["code"]);
  if (filters.is_automatic !== undefined) out.push(eq(promotion.is_automatic, filters.is_automatic));
  out.push(...textSearch(filters.q, [promotion.code]));
  return out;
}

/** The filters of a campaign list as conditions. */
const campaignConditions = (filters: CampaignFilters): SQL[] => [
  ...inFilters(filters, { id: campaign.id, campaign_identifier: campaign.campaign_identifier }),
  ...textSearch(filters.q, [campaign.name, campaign.campaign_identifier, campaign.description]),
];

/** Named statements on the promotion module's tables, run on the current handle. */
export const promotionQueries = {
  ...promotions,
  list: promotions.listBy(promotionConditions),
  /**
   * The live automatic active promotions and those whose code is among `codes` (lower case; none:
   * empty), oldest first: every cart refresh asks for them.
   */
  forCart: statement((v: Placeholders<{ codes: string[] }>) =>
    db
      .select()
      .from(promotion)
      .where(
        and(
          promotions.live,
          or(
            and(eq(promotion.is_automatic, true), eq(promotion.status, "active")),
            inList(sql`lower(${promotion.code})`, v.codes),
          ),
        ),
      )
      .orderBy(asc(promotion.created_at), asc(promotion.id)),
  ),
  // A page's relations (and the cart's promotions'), one statement each whatever the page size.
  methodsOf: rowsOf(applicationMethod, applicationMethod.promotion_id),
  /** The rules of the promotions, oldest first. */
  rulesOf: rowsOf(promotionRule, promotionRule.promotion_id, {
    order: [asc(promotionRule.created_at), asc(promotionRule.id)],
  }),
  insertMethod: statement((v: Placeholders<CheckedMethod & { id: string; promotion_id: string }>) =>
    db.insert(applicationMethod).values(v),
  ),
  /** Sets every field of the promotion's application method. */
  updateMethod: statement(
    ({ promotion_id, ...set }: Placeholders<CheckedMethod & { promotion_id: string; updated_at: Date }>) =>
      db.update(applicationMethod).set(set).where(eq(applicationMethod.promotion_id, promotion_id)),
  ),
  /** Inserts rules (any number, in one statement) and answers them. */
  insertRules: insertRows<PromotionRuleRow[]>(promotionRule, { returning: true }),
  /** Sets a rule's fields and answers it (undefined when there is no such rule). */
  updateRule: first(
    statement(({ id, ...set }: Placeholders<RuleFields & { id: string; updated_at: Date }>) =>
      db.update(promotionRule).set(set).where(eq(promotionRule.id, id)).returning(),
    ),
  ),
  deleteRules: statement((v: Placeholders<{ promotion_id: string; ids: string[] }>) =>
    db
      .delete(promotionRule)
      .where(and(eq(promotionRule.promotion_id, v.promotion_id), inList(promotionRule.id, v.ids))),
  ),
  /** The promotions among `ids` whose live campaign has a budget, with its type, limit and use. */
  budgetRows: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({
        id: promotion.id,
        campaign_id: campaign.id,
        type: campaignBudget.type,
        limit: campaignBudget.limit,
        used: campaignBudget.used,
      })
      .from(promotion)
      .innerJoin(campaign, and(eq(campaign.id, promotion.campaign_id), campaigns.live))
      .innerJoin(campaignBudget, eq(campaignBudget.campaign_id, campaign.id))
      .where(inList(promotion.id, v.ids)),
  ),
  /** The live promotions among `ids` with their campaign. */
  liveWithCampaign: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ id: promotion.id, campaign_id: promotion.campaign_id })
      .from(promotion)
      .where(and(inList(promotion.id, v.ids), promotions.live)),
  ),
  /** Moves the promotions to the campaign (null: out of any). */
  setCampaign: statement((v: Placeholders<{ ids: string[]; campaign_id: string | null; updated_at: Date }>) =>
    db
      .update(promotion)
      .set({ campaign_id: v.campaign_id, updated_at: v.updated_at })
      .where(inList(promotion.id, v.ids)),
  ),
  /** Detaches every promotion of the campaign. */
  detachCampaign: statement((v: Placeholders<{ campaign_id: string; updated_at: Date }>) =>
    db
      .update(promotion)
      .set({ campaign_id: null, updated_at: v.updated_at })
      .where(eq(promotion.campaign_id, v.campaign_id)),
  ),

  insertCampaign: campaigns.insert,
  retrieveCampaign: campaigns.retrieve,
  updateCampaign: campaigns.update,
  softDeleteCampaign: campaigns.softDelete,
  listCampaigns: campaigns.listBy(campaignConditions),
  /** The live campaigns among `ids`. */
  campaignsOf: rowsOf(campaign, campaign.id, { where: campaigns.live }),
  /** The budgets of the campaigns. */
  budgetsOf: rowsOf(campaignBudget, campaignBudget.campaign_id),
  /** The live promotions of the campaigns (a few fields and their campaign), oldest first. */
  promotionsOfCampaigns: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({
        id: promotion.id,
        code: promotion.code,
        type: promotion.type,
        status: promotion.status,
        is_automatic: promotion.is_automatic,
        campaign_id: promotion.campaign_id,
      })
      .from(promotion)
      .where(and(inList(promotion.campaign_id, v.ids), promotions.live))
      .orderBy(asc(promotion.created_at), asc(promotion.id)),
  ),
  insertBudget: statement(
    (v: Placeholders<Pick<CampaignBudgetRow, "id" | "campaign_id" | "type" | "limit" | "currency_code">>) =>
      db.insert(campaignBudget).values(v),
  ),
  /** Sets the budget's `limit` and `currency_code`; a key left undefined leaves its column as it is. */
  updateBudget: statement(
    (
      v: Placeholders<{ campaign_id: string; limit?: number | null; currency_code?: string | null; updated_at: Date }>,
    ) =>
      db
        .update(campaignBudget)
        .set({ limit: v.limit, currency_code: v.currency_code, updated_at: v.updated_at })
        .where(eq(campaignBudget.campaign_id, v.campaign_id)),
  ),
  deleteBudget: statement((v: Placeholders<{ campaign_id: string }>) =>
    db.delete(campaignBudget).where(eq(campaignBudget.campaign_id, v.campaign_id)),
  ),
  /**
   * Adds `amount` to the budget's `used` unless that passes its limit; answers the budget when it took
   * it. One guarded UPDATE: concurrent orders can never push `used` past `limit`.
   */
  consumeBudget: first(
    statement((v: Placeholders<{ campaign_id: string; amount: number; updated_at: Date }>) =>
      db
        .update(campaignBudget)
        .set({ used: sql`${campaignBudget.used} + ${v.amount}`, updated_at: v.updated_at })
        .where(
          and(
            eq(campaignBudget.campaign_id, v.campaign_id),
            or(isNull(campaignBudget.limit), sql`${campaignBudget.used} + ${v.amount} <= ${campaignBudget.limit}`),
          ),
        )
        .returning({ id: campaignBudget.id }),
    ),
  ),
  /** The campaign's budget, when it has one. */
  budgetIdOf: first(
    statement((v: Placeholders<{ campaign_id: string }>) =>
      db.select({ id: campaignBudget.id }).from(campaignBudget).where(eq(campaignBudget.campaign_id, v.campaign_id)),
    ),
  ),
  /** Takes `amount` off the budget's `used` (never below zero). */
  releaseBudget: statement((v: Placeholders<{ campaign_id: string; amount: number; updated_at: Date }>) =>
    db
      .update(campaignBudget)
      .set({ used: sql`greatest(${campaignBudget.used} - ${v.amount}, 0)`, updated_at: v.updated_at })
      .where(eq(campaignBudget.campaign_id, v.campaign_id)),
  ),
  /**
   * `kasse check`'s page of live budgets after campaign id `after`, each with every promotion of its
   * campaign (deleted ones included). drizzle's `limit` takes a placeholder, not SQL: the same one, by
   * its name.
   */
  budgetsPage: statement((v: Placeholders<{ after: string; limit: number }>) =>
    db
      .select({
        campaign_id: campaignBudget.campaign_id,
        type: campaignBudget.type,
        used: campaignBudget.used,
        promotion_ids: sql<
          string[]
        >`coalesce(array_agg(${promotion.id} order by ${promotion.id}) filter (where ${promotion.id} is not null), '{}')`,
      })
      .from(campaignBudget)
      .leftJoin(promotion, eq(promotion.campaign_id, campaignBudget.campaign_id))
      .where(and(isNull(campaignBudget.deleted_at), gt(campaignBudget.campaign_id, v.after)))
      .groupBy(campaignBudget.campaign_id, campaignBudget.type, campaignBudget.used)
      .orderBy(asc(campaignBudget.campaign_id))
      .limit(sql.placeholder("limit")),
  ),
};
