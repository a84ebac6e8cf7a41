import { describe, expect, it } from "vitest";
import type { Order, OrderChangeAction } from "@kasse/modules/order";
import { NOTHING_MOVED, planChange } from "./order-change-plan";

const at = new Date("2026-01-01T00:00:00Z");
/** What a line copies of its variant and product, when it knows only their ids and its title. */
const bareSnapshot = {
  subtitle: null,
  thumbnail: null,
  variant_title: null,
  variant_sku: null,
  product_title: null,
  product_handle: null,
  requires_shipping: true,
  is_tax_inclusive: false,
};
const line = (id: string, quantity: number, unit_price: number, extra: Partial<Order["items"][number]> = {}) => ({
  id,
  order_id: "order_1",
  rank: 0,
  cart_line_item_id: null,
  variant_id: `variant_${id}`,
  product_id: `prod_${id}`,
  title: id,
  ...bareSnapshot,
  quantity,
  unit_price,
  subtotal: quantity * unit_price,
  tax_total: 0,
  discount_total: 0,
  total: quantity * unit_price,
  ...NOTHING_MOVED,
  metadata: null,
  created_at: at,
  updated_at: at,
  deleted_at: null,
  ...extra,
});

/** Two shirts at 10.00 with 19 % tax and 2.00 off, one mug at 5.00 untaxed, shipping 7.00. */
const order = {
  id: "order_1",
  items: [line("shirt", 2, 1000, { discount_total: 200, tax_total: 342, total: 2142 }), line("mug", 1, 500)],
  shipping_methods: [],
  item_subtotal: 2500,
  item_tax_total: 342,
  item_discount_total: 200,
  item_total: 2642,
  shipping_subtotal: 700,
  shipping_tax_total: 0,
  shipping_discount_total: 0,
  shipping_total: 700,
  subtotal: 2500,
  discount_total: 200,
  tax_total: 342,
  total: 3342,
} as unknown as Order;

const action = (a: Omit<OrderChangeAction, "id" | "internal_note" | "created_at">): OrderChangeAction =>
  ({ id: `act_${a.reference_id}`, internal_note: null, created_at: at.toISOString(), ...a }) as OrderChangeAction;

/** An ITEM_UPDATE of the line `reference_id` to `details`. */
const update = (reference_id: string, details: { quantity: number; unit_price: number; tax_rate: number }) =>
  action({ action: "ITEM_UPDATE", reference: "order_item", reference_id, details });

/** The plan of change `id` of the order, `captured` of its 33.42 paid (all of it requested). */
const plan = (id: string, actions: OrderChangeAction[], captured: number) =>
  planChange(order, { id, updated_at: at, actions }, { captured, refunded: 0, requested: 3342, credited: 0 });

describe("planChange", () => {
  it("moves a line's quantity (its discount scaled, its tax at the action's rate), adds a line, and sums the difference", () => {
    const actions = [
      update("shirt", { quantity: 3, unit_price: 1000, tax_rate: 19 }),
      action({
        action: "ITEM_ADD",
        reference: "order_item",
        reference_id: "cap",
        details: {
          variant_id: "variant_cap",
          product_id: "prod_cap",
          title: "Cap",
          ...bareSnapshot,
          quantity: 1,
          unit_price: 500,
          tax_rate: 10,
        },
      }),
    ];
    const planned = plan("ordch_1", actions, 3342);
    // Shirt: 3 × 10.00 = 30.00, 3.00 off (2.00 scaled), 19 % of 27.00 = 5.13.
    expect(planned.application.lines).toEqual([
      { id: "shirt", quantity: 3, unit_price: 1000, subtotal: 3000, discount_total: 300, tax_total: 513, total: 3213 },
    ]);
    expect(planned.application.added_lines).toEqual([
      expect.objectContaining({ action_id: "act_cap", quantity: 1, subtotal: 500, tax_total: 50, total: 550 }),
    ]);
    expect(planned.totals).toMatchObject({
      item_subtotal: 4000,
      item_discount_total: 300,
      item_tax_total: 563,
      item_total: 4263,
      total: 4963,
    });
    expect(planned.summary).toEqual({
      original_order_total: 3342,
      current_order_total: 4963,
      paid_total: 3342,
      refunded_total: 0,
      pending_difference: 1621,
    });
    expect(planned.to_collect).toBe(1621);
    expect(planned.quantity_changes.map((c) => [c.line.id, c.delta])).toEqual([
      ["shirt", 1],
      ["act_cap", 1],
    ]);
    expect(planned.items.map((i) => [i.id, i.quantity, i.actions.length])).toEqual([
      ["shirt", 3, 1],
      ["mug", 1, 0],
      ["act_cap", 1, 1],
    ]);
  });

  it("shows an amount due back when units come off a paid order, and collects nothing", () => {
    const planned = plan("ordch_2", [update("mug", { quantity: 0, unit_price: 500, tax_rate: 0 })], 3342);
    expect(planned.totals.total).toBe(2842);
    expect(planned.summary.pending_difference).toBe(-500);
    expect(planned.to_collect).toBe(0);
    expect(planned.quantity_changes.map((c) => c.delta)).toEqual([-1]);
  });

  it("leaves a price-only change's stock alone", () => {
    const planned = plan("ordch_3", [update("mug", { quantity: 1, unit_price: 400, tax_rate: 0 })], 0);
    expect(planned.quantity_changes).toEqual([]);
    expect(planned.totals.total).toBe(3242);
    // Nothing captured: the whole total is pending, the authorized collection still covers it.
    expect(planned.summary.pending_difference).toBe(3242);
    expect(planned.to_collect).toBe(0);
  });
});
