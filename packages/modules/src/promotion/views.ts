import { and, asc, inArray, isNull } from "drizzle-orm";
import type { Db } from "@kasse/db";
import {
  applicationMethod,
  campaign,
  campaignBudget,
  promotion,
  promotionRule,
  type ApplicationMethodRow,
  type CampaignBudgetRow,
  type CampaignRow,
  type PromotionRow,
  type PromotionRuleRow,
} from "./schema";

/** A rule as the API answers it. */
export type RuleView = Pick<
  PromotionRuleRow,
  "id" | "attribute" | "operator" | "description" | "values" | "created_at" | "updated_at"
>;

/** A campaign budget as the API answers it (`used` included). */
export type BudgetView = Omit<CampaignBudgetRow, "campaign_id" | "deleted_at">;

/** A campaign with its budget (and, where asked, its promotions). */
export type CampaignView = CampaignRow & {
  budget: BudgetView | null;
  promotions?: Array<Pick<PromotionRow, "id" | "code" | "type" | "status" | "is_automatic">>;
};

/** A promotion with its campaign, application method (and its rules) and rules, as Medusa v2 shapes it. */
export type PromotionView = PromotionRow & {
  campaign: CampaignView | null;
  application_method:
    (Omit<ApplicationMethodRow, "deleted_at"> & { target_rules: RuleView[]; buy_rules: RuleView[] }) | null;
  rules: RuleView[];
};

const ruleView = (r: PromotionRuleRow): RuleView => ({
  id: r.id,
  attribute: r.attribute,
  operator: r.operator,
  description: r.description,
  values: r.values,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const budgetView = ({ campaign_id: _campaign, deleted_at: _deleted, ...budget }: CampaignBudgetRow): BudgetView =>
  budget;

/** Campaign views for `rows`: budgets in one query, promotions (when asked) in one more. */
export async function campaignViews(tx: Db, rows: CampaignRow[], withPromotions: boolean): Promise<CampaignView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [budgets, promotions] = await Promise.all([
    tx.select().from(campaignBudget).where(inArray(campaignBudget.campaign_id, ids)),
    withPromotions
      ? tx
          .select({
            id: promotion.id,
            code: promotion.code,
            type: promotion.type,
            status: promotion.status,
            is_automatic: promotion.is_automatic,
            campaign_id: promotion.campaign_id,
          })
          .from(promotion)
          .where(and(inArray(promotion.campaign_id, ids), isNull(promotion.deleted_at)))
          .orderBy(asc(promotion.created_at), asc(promotion.id))
      : Promise.resolve([]),
  ]);
  const budgetBy = new Map(budgets.map((b) => [b.campaign_id, budgetView(b)]));
  return rows.map((row) => ({
    ...row,
    budget: budgetBy.get(row.id) ?? null,
    ...(withPromotions
      ? { promotions: promotions.filter((p) => p.campaign_id === row.id).map(({ campaign_id: _c, ...p }) => p) }
      : {}),
  }));
}

/** Promotion views for `rows`: methods, rules and campaigns in one query each, whatever the page size. */
export async function promotionViews(tx: Db, rows: PromotionRow[]): Promise<PromotionView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const campaignIds = [...new Set(rows.map((r) => r.campaign_id).filter((id): id is string => id !== null))];
  const [methods, rules, campaigns] = await Promise.all([
    tx.select().from(applicationMethod).where(inArray(applicationMethod.promotion_id, ids)),
    tx
      .select()
      .from(promotionRule)
      .where(inArray(promotionRule.promotion_id, ids))
      .orderBy(asc(promotionRule.created_at), asc(promotionRule.id)),
    campaignIds.length
      ? tx
          .select()
          .from(campaign)
          .where(and(inArray(campaign.id, campaignIds), isNull(campaign.deleted_at)))
      : Promise.resolve([]),
  ]);
  const campaignBy = new Map((await campaignViews(tx, campaigns, false)).map((c) => [c.id, c]));
  return rows.map((row) => {
    const own = rules.filter((r) => r.promotion_id === row.id);
    const method = methods.find((m) => m.promotion_id === row.id);
    const of = (kind: PromotionRuleRow["kind"]) => own.filter((r) => r.kind === kind).map(ruleView);
    return {
      ...row,
      campaign: row.campaign_id ? (campaignBy.get(row.campaign_id) ?? null) : null,
      application_method: method
        ? { ...withoutDeleted(method), target_rules: of("target"), buy_rules: of("buy") }
        : null,
      rules: of("promotion"),
    };
  });
}

/** A rule's API shape. */
export { ruleView };

function withoutDeleted<T extends { deleted_at: unknown }>({
  deleted_at: _deleted,
  ...rest
}: T): Omit<T, "deleted_at"> {
  return rest;
}
