import { expect } from "vitest";
import type { TestApp } from "./app";
import { placeTestOrder } from "./orders";
import type { ChangeFixtures } from "./order-changes";

/**
 * The exchange and claim tests' scenario over the change fixtures `f`: a delivered order, its
 * reads (the admin order, the warehouse's stock), and an exchange begun or put together.
 */
export function exchangeScenario(t: TestApp, f: ChangeFixtures) {
  /**
   * An order of 2 shirts (10.00), a mug (5.00) and shipping (7.00) = 32.00, its lines reserved at the
   * warehouse, the two shirts fulfilled and (unless `capture` is false) the payment captured; a guest's
   * unless `customer` names its customer and email.
   */
  async function delivered({
    capture = true,
    customer,
  }: { capture?: boolean; customer?: { customer_id: string; email: string } } = {}) {
    const { order, payment_id } = await placeTestOrder(
      t.app,
      { sales_channel_id: f.CHANNEL, ...customer },
      { reserve_at: f.LOC },
    );
    const shirt = order.items.find((i) => i.variant_id === "variant_shirt")!.id;
    const mug = order.items.find((i) => i.variant_id === "variant_mug")!.id;
    const fulfilled = await t.admin.post(`/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: shirt, quantity: 2 }],
      location_id: f.LOC,
    });
    expect(fulfilled.statusCode, fulfilled.body).toBe(200);
    if (capture) {
      const captured = await t.admin.post(`/admin/payments/${payment_id}/capture`, {});
      expect(captured.statusCode, captured.body).toBe(200);
    }
    return { id: order.id, shirt, mug, payment_id };
  }
  const order = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
  const level = async (item: string) => await t.app.modules.inventory.retrieveLevel(item, f.LOC);
  const stock = async () => ({
    shirt: (await level(f.items.variant_shirt!)).stocked_quantity as number,
    cap_reserved: (await level(f.cap.item)).reserved_quantity as number,
  });
  async function begin(kind: "exchanges" | "claims", body: Record<string, unknown>) {
    const res = await t.admin.post(`/admin/${kind}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json()[kind === "exchanges" ? "exchange" : "claim"] as { id: string; return_id: string; status: string };
  }
  /** An exchange of one shirt back (to the warehouse) for two caps, each way shipped by courier. */
  async function exchangeReady(orderId: string, shirt: string) {
    const exchange = await begin("exchanges", { order_id: orderId });
    const base = `/admin/exchanges/${exchange.id}`;
    for (const [path, body] of [
      ["inbound/items", { items: [{ id: shirt, quantity: 1 }] }],
      ["outbound/items", { items: [{ variant_id: f.cap.variant, quantity: 2 }] }],
      ["outbound/shipping-method", { shipping_option_id: f.OPTION }],
    ] as const) {
      const res = await t.admin.post(`${base}/${path}`, body);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    const located = await t.admin.post(`/admin/returns/${exchange.return_id}`, { location_id: f.LOC });
    expect(located.statusCode, located.body).toBe(200);
    return exchange;
  }
  return { delivered, order, stock, begin, exchangeReady };
}
