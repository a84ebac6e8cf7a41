import { groupBy } from "@kasse/db";
import { promotionQueries as q } from "./queries";
import type { ApplicationMethodRow, CampaignBudgetRow, CampaignRow, PromotionRow, PromotionRuleRow } from "./schema";

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

/** A rule's API shape. */
export const ruleView = ({ promotion_id: _p, kind: _k, deleted_at: _d, ...rule }: PromotionRuleRow): RuleView => rule;

const budgetView = ({ campaign_id: _campaign, deleted_at: _deleted, ...budget }: CampaignBudgetRow): BudgetView =>
  budget;

/** Campaign views for `rows`: budgets in one statement, promotions (when asked) in one more. */
export async function campaignViews(rows: CampaignRow[], withPromotions: boolean): Promise<CampaignView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [budgets, promotions] = await Promise.all([
    q.budgetsOf(ids),
    withPromotions ? q.promotionsOfCampaigns({ ids }) : Promise.resolve([]),
  ]);
  const budgetBy = new Map(budgets.map((b) => [b.campaign_id, budgetView(b)]));
  const promotionsBy = groupBy(promotions, (p) => p.campaign_id, { value: ({ campaign_id: _c, ...p }) => p });
  return rows.map((row) => ({
    ...row,
    budget: budgetBy.get(row.id) ?? null,
    ...(withPromotions ? { promotions: promotionsBy.get(row.id) ?? [] } : {}),
  }));
}

/** Promotion views for `rows`: methods, rules and campaigns in one statement each, whatever the page size. */
export async function promotionViews(rows: PromotionRow[]): Promise<PromotionView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const campaignIds = [...new Set(rows.map((r) => r.campaign_id).filter((id): id is string => id !== null))];
  const [methods, rules, campaigns] = await Promise.all([
    q.methodsOf(ids),
    q.rulesOf(ids),
    campaignIds.length ? q.campaignsOf(campaignIds) : Promise.resolve([]),
  ]);
  const campaignBy = new Map((await campaignViews(campaigns, false)).map((c) => [c.id, c]));
  const methodBy = new Map(methods.map(({ deleted_at: _deleted, ...m }) => [m.promotion_id, m]));
  const rulesBy = groupBy(rules, (r) => r.promotion_id);
  return rows.map((row) => {
    const own = rulesBy.get(row.id) ?? [];
    const method = methodBy.get(row.id);
    const of = (kind: PromotionRuleRow["kind"]) => own.filter((r) => r.kind === kind).map(ruleView);
    return {
      ...row,
      campaign: row.campaign_id ? (campaignBy.get(row.campaign_id) ?? null) : null,
      application_method: method ? { ...method, target_rules: of("target"), buy_rules: of("buy") } : null,
      rules: of("promotion"),
    };
  });
}
