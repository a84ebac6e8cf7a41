import { errors } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import { computeTotals } from "@kasse/modules/cart";
import {
  ORDER_TOTAL_KEYS,
  type Order,
  type OrderChangeAction,
  type OrderVersionChange,
  type PlannedTotals,
} from "@kasse/modules/order";
import type { EngineItem } from "@kasse/modules/promotion";
import { summedRate } from "@kasse/modules/tax";
import { orderBalance, planChange, type ChangePlan, type PaidSoFar } from "./order-change-plan";

/** A draft's promotion as its edit leaves it: the promotion and the code it was applied with. */
interface DraftCode {
  promotion_id: string;
  code: string;
}

const lower = (code: string) => code.toLowerCase();

/** A draft holds no payment. */
export const NOTHING_PAID: PaidSoFar = { captured: 0, refunded: 0, requested: 0, credited: 0 };

/** The codes the draft has (its recorded promotions that carry one), in promotion id order. */
async function codesOf(m: Modules, orderId: string): Promise<DraftCode[]> {
  const uses = (await m.order.promotionsOf([orderId])).get(orderId) ?? [];
  if (!uses.length) return [];
  const { items } = await m.promotion.list({ id: uses.map((u) => u.promotion_id) }, { limit: uses.length, offset: 0 });
  return items.flatMap((p) => (p.code ? [{ promotion_id: p.id, code: p.code }] : []));
}

/** The draft's codes once `actions` apply: its own, less those taken off, plus those added (in the order added). */
function codesAfter(current: DraftCode[], actions: OrderChangeAction[]): DraftCode[] {
  const removed = new Set(actions.flatMap((a) => (a.action === "PROMOTION_REMOVE" ? [a.reference_id] : [])));
  const added = actions.flatMap((a) =>
    a.action === "PROMOTION_ADD" ? [{ promotion_id: a.reference_id, code: a.details.code }] : [],
  );
  const kept = current.filter((c) => !removed.has(c.promotion_id));
  return [...kept, ...added.filter((a) => !kept.some((k) => k.promotion_id === a.promotion_id))];
}

/**
 * A draft's change plan with its promotion codes priced on what the change leaves it (Medusa's draft
 * promotions): the promotion module's `computeForCart` over the lines and shipping methods (codes
 * only: no automatic promotion), each line and method then totaled by the cart's `computeTotals`
 * with its adjustments and its tax rate (the change's for a line it adds or updates, else the rate
 * at the draft's shipping address). The plan's totals, summary and application follow, with the
 * draft's promotions and what each gives it. A draft without codes before or after is left as planned.
 */
export async function withDraftPromotions(
  m: Modules,
  order: Order,
  change: { actions: OrderChangeAction[] },
  plan: ChangePlan,
): Promise<ChangePlan> {
  const current = await codesOf(m, order.id);
  const codes = codesAfter(current, change.actions);
  const touched = change.actions.some((a) => a.action === "PROMOTION_ADD" || a.action === "PROMOTION_REMOVE");
  if (!codes.length && !current.length && !touched) return plan;
  const items = plan.items.filter((i) => i.quantity > 0);
  const variantIds = [...new Set(items.flatMap((i) => (i.variant_id ? [i.variant_id] : [])))];
  const address = order.shipping_address;
  const [found, groups, rates] = await Promise.all([
    Promise.all(variantIds.map((v) => m.product.variantForSale(v))),
    order.customer_id ? m.customer.groupIdsOfCustomer(order.customer_id) : [],
    address?.country_code ? m.tax.ratesFor(address.country_code, address.province) : [],
  ]);
  const byVariant = new Map(found.flatMap((f) => (f?.product ? [[f.variant.id, f] as const] : [])));
  const engineItems: EngineItem[] = items.map((i) => {
    const f = i.variant_id ? byVariant.get(i.variant_id) : undefined;
    return {
      id: i.id,
      quantity: i.quantity,
      unit_price: i.unit_price,
      product_id: i.product_id,
      product_collection_id: f?.product?.collection_id ?? null,
      product_category_ids: f?.category_ids ?? [],
      product_tag_ids: f?.tag_ids ?? [],
      is_discountable: f?.product?.discountable ?? true,
    };
  });
  const computed = codes.length
    ? await m.promotion.computeForCart(
        {
          currency_code: order.currency_code,
          region_id: order.region_id,
          customer_group_ids: groups,
          items: engineItems,
          shipping_methods: plan.shipping_methods.map((s) => ({
            id: s.id,
            amount: s.amount,
            shipping_option_id: s.shipping_option_id,
          })),
        },
        codes.map((c) => c.code),
        { automatic: false },
      )
    : null;
  const discounts = new Map<string, number[]>();
  for (const a of [
    ...(computed?.item_adjustments ?? []).map((x) => ({ id: x.item_id, amount: x.amount })),
    ...(computed?.shipping_method_adjustments ?? []).map((x) => ({ id: x.shipping_method_id, amount: x.amount })),
  ])
    discounts.set(a.id, [...(discounts.get(a.id) ?? []), a.amount]);

  // A line's tax rate: the one its ITEM_ADD or ITEM_UPDATE carries, else the rate at the draft's address.
  const rateOf = (line: (typeof plan.items)[number]): number => {
    const own = change.actions.find(
      (a) =>
        (a.action === "ITEM_UPDATE" && a.reference_id === line.id) || (a.action === "ITEM_ADD" && a.id === line.id),
    );
    if (own?.action === "ITEM_UPDATE" || own?.action === "ITEM_ADD") return own.details.tax_rate;
    const type = line.variant_id ? byVariant.get(line.variant_id)?.product?.type_id : undefined;
    const target = line.product_id ? { product_id: line.product_id, product_type_id: type ?? null } : {};
    return summedRate(rates, target);
  };
  const methodRate = (method: (typeof plan.shipping_methods)[number]): number => {
    const own = change.actions.find((a) => a.action === "SHIPPING_ADD" && a.id === method.id);
    if (own?.action === "SHIPPING_ADD") return own.details.tax_rate;
    return summedRate(rates, { shipping_option_id: method.shipping_option_id ?? undefined });
  };
  const totals = computeTotals({
    items: plan.items.map((i) => ({
      unit_price: i.unit_price,
      quantity: i.quantity,
      is_tax_inclusive: i.is_tax_inclusive,
      tax_rates: [rateOf(i)],
      discounts: discounts.get(i.id) ?? [],
    })),
    shipping_methods: plan.shipping_methods.map((s) => ({
      amount: s.amount,
      is_tax_inclusive: s.is_tax_inclusive,
      tax_rates: [methodRate(s)],
      discounts: discounts.get(s.id) ?? [],
    })),
  });
  const money = (t: (typeof totals.items)[number]) => ({
    subtotal: t.subtotal,
    discount_total: t.discount_total,
    tax_total: t.tax_total,
    total: t.total,
  });
  const itemMoney = new Map(plan.items.map((i, n) => [i.id, money(totals.items[n]!)]));
  const methodMoney = new Map(plan.shipping_methods.map((s, n) => [s.id, money(totals.shipping_methods[n]!)]));
  const plannedTotals = Object.fromEntries(
    ORDER_TOTAL_KEYS.map((k) => [k, totals.cart[k]]),
  ) as unknown as PlannedTotals;
  const existingLines = new Set(order.items.map((i) => i.id));
  const existingMethods = new Set(order.shipping_methods.map((s) => s.id));
  const promotions = (computed?.applied ?? []).map((a) => ({ promotion_id: a.promotion_id, amount: a.amount }));
  const { pending_difference, to_collect } = orderBalance(plannedTotals.total, NOTHING_PAID);
  return {
    ...plan,
    items: plan.items.map((i) => ({ ...i, ...itemMoney.get(i.id)! })),
    shipping_methods: plan.shipping_methods.map((s) => ({ ...s, ...methodMoney.get(s.id)! })),
    totals: plannedTotals,
    summary: { ...plan.summary, current_order_total: plannedTotals.total, pending_difference },
    to_collect,
    promotions,
    application: {
      ...plan.application,
      lines: plan.items
        .filter((i) => existingLines.has(i.id))
        .map((i) => ({ id: i.id, quantity: i.quantity, unit_price: i.unit_price, ...itemMoney.get(i.id)! })),
      added_lines: plan.application.added_lines.map((l) => ({ ...l, ...itemMoney.get(l.action_id)! })),
      added_methods: plan.application.added_methods.map((s) => ({ ...s, ...methodMoney.get(s.action_id)! })),
      methods: plan.shipping_methods
        .filter((s) => existingMethods.has(s.id))
        .map((s) => ({ id: s.id, ...methodMoney.get(s.id)! })),
      promotions,
      totals: plannedTotals,
    },
  };
}

/** Promotions by code, each active and coded; 400 naming the first code that is unknown or not active. */
async function activeCodes(m: Modules, codes: string[]): Promise<DraftCode[]> {
  const { promotions } = await m.promotion.loadForCart(codes, { automatic: false });
  return codes.map((code) => {
    const found = promotions.find((p) => p.code && lower(p.code) === lower(code));
    if (!found) throw errors.invalidData(`The promotion code ${code} was not found`);
    if (found.status !== "active") throw errors.invalidData(`The promotion code ${code} is not active`);
    return { promotion_id: found.id, code: found.code! };
  });
}

/**
 * Adds promotion codes to the active edit of draft `id` (Medusa's `POST
 * /admin/draft-orders/{id}/edit/promotions`) as `PROMOTION_ADD` actions. Each code must name an
 * active promotion and discount something of the draft as the edit leaves it (400 otherwise, nothing
 * written); a code the draft already has is not added twice.
 */
export async function addDraftPromotions(
  m: Modules,
  id: string,
  draftEdit: OrderVersionChange,
  codes: string[],
): Promise<OrderVersionChange> {
  const [found, draft] = await Promise.all([
    activeCodes(m, [...new Map(codes.map((c) => [lower(c), c])).values()]),
    m.draftOrder.retrieve(id),
  ]);
  const current = codesAfter(await codesOf(m, id), draftEdit.actions);
  const fresh = found.filter((f) => !current.some((c) => c.promotion_id === f.promotion_id));
  if (!fresh.length) return draftEdit;
  const stamped = fresh.map((f) =>
    m.orderEdit.stamp({ action: "PROMOTION_ADD", details: { code: f.code } }, "promotion", null, f.promotion_id),
  );
  const change = { ...draftEdit, actions: [...draftEdit.actions, ...stamped] };
  const planned = await withDraftPromotions(m, draft, change, planChange(draft, change, NOTHING_PAID));
  const applied = new Set((planned.promotions ?? []).map((p) => p.promotion_id));
  const idle = fresh.find((f) => !applied.has(f.promotion_id));
  if (idle) throw errors.invalidData(`The promotion code ${idle.code} does not apply to draft order ${id}`);
  return m.orderEdit.writeActions(draftEdit.id, (row) => {
    if (row.updated_at.toISOString() !== new Date(draftEdit.updated_at).toISOString())
      throw errors.conflict(`The edit of draft order ${id} changed meanwhile: try again`);
    return [...row.actions, ...stamped];
  });
}

/**
 * Takes promotion codes off the active edit of draft `id` (Medusa's `DELETE
 * /admin/draft-orders/{id}/edit/promotions`): a code the edit added loses its action, one the draft
 * has gets a `PROMOTION_REMOVE`. 400 (nothing written) for a code the draft does not have.
 */
export async function removeDraftPromotions(
  m: Modules,
  id: string,
  draftEdit: OrderVersionChange,
  codes: string[],
): Promise<OrderVersionChange> {
  const current = await codesOf(m, id);
  const after = codesAfter(current, draftEdit.actions);
  const targets = codes.map((code) => {
    const found = after.find((c) => lower(c.code) === lower(code));
    if (!found) throw errors.invalidData(`The promotion code ${code} is not applied to draft order ${id}`);
    return found;
  });
  return m.orderEdit.writeActions(draftEdit.id, (row) => {
    let actions = row.actions;
    for (const t of targets) {
      const pending = actions.find((a) => a.action === "PROMOTION_ADD" && a.reference_id === t.promotion_id);
      if (pending) actions = actions.filter((a) => a.id !== pending.id);
      else if (!actions.some((a) => a.action === "PROMOTION_REMOVE" && a.reference_id === t.promotion_id)) {
        const removal = { action: "PROMOTION_REMOVE" as const, details: { code: t.code } };
        actions = [...actions, m.orderEdit.stamp(removal, "promotion", null, t.promotion_id)];
      }
    }
    return actions;
  });
}
