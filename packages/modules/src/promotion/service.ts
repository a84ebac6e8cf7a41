import { errors, generateId } from "@kasse/core";
import { transaction, viewPage, type ListPaging } from "@kasse/db";
import { campaignOperations } from "./campaigns";
import { computeAdjustments, type ComputeResult, type EngineCart, type EnginePromotion } from "./compute-adjustments";
import { promotionQueries as q } from "./queries";
import type { RuleKind, RuleValue } from "./schema";
import type { CampaignCreate, PromotionCreate, PromotionFilters, PromotionUpdate, RuleBatch } from "./shapes";
import { normalizeRule, normalizeRules, validateMethod, type NormalizedRule } from "./validation";
import { promotionViews, ruleView, type PromotionView, type RuleView } from "./views";

/** What one promotion gave an order: the input of usage registration. */
export interface PromotionUsage {
  promotion_id: string;
  /** Total discount in minor units the order got from this promotion. */
  amount: number;
}

/** What registration took from one campaign budget; the compensation gives it back. */
export interface BudgetConsumption {
  campaign_id: string;
  amount: number;
}

/** Result of a rules batch, as Medusa answers it. */
export interface RuleBatchResult {
  created: RuleView[];
  updated: RuleView[];
  deleted: { ids: string[]; object: "promotion-rule"; deleted: true };
}

/**
 * Promotions and campaigns: CRUD, rules, the cart-facing engine loader, and campaign budgets. Built
 * once per process; every method runs in the transaction in progress, if any.
 * @example
 * const promotions = createPromotionService();
 * const result = await promotions.computeForCart(cart, ["SUMMER10"]);
 */
export function createPromotionService() {
  const campaigns = campaignOperations();
  const service = {
    ...campaigns,

    async create(input: PromotionCreate): Promise<PromotionView> {
      const is_automatic = input.is_automatic ?? false;
      if (!is_automatic && !input.code) throw errors.invalidData("code is required unless the promotion is automatic");
      const { target_rules = [], buy_rules = [], ...fields } = input.application_method;
      const method = validateMethod(fields, input.type, {
        targetRules: target_rules.length,
        buyRules: buy_rules.length,
      });
      const rules = [
        ...normalizeRules("promotion", input.rules ?? [], "rules"),
        ...normalizeRules("target", target_rules, "application_method.target_rules"),
        ...normalizeRules("buy", buy_rules, "application_method.buy_rules"),
      ];
      if (input.campaign && input.campaign_id)
        throw errors.invalidData("A promotion takes campaign_id or a new campaign, not both");
      const id = generateId("promo");
      await transaction(async () => {
        if (input.campaign_id) await q.retrieveCampaign(input.campaign_id);
        const campaign_id = input.campaign
          ? (await campaigns.createCampaign(newCampaign(input.campaign))).id
          : (input.campaign_id ?? null);
        await q.insert(
          {
            id,
            code: input.code ?? null,
            type: input.type,
            status: input.status ?? "active",
            is_automatic,
            campaign_id,
            metadata: input.metadata ?? null,
          },
          codeTaken(input.code),
        );
        await q.insertMethod({ id: generateId("proappmet"), promotion_id: id, ...method });
        await insertRules(id, rules);
      });
      return service.retrieve(id);
    },

    retrieve: async (id: string): Promise<PromotionView> => (await promotionViews([await q.retrieve(id)]))[0]!,

    list: (filters: PromotionFilters, page: ListPaging) => viewPage(q.list(filters, page), promotionViews),

    /** Partial update; a partial application method is merged with the stored one and checked whole. */
    async update(id: string, input: PromotionUpdate): Promise<PromotionView> {
      const existing = await service.retrieve(id);
      const is_automatic = input.is_automatic ?? existing.is_automatic;
      const code = input.code === undefined ? existing.code : input.code;
      if (!is_automatic && !code) throw errors.invalidData("code is required unless the promotion is automatic");
      const type = input.type ?? existing.type;
      const current = existing.application_method!;
      const merged = { ...current, ...(input.application_method ?? {}) };
      const method = validateMethod(merged, type, {
        targetRules: current.target_rules.length,
        buyRules: current.buy_rules.length,
      });
      await transaction(async () => {
        if (input.campaign_id) await q.retrieveCampaign(input.campaign_id);
        const { application_method: _method, ...fields } = input;
        if (Object.keys(fields).length) await q.update(id, fields, codeTaken(input.code));
        if (input.application_method) await q.updateMethod({ ...method, promotion_id: id, updated_at: new Date() });
      });
      return service.retrieve(id);
    },

    /** Soft delete: the code becomes free again; orders keep their adjustments. */
    async delete(id: string): Promise<void> {
      await q.softDelete(id);
    },

    /** Creates, updates and deletes rules of one kind in one transaction (Medusa's `…/rules/batch`). */
    async batchRules(id: string, kind: RuleKind, batch: RuleBatch): Promise<RuleBatchResult> {
      const existing = await service.retrieve(id);
      const field = kind === "promotion" ? "rules" : kind === "target" ? "target_rules" : "buy_rules";
      if (kind === "buy" && existing.type !== "buyget")
        throw errors.invalidData("buy_rules can only be set on a buyget promotion");
      const current = field === "rules" ? existing.rules : existing.application_method![field];
      const known = new Map(current.map((r) => [r.id, r]));
      const deleteIds = [...new Set(batch.delete ?? [])];
      for (const ruleId of [...deleteIds, ...(batch.update ?? []).map((u) => u.id)]) {
        if (!known.has(ruleId))
          throw errors.notFound(`Promotion rule with id: ${ruleId} was not found in ${field} of promotion ${id}`);
      }
      const created = normalizeRules(kind, batch.create ?? [], "create");
      const updates = (batch.update ?? []).map((u, i) => {
        const before = known.get(u.id)!;
        return {
          id: u.id,
          ...normalizeRule(
            {
              attribute: u.attribute ?? before.attribute,
              operator: u.operator ?? before.operator,
              values: u.values ?? before.values.map((v) => v.value),
              description: u.description === undefined ? before.description : u.description,
            },
            `update[${i}]`,
          ),
        };
      });
      const remaining = current.length - deleteIds.length + created.length;
      if (existing.type === "buyget" && kind !== "promotion" && remaining === 0)
        throw errors.invalidData(`${field} are required for a buyget promotion`);
      return transaction(async () => {
        const inserted = await insertRules(id, created);
        const changed = [];
        for (const u of updates) {
          const row = await q.updateRule({ ...u, values: valuesWithIds(u.values), updated_at: new Date() });
          changed.push(ruleView(row!));
        }
        if (deleteIds.length) await q.deleteRules({ promotion_id: id, ids: deleteIds });
        return {
          created: inserted.map(ruleView),
          updated: changed,
          deleted: { ids: deleteIds, object: "promotion-rule" as const, deleted: true as const },
        };
      });
    },

    /**
     * The promotions a cart is priced with, in application order: the active automatic ones
     * (oldest first; none with `automatic: false`, a draft order's codes alone), then the given
     * codes (case-insensitive, in the order given). Four queries whatever the counts. Codes that
     * match no promotion come back in `unknown`.
     */
    async loadForCart(
      codes: readonly string[],
      options: { automatic?: boolean } = {},
    ): Promise<{ promotions: EnginePromotion[]; unknown: string[] }> {
      const lowered = [...new Set(codes.map((c) => c.toLowerCase()))];
      const views = await promotionViews(await q.forCart({ codes: lowered }));
      const byCode = new Map(views.filter((v) => v.code).map((v) => [v.code!.toLowerCase(), v]));
      const ordered = [
        ...(options.automatic === false ? [] : views.filter((v) => v.is_automatic && v.status === "active")),
        ...lowered.map((c) => byCode.get(c)).filter((v): v is PromotionView => v !== undefined),
      ];
      return { promotions: ordered.map(toEngine), unknown: codes.filter((c) => !byCode.has(c.toLowerCase())) };
    },

    /**
     * Loads the cart's promotions and prices them (`computeAdjustments`); unknown codes are skipped
     * as `not_found`. `valid_until`: the first moment after now at which a campaign of one of them
     * starts or ends (null: none), when the same promotions may give another result without a write.
     */
    async computeForCart(
      cart: EngineCart,
      codes: readonly string[],
      options: { now?: Date; automatic?: boolean } = {},
    ): Promise<ComputeResult & { valid_until: Date | null }> {
      const { promotions, unknown } = await service.loadForCart(codes, options);
      const now = options.now ?? new Date();
      const result = computeAdjustments(cart, promotions, now);
      result.skipped.push(...unknown.map((code) => ({ promotion_id: null, code, reason: "not_found" as const })));
      return { ...result, valid_until: nextCampaignBoundary(promotions, now) };
    },

    /**
     * The usages among `usages` that their campaign's budget cannot take now, each with its
     * campaign: what {@link registerUsage} would refuse, read without writing (one statement).
     */
    async budgetsShort(
      usages: readonly PromotionUsage[],
    ): Promise<Array<{ promotion_id: string; campaign_id: string }>> {
      const rows = await budgetRows(usages);
      const short = new Set(
        consumptionsOf(rows, usages)
          .filter((c) => {
            const budget = rows.find((r) => r.campaign_id === c.campaign_id)!;
            return budget.limit !== null && budget.used + c.amount > budget.limit;
          })
          .map((c) => c.campaign_id),
      );
      return rows
        .filter((r) => short.has(r.campaign_id))
        .map((r) => ({ promotion_id: r.id, campaign_id: r.campaign_id }));
    },

    /**
     * Takes what an order's promotions use from their campaigns' budgets: 1 per campaign for a
     * usage budget, the discount total for a spend budget. All or nothing (one transaction);
     * campaigns are updated in id order so concurrent orders cannot deadlock. A budget that
     * cannot take it is `invalid_data`.
     */
    async registerUsage(usages: readonly PromotionUsage[]): Promise<BudgetConsumption[]> {
      const consumptions = consumptionsOf(await budgetRows(usages), usages);
      await transaction(async () => {
        for (const c of consumptions) {
          if (!(await campaigns.consumeBudget(c.campaign_id, c.amount))) {
            throw errors.invalidData(`The promotion budget of campaign ${c.campaign_id} is used up`, {
              details: { campaign_id: c.campaign_id, reason: "budget_exhausted" },
            });
          }
        }
      });
      return consumptions;
    },

    /** Gives back what {@link registerUsage} took. */
    async revertUsage(consumptions: readonly BudgetConsumption[]): Promise<void> {
      await transaction(async () => {
        for (const c of [...consumptions].sort((a, b) => a.campaign_id.localeCompare(b.campaign_id)))
          await campaigns.releaseBudget(c.campaign_id, c.amount);
      });
    },

    /**
     * `kasse check`: one page (by campaign id) of campaign budgets: what each counted (`used`: orders
     * for a usage budget, minor units for a spend budget) and every promotion of the campaign, deleted
     * ones included.
     */
    budgetsPage: (afterCampaignId: string, limit: number) => q.budgetsPage({ after: afterCampaignId, limit }),
  };
  return service;
}

export type PromotionService = ReturnType<typeof createPromotionService>;

/** The promotions of `usages` whose campaign has a budget, with the budget's terms and use (one statement). */
async function budgetRows(usages: readonly PromotionUsage[]) {
  const ids = [...new Set(usages.map((u) => u.promotion_id))];
  if (ids.length === 0) return [];
  return q.budgetRows({ ids });
}

/**
 * What an order with these usages takes from each budget: 1 per campaign for a usage budget (one
 * order counts once however many of its promotions it used), the discount for a spend budget; in
 * campaign id order, so concurrent orders update budgets in one order and cannot deadlock.
 */
function consumptionsOf(rows: Awaited<ReturnType<typeof budgetRows>>, usages: readonly PromotionUsage[]) {
  const byCampaign = new Map<string, number>();
  for (const row of rows) {
    const spent = usages.filter((u) => u.promotion_id === row.id).reduce((a, u) => a + u.amount, 0);
    byCampaign.set(row.campaign_id, row.type === "usage" ? 1 : (byCampaign.get(row.campaign_id) ?? 0) + spent);
  }
  return [...byCampaign]
    .map(([campaign_id, amount]): BudgetConsumption => ({ campaign_id, amount }))
    .sort((a, b) => a.campaign_id.localeCompare(b.campaign_id));
}

/** The first start or end of these promotions' campaigns after `now` (a campaign runs until the end of its `ends_at`). */
function nextCampaignBoundary(promotions: readonly EnginePromotion[], now: Date): Date | null {
  let next: Date | null = null;
  for (const { campaign: c } of promotions) {
    // Expired only after `ends_at` (eligibility compares `now > ends_at`): the first instant past it.
    const ends = c?.ends_at ? new Date(c.ends_at.getTime() + 1) : null;
    for (const at of [c?.starts_at ?? null, ends])
      if (at && at.getTime() > now.getTime() && (!next || at.getTime() < next.getTime())) next = at;
  }
  return next;
}

/** Stores the rules (one statement; none for no rules) and answers them. */
async function insertRules(promotionId: string, rules: Array<NormalizedRule & { kind: RuleKind }>) {
  if (rules.length === 0) return [];
  return q.insertRules(
    rules.map(({ values, ...rule }) => ({
      id: generateId("prorul"),
      promotion_id: promotionId,
      ...rule,
      values: valuesWithIds(values),
    })),
  );
}

const valuesWithIds = (values: string[]): RuleValue[] =>
  values.map((value) => ({ id: generateId("prorulval"), value }));

const codeTaken = (code: string | null | undefined) => `Promotion with code: ${code} already exists`;

function toEngine({ id, code, type, status, rules, application_method, campaign }: PromotionView): EnginePromotion {
  const values = (r: RuleView) => ({
    attribute: r.attribute,
    operator: r.operator,
    values: r.values.map((v) => v.value),
  });
  // The stored method less its keys: what the engine prices with.
  const {
    id: _id,
    promotion_id: _p,
    created_at: _c,
    updated_at: _u,
    target_rules,
    buy_rules,
    ...method
  } = application_method!;
  const budget = campaign?.budget;
  return {
    id,
    code,
    type,
    status,
    rules: rules.map(values),
    application_method: { ...method, target_rules: target_rules.map(values), buy_rules: buy_rules.map(values) },
    campaign: campaign && {
      id: campaign.id,
      starts_at: campaign.starts_at,
      ends_at: campaign.ends_at,
      budget: budget
        ? { type: budget.type, limit: budget.limit, used: budget.used, currency_code: budget.currency_code }
        : null,
    },
  };
}

/**
 * A campaign created with its promotion. Medusa's dashboard fills the budget's currency with the
 * promotion's whatever the budget's type; a usage budget counts orders, in no currency, so there
 * it is the promotion's currency and not the budget's, and is left out.
 */
function newCampaign(campaign: CampaignCreate): CampaignCreate {
  const { budget } = campaign;
  if (budget?.type !== "usage" || budget.currency_code == null) return campaign;
  const { currency_code: _promotionCurrency, ...usage } = budget;
  return { ...campaign, budget: usage };
}
