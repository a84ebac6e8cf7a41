import { errors } from "@kasse/core";
import { ruleProblem } from "./rules";
import type { Allocation, ApplicationMethodRow, PromotionRuleRow, PromotionType, RuleKind } from "./schema";
import type { RuleCreate } from "./shapes";

/** A rule ready to store: values as strings, checked against what the engine can evaluate. */
export type NormalizedRule = Pick<PromotionRuleRow, "attribute" | "operator" | "description"> & { values: string[] };

/** Rule input (`values` one or many, strings or numbers) to a stored rule; invalid rules are `invalid_data`. */
export function normalizeRule(
  rule: Pick<RuleCreate, "attribute" | "operator" | "values"> & { description?: string | null },
  field: string,
): NormalizedRule {
  const values = (Array.isArray(rule.values) ? rule.values : [rule.values]).map(String);
  const normalized = {
    attribute: rule.attribute,
    operator: rule.operator,
    values,
    description: rule.description ?? null,
  };
  const problem = ruleProblem(normalized);
  if (problem) throw errors.invalidData(`${field}: ${problem}`);
  return normalized;
}

/** A checked application method, every field set (null where unused): what is stored. */
export type CheckedMethod = Pick<
  ApplicationMethodRow,
  "type" | "target_type" | "value" | "currency_code" | "max_quantity" | "apply_to_quantity" | "buy_rules_min_quantity"
> & { allocation: Allocation };

/** Rules of one kind, each checked (`field[i]` names a refused one). */
export const normalizeRules = (kind: RuleKind, rules: RuleCreate[], field: string) =>
  rules.map((r, i) => ({ kind, ...normalizeRule(r, `${field}[${i}]`) }));

/** The application method fields the rules below constrain: a checked method's, only its kind required. */
type MethodFields = Pick<CheckedMethod, "type" | "target_type"> &
  Partial<Omit<CheckedMethod, "type" | "target_type" | "allocation">> & { allocation?: Allocation | null };

/**
 * Checks an application method as a whole (after a partial update is merged) and fills its
 * defaults: allocation `across` for `order` (required there) else `each`; currency lower case.
 */
export function validateMethod(
  method: MethodFields,
  promotionType: PromotionType,
  counts: { targetRules: number; buyRules: number },
): CheckedMethod {
  const allocation: Allocation = method.allocation ?? (method.target_type === "order" ? "across" : "each");
  const currency_code = method.currency_code?.toLowerCase() ?? null;
  const fail = (message: string) => {
    throw errors.invalidData(`application_method.${message}`);
  };
  if (method.target_type === "order" && allocation !== "across")
    fail("allocation must be 'across' when target_type is 'order'");
  if (method.type === "free_shipping") {
    if (method.target_type !== "shipping_methods")
      fail("target_type must be 'shipping_methods' for a free_shipping promotion");
  } else if (method.value === undefined) {
    fail("value is required");
  }
  const value = method.value ?? 0;
  if (method.type === "percentage" && !(value > 0 && value <= 100))
    fail("value of a percentage must be greater than 0 and at most 100");
  if (method.type === "fixed") {
    if (!Number.isSafeInteger(value) || value <= 0)
      fail("value of a fixed amount must be a positive integer in minor units");
    if (!currency_code) fail("currency_code is required for a fixed amount");
  }
  if (promotionType === "buyget") {
    if (method.type === "free_shipping") fail("type 'free_shipping' cannot be used by a buyget promotion");
    if (method.target_type !== "items") fail("target_type must be 'items' for a buyget promotion");
    if (method.buy_rules_min_quantity == null) fail("buy_rules_min_quantity is required for a buyget promotion");
    if (method.apply_to_quantity == null) fail("apply_to_quantity is required for a buyget promotion");
    if (counts.buyRules === 0) fail("buy_rules are required for a buyget promotion");
    if (counts.targetRules === 0) fail("target_rules are required for a buyget promotion");
  } else if (counts.buyRules > 0) {
    fail("buy_rules can only be set on a buyget promotion");
  }
  return {
    type: method.type,
    target_type: method.target_type,
    allocation,
    value,
    currency_code,
    max_quantity: method.max_quantity ?? null,
    apply_to_quantity: method.apply_to_quantity ?? null,
    buy_rules_min_quantity: method.buy_rules_min_quantity ?? null,
  };
}
