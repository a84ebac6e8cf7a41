import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder, stockTestVariants, orderChangeActions } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";

const t = useTestApp({}, { adminId: "user_cancel" });
const LOC = "sloc_cancel";
let items: Record<string, string>;
beforeAll(async () => {
  items = await stockTestVariants(t.app, [LOC]);
});

const reserved = async () => ({
  shirt: (await t.app.modules.inventory.retrieveLevel(items.variant_shirt!, LOC)).reserved_quantity,
  mug: (await t.app.modules.inventory.retrieveLevel(items.variant_mug!, LOC)).reserved_quantity,
});
const stocked = async () => (await t.app.modules.inventory.retrieveLevel(items.variant_shirt!, LOC)).stocked_quantity;
const place = () => placeTestOrder(t.app, {}, { reserve_at: LOC });

describe("POST /admin/orders/{id}/cancel", () => {
  it("cancels: reservations released, authorization voided, statuses canceled, logged", async () => {
    const base = await reserved();
    const { order, payment_id } = await place();
    expect(await reserved()).toEqual({ shirt: base.shirt + 2, mug: base.mug + 1 });

    const res = await t.admin.post(`/admin/orders/${order.id}/cancel`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({
      id: order.id,
      status: "canceled",
      payment_status: "canceled",
      fulfillment_status: "canceled",
    });
    expect(await reserved()).toEqual(base);
    expect(await stocked()).toBe(100);
    const collection = res.json().order.payment_collections[0];
    expect(collection).toMatchObject({ status: "canceled", authorized_amount: 0, captured_amount: 0 });
    expect(collection.payments[0]).toMatchObject({ id: payment_id });
    expect(collection.payments[0].canceled_at).not.toBeNull();

    const changes = (await t.admin.get(`/admin/orders/${order.id}/changes`))
      .json()
      .order_changes.map((c: { action: string; actor_id: string | null }) => [c.action, c.actor_id]);
    expect(changes).toEqual([
      ["order_placed", null],
      ["order_canceled", "user_cancel"],
      ["payments_canceled", "user_cancel"],
      ["payment_status_changed", "user_cancel"],
    ]);
  });

  it("refunds what was captured", async () => {
    const { order, payment_id } = await place();
    await t.admin.post(`/admin/payments/${payment_id}/capture`, { amount: 2000 });
    const res = await t.admin.post(`/admin/orders/${order.id}/cancel`, {});
    expect(res.json().order).toMatchObject({
      status: "canceled",
      payment_status: "canceled",
      paid_total: 2000,
      refunded_total: 2000,
    });
    expect(res.json().order.payment_collections[0].payments[0].refunds).toEqual([
      expect.objectContaining({ amount: 2000, note: "Order canceled" }),
    ]);
  });

  it("refuses a canceled order and a fulfilled one with 400, changing nothing", async () => {
    const { order } = await place();
    await t.admin.post(`/admin/orders/${order.id}/cancel`, {});
    const again = await t.admin.post(`/admin/orders/${order.id}/cancel`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ type: "invalid_data", message: `Order ${order.id} is already canceled` });

    const fulfilled = (await place()).order;
    expect(
      (
        await t.admin.post(`/admin/orders/${fulfilled.id}/fulfillments`, {
          items: [{ id: fulfilled.items[0]!.id, quantity: 1 }],
          location_id: LOC,
        })
      ).statusCode,
    ).toBe(200);
    const before = await reserved();
    const refused = await t.admin.post(`/admin/orders/${fulfilled.id}/cancel`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(`All fulfillments must be canceled before canceling order ${fulfilled.id}`);
    expect((await t.admin.get(`/admin/orders/${fulfilled.id}`)).json().order).toMatchObject({
      status: "pending",
      payment_status: "authorized",
      fulfillment_status: "partially_fulfilled",
    });
    expect(await reserved()).toEqual(before);
    expect((await t.admin.post("/admin/orders/order_missing/cancel", {})).statusCode).toBe(404);
  });

  it("a failure at each step leaves the order, its reservations and its payment as they were (or says what moved)", async () => {
    const db = t.database.db;
    const expectUntouched = async (id: string, base: { shirt: number; mug: number }) => {
      const order = (await t.admin.get(`/admin/orders/${id}`)).json().order;
      expect(order).toMatchObject({ status: "pending", fulfillment_status: "not_fulfilled" });
      expect(await reserved()).toEqual(base);
      return order;
    };
    // Places an order and cancels it with `when` failing on `table` (`prepare` runs on the order first): the cancel
    // answers 500 and leaves the order and its reservations as they were. The order as it reads after.
    const failedCancel = async (
      table: string,
      op: "INSERT" | "UPDATE",
      when: string,
      prepare?: (id: string) => Promise<unknown>,
    ) => {
      const { order } = await place();
      const base = await reserved();
      await prepare?.(order.id);
      const res = await withFailure(db, table, op, when, () => t.admin.post(`/admin/orders/${order.id}/cancel`, {}));
      expect(res.statusCode).toBe(500);
      return expectUntouched(order.id, base);
    };
    // The first step (re-deriving a payment status left stale) fails: nothing else ran.
    const stale = await failedCancel("order", "UPDATE", "NEW.payment_status = 'authorized'", (id) =>
      db.execute(sql`update "order" set payment_status = 'awaiting' where id = ${id}`),
    );
    expect(stale.payment_collections[0]).toMatchObject({ status: "authorized", authorized_amount: 3200 });

    // Step "cancel-order" fails.
    expect((await failedCancel("order", "UPDATE", "NEW.status = 'canceled'")).payment_status).toBe("authorized");

    // Step "release-reservations" fails: the order's status comes back.
    const released = await failedCancel("reservation_item", "UPDATE", "true");
    expect(released.payment_status).toBe("authorized");
    expect(await orderChangeActions(t, released.id)).toEqual([
      "order_placed",
      "order_canceled",
      "order_cancel_reverted",
    ]);

    // Step "cancel-order-payments" fails: reservations and status come back; the payment is untouched.
    const afterPaymentFailure = await failedCancel("payment", "UPDATE", "true");
    expect(afterPaymentFailure.payment_status).toBe("authorized");
    expect(afterPaymentFailure.payment_collections[0]).toMatchObject({ status: "authorized", authorized_amount: 3200 });

    // The last steps fail after the provider voided the authorization (which cannot be undone):
    // everything else comes back and payment_status says the payment is canceled.
    for (const [table, op, when] of [
      ["order_change", "INSERT", "NEW.action = 'payments_canceled'"],
      ["order", "UPDATE", "NEW.status = 'canceled' and NEW.payment_status = 'canceled'"],
    ] as const) {
      const after = await failedCancel(table, op, when);
      expect(after.payment_status).toBe("canceled");
      expect(after.payment_collections[0].status).toBe("canceled");
    }
  });

  it("two concurrent cancels: one cancels, the other is refused; reservations released once", async () => {
    const base = await reserved();
    const { order } = await place();
    const results = await Promise.all([
      t.admin.post(`/admin/orders/${order.id}/cancel`, {}),
      t.admin.post(`/admin/orders/${order.id}/cancel`, {}),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await reserved()).toEqual(base);
    expect((await t.admin.get(`/admin/orders/${order.id}`)).json().order).toMatchObject({
      status: "canceled",
      payment_status: "canceled",
      fulfillment_status: "canceled",
    });
  });

  it("cancel racing a capture: the order ends consistent either way", async () => {
    const { order, collection_id } = await place();
    const [canceled, captured] = await Promise.all([
      t.admin.post(`/admin/orders/${order.id}/cancel`, {}),
      t.admin.post(`/admin/orders/${order.id}/payment-collections/${collection_id}/capture`, {}),
    ]);
    expect(canceled.statusCode).toBe(200);
    const final = (await t.admin.get(`/admin/orders/${order.id}`)).json().order;
    expect(final).toMatchObject({ status: "canceled", payment_status: "canceled" });
    if (captured.statusCode === 200) {
      // The capture came first: the cancellation refunded it in full.
      expect(final).toMatchObject({ paid_total: 3200, refunded_total: 3200 });
    } else {
      expect(captured.statusCode).toBe(400);
      expect(final).toMatchObject({ paid_total: 0, refunded_total: 0 });
    }
  });
});
