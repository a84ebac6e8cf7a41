import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder } from "../../testing/orders";
import {
  expectRefused as refused,
  orderEventNames,
  orderViolations,
  useChangeFixtures,
} from "../../testing/order-changes";
import { withFailure } from "../../testing/inject-failure";
import { exchangeScenario } from "../../testing/exchanges";

const t = useTestApp({}, { adminId: "user_exchanges_claims" });
/** Medusa's dialect, as its dashboard calls (money in major units). */
const M = "/medusa/admin";
const f = useChangeFixtures(t, "Exchanges warehouse");

const { delivered, order, stock, begin, exchangeReady } = exchangeScenario(t, f);

describe("exchanges (Medusa's order change, exchange kind)", () => {
  it("returns a unit, sends new lines at the next version, reserves them and asks for the difference", async () => {
    const o = await delivered();
    const before = await stock();
    const exchange = await begin("exchanges", { order_id: o.id, description: "Wrong size" });
    expect(exchange).toMatchObject({ status: "pending", order_version: 2, difference_due: null });
    expect(exchange.return_id).toMatch(/^ret_/);

    // One active change per order: a second exchange, an edit, a claim or a return request wait.
    refused(await t.admin.post("/admin/exchanges", { order_id: o.id }), 400);
    refused(await t.admin.post("/admin/order-edits", { order_id: o.id }), 400);
    refused(await t.admin.post("/admin/claims", { order_id: o.id, type: "refund" }), 400);
    refused(await t.admin.post("/admin/returns", { order_id: o.id }), 400);

    const base = `/admin/exchanges/${exchange.id}`;
    // Refused inbound requests write nothing and leave the exchange usable.
    refused(await t.admin.post(`${base}/inbound/items`, { items: [{ id: o.shirt, quantity: 0 }] }), 400);
    refused(await t.admin.post(`${base}/inbound/items`, { items: [{ id: o.shirt, quantity: -1 }] }), 400);
    refused(await t.admin.post(`${base}/inbound/items`, { items: [{ id: "ordli_nope", quantity: 1 }] }), 400);
    refused(await t.admin.post(`${base}/inbound/items`, { items: [{ id: o.mug, quantity: 1 }] }), 400); // not fulfilled
    refused(await t.admin.post(`${base}/inbound/items`, { items: [{ id: o.shirt, quantity: 3 }] }), 400);
    refused(await t.admin.post(`${base}/inbound/items`, { items: [{ id: o.shirt }] }), 400);
    refused(
      await t.admin.post(`${base}/outbound/items`, { items: [{ variant_id: "variant_nope", quantity: 1 }] }),
      400,
    );
    refused(await t.admin.post(`${base}/outbound/items`, { items: [{ variant_id: f.cap.variant, quantity: 0 }] }), 400);

    const inbound = await t.admin.post(`${base}/inbound/items`, { items: [{ id: o.shirt, quantity: 1 }] });
    expect(inbound.statusCode, inbound.body).toBe(200);
    const shirtLine = inbound.json().order_preview.items.find((i: { id: string }) => i.id === o.shirt);
    expect(shirtLine.return_requested_quantity).toBe(1);
    expect(inbound.json().order_preview.order_change).toMatchObject({
      change_type: "exchange",
      exchange_id: exchange.id,
      return_id: exchange.return_id,
    });
    // The returned shirt's 10.00 is off the total the preview shows.
    expect(inbound.json().order_preview.total).toBe(2200);
    expect(inbound.json().return).toMatchObject({ id: exchange.return_id, status: "open" });

    const outbound = await t.admin.post(`${base}/outbound/items`, {
      items: [{ variant_id: f.cap.variant, quantity: 2 }],
    });
    expect(outbound.statusCode, outbound.body).toBe(200);
    expect(outbound.json().exchange.additional_items).toEqual([
      expect.objectContaining({ quantity: 2, unit_price: 500, variant_id: f.cap.variant }),
    ]);
    const shipping = await t.admin.post(`${base}/outbound/shipping-method`, { shipping_option_id: f.OPTION });
    expect(shipping.statusCode, shipping.body).toBe(200);
    const preview = shipping.json().order_preview;
    expect(preview).toMatchObject({ total: 4100 });
    expect(preview.summary).toMatchObject({ paid_total: 3200, pending_difference: 900 });
    // An outbound method's action is not the inbound's.
    const methodAction = preview.shipping_methods.find(
      (m: { shipping_option_id: string }) => m.shipping_option_id === f.OPTION,
    ).actions[0].id;
    refused(await t.admin.delete(`${base}/inbound/shipping-method/${methodAction}`), 404);

    // The return is the exchange's: it is confirmed with the exchange, not alone; it needs a location.
    refused(await t.admin.post(`/admin/returns/${exchange.return_id}/request`, {}), 400);
    refused(await t.admin.post(`${base}/request`, {}), 400);
    expect((await t.admin.post(`/admin/returns/${exchange.return_id}`, { location_id: f.LOC })).statusCode).toBe(200);

    // Nothing moved before the confirmation.
    expect(await order(o.id)).toMatchObject({ version: 1, total: 3200 });
    expect(await stock()).toEqual(before);

    const confirmed = await t.admin.post(`${base}/request`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().exchange).toMatchObject({ status: "confirmed", difference_due: 900 });
    expect(confirmed.json().return).toMatchObject({ id: exchange.return_id, status: "requested" });
    refused(await t.admin.post(`${base}/request`, {}), 400);
    refused(await t.admin.post(`${base}/outbound/items`, { items: [{ variant_id: f.cap.variant, quantity: 1 }] }), 400);

    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 4100 });
    const capLine = after.items.find((i: { variant_id: string }) => i.variant_id === f.cap.variant);
    expect(capLine).toMatchObject({ quantity: 2, unit_price: 500 });
    expect(after.items.find((i: { id: string }) => i.id === o.shirt).return_requested_quantity).toBe(1);
    expect(after.payment_collections).toHaveLength(2);
    expect(after.payment_collections[1]).toMatchObject({ amount: 900, status: "not_paid" });
    expect(await stock()).toEqual({ shirt: before.shirt, cap_reserved: before.cap_reserved + 2 });
    const listed = (await t.admin.get(`/admin/exchanges?order_id=${o.id}`)).json();
    expect(listed).toMatchObject({ count: 1, exchanges: [{ id: exchange.id, difference_due: 900 }] });
    expect(listed.exchanges[0].additional_items).toEqual([
      expect.objectContaining({ item_id: capLine.id, quantity: 2, item: expect.objectContaining({ id: capLine.id }) }),
    ]);
    // Medusa's dialect, as the dashboard's order page reads it: the line's money in major units.
    const read = (await t.admin.get(`${M}/exchanges?order_id=${o.id}&fields=*additional_items`)).json();
    expect(read.exchanges[0]).toMatchObject({ difference_due: 9 });
    expect(read.exchanges[0].additional_items[0]).toMatchObject({
      unit_price: 5,
      item: { id: capLine.id, unit_price: 5 },
    });
    expect(await orderEventNames(t, o.id)).toEqual(
      expect.arrayContaining(["order.return_requested", "order.updated", "order.exchange_created"]),
    );
    const changes = (await t.admin.get(`/admin/orders/${o.id}/changes?change_type=exchange`)).json().order_changes;
    expect(changes).toEqual([expect.objectContaining({ change_type: "exchange", status: "confirmed", version: 2 })]);
    expect((await t.admin.get(`/admin/orders/${o.id}?version=1`)).json().order.total).toBe(3200);

    // The inbound unit comes back through the return's receipt: restocked, and settled already (the
    // exchange took its worth off at confirmation), so the receipt refunds nothing and owes nothing less.
    const owed = async () => (await t.admin.get(`/admin/orders/${o.id}`)).json().order;
    const beforeReceipt = await owed();
    const received = await t.admin.post(`/admin/returns/${exchange.return_id}/receive`, {
      items: [{ id: o.shirt, quantity: 1 }],
    });
    expect(received.statusCode, received.body).toBe(200);
    expect((await stock()).shirt).toBe(before.shirt + 1);
    const afterReceipt = await owed();
    expect(afterReceipt.summary.pending_difference).toBe(beforeReceipt.summary.pending_difference);
    expect(afterReceipt.summary.pending_difference).toBe(900);
    expect(afterReceipt.refunded_total).toBe(beforeReceipt.refunded_total);
    expect(await orderViolations(t, o.id)).toEqual([]);
  });

  it("answers in Medusa's dialect with money in major units, and cancels a pending exchange", async () => {
    const o = await delivered();
    const begun = await t.admin.post(`${M}/exchanges`, { order_id: o.id });
    expect(begun.statusCode, begun.body).toBe(200);
    const exchange = begun.json().exchange;
    expect(begun.json().order).toMatchObject({ id: o.id, total: 32 });
    const added = await t.admin.post(`${M}/exchanges/${exchange.id}/outbound/items`, {
      items: [{ variant_id: f.cap.variant, quantity: 1, unit_price: 7.5 }],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().exchange.additional_items[0]).toMatchObject({ unit_price: 7.5 });
    expect(added.json().order_preview.total).toBe(39.5);
    const inbound = await t.admin.post(`${M}/exchanges/${exchange.id}/inbound/shipping-method`, {
      shipping_option_id: f.OPTION,
      custom_amount: 3,
    });
    expect(inbound.statusCode, inbound.body).toBe(200);
    const method = inbound
      .json()
      .order_preview.shipping_methods.find((m: { actions?: Array<{ details: { return_id?: string } }> }) =>
        m.actions?.some((a) => a.details.return_id === exchange.return_id),
      );
    expect(method).toMatchObject({ amount: 3 });
    const update = await t.admin.post(`${M}/exchanges/${exchange.id}/inbound/shipping-method/${method.id}`, {
      custom_amount: 4,
    });
    expect(update.statusCode, update.body).toBe(200);
    expect(update.json().order_preview.total).toBe(43.5);

    const canceled = await t.admin.delete(`${M}/exchanges/${exchange.id}/request`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toEqual({ id: exchange.id, object: "exchange", deleted: true });
    refused(await t.admin.get(`/admin/exchanges/${exchange.id}`), 404);
    refused(await t.admin.get(`/admin/returns/${exchange.return_id}`), 404);
    expect(await order(o.id)).toMatchObject({ version: 1, total: 3200 });
    // The order takes a new change again.
    await begin("exchanges", { order_id: o.id });
  });

  it("names the exchange on each action of its preview, and its return on the inbound ones, as the dashboard's form reads them", async () => {
    const o = await delivered();
    // A return option (its `is_return` rule: not offered at checkout) is priced for the way back.
    const returnOption = (
      await t.app.modules.fulfillment.createOption({
        name: "Return by post",
        prices: [{ currency_code: "eur", amount: 400 }],
        stock_location_id: f.LOC,
        rules: [{ attribute: "is_return", operator: "eq", value: "true" }],
      })
    ).id;
    const exchange = await begin("exchanges", { order_id: o.id });
    const base = `${M}/exchanges/${exchange.id}`;
    for (const [path, body] of [
      ["inbound/items", { items: [{ id: o.shirt, quantity: 1 }] }],
      ["inbound/shipping-method", { shipping_option_id: returnOption }],
      ["outbound/items", { items: [{ variant_id: f.cap.variant, quantity: 1 }] }],
      ["outbound/shipping-method", { shipping_option_id: f.OPTION }],
    ] as const) {
      const res = await t.admin.post(`${base}/${path}`, body);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    type Action = { action: string; exchange_id?: string; claim_id?: string; return_id?: string };
    const preview = (await t.admin.get(`${M}/orders/${o.id}/preview`)).json().order as {
      items: Array<{ id: string; variant_id: string; actions?: Action[] }>;
      shipping_methods: Array<{ shipping_option_id: string; amount: number; actions?: Action[] }>;
      order_change: { actions: Action[] };
    };
    // The form finds its lines by `exchange_id`; inbound and outbound by the action and its `return_id`.
    const lineActions = (pick: (i: (typeof preview.items)[number]) => boolean) =>
      preview.items.filter(pick).flatMap((i) => i.actions ?? []);
    expect(lineActions((i) => i.id === o.shirt)).toEqual([
      expect.objectContaining({ action: "RETURN_ITEM", exchange_id: exchange.id, return_id: exchange.return_id }),
    ]);
    const added = lineActions((i) => i.variant_id === f.cap.variant);
    expect(added).toEqual([expect.objectContaining({ action: "ITEM_ADD", exchange_id: exchange.id })]);
    expect(added[0]!.return_id).toBeUndefined();
    const methods = preview.shipping_methods.flatMap((m) => m.actions ?? []);
    expect(methods.filter((a) => a.return_id === exchange.return_id)).toEqual([
      expect.objectContaining({ action: "SHIPPING_ADD", exchange_id: exchange.id }),
    ]);
    expect(methods.filter((a) => !a.return_id)).toEqual([
      expect.objectContaining({ action: "SHIPPING_ADD", exchange_id: exchange.id }),
    ]);
    expect(preview.shipping_methods.find((m) => m.shipping_option_id === returnOption)).toMatchObject({ amount: 4 });
    expect(preview.order_change.actions).toHaveLength(4);
    expect(preview.order_change.actions.every((a) => a.exchange_id === exchange.id && !a.claim_id)).toBe(true);

    // Confirmed, the return shows the inbound method it comes back with (charged on the order).
    expect((await t.admin.post(`${M}/returns/${exchange.return_id}`, { location_id: f.LOC })).statusCode).toBe(200);
    const confirmed = await t.admin.post(`${base}/request`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const shipping = { shipping_option_id: returnOption, name: "Return by post", currency_code: "eur" };
    expect(confirmed.json().return.shipping).toEqual({ ...shipping, amount: 4 });
    expect((await t.admin.get(`/admin/returns/${exchange.return_id}`)).json().return.shipping).toEqual({
      ...shipping,
      amount: 400,
    });
    expect((await t.admin.get(`/admin/returns?order_id=${o.id}`)).json().returns[0].shipping).toEqual({
      ...shipping,
      amount: 400,
    });
    const placed = (await t.admin.get(`/admin/orders/${o.id}`)).json().order;
    expect(placed.returns[0].shipping).toEqual({ ...shipping, amount: 400 });
    expect(
      placed.shipping_methods.filter((m: { shipping_option_id: string }) => m.shipping_option_id === returnOption),
    ).toHaveLength(1);
    // The receipt refunds nothing and owes nothing less: the exchange settled the unit and charged the method.
    const received = await t.admin.post(`/admin/returns/${exchange.return_id}/receive`, {
      items: [{ id: o.shirt, quantity: 1 }],
    });
    expect(received.statusCode, received.body).toBe(200);
    const after = (await t.admin.get(`/admin/orders/${o.id}`)).json().order;
    expect(after.summary.pending_difference).toBe(placed.summary.pending_difference);
    expect(after.refunded_total).toBe(placed.refunded_total);
    expect(await orderViolations(t, o.id)).toEqual([]);
  });

  it("a claim's return shows its inbound shipping method, and none when it has none", async () => {
    const o = await delivered();
    const returnOption = (
      await t.app.modules.fulfillment.createOption({
        name: "Claim pickup",
        prices: [{ currency_code: "eur", amount: 300 }],
        stock_location_id: f.LOC,
        rules: [{ attribute: "is_return", operator: "eq", value: "true" }],
      })
    ).id;
    const claim = await begin("claims", { order_id: o.id, type: "refund" });
    const base = `/admin/claims/${claim.id}`;
    for (const [path, body] of [
      ["claim-items", { items: [{ id: o.shirt, quantity: 1, reason: "production_failure" }] }],
      ["inbound/items", { items: [{ id: o.shirt, quantity: 1 }] }],
      ["inbound/shipping-method", { shipping_option_id: returnOption, custom_amount: 250 }],
    ] as const) {
      const res = await t.admin.post(`${base}/${path}`, body);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    expect((await t.admin.post(`/admin/returns/${claim.return_id}`, { location_id: f.LOC })).statusCode).toBe(200);
    const confirmed = await t.admin.post(`${base}/request`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const shipping = { shipping_option_id: returnOption, name: "Claim pickup", amount: 250, currency_code: "eur" };
    expect(confirmed.json().return.shipping).toEqual(shipping);
    expect((await t.admin.get(`/admin/returns/${claim.return_id}`)).json().return.shipping).toEqual(shipping);
    expect((await t.admin.get(`${M}/returns/${claim.return_id}`)).json().return.shipping).toMatchObject({
      amount: 2.5,
    });

    // An exchange without an inbound method: its return has no shipping.
    const other = await delivered();
    const exchange = await begin("exchanges", { order_id: other.id });
    const inbound = await t.admin.post(`/admin/exchanges/${exchange.id}/inbound/items`, {
      items: [{ id: other.shirt, quantity: 1 }],
    });
    expect(inbound.statusCode, inbound.body).toBe(200);
    expect((await t.admin.post(`/admin/returns/${exchange.return_id}`, { location_id: f.LOC })).statusCode).toBe(200);
    const done = await t.admin.post(`/admin/exchanges/${exchange.id}/request`, {});
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().return.shipping).toBeNull();
  });

  it("lists the shipping options an order can be sent with, and where each ships from", async () => {
    const o = await delivered({ capture: false });
    const listed = await t.admin.get(`${M}/orders/${o.id}/shipping-options`);
    expect(listed.statusCode, listed.body).toBe(200);
    const express = listed.json().shipping_options.find((so: { id: string }) => so.id === f.OPTION) as Record<
      string,
      unknown
    >;
    expect(express).toMatchObject({
      name: "Express",
      calculated_price: { calculated_amount: 9, currency_code: "eur" },
    });
    expect(express).toHaveProperty("service_zone");
    refused(await t.admin.get("/admin/orders/order_nope/shipping-options"), 404);
  });

  it("refuses an exchange of a canceled order, and an unknown one", async () => {
    const { order: placed } = await placeTestOrder(t.app, { sales_channel_id: f.CHANNEL }, { reserve_at: f.LOC });
    expect((await t.admin.post(`/admin/orders/${placed.id}/cancel`, {})).statusCode).toBe(200);
    refused(await t.admin.post("/admin/exchanges", { order_id: placed.id }), 400);
    refused(await t.admin.post("/admin/exchanges", { order_id: "order_nope" }), 404);
    refused(await t.admin.post("/admin/exchanges", {}), 400);
    refused(await t.admin.post("/admin/exchanges/exc_nope/request", {}), 404);
    refused(await t.admin.post("/admin/exchanges/exc_nope/inbound/items", { items: [{ id: "x", quantity: 1 }] }), 404);
    expect((await t.admin.get(`/admin/exchanges?order_id=${placed.id}`)).json()).toMatchObject({ count: 0 });
  });

  it("leaves order, stock and payments as they were when a step of the confirmation fails", async () => {
    const o = await delivered();
    const exchange = await exchangeReady(o.id, o.shirt);
    const before = { order: await order(o.id), stock: await stock() };
    const failures: Array<[string, "INSERT" | "UPDATE", string]> = [
      ["order_return", "INSERT", "true"], // the inbound return
      ["order_version", "INSERT", "true"], // the new version
      ["reservation_item", "INSERT", "true"], // the outbound stock
      ["payment_collection", "INSERT", "true"], // the difference to pay
      ["order", "UPDATE", "NEW.payment_collection_ids <> OLD.payment_collection_ids"], // attached to the order
    ];
    for (const [table, op, when] of failures) {
      const res = await withFailure(t.database.db, table, op, when, () =>
        t.admin.post(`/admin/exchanges/${exchange.id}/request`, {}),
      );
      expect(res.statusCode, `${table}: ${res.body}`).toBe(500);
      const now = await order(o.id);
      expect(now, table).toMatchObject({ version: 1, total: 3200, payment_status: before.order.payment_status });
      expect(
        now.items.map((i: { return_requested_quantity: number }) => i.return_requested_quantity),
        table,
      ).toEqual([0, 0]);
      expect(now.payment_collections, table).toHaveLength(1);
      expect(await stock(), table).toEqual(before.stock);
      expect((await t.admin.get(`/admin/exchanges/${exchange.id}`)).json().exchange.status, table).toBe("pending");
      expect((await t.admin.get(`/admin/returns/${exchange.return_id}`)).json().return.status, table).toBe("open");
    }
    const ok = await t.admin.post(`/admin/exchanges/${exchange.id}/request`, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await order(o.id)).toMatchObject({ version: 2, total: 4100 });
  });

  it("lets one of two simultaneous confirmations win", async () => {
    const o = await delivered();
    const exchange = await exchangeReady(o.id, o.shirt);
    const before = await stock();
    const answers = await Promise.all([
      t.admin.post(`/admin/exchanges/${exchange.id}/request`, {}),
      t.admin.post(`/admin/exchanges/${exchange.id}/request`, {}),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([400, 409]).toContain(codes[1]);
    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 4100 });
    expect(after.items.find((i: { id: string }) => i.id === o.shirt).return_requested_quantity).toBe(1);
    expect(after.payment_collections).toHaveLength(2);
    expect((await stock()).cap_reserved).toBe(before.cap_reserved + 2);
  });
});

describe("claims (Medusa's order change, claim kind)", () => {
  it("a refund claim takes the claimed units' value off the order: a negative difference to refund", async () => {
    const o = await delivered();
    const claim = await begin("claims", { order_id: o.id, type: "refund" });
    const base = `/admin/claims/${claim.id}`;
    refused(await t.admin.post(`${base}/claim-items`, { items: [{ id: o.shirt, quantity: 1, reason: "bogus" }] }), 400);
    refused(await t.admin.post(`${base}/claim-items`, { items: [{ id: o.shirt, quantity: 3 }] }), 400);
    refused(await t.admin.post(`${base}/claim-items`, { items: [{ id: "ordli_nope", quantity: 1 }] }), 400);
    refused(await t.admin.post(`${base}/claim-items`, { items: [{ id: o.shirt, quantity: 0 }] }), 400);
    const claimed = await t.admin.post(`${base}/claim-items`, {
      items: [{ id: o.shirt, quantity: 1, reason: "production_failure", description: "Torn seam" }],
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json().claim.claim_items).toEqual([
      expect.objectContaining({ item_id: o.shirt, quantity: 1, reason: "production_failure", note: "Torn seam" }),
    ]);
    expect(claimed.json().order_preview).toMatchObject({ total: 2200, summary: { pending_difference: -1000 } });
    const action = claimed.json().claim.claim_items[0].id;
    refused(await t.admin.post(`${base}/claim-items/${action}`, { quantity: 3 }), 400);
    const updated = await t.admin.post(`${base}/claim-items/${action}`, { quantity: 2, reason: "wrong_item" });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().order_preview.total).toBe(1200);
    expect((await t.admin.post(`${base}/claim-items/${action}`, { quantity: 1 })).statusCode).toBe(200);

    const confirmed = await t.admin.post(`${base}/request`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().claim).toMatchObject({
      type: "refund",
      status: "confirmed",
      refund_amount: 1000,
      difference_due: -1000,
    });
    expect(confirmed.json().return).toBeUndefined();
    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 2200 });
    expect(after.payment_collections).toHaveLength(1);
    expect((await t.admin.get(`/admin/orders/${o.id}/preview`)).json().order.summary).toMatchObject({
      pending_difference: -1000,
    });
    // Nothing came back: the claim's return was never requested.
    refused(await t.admin.get(`/admin/returns/${claim.return_id}`), 404);
    expect(await orderEventNames(t, o.id)).toEqual(expect.arrayContaining(["order.updated", "order.claim_created"]));
    expect(await orderViolations(t, o.id)).toEqual([]);

    // A claimed unit is not claimed again.
    const second = await begin("claims", { order_id: o.id, type: "refund" });
    refused(
      await t.admin.post(`/admin/claims/${second.id}/claim-items`, { items: [{ id: o.shirt, quantity: 2 }] }),
      400,
    );
    const ok = await t.admin.post(`/admin/claims/${second.id}/claim-items`, { items: [{ id: o.shirt, quantity: 1 }] });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("a replace claim sends its outbound lines at no charge and takes the claimed units back", async () => {
    const o = await delivered();
    const before = await stock();
    const claim = await begin("claims", { order_id: o.id, type: "replace" });
    const base = `${M}/claims/${claim.id}`;
    expect(
      (await t.admin.post(`${base}/claim-items`, { items: [{ id: o.shirt, quantity: 1, reason: "wrong_item" }] }))
        .statusCode,
    ).toBe(200);
    expect((await t.admin.post(`${base}/inbound/items`, { items: [{ id: o.shirt, quantity: 1 }] })).statusCode).toBe(
      200,
    );
    const out = await t.admin.post(`${base}/outbound/items`, {
      items: [{ variant_id: f.cap.variant, quantity: 1, unit_price: 9.99 }],
    });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json().claim.additional_items[0]).toMatchObject({ unit_price: 0 });
    expect(out.json().order_preview.total).toBe(32);
    expect((await t.admin.post(`${M}/returns/${claim.return_id}`, { location_id: f.LOC })).statusCode).toBe(200);

    const confirmed = await t.admin.post(`${base}/request`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().claim).toMatchObject({ type: "replace", difference_due: 0, refund_amount: null });
    expect(confirmed.json().return).toMatchObject({ status: "requested" });
    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 3200 });
    expect(after.items).toHaveLength(3);
    expect(after.payment_collections).toHaveLength(1);
    expect((await stock()).cap_reserved).toBe(before.cap_reserved + 1);
    expect((await t.admin.get(`/admin/claims?order_id=${o.id}`)).json()).toMatchObject({ count: 1 });
    expect(await orderViolations(t, o.id)).toEqual([]);
  });

  it("refuses a claim without a valid type, and one of an unknown order", async () => {
    const o = await delivered({ capture: false });
    refused(await t.admin.post("/admin/claims", { order_id: o.id }), 400);
    refused(await t.admin.post("/admin/claims", { order_id: o.id, type: "gift" }), 400);
    refused(await t.admin.post("/admin/claims", { order_id: "order_nope", type: "refund" }), 404);
    const claim = await begin("claims", { order_id: o.id, type: "refund" });
    // An exchange's id is not a claim's, nor the other way round.
    refused(await t.admin.get(`/admin/exchanges/${claim.id}`), 404);
    refused(await t.admin.post(`/admin/claims/${claim.id}/request`, {}), 400); // nothing to confirm
  });
});
