import { and, asc, eq, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import {
  db,
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
  type BudgetType,
  type RuleValue,
  type ApplicationMethodRow,
  type CampaignBudgetRow,
  type PromotionRuleRow,
} from "./schema";
import type { CampaignFilters, PromotionFilters } from "./shapes";

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

// Every cart refresh asks for the automatic promotions and the cart's codes (lower case; none: empty).
const promotionsForCart = statement((v: Placeholders<{ codes: string[] }>) =>
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
);

// A page's relations (and the cart's promotions'), one statement each whatever the page size.
const methodsOf = rowsOf(applicationMethod, applicationMethod.promotion_id);

const rulesOf = rowsOf(promotionRule, promotionRule.promotion_id, {
  order: [asc(promotionRule.created_at), asc(promotionRule.id)],
});

const campaignsOf = rowsOf(campaign, campaign.id, { where: campaigns.live });

const budgetsOf = rowsOf(campaignBudget, campaignBudget.campaign_id);

const promotionsOfCampaigns = statement((v: Placeholders<{ ids: string[] }>) =>
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
);

/** An application method's stored fields (checked by `validateMethod`). */
type MethodValues = Pick<
  ApplicationMethodRow,
  | "type"
  | "target_type"
  | "allocation"
  | "value"
  | "currency_code"
  | "max_quantity"
  | "apply_to_quantity"
  | "buy_rules_min_quantity"
>;

const insertMethod = statement((v: Placeholders<MethodValues & { id: string; promotion_id: string }>) =>
  db.insert(applicationMethod).values(v),
);

const updateMethod = statement((v: Placeholders<MethodValues & { promotion_id: string; updated_at: Date }>) =>
  db
    .update(applicationMethod)
    .set({
      type: v.type,
      target_type: v.target_type,
      allocation: v.allocation,
      value: v.value,
      currency_code: v.currency_code,
      max_quantity: v.max_quantity,
      apply_to_quantity: v.apply_to_quantity,
      buy_rules_min_quantity: v.buy_rules_min_quantity,
      updated_at: v.updated_at,
    })
    .where(eq(applicationMethod.promotion_id, v.promotion_id)),
);

const insertRules = insertRows<PromotionRuleRow[]>(promotionRule, { returning: true });

/** A rule's stored fields that a batch may change. */
type RuleFields = {
  attribute: string;
  operator: PromotionRuleRow["operator"];
  description: string | null;
  values: RuleValue[];
};

const updateRule = statement((v: Placeholders<RuleFields & { id: string; updated_at: Date }>) =>
  db
    .update(promotionRule)
    .set({
      attribute: v.attribute,
      operator: v.operator,
      description: v.description,
      values: v.values,
      updated_at: v.updated_at,
    })
    .where(eq(promotionRule.id, v.id))
    .returning(),
);

const deleteRules = statement((v: Placeholders<{ promotion_id: string; ids: string[] }>) =>
  db.delete(promotionRule).where(and(eq(promotionRule.promotion_id, v.promotion_id), inList(promotionRule.id, v.ids))),
);

// The promotions of an order's usages whose campaign (live) has a budget, with its terms and use.
const budgetRows = statement((v: Placeholders<{ ids: string[] }>) =>
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
);

const liveCampaignOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ id: promotion.id, campaign_id: promotion.campaign_id })
    .from(promotion)
    .where(and(inList(promotion.id, v.ids), promotions.live)),
);

// `campaign_id` null detaches the promotions.
const setCampaign = statement((v: Placeholders<{ ids: string[]; campaign_id: string | null; updated_at: Date }>) =>
  db.update(promotion).set({ campaign_id: v.campaign_id, updated_at: v.updated_at }).where(inList(promotion.id, v.ids)),
);

const detachCampaign = statement((v: Placeholders<{ campaign_id: string; updated_at: Date }>) =>
  db
    .update(promotion)
    .set({ campaign_id: null, updated_at: v.updated_at })
    .where(eq(promotion.campaign_id, v.campaign_id)),
);

const insertBudget = statement(
  (
    v: Placeholders<{
      id: string;
      campaign_id: string;
      type: BudgetType;
      limit: number | null;
      currency_code: string | null;
    }>,
  ) => db.insert(campaignBudget).values(v),
);

// A key left undefined leaves its column as it is.
const updateBudget = statement(
  (v: Placeholders<{ campaign_id: string; limit?: number | null; currency_code?: string | null; updated_at: Date }>) =>
    db
      .update(campaignBudget)
      .set({ limit: v.limit, currency_code: v.currency_code, updated_at: v.updated_at })
      .where(eq(campaignBudget.campaign_id, v.campaign_id)),
);

const deleteBudget = statement((v: Placeholders<{ campaign_id: string }>) =>
  db.delete(campaignBudget).where(eq(campaignBudget.campaign_id, v.campaign_id)),
);

// One guarded UPDATE: concurrent orders can never push `used` past `limit`.
const consumeBudget = statement((v: Placeholders<{ campaign_id: string; amount: number; updated_at: Date }>) =>
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
);

const budgetIdOf = statement((v: Placeholders<{ campaign_id: string }>) =>
  db.select({ id: campaignBudget.id }).from(campaignBudget).where(eq(campaignBudget.campaign_id, v.campaign_id)),
);

const releaseBudget = statement((v: Placeholders<{ campaign_id: string; amount: number; updated_at: Date }>) =>
  db
    .update(campaignBudget)
    .set({ used: sql`greatest(${campaignBudget.used} - ${v.amount}, 0)`, updated_at: v.updated_at })
    .where(eq(campaignBudget.campaign_id, v.campaign_id)),
);

// `kasse check`: a page of live budgets by campaign id, each with every promotion of its campaign
// (deleted ones included). drizzle's `limit` takes a placeholder, not SQL: the same one, by its name.
const budgetsPage = statement((v: Placeholders<{ after: string; limit: number }>) =>
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
);

/** The filters of a promotion list as conditions. */
function promotionConditions(filters: PromotionFilters): SQL[] {
  const { id, code, campaign_id, status } = promotion;
  const out = inFilters(filters, { id, code: sql`lower(${code})`, campaign_id, status }, ["code"]);
  if (filters.is_automatic !== undefined) out.push(eq(promotion.is_automatic, filters.is_automatic));
  out.push(...textSearch(filters.q, [promotion.code]));
  return out;
}

/** The filters of a campaign list as conditions. */
function campaignConditions(filters: CampaignFilters): SQL[] {
  const { id, campaign_identifier, name, description } = campaign;
  return [
    ...inFilters(filters, { id, campaign_identifier }),
    ...textSearch(filters.q, [name, campaign_identifier, description]),
  ];
}

/** Named statements on the promotion module's tables, run on the current handle. */
export const promotionQueries = {
  ...promotions,
  list: promotions.listBy(promotionConditions),
  /** The live automatic active promotions and those whose code is among `codes` (lower case), oldest first. */
  forCart: (codes: string[]) => promotionsForCart({ codes }),
  methodsOf,
  /** The rules of the promotions, oldest first. */
  rulesOf,
  insertMethod: (values: MethodValues & { id: string; promotion_id: string }) => insertMethod(values),
  /** Sets every field of the promotion's application method. */
  updateMethod: (promotionId: string, values: MethodValues) =>
    updateMethod({ ...values, promotion_id: promotionId, updated_at: new Date() }),
  /** Inserts rules (any number, in one statement) and answers them. */
  insertRules: (rows: Array<RuleFields & { id: string; promotion_id: string; kind: PromotionRuleRow["kind"] }>) =>
    rows.length ? insertRules(rows) : Promise.resolve([]),
  /** Sets a rule's fields and answers it (undefined when there is no such rule). */
  updateRule: async (id: string, fields: RuleFields): Promise<PromotionRuleRow | undefined> =>
    (await updateRule({ ...fields, id, updated_at: new Date() }))[0],
  deleteRules: (promotionId: string, ids: string[]) => deleteRules({ promotion_id: promotionId, ids }),
  /** The promotions among `ids` whose live campaign has a budget, with its type, limit and use. */
  budgetRows: (promotionIds: string[]) => budgetRows({ ids: promotionIds }),
  /** The live promotions among `ids` with their campaign. */
  liveWithCampaign: (promotionIds: string[]) => liveCampaignOf({ ids: promotionIds }),
  /** Moves the promotions to the campaign (null: out of any). */
  setCampaign: (promotionIds: string[], campaignId: string | null) =>
    setCampaign({ ids: promotionIds, campaign_id: campaignId, updated_at: new Date() }),
  /** Detaches every promotion of the campaign. */
  detachCampaign: (campaignId: string) => detachCampaign({ campaign_id: campaignId, updated_at: new Date() }),

  insertCampaign: campaigns.insert,
  retrieveCampaign: campaigns.retrieve,
  updateCampaign: campaigns.update,
  softDeleteCampaign: campaigns.softDelete,
  listCampaigns: campaigns.listBy(campaignConditions),
  /** The live campaigns among `ids`. */
  campaignsOf,
  /** The budgets of the campaigns. */
  budgetsOf: (campaignIds: string[]): Promise<CampaignBudgetRow[]> => budgetsOf(campaignIds),
  /** The live promotions of the campaigns (a few fields and their campaign), oldest first. */
  promotionsOfCampaigns: (campaignIds: string[]) => promotionsOfCampaigns({ ids: campaignIds }),
  insertBudget: (values: {
    id: string;
    campaign_id: string;
    type: BudgetType;
    limit: number | null;
    currency_code: string | null;
  }) => insertBudget(values),
  /** Sets the budget's `limit` and `currency_code`, each when given. */
  updateBudget: (campaignId: string, set: { limit?: number | null; currency_code?: string | null }) =>
    updateBudget({
      campaign_id: campaignId,
      limit: set.limit,
      currency_code: set.currency_code,
      updated_at: new Date(),
    }),
  deleteBudget: (campaignId: string) => deleteBudget({ campaign_id: campaignId }),
  /** Adds `amount` to the budget's `used` unless that passes its limit: whether a budget row took it. */
  consumeBudget: async (campaignId: string, amount: number): Promise<boolean> =>
    (await consumeBudget({ campaign_id: campaignId, amount, updated_at: new Date() })).length > 0,
  /** Whether the campaign has a budget. */
  hasBudget: async (campaignId: string): Promise<boolean> => (await budgetIdOf({ campaign_id: campaignId })).length > 0,
  /** Takes `amount` off the budget's `used` (never below zero). */
  releaseBudget: (campaignId: string, amount: number) =>
    releaseBudget({ campaign_id: campaignId, amount, updated_at: new Date() }),
  /** `kasse check`'s page of budgets after `afterCampaignId`. */
  budgetsPage: (afterCampaignId: string, limit: number) => budgetsPage({ after: afterCampaignId, limit }),
};
