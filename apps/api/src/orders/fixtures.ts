import { workflow } from "@kasse/workflows";
import { createOrderStep, orderSnapshot, type OrderCreate } from "@kasse/modules/order";
import type { App } from "../app";

const placeOrder = workflow("test-place-order", (input: { order: OrderCreate }, ctx) => ctx.run(createOrderStep, { order: input.order }));

export interface PlaceTestOrderOptions {
  /** Provider data of the `pp_test` payment (e.g. `{ refund_behavior: "error" }`). */
  payment_data?: Record<string, unknown>;
  /** Reserve the lines at this location for the cart line ids, as checkout does. */
  reserve_at?: string;
}

/**
 * Test fixture: places an order as checkout will, without a cart: a payment collection for the
 * order's total with a `pp_test` payment authorized, reservations for the cart lines (optional),
 * then the order created by `createOrderStep`.
 */
export async function placeTestOrder(app: App, overrides: Partial<OrderCreate> = {}, options: PlaceTestOrderOptions = {}) {
  const snapshot = orderSnapshot(overrides);
  const { payment, inventory } = app.modules;
  const collection = await payment.createCollection({ region_id: snapshot.region_id ?? null, currency_code: snapshot.currency_code, amount: snapshot.totals.total });
  const withSession = await payment.createSession(collection.id, { provider_id: "pp_test", data: options.payment_data ?? {} });
  const { payment: authorized } = await payment.authorizeSession(collection.id, withSession.payment_sessions[0]!.id);
  if (options.reserve_at) {
    const lines = snapshot.items.map((i) => ({ line_item_id: i.cart_line_item_id!, variant_id: i.variant_id!, quantity: i.quantity }));
    await inventory.reserveForLines({ lines, location_ids: [options.reserve_at] });
  }
  const created = await app.infra.engine.execute(placeOrder, { order: { ...snapshot, payment_collection_ids: [collection.id], payment_status: "authorized" } });
  return { order: await app.modules.order.retrieve(created.id), collection_id: collection.id, payment_id: authorized.id };
}
