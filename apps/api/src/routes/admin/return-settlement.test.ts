import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { checkInvariants } from "@kasse/operations";
import { useTestApp } from "../../testing";
import { fulfilledTestOrder, placeTestOrder, stockTestVariants } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";
import { orderBooks } from "../../testing/books";

const t = useTestApp({}, { adminId: "user_return_settlement" });
/** Medusa's dialect, as its dashboard calls (money in major units). */
const M = "/medusa/admin";
let LOC: string;
let items: Record<string, string>;
/** A return option (Medusa's `is_return` rule) shipping back to LOC, 3.00; and an outbound option. */
let RETURN_OPTION: string;
let OUTBOUND: string;

beforeAll(async () => {
  LOC = (await t.app.modules.stockLocation.create({ name: "Returns warehouse" })).id;
  items = await stockTestVariants(t.app, [LOC]);
  RETURN_OPTION = (
    await t.app.modules.fulfillment.createOption({
      name: "Return by post",
      prices: [{ currency_code: "eur", amount: 300 }],
      stock_location_id: LOC,
      rules: [{ attribute: "is_return", operator: "eq", value: "true" }],
    })
  ).id;
  OUTBOUND = (
    await t.app.modules.fulfillment.createOption({ name: "Courier", prices: [{ currency_code: "eur", amount: 900 }] })
  ).id;
});

/** A 4xx `{type, message}` answer. */
function refused(res: { statusCode: number; json: () => unknown; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { type: string; message: string };
  expect(typeof body.type).toBe("string");
  expect(typeof body.message).toBe("string");
}
/** A 200 answer (its JSON read by the caller). */
const ok = <R extends { statusCode: number; body: string }>(res: R): R => {
  expect(res.statusCode, res.body).toBe(200);
  return res;
};
const order = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const books = (id: string) => orderBooks(t, id);
const shirtStock = async () =>
  (await t.app.modules.inventory.retrieveLevel(items.variant_shirt!, LOC)).stocked_quantity;
const eventNames = async (orderId: string): Promise<string[]> => {
  const result = (await t.database.db.execute(
    sql`select name from event where data->>'order_id' = ${orderId} or data->>'id' = ${orderId} order by created_at, id`,
  )) as unknown as Array<{ name: string }> | { rows: Array<{ name: string }> };
  return (Array.isArray(result) ? result : result.rows).map((r) => r.name);
};
const violations = async () =>
  (await checkInvariants(t.app.modules, { leaseMs: 9_000, recoveryEveryMs: 5_000 })).flatMap((r) =>
    r.name.startsWith("payments") || r.name.startsWith("inventory")
      ? r.violations.map((v) => `${r.name}: ${v.id} ${v.problem}`)
      : [],
  );

/** Requests a return of `quantity` shirts (line `lineId`) to LOC at once (the contract's route). */
const returnShirts = async (orderId: string, lineId: string, quantity: number) =>
  ok(
    await t.admin.post(`/admin/orders/${orderId}/returns`, { items: [{ id: lineId, quantity }], location_id: LOC }),
  ).json().return as { id: string };

/** An order whose two shirts (10.00 each) are fulfilled from LOC, its 32.00 captured. */
async function paidFulfilledOrder() {
  const o = await fulfilledTestOrder(t, LOC);
  const collection = (await order(o.id)).payment_collections[0];
  ok(await t.admin.post(`/admin/payments/${collection.payments[0].id}/capture`, {}));
  return { ...o, payment_id: collection.payments[0].id as string };
}

describe("return shipping and the refund on receipt", () => {
  it("gives a return request its return shipping, then refunds what each receipt brings back less it", async () => {
    const o = await paidFulfilledOrder();
    const shirt = o.items[0]!.id;
    const begun = ok(await t.admin.post(`${M}/returns`, { order_id: o.id, location_id: LOC })).json().return;
    ok(await t.admin.post(`${M}/returns/${begun.id}/request-items`, { items: [{ id: shirt, quantity: 2 }] }));

    // Only a return option, a live one, priced or given a price.
    const base = `${M}/returns/${begun.id}/shipping-method`;
    refused(await t.admin.post(base, { shipping_option_id: OUTBOUND }), 400);
    refused(await t.admin.post(base, { shipping_option_id: "so_missing" }), 400);
    refused(await t.admin.post(base, {}), 400);
    refused(await t.admin.post(base, { shipping_option_id: RETURN_OPTION, custom_amount: -1 }), 400);
    refused(await t.admin.post(`${M}/returns/ret_missing/shipping-method`, { shipping_option_id: RETURN_OPTION }), 404);

    const added = ok(await t.admin.post(base, { shipping_option_id: RETURN_OPTION })).json();
    expect(added.return.shipping).toMatchObject({ shipping_option_id: RETURN_OPTION, amount: 3, currency_code: "eur" });
    const method = added.order_preview.shipping_methods.find((m: { return_id?: string }) => m.return_id === begun.id);
    expect(method).toMatchObject({ name: "Return by post", amount: 3, total: 3 });
    expect(method.actions).toEqual([expect.objectContaining({ action: "SHIPPING_ADD", return_id: begun.id })]);
    const actionId = method.actions[0].id as string;
    refused(await t.admin.post(base, { shipping_option_id: RETURN_OPTION }), 400);

    const repriced = ok(await t.admin.post(`${base}/${actionId}`, { custom_amount: 2.5 })).json();
    expect(repriced.return.shipping).toMatchObject({ amount: 2.5 });
    refused(await t.admin.post(`${base}/ordchact_missing`, { custom_amount: 1 }), 404);
    refused(await t.admin.delete(`${base}/ordchact_missing`), 404);
    const removed = ok(await t.admin.delete(`${base}/${actionId}`)).json();
    expect(removed.return.shipping).toBeNull();
    expect(removed.order_preview.shipping_methods.some((m: { return_id?: string }) => m.return_id)).toBe(false);
    ok(await t.admin.post(base, { shipping_option_id: RETURN_OPTION }));

    const requested = ok(await t.admin.post(`${M}/returns/${begun.id}/request`, {})).json();
    expect(requested.return).toMatchObject({ status: "requested", shipping: { amount: 3 } });
    // The request is confirmed: its shipping is no longer changed.
    refused(await t.admin.post(base, { shipping_option_id: RETURN_OPTION }), 400);
    expect(await books(o.id)).toMatchObject({ refunded_total: 0, pending_difference: 0 });

    // The dashboard's receipt: one shirt back; the refund is its 10.00 less the 3.00 shipping.
    const stocked = await shirtStock();
    ok(await t.admin.post(`${M}/returns/${begun.id}/receive`, {}));
    ok(await t.admin.post(`${M}/returns/${begun.id}/receive-items`, { items: [{ id: shirt, quantity: 1 }] }));
    ok(await t.admin.post(`${M}/returns/${begun.id}/receive/confirm`, {}));
    expect(await books(o.id)).toMatchObject({
      payment_status: "partially_refunded",
      paid_total: 3200,
      refunded_total: 700,
      pending_difference: 0,
    });
    expect(await shirtStock()).toBe(stocked + 1);

    // The second shirt: its whole 10.00 (the shipping was taken once).
    ok(await t.admin.post(`/admin/returns/${begun.id}/receive`, { items: [{ id: shirt, quantity: 1 }] }));
    expect(await books(o.id)).toMatchObject({ refunded_total: 1700, pending_difference: 0 });
    expect(await shirtStock()).toBe(stocked + 2);
    const names = await eventNames(o.id);
    expect(names.filter((n) => n === "payment.refunded")).toHaveLength(2);
    expect(names).toContain("order.return_received");
    const log = (await t.admin.get(`/admin/orders/${o.id}/changes?limit=100`)).json().order_changes;
    expect(log.filter((c: { action: string }) => c.action === "return_refunded")).toHaveLength(2);
    expect(await violations()).toEqual([]);
  });

  it("refunds nothing of an uncaptured order: it owes less, and a capture takes only that", async () => {
    const o = await fulfilledTestOrder(t, LOC);
    const created = await returnShirts(o.id, o.items[0]!.id, 1);
    ok(await t.admin.post(`/admin/returns/${created.id}/receive`, {}));
    expect(await books(o.id)).toMatchObject({
      payment_status: "authorized",
      refunded_total: 0,
      pending_difference: 2200,
    });
    const collection = (await order(o.id)).payment_collections[0];
    refused(
      await t.admin.post(`/admin/orders/${o.id}/payment-collections/${collection.id}/capture`, { amount: 2201 }),
      400,
    );
    ok(await t.admin.post(`/admin/orders/${o.id}/payment-collections/${collection.id}/capture`, {}));
    expect(await books(o.id)).toMatchObject({ paid_total: 2200, pending_difference: 0 });
    expect(await violations()).toEqual([]);
  });

  it("leaves the receipt, the stock and the payments as they were when its refund fails", async () => {
    const o = await paidFulfilledOrder();
    const created = await returnShirts(o.id, o.items[0]!.id, 2);
    const [stocked, before] = [await shirtStock(), await books(o.id)];
    const res = await withFailure(t.database.db, "payment_refund", "INSERT", "true", () =>
      t.admin.post(`/admin/returns/${created.id}/receive`, {}),
    );
    expect(res.statusCode, res.body).toBe(500);
    expect(await books(o.id)).toEqual(before);
    expect(await shirtStock()).toBe(stocked);
    const ret = (await t.admin.get(`/admin/returns/${created.id}`)).json().return;
    expect(ret).toMatchObject({ status: "requested", items: [expect.objectContaining({ received_quantity: 0 })] });
    // Once nothing fails, the receipt refunds the two shirts.
    ok(await t.admin.post(`/admin/returns/${created.id}/receive`, {}));
    expect(await books(o.id)).toMatchObject({ refunded_total: 2000, pending_difference: 0 });
  });

  it("receives and refunds once when two receipts race", async () => {
    const o = await paidFulfilledOrder();
    const created = await returnShirts(o.id, o.items[0]!.id, 2);
    const stocked = await shirtStock();
    const answers = await Promise.all([0, 1].map(() => t.admin.post(`/admin/returns/${created.id}/receive`, {})));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(await books(o.id)).toMatchObject({ refunded_total: 2000, pending_difference: 0 });
    expect(await shirtStock()).toBe(stocked + 2);
    expect(await violations()).toEqual([]);
  });
});

describe("POST /store/returns", () => {
  const customer = "cus_returning";

  it("lets a signed-in customer return units of their own order, with a return option", async () => {
    const { order: o, payment_id } = await placeTestOrder(t.app, { customer_id: customer }, { reserve_at: LOC });
    ok(
      await t.admin.post(`/admin/orders/${o.id}/fulfillments`, {
        items: [{ id: o.items[0]!.id, quantity: 2 }],
        location_id: LOC,
      }),
    );
    ok(await t.admin.post(`/admin/payments/${payment_id}/capture`, {}));
    const shirt = o.items[0]!.id;
    const body = { order_id: o.id, items: [{ id: shirt, quantity: 1 }], return_shipping: { option_id: RETURN_OPTION } };

    // Not theirs, nobody's, not signed in, bad bodies: refused, nothing written.
    refused(await t.customer("cus_someone_else").post("/store/returns", body), 404);
    refused(await t.customer(customer).post("/store/returns", { ...body, order_id: "order_missing" }), 404);
    refused(await t.store.post("/store/returns", body), 401);
    const guest = await placeTestOrder(t.app, {}, { reserve_at: LOC });
    refused(await t.customer(customer).post("/store/returns", { ...body, order_id: guest.order.id }), 404);
    const customerOf = t.customer(customer);
    refused(await customerOf.post("/store/returns", { ...body, items: [{ id: shirt, quantity: 0 }] }), 400);
    refused(await customerOf.post("/store/returns", { ...body, items: [{ id: shirt, quantity: 3 }] }), 400);
    refused(await customerOf.post("/store/returns", { ...body, items: [{ id: o.items[1]!.id, quantity: 1 }] }), 400);
    refused(await customerOf.post("/store/returns", { ...body, return_shipping: { option_id: OUTBOUND } }), 400);
    refused(
      await customerOf.post("/store/returns", { ...body, return_shipping: { option_id: RETURN_OPTION, price: 0 } }),
      400,
    );
    refused(await customerOf.post("/store/returns", { ...body, items: [] }), 400);
    expect((await order(o.id)).returns).toEqual([]);

    const res = ok(await t.customer(customer).post("/medusa/store/returns", body)).json();
    expect(res.return).toMatchObject({
      order_id: o.id,
      status: "requested",
      location_id: LOC,
      shipping: { shipping_option_id: RETURN_OPTION, amount: 3 },
      items: [expect.objectContaining({ item_id: shirt, quantity: 1 })],
    });
    // The merchant receives it: 10.00 less the 3.00 return shipping goes back.
    ok(await t.admin.post(`/admin/returns/${res.return.id}/receive`, {}));
    expect(await books(o.id)).toMatchObject({ refunded_total: 700, pending_difference: 0 });
  });
});
