export * from "./shapes";
export {
  createPromotionService,
  type PromotionService,
  type PromotionUsage,
  type BudgetConsumption,
  type RuleBatchResult,
} from "./service";
export * from "./compute-adjustments";
export { allocate, percentOf } from "./allocation";
export { NUMERIC_ATTRIBUTES, RULE_ATTRIBUTES, ruleAttribute, type RuleAttribute } from "./rules";
export type { PromotionView, CampaignView, RuleView, BudgetView } from "./views";
export * from "./steps";
export * from "./rule-options";
