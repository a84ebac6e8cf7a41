import { addMoney, multiplyMoney } from "@kasse/core";
import { allocate, percentOf } from "./allocation";
import { compare, ruleAttribute, type RuleAttribute } from "./rules";
import type {
  Allocation,
  ApplicationMethodRow,
  CampaignBudgetRow,
  CampaignRow,
  PromotionRow,
  PromotionRuleRow,
  PromotionStatus,
} from "./schema";

/** A cart line as the engine sees it; the cart passes what it snapshotted of the product. */
export interface EngineItem {
  id: string;
  quantity: number;
  /** Minor units. */
  unit_price: number;
  product_id?: string | null;
  product_category_ids?: readonly string[];
  product_collection_id?: string | null;
  product_tag_ids?: readonly string[];
  /** Default true; a non-discountable line is never discounted. */
  is_discountable?: boolean;
}

/** A shipping method of the cart. */
export interface EngineShippingMethod {
  id: string;
  /** Minor units. */
  amount: number;
  shipping_option_id?: string | null;
}

/** The cart: the engine's whole view of the world. */
export interface EngineCart {
  currency_code: string;
  region_id?: string | null;
  customer_group_ids?: readonly string[];
  items: readonly EngineItem[];
  shipping_methods?: readonly EngineShippingMethod[];
  /** Minor units; defaults to Σ unit_price × quantity. */
  subtotal?: number;
}

/** A rule with plain string values. */
export type EngineRule = Pick<PromotionRuleRow, "attribute" | "operator"> & { values: readonly string[] };

/** A promotion with everything needed to price it: rules, method, campaign dates and budget state. */
export type EnginePromotion = Pick<PromotionRow, "id" | "code" | "type"> & {
  status?: PromotionStatus;
  rules: readonly EngineRule[];
  application_method: Omit<ApplicationMethodRow, "id" | "promotion_id" | "created_at" | "updated_at" | "deleted_at"> & {
    target_rules: readonly EngineRule[];
    buy_rules: readonly EngineRule[];
  };
  campaign:
    | (Pick<CampaignRow, "id" | "starts_at" | "ends_at"> & {
        budget: Pick<CampaignBudgetRow, "type" | "limit" | "used" | "currency_code"> | null;
      })
    | null;
};

/** What a promotion takes off one line or shipping method. */
interface Adjustment {
  promotion_id: string;
  code: string | null;
  amount: number;
}

export interface ItemAdjustment extends Adjustment {
  item_id: string;
}

export interface ShippingMethodAdjustment extends Adjustment {
  shipping_method_id: string;
}

/** Why a promotion gave nothing. */
export type SkipReason =
  | "not_found"
  | "inactive"
  | "not_started"
  | "expired"
  | "budget_exhausted"
  | "budget_exceeded"
  | "currency_mismatch"
  | "rules_not_met"
  | "no_targets";

export interface ComputeResult {
  item_adjustments: ItemAdjustment[];
  shipping_method_adjustments: ShippingMethodAdjustment[];
  /** Each promotion that discounted something, with its total: what completion registers against budgets. */
  applied: Array<{ promotion_id: string; code: string | null; campaign_id: string | null; amount: number }>;
  skipped: Array<{ promotion_id: string | null; code: string | null; reason: SkipReason }>;
}

interface Scope {
  cart: EngineCart;
  item?: EngineItem;
  shipping?: EngineShippingMethod;
}

type Amounts = Map<string, number>;

/**
 * Prices the promotions against the cart; pure (no I/O, `now` passed in). Promotions apply one
 * after the other in the order given (the service puts automatic ones first, then codes as
 * applied), each on what earlier ones left: a line or a shipping method is never discounted
 * below zero.
 *
 * Rounding: a percentage is computed once per discounted line (or shipping method) on its
 * discountable amount and rounded half up; `across` computes one total (a percentage of the
 * targets' sum rounded half up, or the fixed value capped at that sum) and splits it in
 * proportion to the targets' amounts by largest remainder, so the parts add up exactly.
 */
export function computeAdjustments(cart: EngineCart, promotions: readonly EnginePromotion[], now: Date): ComputeResult {
  const itemLeft: Amounts = new Map(
    cart.items.map((i) => [i.id, i.is_discountable === false ? 0 : multiplyMoney(i.unit_price, i.quantity)]),
  );
  const shippingLeft: Amounts = new Map((cart.shipping_methods ?? []).map((m) => [m.id, m.amount]));
  const spentByCampaign = new Map<string, number>();
  const result: ComputeResult = { item_adjustments: [], shipping_method_adjustments: [], applied: [], skipped: [] };
  const seen = new Set<string>();

  for (const promotion of promotions) {
    if (seen.has(promotion.id)) continue;
    seen.add(promotion.id);
    const skip = (reason: SkipReason) =>
      result.skipped.push({ promotion_id: promotion.id, code: promotion.code, reason });

    const blocked = eligibility(promotion, cart, now, spentByCampaign);
    if (blocked) {
      skip(blocked);
      continue;
    }
    const outcome =
      promotion.type === "buyget"
        ? buyGet(promotion, cart, itemLeft)
        : standard(promotion, cart, itemLeft, shippingLeft);
    if (typeof outcome === "string") {
      skip(outcome);
      continue;
    }
    const total = sum(outcome.items) + sum(outcome.shipping);
    if (total === 0) {
      skip("no_targets");
      continue;
    }
    const budget = promotion.campaign?.budget;
    if (budget?.type === "spend" && budget.limit !== null) {
      // As Medusa: a promotion that would overrun its campaign's spend budget is not applied at all.
      const spent = spentByCampaign.get(promotion.campaign!.id) ?? 0;
      if (budget.used + spent + total > budget.limit) {
        skip("budget_exceeded");
        continue;
      }
      spentByCampaign.set(promotion.campaign!.id, spent + total);
    }
    for (const [item_id, amount] of outcome.items) {
      if (amount === 0) continue;
      itemLeft.set(item_id, itemLeft.get(item_id)! - amount);
      result.item_adjustments.push({ item_id, promotion_id: promotion.id, code: promotion.code, amount });
    }
    for (const [shipping_method_id, amount] of outcome.shipping) {
      if (amount === 0) continue;
      shippingLeft.set(shipping_method_id, shippingLeft.get(shipping_method_id)! - amount);
      result.shipping_method_adjustments.push({
        shipping_method_id,
        promotion_id: promotion.id,
        code: promotion.code,
        amount,
      });
    }
    result.applied.push({
      promotion_id: promotion.id,
      code: promotion.code,
      campaign_id: promotion.campaign?.id ?? null,
      amount: total,
    });
  }
  return result;
}

/** Status, campaign window, budget state, currency and the promotion's own rules. */
function eligibility(
  promotion: EnginePromotion,
  cart: EngineCart,
  now: Date,
  spent: Map<string, number>,
): SkipReason | null {
  if ((promotion.status ?? "active") !== "active") return "inactive";
  const campaign = promotion.campaign;
  if (campaign?.starts_at && now < campaign.starts_at) return "not_started";
  if (campaign?.ends_at && now > campaign.ends_at) return "expired";
  const budget = campaign?.budget;
  if (budget && budget.limit !== null) {
    if (budget.type === "usage" && budget.used >= budget.limit) return "budget_exhausted";
    if (budget.type === "spend") {
      if (budget.currency_code && budget.currency_code !== cart.currency_code) return "currency_mismatch";
      if (budget.used + (spent.get(campaign!.id) ?? 0) >= budget.limit) return "budget_exhausted";
    }
  }
  const method = promotion.application_method;
  if (method.type === "fixed" && method.currency_code && method.currency_code !== cart.currency_code)
    return "currency_mismatch";
  if (!allHold(promotion.rules, { cart })) return "rules_not_met";
  return null;
}

function standard(
  promotion: EnginePromotion,
  cart: EngineCart,
  itemLeft: Amounts,
  shippingLeft: Amounts,
): { items: Amounts; shipping: Amounts } | SkipReason {
  const method = promotion.application_method;
  if (method.type === "free_shipping" || method.target_type === "shipping_methods") {
    const targets = (cart.shipping_methods ?? [])
      .filter((m) => shippingLeft.get(m.id)! > 0 && allHold(method.target_rules, { cart, shipping: m }))
      .map((m) => ({ id: m.id, units: 1, unitPrice: m.amount, left: shippingLeft.get(m.id)! }));
    if (targets.length === 0) return "no_targets";
    if (method.type === "free_shipping")
      return { items: new Map(), shipping: new Map(targets.map((t) => [t.id, t.left])) };
    return { items: new Map(), shipping: discount(method, targets, method.allocation ?? "each") };
  }
  const targets = cart.items
    .filter((i) => itemLeft.get(i.id)! > 0 && allHold(method.target_rules, { cart, item: i }))
    .map((i) => ({ id: i.id, units: i.quantity, unitPrice: i.unit_price, left: itemLeft.get(i.id)! }));
  if (targets.length === 0) return "no_targets";
  // An order-level discount is one amount spread over the lines, whatever allocation says.
  const allocation = method.target_type === "order" ? "across" : (method.allocation ?? "each");
  return { items: discount(method, targets, allocation), shipping: new Map() };
}

interface Target {
  id: string;
  units: number;
  unitPrice: number;
  /** What earlier promotions left of this target. */
  left: number;
}

function discount(method: EnginePromotion["application_method"], targets: Target[], allocation: Allocation): Amounts {
  const out: Amounts = new Map();
  if (allocation === "each") {
    for (const t of targets) {
      const units = method.max_quantity === null ? t.units : Math.min(t.units, method.max_quantity);
      out.set(t.id, unitsDiscount(method, t.left, units, t.unitPrice));
    }
    return out;
  }
  const pool = addMoney(...targets.map((t) => t.left));
  const total = method.type === "percentage" ? percentOf(pool, method.value) : Math.min(pool, method.value);
  const parts = allocate(
    total,
    targets.map((t) => t.left),
  );
  targets.forEach((t, i) => out.set(t.id, parts[i]!));
  return out;
}

/**
 * The discount of `units` units at `unitPrice` of what is `left` of a line: only the units counted
 * may be discounted, and never more than they are worth.
 */
function unitsDiscount(method: EnginePromotion["application_method"], left: number, units: number, unitPrice: number) {
  const base = Math.min(left, units * unitPrice);
  return method.type === "percentage" ? percentOf(base, method.value) : Math.min(base, method.value * units);
}

/**
 * Buy N get M: the buy rules' lines must hold N units; those N are taken first from lines that
 * are not targets, then from the dearest target units, and the M cheapest target units left
 * get the discount (ties keep cart order). Applied once per cart.
 */
function buyGet(
  promotion: EnginePromotion,
  cart: EngineCart,
  itemLeft: Amounts,
): { items: Amounts; shipping: Amounts } | SkipReason {
  const method = promotion.application_method;
  const need = method.buy_rules_min_quantity ?? 1;
  const give = Math.min(method.apply_to_quantity ?? 1, method.max_quantity ?? Number.MAX_SAFE_INTEGER);
  const isTarget = new Set(cart.items.filter((i) => allHold(method.target_rules, { cart, item: i })).map((i) => i.id));
  const buyLines = cart.items.filter((i) => allHold(method.buy_rules, { cart, item: i }));
  if (buyLines.reduce((a, i) => a + i.quantity, 0) < need) return "rules_not_met";

  const order = (i: EngineItem) => cart.items.indexOf(i);
  const consumed = new Map<string, number>();
  let toBuy = need;
  const buyOrder = [...buyLines].sort(
    (a, b) =>
      Number(isTarget.has(a.id)) - Number(isTarget.has(b.id)) || b.unit_price - a.unit_price || order(a) - order(b),
  );
  for (const line of buyOrder) {
    if (toBuy === 0) break;
    const take = Math.min(line.quantity, toBuy);
    consumed.set(line.id, take);
    toBuy -= take;
  }

  const out: Amounts = new Map();
  let toGive = give;
  const targetOrder = cart.items
    .filter((i) => isTarget.has(i.id))
    .sort((a, b) => a.unit_price - b.unit_price || order(a) - order(b));
  for (const line of targetOrder) {
    if (toGive === 0) break;
    const units = Math.min(line.quantity - (consumed.get(line.id) ?? 0), toGive);
    const left = itemLeft.get(line.id)!;
    if (units <= 0 || left === 0) continue;
    toGive -= units;
    out.set(line.id, unitsDiscount(method, left, units, line.unit_price));
  }
  return out.size === 0 ? "no_targets" : { items: out, shipping: new Map() };
}

/** Whether every one of `rules` holds in a scope. */
function allHold(rules: readonly EngineRule[], scope: Scope): boolean {
  return rules.every((rule) => holds(rule, scope));
}

/** Whether one rule holds in a scope (the cart, or one line or shipping method of it). */
function holds(rule: EngineRule, scope: Scope): boolean {
  const attribute = ruleAttribute(rule.attribute);
  if (!attribute) return false; // unknown attributes are refused on input; never satisfied here
  return compare(rule.operator, valuesOf(attribute, scope), rule.values);
}

/**
 * Every value `attribute` has in the scope. Product attributes on the cart are the union over
 * its lines ("the cart contains …"); `item_total` and `quantity` on the cart are its totals.
 */
function valuesOf(attribute: RuleAttribute, { cart, item, shipping }: Scope): Array<string | number> {
  const items = item ? [item] : cart.items;
  const present = <T>(values: Array<T | null | undefined>) =>
    values.filter((v): v is T => v !== null && v !== undefined);
  switch (attribute) {
    case "customer_group_id":
      return [...(cart.customer_group_ids ?? [])];
    case "region_id":
      return present([cart.region_id]);
    case "currency_code":
      return [cart.currency_code];
    case "subtotal":
      return [cart.subtotal ?? addMoney(...cart.items.map((i) => multiplyMoney(i.unit_price, i.quantity)))];
    case "product_id":
      return present(items.map((i) => i.product_id));
    case "product_category_id":
      return items.flatMap((i) => i.product_category_ids ?? []);
    case "product_collection_id":
      return present(items.map((i) => i.product_collection_id));
    case "product_tag_id":
      return items.flatMap((i) => i.product_tag_ids ?? []);
    case "item_total":
      return [addMoney(...items.map((i) => multiplyMoney(i.unit_price, i.quantity)))];
    case "quantity":
      return [items.reduce((a, i) => a + i.quantity, 0)];
    case "shipping_option_id":
      return present(
        shipping ? [shipping.shipping_option_id] : (cart.shipping_methods ?? []).map((m) => m.shipping_option_id),
      );
  }
}

function sum(amounts: Amounts): number {
  return [...amounts.values()].reduce((a, b) => a + b, 0);
}
