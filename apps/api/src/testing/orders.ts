import { definitions } from "@kasse/workflows";
import type { Modules } from "@kasse/modules";
import { createOrderStep, type OrderCreate } from "@kasse/modules/order";
import { orderSnapshot } from "@kasse/modules/order/testing";
import type { App } from "../app-type";
import type { Requester } from "./app";

const { workflow } = definitions<Modules>();

const placeOrder = workflow("test-place-order", (input: { order: OrderCreate }, ctx) =>
  ctx.run(createOrderStep, { order: input.order }),
);

export interface PlaceTestOrderOptions {
  /** Provider data of the `pp_test` payment (e.g. `{ refund_behavior: "error" }`). */
  payment_data?: Record<string, unknown>;
  /** Reserve the lines at this location for the cart line ids, as checkout does. */
  reserve_at?: string;
}

/**
 * Test fixture: inventory items for the variants of `orderSnapshot` (`variant_shirt`, `variant_mug`),
 * each stocked with 100 at every location given. Returns the item id of each variant.
 */
export async function stockTestVariants(
  app: App,
  locationIds: string[],
): Promise<Record<"variant_shirt" | "variant_mug", string>> {
  const items = { variant_shirt: "", variant_mug: "" };
  for (const variant of ["variant_shirt", "variant_mug"] as const) {
    const [link] = await app.modules.inventory.createItemsForVariants([
      { variant_id: variant, sku: variant.toUpperCase(), title: variant },
    ]);
    await app.modules.inventory.createLevels(
      link!.inventory_item_id,
      locationIds.map((location_id) => ({ location_id, stocked_quantity: 100 })),
    );
    items[variant] = link!.inventory_item_id;
  }
  return items;
}

/**
 * Test fixture: places an order as checkout will, without a cart: a payment collection for the
 * order's total with a `pp_test` payment authorized, reservations for the cart lines (optional),
 * then the order created by `createOrderStep`.
 */
export async function placeTestOrder(
  app: App,
  overrides: Partial<OrderCreate> = {},
  options: PlaceTestOrderOptions = {},
) {
  const snapshot = orderSnapshot(overrides);
  const { payment, inventory } = app.modules;
  const collection = await payment.createCollection({
    region_id: snapshot.region_id ?? null,
    currency_code: snapshot.currency_code,
    amount: snapshot.totals.total,
  });
  const withSession = await payment.createSession(collection.id, {
    provider_id: "pp_test",
    data: options.payment_data ?? {},
  });
  const { payment: authorized } = await payment.authorizeSession(collection.id, withSession.payment_sessions[0]!.id);
  if (options.reserve_at) {
    const lines = snapshot.items.map((i) => ({
      line_item_id: i.cart_line_item_id!,
      variant_id: i.variant_id!,
      quantity: i.quantity,
    }));
    await inventory.reserveForLines({ lines, location_ids: [options.reserve_at] });
  }
  const created = await app.infra.engine.execute(placeOrder, {
    order: { ...snapshot, payment_collection_ids: [collection.id], payment_status: "authorized" },
  });
  return {
    order: await app.modules.order.retrieve(created.id),
    collection_id: collection.id,
    payment_id: authorized.id,
  };
}

/**
 * Test fixture: an order placed with its lines reserved at `locationId`, whose two shirts are then
 * fulfilled from there through the admin API (the mug is not): what a return starts from.
 */
export async function fulfilledTestOrder(t: { app: App; admin: Requester }, locationId: string) {
  const { order } = await placeTestOrder(t.app, {}, { reserve_at: locationId });
  const res = await t.admin.post(`/admin/orders/${order.id}/fulfillments`, {
    items: [{ id: order.items[0]!.id, quantity: 2 }],
    location_id: locationId,
  });
  if (res.statusCode !== 200) throw new Error(`the fulfillment answered ${res.statusCode}: ${res.body}`);
  return order;
}

/**
 * Test fixture: confirms an admin edit of the order setting its first line (the snapshot's 2 shirts
 * at 10.00) to `quantity`; more shirts attach a collection for the difference.
 */
export async function editFirstLine(t: { app: App; admin: Requester }, orderId: string, quantity: number) {
  const o = await t.app.modules.order.retrieve(orderId);
  await t.admin.post("/admin/order-edits", { order_id: orderId });
  const updated = await t.admin.post(`/admin/order-edits/${orderId}/items/item/${o.items[0]!.id}`, { quantity });
  if (updated.statusCode !== 200) throw new Error(`the edit answered ${updated.statusCode}: ${updated.body}`);
  const confirmed = await t.admin.post(`/admin/order-edits/${orderId}/confirm`, {});
  if (confirmed.statusCode !== 200)
    throw new Error(`the confirmation answered ${confirmed.statusCode}: ${confirmed.body}`);
}

/** The actions of an order's change log, oldest first (`order_placed`, `fulfillment_created`, …). */
export async function orderChangeActions(t: { admin: Requester }, orderId: string): Promise<string[]> {
  const res = await t.admin.get(`/admin/orders/${orderId}/changes?limit=100`);
  return res.json().order_changes.map((c: { action: string }) => c.action);
}

/**
 * A capture and a refund of a placed order's payment (the refund's `before` captures first), with
 * the totals and the payment status each leaves: the cases of the payment-status-step tests.
 */
export const paymentMoves = [
  {
    kind: "capture",
    body: { amount: 1000 },
    moved: { paid_total: 1000, refunded_total: 0 },
    status: "partially_captured",
    before: async (_admin: Requester, _paymentId: string): Promise<unknown> => undefined,
  },
  {
    kind: "refund",
    body: { amount: 400 },
    moved: { paid_total: 3200, refunded_total: 400 },
    status: "partially_refunded",
    before: (admin: Requester, paymentId: string): Promise<unknown> =>
      admin.post(`/admin/payments/${paymentId}/capture`, {}),
  },
] as const;
