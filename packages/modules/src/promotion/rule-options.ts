import { Type, type Static } from "@sinclair/typebox";
import { errors } from "@kasse/core";
import { NUMERIC_ATTRIBUTES, ruleAttribute, type RuleAttribute } from "./rules";
import type { RuleOperator } from "./schema";

/** The three rule lists of a promotion, as Medusa's admin paths name them. */
export const RULE_TYPES = ["rules", "target-rules", "buy-rules"] as const;
export type RuleType = (typeof RULE_TYPES)[number];

/** Medusa's operator names, as its dashboard shows them. */
export const OPERATOR_LABELS: Record<RuleOperator, string> = {
  eq: "Equals",
  ne: "Not In",
  in: "In",
  gt: "Greater than",
  gte: "Greater than or equal",
  lt: "Less than",
  lte: "Less than or equal",
};

/** What each canonical rule attribute is called in a form. */
export const ATTRIBUTE_LABELS: Record<RuleAttribute, string> = {
  customer_group_id: "Customer Group",
  region_id: "Region",
  currency_code: "Currency Code",
  product_id: "Product",
  product_category_id: "Product Category",
  product_collection_id: "Product Collection",
  product_tag_id: "Product Tag",
  shipping_option_id: "Shipping Option",
  subtotal: "Subtotal",
  item_total: "Item Total",
  quantity: "Quantity",
};

const Operator = Type.Object({ id: Type.String(), value: Type.String(), label: Type.String() });
/** One attribute a rule form offers (Medusa's `rule-attribute-options` entry). */
export const RuleAttributeOption = Type.Object({
  ...Operator.properties,
  field_type: Type.Union([Type.Literal("multiselect"), Type.Literal("select"), Type.Literal("number")]),
  required: Type.Boolean(),
  disguised: Type.Optional(Type.Boolean()),
  operators: Type.Array(Operator),
});
export type RuleAttributeOption = Static<typeof RuleAttributeOption>;

/** Attributes whose values are records of another module: the value lists `rule-value-options` reads. */
const VALUE_SOURCES = [
  "customer_group",
  "region",
  "currency_code",
  "product",
  "product_category",
  "product_collection",
  "product_tag",
  "shipping_option",
] as const;
export type ValueSource = (typeof VALUE_SOURCES)[number];

const operators = (names: RuleOperator[]) =>
  names.map((name) => ({ id: name, value: name, label: OPERATOR_LABELS[name] }));
// Ordering operators only where Kasse compares numbers (`ruleProblem` refuses them elsewhere).
const SET_OPERATORS = operators(["in", "eq", "ne"]);
const NUMBER_OPERATORS = operators(["eq", "ne", "gt", "gte", "lt", "lte"]);

/**
 * An attribute under Medusa's id and the dotted name its dashboard writes back (`value`), which
 * `ruleAttribute` maps to the attribute Kasse evaluates.
 */
function attribute(id: string, value: string): RuleAttributeOption {
  const canonical = ruleAttribute(value)!;
  const numeric = NUMERIC_ATTRIBUTES.has(canonical);
  return {
    id,
    value,
    label: ATTRIBUTE_LABELS[canonical],
    field_type: numeric ? "number" : "multiselect",
    required: false,
    operators: numeric ? NUMBER_OPERATORS : SET_OPERATORS,
  };
}

const PRODUCT_ATTRIBUTES = [
  attribute("product", "items.product.id"),
  attribute("product_category", "items.product.categories.id"),
  attribute("product_collection", "items.product.collection_id"),
  attribute("product_tag", "items.product.tags.id"),
];
// The cart-level rules: who buys, where, and what the cart holds or totals.
const CART_ATTRIBUTES = [
  attribute("customer_group", "customer.groups.id"),
  attribute("region", "region.id"),
  ...PRODUCT_ATTRIBUTES,
  attribute("shipping_option", "shipping_methods.shipping_option.id"),
  attribute("subtotal", "subtotal"),
  attribute("quantity", "items.quantity"),
];

// Medusa's dashboard turns these disguised entries into fields of the application method
// (`currency_code`, `apply_to_quantity`, `buy_rules_min_quantity`) instead of rules.
const disguised = (
  id: string,
  label: string,
  field_type: "select" | "number",
  required: boolean,
): RuleAttributeOption => ({
  id,
  value: id,
  label,
  field_type,
  required,
  disguised: true,
  operators: operators(["eq"]),
});

/** The context a form asks with: the promotion being written. */
export interface RuleOptionsContext {
  promotion_type?: "standard" | "buyget";
  application_method_type?: "fixed" | "percentage";
  application_method_target_type?: "items" | "shipping_methods" | "order";
}

/**
 * The attributes a rule of `ruleType` may test, with the operators Kasse evaluates on each. A fixed
 * amount needs its currency; a buy-get promotion needs its quantities; shipping-method targets
 * are tested on their shipping option.
 */
export function ruleAttributeOptions(ruleType: RuleType, context: RuleOptionsContext = {}): RuleAttributeOption[] {
  const buyget = context.promotion_type === "buyget";
  switch (ruleType) {
    case "rules":
      return [
        ...CART_ATTRIBUTES,
        disguised("currency_code", "Currency Code", "select", context.application_method_type === "fixed"),
      ];
    case "target-rules": {
      const targets =
        context.application_method_target_type === "shipping_methods"
          ? [attribute("shipping_option", "shipping_option_id")]
          : PRODUCT_ATTRIBUTES;
      return buyget
        ? [...targets, disguised("apply_to_quantity", "Quantity of items promotion will apply to", "number", true)]
        : targets;
    }
    case "buy-rules":
      return buyget
        ? [...PRODUCT_ATTRIBUTES, disguised("buy_rules_min_quantity", "Minimum quantity of items", "number", true)]
        : PRODUCT_ATTRIBUTES;
  }
}

/**
 * The value list behind an attribute of a rule type's form, whatever the promotion's kind (the
 * dashboard asks for values without it); 400 when no form of that rule type offers such a list.
 */
export function ruleValueSource(ruleType: RuleType, attributeId: string): ValueSource {
  const offered = [
    ...ruleAttributeOptions(ruleType),
    ...ruleAttributeOptions(ruleType, { application_method_target_type: "shipping_methods" }),
  ].some((a) => a.id === attributeId);
  if (!offered) throw errors.invalidData(`Rule attribute '${attributeId}' is not offered for ${ruleType}`);
  if (!(VALUE_SOURCES as readonly string[]).includes(attributeId))
    throw errors.invalidData(`Rule attribute '${attributeId}' takes typed values, not a list`);
  return attributeId as ValueSource;
}
