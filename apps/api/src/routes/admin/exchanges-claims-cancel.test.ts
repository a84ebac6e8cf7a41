import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import {
  expectRefused as refused,
  orderEventNames,
  orderViolations,
  useChangeFixtures,
} from "../../testing/order-changes";
import { withFailure } from "../../testing/inject-failure";
import { exchangeScenario } from "../../testing/exchanges";

const t = useTestApp({}, { adminId: "user_exchanges_claims_cancel" });
const f = useChangeFixtures(t, "Cancel warehouse");
const { delivered, order, stock, begin, exchangeReady } = exchangeScenario(t, f);

/** A delivered, captured order with a confirmed exchange (one shirt back, two caps out with shipping: 9.00 to pay). */
async function confirmedExchange() {
  const o = await delivered();
  const before = { order: await order(o.id), stock: await stock() };
  const exchange = await exchangeReady(o.id, o.shirt);
  const confirmed = await t.admin.post(`/admin/exchanges/${exchange.id}/request`, {});
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const after = await order(o.id);
  expect(after).toMatchObject({ version: 2, total: 4100, summary: { pending_difference: 900 } });
  expect(after.payment_collections).toHaveLength(2);
  return { o, exchange, before, after };
}

/** A delivered, captured order with a confirmed refund claim of its two shirts (20.00 due back). */
async function confirmedRefundClaim() {
  const o = await delivered();
  const claim = await begin("claims", { order_id: o.id, type: "refund" });
  const claimed = await t.admin.post(`/admin/claims/${claim.id}/claim-items`, {
    items: [{ id: o.shirt, quantity: 2, reason: "production_failure" }],
  });
  expect(claimed.statusCode, claimed.body).toBe(200);
  expect((await t.admin.post(`/admin/claims/${claim.id}/request`, {})).statusCode).toBe(200);
  return { o, claim };
}

const cancel = (kind: "exchanges" | "claims", id: string, body: Record<string, unknown> = {}) =>
  t.admin.post(`/admin/${kind}/${id}/cancel`, body);

describe("canceling a confirmed exchange or claim (Medusa's POST /admin/{exchanges,claims}/{id}/cancel)", () => {
  it("takes the exchange back: totals, version, stock, return and its unpaid collection", async () => {
    const { o, exchange, before } = await confirmedExchange();
    const res = await cancel("exchanges", exchange.id, { no_notification: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().exchange).toMatchObject({ id: exchange.id, status: "canceled", canceled_at: expect.any(String) });

    const now = await order(o.id);
    expect(now).toMatchObject({ version: 3, total: 3200, summary: { pending_difference: 0 } });
    expect(now.payment_collections).toHaveLength(1);
    expect(now.payment_status).toBe(before.order.payment_status);
    expect(now.shipping_methods).toHaveLength(1);
    const cap = now.items.find((i: { variant_id: string }) => i.variant_id === f.cap.variant);
    expect(cap).toMatchObject({ quantity: 0, total: 0 });
    expect(now.items.find((i: { id: string }) => i.id === o.shirt).return_requested_quantity).toBe(0);
    expect(await stock()).toEqual(before.stock);
    const availability = await t.app.modules.inventory.retrieveLevel(f.cap.item, f.LOC);
    expect(availability.available_quantity).toBe(10);
    expect((await t.admin.get(`/admin/returns/${exchange.return_id}`)).json().return).toMatchObject({
      status: "canceled",
      exchange_id: exchange.id,
      claim_id: null,
    });

    // Listed as canceled; the order's changes show the cancel as its next version.
    const listed = (await t.admin.get(`/admin/exchanges?order_id=${o.id}`)).json();
    expect(listed.exchanges).toEqual([expect.objectContaining({ id: exchange.id, status: "canceled" })]);
    expect((await t.admin.get(`/admin/exchanges?order_id=${o.id}&status=canceled`)).json().count).toBe(1);
    expect((await t.admin.get(`/admin/exchanges?order_id=${o.id}&status=confirmed`)).json().count).toBe(0);
    const changes = (await t.admin.get(`/admin/orders/${o.id}/changes?change_type=exchange`)).json().order_changes;
    expect(changes).toEqual([
      expect.objectContaining({ status: "confirmed", version: 2 }),
      expect.objectContaining({
        status: "confirmed",
        version: 3,
        actions: expect.arrayContaining([
          expect.objectContaining({
            action: "ITEM_UPDATE",
            reference_id: cap.id,
            details: expect.objectContaining({ quantity: 0 }),
          }),
          expect.objectContaining({ action: "SHIPPING_REMOVE", details: { amount: 900 } }),
        ]),
      }),
    ]);
    expect((await orderEventNames(t, o.id)).filter((n) => n === "order.updated")).toHaveLength(2);
    expect(await orderViolations(t, o.id)).toEqual([]);

    // Once canceled, it is not canceled again; unknown ids and bad bodies are refused.
    refused(await cancel("exchanges", exchange.id), 400);
    refused(await cancel("exchanges", "exc_nope"), 404);
    refused(await cancel("claims", exchange.id), 404);
    refused(await cancel("exchanges", exchange.id, { no_notification: "yes" }), 400);
    refused(await cancel("exchanges", exchange.id, { nope: true }), 400);
    expect(await order(o.id)).toMatchObject({ version: 3, total: 3200 });
    // The order takes a new change, and the shirt can be asked back again.
    const again = await begin("exchanges", { order_id: o.id });
    const inbound = await t.admin.post(`/admin/exchanges/${again.id}/inbound/items`, {
      items: [{ id: o.shirt, quantity: 2 }],
    });
    expect(inbound.statusCode, inbound.body).toBe(200);
  });

  it("leaves a paid difference as a negative pending difference to refund", async () => {
    const { o, exchange, after } = await confirmedExchange();
    const collection = after.payment_collections[1].id;
    const paid = await t.admin.post(`/admin/payment-collections/${collection}/mark-as-paid`, { order_id: o.id });
    expect(paid.statusCode, paid.body).toBe(200);
    const res = await cancel("exchanges", exchange.id);
    expect(res.statusCode, res.body).toBe(200);
    const now = await order(o.id);
    expect(now).toMatchObject({ version: 3, total: 3200, summary: { pending_difference: -900 } });
    expect(now.payment_collections).toHaveLength(2);
    const refund = await t.admin.post(`/admin/payments/${o.payment_id}/refund`, { amount: 900 });
    expect(refund.statusCode, refund.body).toBe(200);
    expect((await order(o.id)).summary.pending_difference).toBe(0);
  });

  it("refuses once the return was received or an outbound line fulfilled, writing nothing", async () => {
    const received = await confirmedExchange();
    const receipt = await t.admin.post(`/admin/returns/${received.exchange.return_id}/receive`, {
      items: [{ id: received.o.shirt, quantity: 1 }],
    });
    expect(receipt.statusCode, receipt.body).toBe(200);
    refused(await cancel("exchanges", received.exchange.id), 400);
    expect(await order(received.o.id)).toMatchObject({ version: 2, total: 4100 });

    const shipped = await confirmedExchange();
    const cap = shipped.after.items.find((i: { variant_id: string }) => i.variant_id === f.cap.variant);
    const fulfilled = await t.admin.post(`/admin/orders/${shipped.o.id}/fulfillments`, {
      items: [{ id: cap.id, quantity: 1 }],
      location_id: f.LOC,
    });
    expect(fulfilled.statusCode, fulfilled.body).toBe(200);
    const stockBefore = await stock();
    refused(await cancel("exchanges", shipped.exchange.id), 400);
    expect(await order(shipped.o.id)).toMatchObject({ version: 2, total: 4100 });
    expect(await stock()).toEqual(stockBefore);
    expect((await t.admin.get(`/admin/returns/${shipped.exchange.return_id}`)).json().return.status).toBe("requested");
    // A pending exchange is canceled with DELETE …/request, not here.
    const pending = await begin("exchanges", { order_id: (await delivered()).id });
    refused(await cancel("exchanges", pending.id), 400);
  });

  it("leaves order, stock, return and payments as they were when a step of the cancel fails", async () => {
    const { o, exchange, after } = await confirmedExchange();
    const stockBefore = await stock();
    const failures: Array<[string, "INSERT" | "UPDATE", string]> = [
      ["order_return", "UPDATE", "true"], // the return canceled
      ["order_version", "INSERT", "true"], // the next version
      ["reservation_item", "UPDATE", "true"], // the outbound stock released
      ["order", "UPDATE", "NEW.payment_collection_ids <> OLD.payment_collection_ids"], // the collection detached
      ["payment_collection", "UPDATE", "true"], // the collection deleted
      ["order", "UPDATE", "NEW.payment_status <> OLD.payment_status"], // the payment status, last
    ];
    for (const [table, op, when] of failures) {
      const res = await withFailure(t.database.db, table, op, when, () => cancel("exchanges", exchange.id));
      expect(res.statusCode, `${table}: ${res.body}`).toBe(500);
      const now = await order(o.id);
      expect(now, table).toMatchObject({ version: 2, total: 4100, payment_status: after.payment_status });
      expect(now.payment_collections, table).toHaveLength(2);
      expect(now.shipping_methods, table).toHaveLength(2);
      expect(
        now.items.map((i: { quantity: number }) => i.quantity),
        table,
      ).toEqual(after.items.map((i: { quantity: number }) => i.quantity));
      expect(await stock(), table).toEqual(stockBefore);
      const read = (await t.admin.get(`/admin/exchanges/${exchange.id}`)).json().exchange;
      expect(read, table).toMatchObject({ status: "confirmed", canceled_at: null });
      expect((await t.admin.get(`/admin/returns/${exchange.return_id}`)).json().return.status, table).toBe("requested");
      const changes = (await t.admin.get(`/admin/orders/${o.id}/changes?change_type=exchange`)).json();
      expect(changes.count, table).toBe(1);
    }
    const ok = await cancel("exchanges", exchange.id);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await order(o.id)).toMatchObject({ version: 3, total: 3200 });
  });

  it("lets one of two simultaneous cancels win", async () => {
    const { o, exchange, before } = await confirmedExchange();
    const answers = await Promise.all([cancel("exchanges", exchange.id), cancel("exchanges", exchange.id)]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes[0], answers.map((a) => a.body).join("\n")).toBe(200);
    expect([400, 409]).toContain(codes[1]);
    const now = await order(o.id);
    expect(now).toMatchObject({ version: 3, total: 3200 });
    expect(now.payment_collections).toHaveLength(1);
    expect(await stock()).toEqual(before.stock);
  });

  it("takes a refund claim back: the claimed units charged again, claimable again", async () => {
    const { o, claim } = await confirmedRefundClaim();
    expect(await order(o.id)).toMatchObject({ version: 2, total: 1200, summary: { pending_difference: -2000 } });

    const res = await cancel("claims", claim.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().claim).toMatchObject({ id: claim.id, status: "canceled", type: "refund" });
    expect(await order(o.id)).toMatchObject({ version: 3, total: 3200, summary: { pending_difference: 0 } });
    expect((await t.admin.get(`/admin/claims?order_id=${o.id}&status=canceled`)).json().count).toBe(1);
    refused(await cancel("claims", claim.id), 400);
    const second = await begin("claims", { order_id: o.id, type: "refund" });
    const again = await t.admin.post(`/admin/claims/${second.id}/claim-items`, {
      items: [{ id: o.shirt, quantity: 2 }],
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(await orderViolations(t, o.id)).toEqual([]);
  });

  it("refuses to cancel an exchange's or a claim's inbound return on its own, naming the route that does", async () => {
    const { o, exchange, after } = await confirmedExchange();
    const returnBefore = (await t.admin.get(`/admin/returns/${exchange.return_id}`)).json().return;
    const stockBefore = await stock();
    for (const url of [
      `/admin/returns/${exchange.return_id}/cancel`,
      `/medusa/admin/returns/${exchange.return_id}/cancel`,
      `/admin/orders/${o.id}/returns/${exchange.return_id}/cancel`,
    ]) {
      const res = await t.admin.post(url, {});
      refused(res, 400);
      expect(res.json()).toEqual({
        type: "invalid_data",
        message: `Return ${exchange.return_id} is the inbound of exchange ${exchange.id}: cancel the exchange instead (POST /admin/exchanges/${exchange.id}/cancel)`,
      });
    }
    // Nothing changed: the return, the order, the stock.
    expect((await t.admin.get(`/admin/returns/${exchange.return_id}`)).json().return).toEqual(returnBefore);
    expect(await order(o.id)).toEqual(after);
    expect(await stock()).toEqual(stockBefore);
    // The exchange's own cancel still takes it back, its return with it.
    expect((await cancel("exchanges", exchange.id)).statusCode).toBe(200);
    expect((await t.admin.get(`/admin/returns/${exchange.return_id}`)).json().return.status).toBe("canceled");

    const claimed = await delivered();
    const claim = await begin("claims", { order_id: claimed.id, type: "refund" });
    for (const [path, body] of [
      [`/admin/claims/${claim.id}/inbound/items`, { items: [{ id: claimed.shirt, quantity: 1 }] }],
      [`/admin/returns/${claim.return_id}`, { location_id: f.LOC }],
      [`/admin/claims/${claim.id}/request`, {}],
    ] as const) {
      const res = await t.admin.post(path, body);
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await t.admin.post(`/admin/returns/${claim.return_id}/cancel`, {});
    refused(res, 400);
    expect(res.json().message).toContain(`POST /admin/claims/${claim.id}/cancel`);
    expect((await t.admin.get(`/admin/returns/${claim.return_id}`)).json().return).toMatchObject({
      status: "requested",
      claim_id: claim.id,
    });
    expect(await orderViolations(t, claimed.id)).toEqual([]);
  }, 60_000);

  it("asks for what the cancel of a refunded claim leaves owed, payable through the shopper's link", async () => {
    const { o, claim } = await confirmedRefundClaim();
    const refund = await t.admin.post(`/admin/payments/${o.payment_id}/refund`, { amount: 2000 });
    expect(refund.statusCode, refund.body).toBe(200);
    const refunded = await order(o.id);
    expect(refunded).toMatchObject({ version: 2, total: 1200, summary: { pending_difference: 0 } });
    expect(refunded.payment_collections).toHaveLength(1);

    // A failure when the new collection is attached: the claim, the order and its collections as they were.
    const failed = await withFailure(
      t.database.db,
      "order",
      "UPDATE",
      "NEW.payment_collection_ids <> OLD.payment_collection_ids",
      () => cancel("claims", claim.id),
    );
    expect(failed.statusCode, failed.body).toBe(500);
    const still = await order(o.id);
    expect(still).toMatchObject({ version: 2, total: 1200, payment_status: refunded.payment_status });
    expect(still.payment_collections).toHaveLength(1);
    expect((await t.admin.get(`/admin/claims/${claim.id}`)).json().claim.status).not.toBe("canceled");

    // The shirts are charged again and the 20.00 refunded for them is asked for.
    const res = await cancel("claims", claim.id);
    expect(res.statusCode, res.body).toBe(200);
    const now = await order(o.id);
    expect(now).toMatchObject({ version: 3, total: 3200, summary: { pending_difference: 2000 } });
    const link = now.payment_collections.find((c: { id: string }) =>
      refunded.payment_collections.every((r: { id: string }) => r.id !== c.id),
    );
    expect(link).toMatchObject({ amount: 2000, status: "not_paid" });
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id }), 400);

    // The guest pays it through the payment link; the merchant captures it: nothing owed.
    const started = await t.store.post(`/store/payment-collections/${link.id}/payment-sessions`, {
      provider_id: "pp_test",
    });
    expect(started.statusCode, started.body).toBe(200);
    const session = started.json().payment_collection.payment_sessions[0].id;
    const paid = await t.store.post(`/store/payment-collections/${link.id}/payment-sessions/${session}/authorize`, {});
    expect(paid.statusCode, paid.body).toBe(200);
    const payment = (await order(o.id)).payment_collections.find((c: { id: string }) => c.id === link.id).payments[0];
    expect((await t.admin.post(`/admin/payments/${payment.id}/capture`, {})).statusCode).toBe(200);
    expect((await order(o.id)).summary.pending_difference).toBe(0);
    expect(await orderViolations(t, o.id)).toEqual([]);
  });
});
