import { bigint, boolean, index, integer, jsonb, numeric, text, uniqueIndex } from "@kasse/db";
import {
  metadata,
  money,
  entityTable,
  parentId,
  indexes,
  liveUniqueIndex,
  timestamptz,
  lowerCase,
  indexWhere,
} from "@kasse/db";

/** Campaigns group promotions under one identifier, one date window and one budget. */
export const campaign = entityTable(
  "promotion_campaign",
  {
    name: text("name").notNull(),
    description: text("description"),
    campaign_identifier: text("campaign_identifier").notNull(),
    starts_at: timestamptz("starts_at"),
    ends_at: timestamptz("ends_at"),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("promotion_campaign_identifier_uq").on(t.campaign_identifier),
    index("promotion_campaign_created_at_idx").on(t.created_at),
  ],
);

/**
 * A campaign's budget: `usage` counts orders, `spend` sums discounted minor units. `used` only
 * moves through the guarded update in the service, so it never passes `limit`.
 */
export const campaignBudget = entityTable(
  "promotion_campaign_budget",
  {
    campaign_id: parentId("campaign_id", () => campaign.id, { onDelete: "cascade" }),
    type: text("type").$type<BudgetType>().notNull(),
    limit: money("limit"),
    used: bigint("used", { mode: "number" }).notNull().default(0),
    currency_code: text("currency_code"),
  },
  (t) => [uniqueIndex("promotion_campaign_budget_campaign_uq").on(t.campaign_id)],
);

/** Promotions: a code (or automatic), conditions, and one application method. */
export const promotion = entityTable(
  "promotion",
  {
    code: text("code"),
    type: text("type").$type<PromotionType>().notNull(),
    status: text("status").$type<PromotionStatus>().notNull().default("active"),
    is_automatic: boolean("is_automatic").notNull().default(false),
    campaign_id: text("campaign_id").references(() => campaign.id, { onDelete: "set null" }),
    metadata: metadata(),
  },
  (t) => [
    // Codes are unique regardless of case: "SUMMER" and "summer" are one code to a shopper.
    uniqueIndex("promotion_code_uq").on(lowerCase(t.code)).where(indexWhere("deleted_at is null and code is not null")),
    ...indexes("promotion", { campaign: t.campaign_id, automatic: t.is_automatic, created_at: t.created_at }),
  ],
);

/** How a promotion discounts: one row per promotion. */
export const applicationMethod = entityTable(
  "promotion_application_method",
  {
    promotion_id: parentId("promotion_id", () => promotion.id, { onDelete: "cascade" }),
    type: text("type").$type<ApplicationType>().notNull(),
    target_type: text("target_type").$type<TargetType>().notNull(),
    allocation: text("allocation").$type<Allocation>(),
    // A percentage may have decimals (12.5); fixed amounts are integer minor units (checked on input).
    value: numeric("value", { mode: "number" }).notNull(),
    currency_code: text("currency_code"),
    max_quantity: integer("max_quantity"),
    apply_to_quantity: integer("apply_to_quantity"),
    buy_rules_min_quantity: integer("buy_rules_min_quantity"),
  },
  (t) => [uniqueIndex("promotion_application_method_promotion_uq").on(t.promotion_id)],
);

/**
 * Rules of three kinds: `promotion` (conditions on the cart), `target` (which items or shipping
 * methods are discounted), `buy` (which items count toward a buyget's purchase).
 */
export const promotionRule = entityTable(
  "promotion_rule",
  {
    promotion_id: parentId("promotion_id", () => promotion.id, { onDelete: "cascade" }),
    kind: text("kind").$type<RuleKind>().notNull(),
    attribute: text("attribute").notNull(),
    operator: text("operator").$type<RuleOperator>().notNull(),
    description: text("description"),
    // Kept with the rule (always read whole), shaped as Medusa answers: `[{id, value}]`.
    values: jsonb("values").$type<RuleValue[]>().notNull(),
  },
  (t) => [index("promotion_rule_promotion_idx").on(t.promotion_id, t.kind)],
);
export type CampaignRow = typeof campaign.$inferSelect;
export type CampaignBudgetRow = typeof campaignBudget.$inferSelect;
export type PromotionRow = typeof promotion.$inferSelect;
export type ApplicationMethodRow = typeof applicationMethod.$inferSelect;
export type PromotionRuleRow = typeof promotionRule.$inferSelect;

export const PROMOTION_TYPES = ["standard", "buyget"] as const;
export const PROMOTION_STATUSES = ["draft", "active", "inactive"] as const;
export const APPLICATION_TYPES = ["percentage", "fixed", "free_shipping"] as const;
export const TARGET_TYPES = ["order", "items", "shipping_methods"] as const;
export const ALLOCATIONS = ["each", "across"] as const;
export const RULE_OPERATORS = ["eq", "ne", "in", "gt", "gte", "lt", "lte"] as const;
export const BUDGET_TYPES = ["spend", "usage"] as const;
export const RULE_KINDS = ["promotion", "target", "buy"] as const;

export type PromotionType = (typeof PROMOTION_TYPES)[number];
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];
export type ApplicationType = (typeof APPLICATION_TYPES)[number];
export type TargetType = (typeof TARGET_TYPES)[number];
export type Allocation = (typeof ALLOCATIONS)[number];
export type RuleOperator = (typeof RULE_OPERATORS)[number];
export type BudgetType = (typeof BUDGET_TYPES)[number];
export type RuleKind = (typeof RULE_KINDS)[number];
export interface RuleValue {
  id: string;
  value: string;
}
