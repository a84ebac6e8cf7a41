import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder, orderChangeActions, paymentMoves } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";

const t = useTestApp({}, { adminId: "user_pay" });

const order = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const collectionUrl = (orderId: string, collectionId: string, action: string) =>
  `/admin/orders/${orderId}/payment-collections/${collectionId}/${action}`;

describe("capture", () => {
  it("partial then full capture: partially_captured → captured; more than authorized is 400", async () => {
    const { order: placed, collection_id, payment_id } = await placeTestOrder(t.app);
    const partial = await t.admin.post(collectionUrl(placed.id, collection_id, "capture"), { amount: 1200 });
    expect(partial.statusCode).toBe(200);
    expect(partial.json().order).toMatchObject({ payment_status: "partially_captured", paid_total: 1200 });

    const over = await t.admin.post(`/admin/payments/${payment_id}/capture`, { amount: 2001 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      type: "invalid_data",
      message: "Cannot capture more than the authorized amount: 2000 left to capture",
    });

    const rest = await t.admin.post(`/admin/payments/${payment_id}/capture`, {});
    expect(rest.statusCode).toBe(200);
    expect(rest.json().payment).toMatchObject({ id: payment_id, amount: 3200 });
    expect(rest.json().payment.captures.map((c: { amount: number }) => c.amount)).toEqual([1200, 2000]);
    expect(rest.json().payment.captured_at).not.toBeNull();
    expect(await order(placed.id)).toMatchObject({ payment_status: "captured", paid_total: 3200 });

    const nothing = await t.admin.post(collectionUrl(placed.id, collection_id, "capture"), {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe("Nothing left to capture");
    expect(await orderChangeActions(t, placed.id)).toEqual([
      "order_placed",
      "payment_captured",
      "payment_status_changed",
      "payment_captured",
      "payment_status_changed",
    ]);
  });

  it("refuses a canceled order, unknown ids, someone else's collection and bad bodies", async () => {
    const { order: placed, collection_id } = await placeTestOrder(t.app);
    const other = await placeTestOrder(t.app);
    expect((await t.admin.post(collectionUrl(placed.id, other.collection_id, "capture"), {})).statusCode).toBe(404);
    expect((await t.admin.post(collectionUrl("order_missing", collection_id, "capture"), {})).statusCode).toBe(404);
    expect((await t.admin.post("/admin/payments/pay_missing/capture", {})).statusCode).toBe(404);
    for (const body of [{ amount: 0 }, { amount: -5 }, { amount: 1.5 }, { amount: "100" }, { extra: 1 }]) {
      const res = await t.admin.post(collectionUrl(placed.id, collection_id, "capture"), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    await t.admin.post(`/admin/orders/${placed.id}/cancel`, {});
    const res = await t.admin.post(collectionUrl(placed.id, collection_id, "capture"), {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`Order ${placed.id} is canceled and cannot be captured`);
    expect((await order(placed.id)).paid_total).toBe(0);
    expect((await order(other.order.id)).payment_status).toBe("authorized");
  });

  it("takes at most what the order still owes, even from a payment authorized for more", async () => {
    const { order: placed, collection_id, payment_id } = await placeTestOrder(t.app);
    // An authorization above the order's total (a cart shrunk after authorization, before checkout
    // authorized anew): what the order owes bounds every capture, not what the card holds.
    await t.database.db.execute(sql`update payment set amount = amount + 500 where id = ${payment_id}`);
    await t.database.db.execute(
      sql`update payment_collection set amount = amount + 500, authorized_amount = authorized_amount + 500 where id = ${collection_id}`,
    );
    const first = await t.admin.post(collectionUrl(placed.id, collection_id, "capture"), { amount: 1200 });
    expect(first.statusCode).toBe(200);
    const over = await t.admin.post(`/admin/payments/${payment_id}/capture`, { amount: placed.total - 1200 + 1 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      type: "invalid_data",
      message: `Cannot capture more than the order still owes: ${placed.total - 1200} left to capture`,
    });
    const rest = await t.admin.post(`/admin/payments/${payment_id}/capture`, {});
    expect(rest.statusCode).toBe(200);
    expect(rest.json().payment.captures.map((c: { amount: number }) => c.amount)).toEqual([1200, placed.total - 1200]);
    expect(await order(placed.id)).toMatchObject({
      paid_total: placed.total,
      summary: { paid_total: placed.total, pending_difference: 0 },
    });
    const nothing = await t.admin.post(`/admin/payments/${payment_id}/capture`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe("Nothing left to capture");
  });

  it("a failure at each step after the plan: nothing captured, or the capture shown as it is", async () => {
    const db = t.database.db;
    // The capture itself fails: nothing captured, status unchanged.
    let placed = await placeTestOrder(t.app);
    let res = await withFailure(db, "payment_capture", "INSERT", "true", () =>
      t.admin.post(`/admin/payments/${placed.payment_id}/capture`, { amount: 1000 }),
    );
    expect(res.statusCode).toBe(500);
    expect(await order(placed.order.id)).toMatchObject({ payment_status: "authorized", paid_total: 0 });
    // The provider refuses the capture: 400, nothing captured.
    placed = await placeTestOrder(t.app, {}, { payment_data: { capture_behavior: "decline" } });
    res = await t.admin.post(`/admin/payments/${placed.payment_id}/capture`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("pp_test declined the capture");
    expect(await order(placed.order.id)).toMatchObject({ payment_status: "authorized", paid_total: 0 });
    // Logging fails after the capture (which cannot be undone): the compensation re-derives the
    // status, so the order shows the money it holds.
    placed = await placeTestOrder(t.app);
    res = await withFailure(db, "order_change", "INSERT", "NEW.action = 'payment_captured'", () =>
      t.admin.post(`/admin/payments/${placed.payment_id}/capture`, { amount: 1000 }),
    );
    expect(res.statusCode).toBe(500);
    expect(await order(placed.order.id)).toMatchObject({ payment_status: "partially_captured", paid_total: 1000 });
  });
});

describe("refund", () => {
  it("partial then full refund: partially_refunded → refunded; more than captured is 400", async () => {
    const { order: placed, collection_id, payment_id } = await placeTestOrder(t.app);
    await t.admin.post(collectionUrl(placed.id, collection_id, "capture"), {});
    const partial = await t.admin.post(collectionUrl(placed.id, collection_id, "refund"), {
      amount: 500,
      reason: "damaged",
    });
    expect(partial.statusCode).toBe(200);
    expect(partial.json().order).toMatchObject({
      payment_status: "partially_refunded",
      paid_total: 3200,
      refunded_total: 500,
    });
    expect(partial.json().order.payment_collections[0].payments[0].refunds).toEqual([
      expect.objectContaining({ amount: 500, note: "damaged", created_by: "user_pay" }),
    ]);

    const over = await t.admin.post(collectionUrl(placed.id, collection_id, "refund"), { amount: 2701 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      type: "invalid_data",
      message: "Cannot refund more than the captured amount: 2700 left to refund",
    });

    const rest = await t.admin.post(`/admin/payments/${payment_id}/refund`, { note: "rest" });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().payment.refunds.map((r: { amount: number }) => r.amount)).toEqual([500, 2700]);
    expect(await order(placed.id)).toMatchObject({ payment_status: "refunded", refunded_total: 3200 });
  });

  it("refuses a refund of nothing captured and bad bodies", async () => {
    const { order: placed, collection_id } = await placeTestOrder(t.app);
    const none = await t.admin.post(collectionUrl(placed.id, collection_id, "refund"), { amount: 100 });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe("Cannot refund more than the captured amount: 0 left to refund");
    for (const body of [{}, { amount: 0 }, { amount: "1" }, { amount: 10, reason: 5 }, { amount: 10, other: true }]) {
      const res = await t.admin.post(collectionUrl(placed.id, collection_id, "refund"), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
  });

  it("a provider failure writes nothing, undoes nothing it did not do, and reports the error", async () => {
    const { order: placed, collection_id } = await placeTestOrder(
      t.app,
      {},
      { payment_data: { refund_behavior: "error" } },
    );
    await t.admin.post(collectionUrl(placed.id, collection_id, "capture"), { amount: 2000 });
    const res = await t.admin.post(collectionUrl(placed.id, collection_id, "refund"), { amount: 300 });
    expect(res.statusCode).toBe(502);
    expect(res.json().type).toBe("provider_error");
    expect(await order(placed.id)).toMatchObject({
      payment_status: "partially_captured",
      paid_total: 2000,
      refunded_total: 0,
    });
  });

  it("logging fails after the refund (which cannot be undone): the status still shows the refund", async () => {
    const { order: placed, collection_id } = await placeTestOrder(t.app);
    await t.admin.post(collectionUrl(placed.id, collection_id, "capture"), {});
    const res = await withFailure(t.database.db, "order_change", "INSERT", "NEW.action = 'payment_refunded'", () =>
      t.admin.post(collectionUrl(placed.id, collection_id, "refund"), { amount: 100 }),
    );
    expect(res.statusCode).toBe(500);
    expect(await order(placed.id)).toMatchObject({ payment_status: "partially_refunded", refunded_total: 100 });
  });

  it("two concurrent refunds summing over the captured amount: one succeeds, one is 400", async () => {
    const { order: placed, collection_id } = await placeTestOrder(t.app);
    await t.admin.post(collectionUrl(placed.id, collection_id, "capture"), { amount: 1000 });
    const results = await Promise.all([
      t.admin.post(collectionUrl(placed.id, collection_id, "refund"), { amount: 700 }),
      t.admin.post(collectionUrl(placed.id, collection_id, "refund"), { amount: 600 }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const final = await order(placed.id);
    expect([700, 600]).toContain(final.refunded_total);
    expect(final).toMatchObject({ payment_status: "partially_refunded", paid_total: 1000 });
  });

  it("admin only", async () => {
    const { payment_id } = await placeTestOrder(t.app);
    expect(
      (await t.app.inject({ method: "POST", url: `/admin/payments/${payment_id}/capture`, payload: {} })).statusCode,
    ).toBe(401);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: `/admin/payments/${payment_id}/refund`,
          headers: await t.customerHeaders("cus_x"),
          payload: {},
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe("the payment status steps of capture and refund", () => {
  // The last one failing after the money moved is in apps/worker/test/payment-status-recovery.test.ts:
  // the worker's background compensation retry corrects the status.
  it("the first one fails: nothing moves, and the stored status is left for the next run to correct", async () => {
    for (const c of paymentMoves) {
      const placed = await placeTestOrder(t.app);
      await c.before(t.admin, placed.payment_id);
      const settled = await order(placed.order.id);
      // A status left stale (as by an interrupted run): the first step has something to write, and that write fails.
      await t.database.db.execute(sql`update "order" set payment_status = 'awaiting' where id = ${placed.order.id}`);
      const res = await withFailure(
        t.database.db,
        "order",
        "UPDATE",
        `NEW.payment_status = '${settled.payment_status}'`,
        () => t.admin.post(`/admin/payments/${placed.payment_id}/${c.kind}`, c.body),
      );
      expect(res.statusCode, c.kind).toBe(500);
      expect(await order(placed.order.id), c.kind).toMatchObject({
        payment_status: "awaiting",
        paid_total: settled.paid_total,
        refunded_total: 0,
      });
      const retried = await t.admin.post(`/admin/payments/${placed.payment_id}/${c.kind}`, c.body);
      expect(retried.statusCode, c.kind).toBe(200);
      expect(await order(placed.order.id), c.kind).toMatchObject({ payment_status: c.status, ...c.moved });
    }
  });
});
