import type { RuleOperator } from "./schema";

/**
 * The attributes a rule may test. Medusa's dotted paths (`items.product.id`, `customer.groups.id`,
 * …) are accepted as aliases so rules written for a Medusa admin keep working.
 */
export const RULE_ATTRIBUTES = [
  "customer_group_id",
  "region_id",
  "currency_code",
  "product_id",
  "product_category_id",
  "product_collection_id",
  "product_tag_id",
  "shipping_option_id",
  "subtotal",
  "item_total",
  "quantity",
] as const;
export type RuleAttribute = (typeof RULE_ATTRIBUTES)[number];

const ALIASES: Record<string, RuleAttribute> = {
  "customer.groups.id": "customer_group_id",
  "customer_group.id": "customer_group_id",
  "region.id": "region_id",
  "items.product.id": "product_id",
  "product.id": "product_id",
  "items.product_id": "product_id",
  "items.product.categories.id": "product_category_id",
  "product.categories.id": "product_category_id",
  "items.product.collection_id": "product_collection_id",
  "items.product.collection.id": "product_collection_id",
  "product.collection_id": "product_collection_id",
  "items.product.tags.id": "product_tag_id",
  "product.tags.id": "product_tag_id",
  "shipping_methods.shipping_option.id": "shipping_option_id",
  "shipping_methods.shipping_option_id": "shipping_option_id",
  "items.quantity": "quantity",
  "items.subtotal": "item_total",
  "items.total": "item_total",
};

/** Attributes compared as integers (minor units or counts); only they take `gt`, `gte`, `lt`, `lte`. */
export const NUMERIC_ATTRIBUTES: ReadonlySet<RuleAttribute> = new Set(["subtotal", "item_total", "quantity"]);

/** The canonical attribute for a rule's `attribute` (itself or a Medusa alias), or undefined when unknown. */
export function ruleAttribute(name: string): RuleAttribute | undefined {
  if ((RULE_ATTRIBUTES as readonly string[]).includes(name)) return name as RuleAttribute;
  return ALIASES[name];
}

const SINGLE_VALUE: ReadonlySet<RuleOperator> = new Set(["eq", "ne", "gt", "gte", "lt", "lte"]);
const ORDERING: ReadonlySet<RuleOperator> = new Set(["gt", "gte", "lt", "lte"]);
const INTEGER = /^-?\d{1,15}$/;

/**
 * Why a rule cannot be evaluated, or null when it is valid: a known attribute, an operator that
 * fits it (ordering only on numeric attributes), one value for every operator but `in`, integer
 * values on numeric attributes.
 */
export function ruleProblem(rule: { attribute: string; operator: RuleOperator; values: string[] }): string | null {
  const attribute = ruleAttribute(rule.attribute);
  if (!attribute) return `Unknown rule attribute '${rule.attribute}'; expected one of ${RULE_ATTRIBUTES.join(", ")}`;
  if (rule.values.length === 0) return `Rule on '${rule.attribute}' needs at least one value`;
  if (SINGLE_VALUE.has(rule.operator) && rule.values.length !== 1)
    return `Operator '${rule.operator}' takes exactly one value`;
  const numeric = NUMERIC_ATTRIBUTES.has(attribute);
  if (ORDERING.has(rule.operator) && !numeric)
    return `Operator '${rule.operator}' applies only to ${[...NUMERIC_ATTRIBUTES].join(", ")}`;
  if (numeric && rule.values.some((v) => !INTEGER.test(v))) return `Rule on '${rule.attribute}' takes integer values`;
  return null;
}

/**
 * Whether `actual` (every value the attribute has in the context: several for a customer's groups
 * or a cart's products, none when absent) satisfies the rule. `eq`/`in` hold when some value
 * matches; `ne` is their negation (no value equals); ordering operators compare one number.
 */
export function compare(
  operator: RuleOperator,
  actual: ReadonlyArray<string | number>,
  expected: readonly string[],
): boolean {
  const same = (a: string | number, b: string) => (typeof a === "number" ? a === Number(b) : a === b);
  switch (operator) {
    case "eq":
    case "in":
      return actual.some((a) => expected.some((e) => same(a, e)));
    case "ne":
      return !actual.some((a) => expected.some((e) => same(a, e)));
    default: {
      const [value] = actual;
      if (typeof value !== "number" || actual.length !== 1) return false;
      const bound = Number(expected[0]);
      if (operator === "gt") return value > bound;
      if (operator === "gte") return value >= bound;
      if (operator === "lt") return value < bound;
      return value <= bound;
    }
  }
}
