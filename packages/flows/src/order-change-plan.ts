import { addMoney } from "@kasse/core";
import { computeTotals } from "@kasse/modules/cart";
import {
  ORDER_TOTAL_KEYS,
  type ChangeApplication,
  type Order,
  type OrderChangeAction,
  type OrderLineItemRow,
  type OrderShippingMethodRow,
  type PlannedLine,
  type PlannedMoney,
  type PlannedNewLine,
  type PlannedNewMethod,
  type PlannedTotals,
} from "@kasse/modules/order";

/** What the order has been paid: captured less refunded, over its payment collections (the payment module's figures). */
export interface PaidSoFar {
  captured: number;
  refunded: number;
  /** What the order's live collections ask for in all (authorized and not yet captured included). */
  requested: number;
  /** What the units received back on its returns are worth: owed no more (`returnCredit`). */
  credited: number;
}

/**
 * What an order of `total` still owes (`pending_difference`; negative: due back) and what a new
 * payment collection may ask for of it: the amount owed that its live collections do not already
 * ask for (an authorized, uncaptured payment still covers what it was authorized for).
 */
export function orderBalance(total: number, paid: PaidSoFar): { pending_difference: number; to_collect: number } {
  const owed = addMoney(total) - paid.credited;
  const pending_difference = owed - (paid.captured - paid.refunded);
  return {
    pending_difference,
    to_collect: Math.max(0, Math.min(pending_difference, owed - (paid.requested - paid.refunded))),
  };
}

/** Medusa's order change summary: the totals before and after, what is paid, and what is still owed (negative: due back). */
export interface ChangeSummary {
  original_order_total: number;
  current_order_total: number;
  paid_total: number;
  refunded_total: number;
  pending_difference: number;
}

/** An order as a change leaves it: its lines and methods (added ones named by their action's id), totals and summary. */
export interface ChangePlan {
  items: Array<OrderLineItemRow & { actions: OrderChangeAction[] }>;
  shipping_methods: Array<OrderShippingMethodRow & { actions: OrderChangeAction[] }>;
  totals: PlannedTotals;
  summary: ChangeSummary;
  /** What confirming writes (without the payment collection, which the saga creates). */
  application: Omit<ChangeApplication, "payment_collection_id">;
  /**
   * What a new payment collection must ask for: the amount owed that the order's collections do
   * not already ask for (an authorized, uncaptured payment still covers what it was authorized for).
   */
  to_collect: number;
  /** What the units the change takes off (an exchange's returned units, a refund claim's claimed ones) were worth. */
  deducted: number;
  /** A draft's promotions as the change leaves them, each with what it gives (`withDraftPromotions`). */
  promotions?: Array<{ promotion_id: string; amount: number }>;
  /** Each line whose quantity moves, by how many units (positive: more to reserve). */
  quantity_changes: Array<{ line: Pick<OrderLineItemRow, "id" | "cart_line_item_id" | "variant_id">; delta: number }>;
}

const ZERO: PlannedMoney = { subtotal: 0, discount_total: 0, tax_total: 0, total: 0 };

/** A line's money at `unit_price` × `quantity`, its discount scaled to the new amount (promotions are not re-run). */
function lineMoney(
  unitPrice: number,
  quantity: number,
  taxRate: number,
  isTaxInclusive: boolean,
  before?: Pick<OrderLineItemRow, "unit_price" | "quantity" | "total" | "discount_total">,
): PlannedMoney {
  const gross = unitPrice * quantity;
  let discount = 0;
  if (before && before.discount_total > 0) {
    const oldGross = before.unit_price * before.quantity;
    // The discount as given on the catalog amount: tax-inclusive lines store it without tax.
    const given = isTaxInclusive ? oldGross - before.total : before.discount_total;
    discount = oldGross > 0 ? Math.min(gross, Math.round((given * gross) / oldGross)) : 0;
  }
  const [line] = computeTotals({
    items: [
      {
        unit_price: unitPrice,
        quantity,
        is_tax_inclusive: isTaxInclusive,
        tax_rates: [taxRate],
        discounts: [discount],
      },
    ],
    shipping_methods: [],
  }).items;
  return {
    subtotal: line!.subtotal,
    discount_total: line!.discount_total,
    tax_total: line!.tax_total,
    total: line!.total,
  };
}

const moneyOf = (row: PlannedMoney): PlannedMoney => ({
  subtotal: row.subtotal,
  discount_total: row.discount_total,
  tax_total: row.tax_total,
  total: row.total,
});

function plus(totals: PlannedTotals, prefix: "item" | "shipping", after: PlannedMoney, before: PlannedMoney) {
  const d = (k: keyof PlannedMoney) => after[k] - before[k];
  totals[`${prefix}_subtotal`] += d("subtotal");
  totals[`${prefix}_discount_total`] += d("discount_total");
  totals[`${prefix}_tax_total`] += d("tax_total");
  totals[`${prefix}_total`] += d("total");
  if (prefix === "item") totals.subtotal += d("subtotal");
  totals.discount_total += d("discount_total");
  totals.tax_total += d("tax_total");
  totals.total += d("total");
}

/** A new line's fulfillment and return counts: none of its units has moved yet. */
export const NOTHING_MOVED = {
  fulfilled_quantity: 0,
  shipped_quantity: 0,
  delivered_quantity: 0,
  return_requested_quantity: 0,
  return_received_quantity: 0,
  return_dismissed_quantity: 0,
};

/**
 * Applies a change's actions to an order, purely: the preview and the confirmation both call it,
 * so what the admin sees is what confirming writes. An `ITEM_UPDATE` sets an existing line's
 * quantity and price (its discount scales with its amount, its tax is at the rate the action
 * carries), an `ITEM_ADD` adds a line, a `SHIPPING_ADD` a method, a `SHIPPING_REMOVE` takes one
 * off. The order's totals move by the
 * lines' differences; `pending_difference` = the new total − what came back on returns − what is
 * paid (captured − refunded). `deductions` (an exchange's returned units, a refund claim's claimed
 * ones) take their share of their lines' money off the order's totals, the lines themselves
 * unchanged (their units were sold); a negative quantity puts that share back (a canceled one's).
 */
export function planChange(
  order: Pick<Order, "id" | "items" | "shipping_methods" | (typeof ORDER_TOTAL_KEYS)[number]>,
  change: { id: string; updated_at: Date | string; actions: OrderChangeAction[] },
  paid: PaidSoFar,
  deductions: Array<{ item_id: string; quantity: number }> = [],
): ChangePlan {
  const totals = Object.fromEntries(ORDER_TOTAL_KEYS.map((k) => [k, order[k]])) as unknown as PlannedTotals;
  const now = new Date();
  const lines: PlannedLine[] = [];
  const added_lines: PlannedNewLine[] = [];
  const added_methods: PlannedNewMethod[] = [];
  const quantity_changes: ChangePlan["quantity_changes"] = [];
  const actionsOf = (id: string) => change.actions.filter((a) => a.reference_id === id);

  const items = order.items.map((item) => {
    const update = change.actions.find(
      (a): a is Extract<OrderChangeAction, { action: "ITEM_UPDATE" }> =>
        a.action === "ITEM_UPDATE" && a.reference_id === item.id,
    );
    if (!update) return { ...item, actions: [] };
    const { quantity, unit_price, tax_rate } = update.details;
    const money = lineMoney(unit_price, quantity, tax_rate, item.is_tax_inclusive, item);
    plus(totals, "item", money, moneyOf(item));
    lines.push({ id: item.id, quantity, unit_price, ...money });
    if (quantity !== item.quantity && item.variant_id)
      quantity_changes.push({ line: item, delta: quantity - item.quantity });
    return { ...item, quantity, unit_price, ...money, actions: actionsOf(item.id) };
  });

  for (const a of change.actions) {
    if (a.action !== "ITEM_ADD") continue;
    const d = a.details;
    const money = lineMoney(d.unit_price, d.quantity, d.tax_rate, d.is_tax_inclusive);
    plus(totals, "item", money, ZERO);
    const line = {
      action_id: a.id,
      variant_id: d.variant_id,
      product_id: d.product_id,
      title: d.title,
      subtitle: d.subtitle,
      thumbnail: d.thumbnail,
      variant_title: d.variant_title,
      variant_sku: d.variant_sku,
      product_title: d.product_title,
      product_handle: d.product_handle,
      requires_shipping: d.requires_shipping,
      is_tax_inclusive: d.is_tax_inclusive,
      quantity: d.quantity,
      unit_price: d.unit_price,
      ...money,
    };
    added_lines.push(line);
    if (d.variant_id)
      quantity_changes.push({
        line: { id: a.id, cart_line_item_id: null, variant_id: d.variant_id },
        delta: d.quantity,
      });
    const { action_id: _id, ...fields } = line;
    items.push({
      ...fields,
      id: a.id,
      order_id: order.id,
      rank: items.length,
      cart_line_item_id: null,
      ...NOTHING_MOVED,
      metadata: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      actions: [a],
    });
  }

  const removed_method_ids = change.actions.flatMap((a) => (a.action === "SHIPPING_REMOVE" ? [a.reference_id] : []));
  const shipping_methods = order.shipping_methods.flatMap((m) => {
    if (!removed_method_ids.includes(m.id)) return [{ ...m, actions: actionsOf(m.id) }];
    plus(totals, "shipping", ZERO, moneyOf(m));
    return [];
  });
  for (const a of change.actions) {
    if (a.action !== "SHIPPING_ADD") continue;
    const d = a.details;
    const [line] = computeTotals({
      items: [],
      shipping_methods: [
        { amount: d.amount, is_tax_inclusive: d.is_tax_inclusive, tax_rates: [d.tax_rate], discounts: [] },
      ],
    }).shipping_methods;
    const money = moneyOf(line!);
    plus(totals, "shipping", money, ZERO);
    const method = {
      action_id: a.id,
      shipping_option_id: d.shipping_option_id,
      name: d.name,
      amount: d.amount,
      is_tax_inclusive: d.is_tax_inclusive,
      ...money,
    };
    added_methods.push(method);
    const { action_id: _id, ...fields } = method;
    shipping_methods.push({
      ...fields,
      id: a.id,
      order_id: order.id,
      rank: shipping_methods.length,
      data: {},
      metadata: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      actions: [a],
    });
  }

  let deducted = 0;
  for (const d of deductions) {
    const line = order.items.find((i) => i.id === d.item_id);
    if (!line || line.quantity === 0) continue;
    // Given back exactly as it was taken (rounded on the units' magnitude).
    const share = (k: keyof PlannedMoney) =>
      Math.sign(d.quantity) * Math.round((line[k] * Math.min(Math.abs(d.quantity), line.quantity)) / line.quantity);
    const taken = {
      subtotal: share("subtotal"),
      discount_total: share("discount_total"),
      tax_total: share("tax_total"),
      total: share("total"),
    };
    plus(totals, "item", ZERO, taken);
    deducted += taken.total;
  }

  const { pending_difference, to_collect } = orderBalance(totals.total, paid);
  return {
    items,
    shipping_methods,
    totals,
    summary: {
      original_order_total: order.total,
      current_order_total: totals.total,
      paid_total: paid.captured,
      refunded_total: paid.refunded,
      pending_difference,
    },
    to_collect,
    application: {
      change_id: change.id,
      planned_at: new Date(change.updated_at).toISOString(),
      lines,
      added_lines,
      added_methods,
      removed_method_ids,
      totals,
    },
    deducted,
    quantity_changes,
  };
}
