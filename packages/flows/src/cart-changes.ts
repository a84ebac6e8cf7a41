import { errors, type KasseError } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import { catalogMoved, datesPassed, type CartState } from "@kasse/modules/cart";
import type { PromotionUsage, SkipReason } from "@kasse/modules/promotion";
import type { CartResult } from "./cart-result";

/** One thing a cart charges for that is no longer what the store offers, found by a refresh. */
export interface CartDifference {
  kind:
    | "item_removed"
    | "price"
    | "promotion_removed"
    | "promotion_added"
    | "promotion_amount"
    | "shipping_removed"
    | "shipping_price"
    | "taxes"
    | "total";
  /** The line item, shipping method or promotion it is about. */
  id: string | null;
  /** What a shopper reads: "the promotion SUMMER no longer applies (its campaign has ended)". */
  message: string;
}

/** What each promotion gave the cart, summed over the lines' and methods' adjustments. */
export function promotionUsages(state: Pick<CartState, "items" | "shipping_methods">): PromotionUsage[] {
  const byPromotion = new Map<string, number>();
  for (const adjustment of [...state.items, ...state.shipping_methods].flatMap((line) => line.adjustments)) {
    byPromotion.set(adjustment.promotion_id, (byPromotion.get(adjustment.promotion_id) ?? 0) + adjustment.amount);
  }
  return [...byPromotion].map(([promotion_id, amount]) => ({ promotion_id, amount }));
}

/**
 * Whether the cart as stored may no longer be what the store offers, so it must be computed again
 * before it is shown or charged: a write to what it is computed from since (`catalogMoved`), a
 * price list or campaign date passed (`datesPassed`), or a budget of one of its promotions used up
 * by other orders (read only when the cart has discounts: one statement). A completed cart never is.
 */
export async function cartOutdated(m: Modules, state: CartState, now: Date): Promise<boolean> {
  if (state.cart.completed_at) return false;
  if (catalogMoved(state) || datesPassed(state, now)) return true;
  const usages = promotionUsages(state);
  return usages.length > 0 && (await m.promotion.budgetsShort(usages)).length > 0;
}

/** Why a promotion no longer discounts the cart, in a shopper's words. */
const SKIP_REASONS: Record<SkipReason, string> = {
  not_found: "it no longer exists",
  inactive: "it is no longer active",
  not_started: "its campaign has not started",
  expired: "its campaign has ended",
  budget_exhausted: "its campaign's budget is used up",
  budget_exceeded: "its campaign's budget is used up",
  currency_mismatch: "it does not apply in the cart's currency",
  rules_not_met: "the cart no longer meets its conditions",
  no_targets: "nothing in the cart qualifies for it",
};

/**
 * What a refresh changed in what the cart charges for: lines removed as no longer for sale, unit
 * prices, each promotion's discount (gone, new, or another amount), shipping methods dropped or
 * re-priced, taxes, and the total when nothing above explains it. Empty when the shopper would pay
 * exactly what the stored cart shows.
 */
export function cartDifferences(before: CartState, after: CartResult): CartDifference[] {
  const out: CartDifference[] = [];
  const name = (item: CartState["items"][number]) =>
    item.variant_title && item.variant_title !== item.product_title
      ? `${item.product_title} (${item.variant_title})`
      : item.product_title;
  for (const { item, reason } of after.removed ?? [])
    out.push({ kind: "item_removed", id: item.id, message: `${name(item)} is no longer for sale: ${reason}` });
  const now = new Map(after.items.map((i) => [i.id, i]));
  for (const item of before.items) {
    const current = now.get(item.id);
    if (current && current.unit_price !== item.unit_price)
      out.push({ kind: "price", id: item.id, message: `the price of ${name(item)} changed` });
  }

  const codeOf = new Map(
    [...before.items, ...before.shipping_methods, ...after.items, ...after.shipping_methods]
      .flatMap((line) => line.adjustments)
      .map((a) => [a.promotion_id, a.code]),
  );
  const label = (id: string) => `the promotion ${codeOf.get(id) ?? id}`;
  const given = new Map(promotionUsages(before).map((u) => [u.promotion_id, u.amount]));
  const gives = new Map(promotionUsages(after).map((u) => [u.promotion_id, u.amount]));
  for (const [id, amount] of given) {
    const next = gives.get(id);
    if (next === undefined) {
      const code = codeOf.get(id)?.toLowerCase();
      const skip = (after.promotion_skips ?? []).find(
        (s) => s.promotion_id === id || (code !== undefined && s.code?.toLowerCase() === code),
      );
      const why = skip ? SKIP_REASONS[skip.reason] : "it no longer exists";
      out.push({ kind: "promotion_removed", id, message: `${label(id)} no longer applies (${why})` });
    } else if (next !== amount)
      out.push({ kind: "promotion_amount", id, message: `the discount of ${label(id)} changed` });
  }
  for (const id of gives.keys())
    if (!given.has(id)) out.push({ kind: "promotion_added", id, message: `${label(id)} now applies` });

  const methods = new Map(after.shipping_methods.map((s) => [s.id, s]));
  for (const method of before.shipping_methods) {
    const current = methods.get(method.id);
    if (!current)
      out.push({
        kind: "shipping_removed",
        id: method.id,
        message: `the shipping method ${method.name} is no longer available`,
      });
    else if (current.amount !== method.amount)
      out.push({
        kind: "shipping_price",
        id: method.id,
        message: `the price of the shipping method ${method.name} changed`,
      });
  }
  if (out.length === 0 && after.cart.tax_total !== before.cart.tax_total)
    out.push({ kind: "taxes", id: null, message: "the taxes changed" });
  if (out.length === 0 && after.cart.total !== before.cart.total)
    out.push({ kind: "total", id: null, message: "the total changed" });
  return out;
}

/**
 * The error of a completion refused because what the cart charges for changed (`cart_changed`):
 * its message names each change; `details.changes` lists them. The cart was refreshed: completing
 * it again pays the new total.
 */
export function cartChangedError(differences: CartDifference[]): KasseError {
  const what = differences.map((d) => d.message).join("; ");
  return errors.cartChanged(`The cart changed since it was priced: ${what}. Review it and complete it again.`, {
    details: { changes: differences },
  });
}
