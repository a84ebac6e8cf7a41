import { Type, type Static, type TLiteral, type TSchema, type TUnion } from "@sinclair/typebox";
import {
  Code,
  CurrencyCode,
  DateTime,
  Id,
  LongText,
  MAX_INTEGER,
  MoneyWhen,
  OptionalMetadata,
  Title,
  Strict,
  LinkChanges,
  Batch,
} from "@kasse/core";
import { OrNull, RowView, View, type ListFilters } from "@kasse/db";
import {
  ALLOCATIONS,
  APPLICATION_TYPES,
  BUDGET_TYPES,
  PROMOTION_STATUSES,
  PROMOTION_TYPES,
  type PromotionStatus,
  RULE_OPERATORS,
  TARGET_TYPES,
  applicationMethod,
  campaign,
  campaignBudget,
  promotion,
  promotionRule,
} from "./schema";

/**
 * Amounts that are money only for some kinds, for Medusa's dialect: a `fixed` application
 * method's `value` (a percentage otherwise), a `spend` budget's `limit` and `used` (orders
 * counted otherwise), the values of a rule on a cart total (`subtotal`, `item_total` and their
 * Medusa aliases). Their currency is the application method's `currency_code` (the budget's own).
 */
export const MONEY_APPLICATION_TYPES = ["fixed"] as const;
export const MONEY_BUDGET_TYPES = ["spend"] as const;
export const MONEY_RULE_ATTRIBUTES = ["subtotal", "item_total", "items.subtotal", "items.total"] as const;

function literals<const T extends readonly string[]>(values: T): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(values.map((v) => Type.Literal(v as T[number])));
}
const Nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));
const Currency = CurrencyCode;
// Bounded by the columns they land in (integer; bigint kept within JS's safe integers).
const Count = () => Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Minor = () => Type.Integer({ minimum: 0, maximum: MAX_INTEGER.amount });

/** A rule on input: `values` as Medusa clients send them, one string or several. */
export const RuleCreate = Strict({
  attribute: Code({ minLength: 1 }),
  operator: literals(RULE_OPERATORS),
  values: MoneyWhen(
    "attribute",
    MONEY_RULE_ATTRIBUTES,
    Type.Union([
      Code(),
      Type.Number(),
      Type.Array(Type.Union([Code(), Type.Number()]), { minItems: 1, maxItems: 1000 }),
    ]),
  ),
  description: Nullable(LongText()),
});
export type RuleCreate = Static<typeof RuleCreate>;

/** A rule update inside a batch: the id plus the fields to change. */
export const RuleUpdate = Strict({ id: Id({ minLength: 1 }), ...Type.Partial(RuleCreate).properties });
export type RuleUpdate = Static<typeof RuleUpdate>;

/** Body of `POST /admin/promotions/{id}/{rules,target-rules,buy-rules}/batch`. */
export const RuleBatch = Batch(RuleCreate, RuleUpdate, 1000);
export type RuleBatch = Static<typeof RuleBatch>;

const applicationMethodCore = {
  type: literals(APPLICATION_TYPES),
  target_type: literals(TARGET_TYPES),
  allocation: Nullable(literals(ALLOCATIONS)),
  value: Type.Optional(
    MoneyWhen("type", MONEY_APPLICATION_TYPES, Type.Number({ minimum: 0, maximum: MAX_INTEGER.amount })),
  ),
  currency_code: Nullable(Currency()),
  max_quantity: Nullable(Count()),
  apply_to_quantity: Nullable(Count()),
  buy_rules_min_quantity: Nullable(Count()),
};

/** The application method of a promotion create body. */
export const ApplicationMethodCreate = Strict({
  ...applicationMethodCore,
  target_rules: Type.Optional(Type.Array(RuleCreate, { maxItems: 1000 })),
  buy_rules: Type.Optional(Type.Array(RuleCreate, { maxItems: 1000 })),
});
export type ApplicationMethodCreate = Static<typeof ApplicationMethodCreate>;

/** A partial application method (update); rules change through the batch endpoints. */
export const ApplicationMethodUpdate = Type.Partial(Type.Object(applicationMethodCore), {
  additionalProperties: false,
});
export type ApplicationMethodUpdate = Static<typeof ApplicationMethodUpdate>;

/** A campaign budget on input. */
export const BudgetInput = Strict({
  type: Type.Optional(literals(BUDGET_TYPES)),
  // A budget without `type` is a spend budget (campaigns.ts).
  limit: Nullable(MoneyWhen("type", MONEY_BUDGET_TYPES, Minor(), "spend")),
  currency_code: Nullable(Currency()),
  // Medusa's per-attribute budgets (`use_by_attribute`); its dashboard always sends `attribute`,
  // null for a plain budget, the only kind Kasse keeps.
  attribute: Type.Optional(Type.Null()),
});
export type BudgetInput = Static<typeof BudgetInput>;

/** Body of `POST /admin/campaigns`. */
export const CampaignCreate = Strict({
  name: Title({ minLength: 1 }),
  description: Nullable(LongText()),
  campaign_identifier: Code({ minLength: 1 }),
  starts_at: Nullable(DateTime()),
  ends_at: Nullable(DateTime()),
  budget: Nullable(BudgetInput),
  metadata: OptionalMetadata(),
});
export type CampaignCreate = Static<typeof CampaignCreate>;

/** Body of `POST /admin/promotions`. */
export const PromotionCreate = Strict({
  code: Nullable(Code({ minLength: 1 })),
  type: literals(PROMOTION_TYPES),
  status: Type.Optional(literals(PROMOTION_STATUSES)),
  is_automatic: Type.Optional(Type.Boolean()),
  campaign_id: Nullable(Id({ minLength: 1 })),
  /** A new campaign for the promotion, created with it (instead of `campaign_id`). */
  campaign: Type.Optional(CampaignCreate),
  // Kasse takes a promotion's amounts off the price before tax (as Medusa's `is_tax_inclusive: false`).
  is_tax_inclusive: Type.Optional(Type.Literal(false)),
  application_method: ApplicationMethodCreate,
  rules: Type.Optional(Type.Array(RuleCreate, { maxItems: 1000 })),
  metadata: OptionalMetadata(),
});
export type PromotionCreate = Static<typeof PromotionCreate>;

/** Body of `POST /admin/promotions/{id}`: the create fields, all optional; a partial application method. */
export const PromotionUpdate = Strict({
  ...Type.Partial(Type.Pick(PromotionCreate, ["code", "type", "status", "is_automatic", "campaign_id", "metadata"]))
    .properties,
  application_method: Type.Optional(ApplicationMethodUpdate),
});
export type PromotionUpdate = Static<typeof PromotionUpdate>;

/** Body of `POST /admin/campaigns/{id}`: the create fields, all optional. */
export const CampaignUpdate = Type.Partial(CampaignCreate, { additionalProperties: false });
export type CampaignUpdate = Static<typeof CampaignUpdate>;

/** Body of `POST /admin/campaigns/{id}/promotions`. */
export const CampaignPromotions = LinkChanges(1000);
export type CampaignPromotions = Static<typeof CampaignPromotions>;

/** Filters of `GET /admin/promotions`. */
export interface PromotionFilters extends ListFilters {
  code?: string[];
  campaign_id?: string[];
  is_automatic?: boolean;
  status?: PromotionStatus[];
}

/** Filters of `GET /admin/campaigns`. */
export interface CampaignFilters extends ListFilters {
  campaign_identifier?: string[];
}

// ---- Responses (named `*Response`: `*View` are the service's types, see views.ts) -----------------

/** A promotion rule with its values. */
export const PromotionRuleResponse = RowView(
  promotionRule,
  {
    values: MoneyWhen(
      "attribute",
      MONEY_RULE_ATTRIBUTES,
      Type.Array(View({ id: Type.String(), value: Type.String() })),
    ),
  },
  ["promotion_id", "kind"],
);
/** A campaign's budget. */
export const CampaignBudgetResponse = RowView(campaignBudget, {
  limit: OrNull(MoneyWhen("type", MONEY_BUDGET_TYPES, Type.Integer())),
  used: MoneyWhen("type", MONEY_BUDGET_TYPES, Type.Integer()),
});
/** How a promotion applies, with its target and buy rules. */
export const ApplicationMethodResponse = RowView(applicationMethod, {
  value: MoneyWhen("type", MONEY_APPLICATION_TYPES, Type.Number()),
  target_rules: Type.Array(PromotionRuleResponse),
  buy_rules: Type.Array(PromotionRuleResponse),
});
const promotionProperties = {
  application_method: OrNull(ApplicationMethodResponse),
  rules: Type.Array(PromotionRuleResponse),
};
/** A campaign with its budget and promotions. */
export const CampaignResponse = RowView(campaign, {
  budget: OrNull(CampaignBudgetResponse),
  promotions: Type.Array(RowView(promotion, promotionProperties)),
});
/** A promotion with its campaign, application method and rules. */
export const PromotionResponse = RowView(promotion, {
  ...promotionProperties,
  campaign: OrNull(RowView(campaign, { budget: OrNull(CampaignBudgetResponse) })),
});
/** The answer of a rule batch: rules created and updated, ids deleted. */
export const RuleBatchResponse = Type.Object({
  created: Type.Array(PromotionRuleResponse),
  updated: Type.Array(PromotionRuleResponse),
  deleted: Type.Object({ ids: Type.Array(Type.String()), object: Type.String(), deleted: Type.Boolean() }),
});

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export {
  ALLOCATIONS,
  APPLICATION_TYPES,
  type Allocation,
  type ApplicationMethodRow,
  type ApplicationType,
  BUDGET_TYPES,
  type BudgetType,
  type CampaignBudgetRow,
  type CampaignRow,
  PROMOTION_STATUSES,
  PROMOTION_TYPES,
  type PromotionRow,
  type PromotionRuleRow,
  type PromotionStatus,
  type PromotionType,
  RULE_KINDS,
  RULE_OPERATORS,
  type RuleKind,
  type RuleOperator,
  type RuleValue,
  TARGET_TYPES,
  type TargetType,
} from "./schema";
