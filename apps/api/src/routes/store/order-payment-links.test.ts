import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp, type Requester } from "../../testing";
import { editFirstLine, placeTestOrder, stockTestVariants } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";
import { orderBooks, paymentViolations } from "../../testing/books";

// The payment link of Medusa's dashboard ("Copy payment link"): the shopper pays an order's
// difference through the store's payment-collection routes.

const t = useTestApp({}, { adminId: "user_paylink" });
const SHOPPER = "cus_paylink_owner";
let REGION: string;
let LOC: string;
let CHANNEL: string;
let shopper: Requester;

beforeAll(async () => {
  LOC = (await t.app.modules.stockLocation.create({ name: "Paylink warehouse" })).id;
  CHANNEL = (await t.app.modules.salesChannel.create({ name: "Paylink channel" })).id;
  await t.app.modules.stockLocation.updateSalesChannels(LOC, { add: [CHANNEL] });
  await stockTestVariants(t.app, [LOC]);
  const region = await t.app.modules.region.create({
    name: "Paylink",
    currency_code: "eur",
    countries: ["fr"],
    payment_providers: ["pp_test"],
  });
  REGION = region.id;
  shopper = t.customer(SHOPPER);
});

/** A 4xx `{type, message}` answer. */
function refused(res: { statusCode: number; json: () => unknown; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { type: string; message: string };
  expect(typeof body.type).toBe("string");
  expect(typeof body.message).toBe("string");
}
const books = (id: string) => orderBooks(t, id);

/**
 * An order of 32.00 of `customer` (null: a guest) in the pp_test region, its checkout payment
 * captured (`capture`) or only authorized, then edited to 3 shirts: 10.00 owed, asked for by a
 * new collection (the payment link's). Answers the order, that collection's id and the checkout's payment.
 */
async function owingOrder(customer: string | null = SHOPPER, capture = true) {
  const placed = await placeTestOrder(
    t.app,
    { sales_channel_id: CHANNEL, region_id: REGION, customer_id: customer },
    { reserve_at: LOC },
  );
  if (capture) {
    const captured = await t.admin.post(`/admin/payments/${placed.payment_id}/capture`, {});
    expect(captured.statusCode, captured.body).toBe(200);
  }
  await editFirstLine(t, placed.order.id, 3);
  const o = (await t.admin.get(`/admin/orders/${placed.order.id}`)).json().order;
  const link = (o.payment_collections as Array<{ id: string; status: string }>).find(
    (c) => c.id !== placed.collection_id,
  )!;
  expect(link.status).toBe("not_paid");
  return { order: placed.order, link: link.id, checkout_payment: placed.payment_id };
}

const sessions = (link: string) => `/store/payment-collections/${link}/payment-sessions`;
/** Starts a pp_test session (behaving as `data` says) as `who`; answers the response. */
const startSession = (who: Requester, link: string, data?: Record<string, unknown>, prefix = "") =>
  who.post(`${prefix}${sessions(link)}`, { provider_id: "pp_test", ...(data ? { data } : {}) });
const sessionOf = (res: { json: () => { payment_collection: { payment_sessions: Array<{ id: string }> } } }) =>
  res.json().payment_collection.payment_sessions[0]!.id;
const authorize = (who: Requester, link: string, session: string, prefix = "") =>
  who.post(`${prefix}${sessions(link)}/${session}/authorize`, {});

describe("paying an order's payment link in the store", () => {
  it("lets the order's customer pay the difference with pp_test; the order's books follow", async () => {
    const { order, link } = await owingOrder(SHOPPER, false);
    expect(await books(order.id)).toMatchObject({
      payment_status: "partially_authorized",
      pending_difference: 4200,
      collections: [
        [3200, "authorized"],
        [1000, "not_paid"],
      ],
    });

    // Medusa's dialect, as its storefront calls: amounts in major units.
    const started = await startSession(shopper, link, undefined, "/medusa");
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().payment_collection).toMatchObject({ id: link, amount: 10, currency_code: "eur" });
    const paid = await authorize(shopper, link, sessionOf(started), "/medusa");
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().payment_collection).toMatchObject({ id: link, amount: 10, status: "authorized" });
    expect(await books(order.id)).toMatchObject({
      payment_status: "authorized",
      pending_difference: 4200,
      collections: [
        [3200, "authorized"],
        [1000, "authorized"],
      ],
    });
    const changes = (await t.admin.get(`/admin/orders/${order.id}/changes?limit=100`)).json().order_changes;
    expect(changes.map((c: { action: string }) => c.action)).toContain("payment_authorized");

    // The merchant captures both, as after checkout: nothing is owed any more.
    const o = (await t.admin.get(`/admin/orders/${order.id}`)).json().order;
    for (const collection of o.payment_collections as Array<{ payments: Array<{ id: string }> }>) {
      const captured = await t.admin.post(`/admin/payments/${collection.payments[0]!.id}/capture`, {});
      expect(captured.statusCode, captured.body).toBe(200);
    }
    expect(await books(order.id)).toMatchObject({
      payment_status: "captured",
      paid_total: 4200,
      pending_difference: 0,
    });

    // Paid: a new session or the admin's marking is refused; the same authorization again answers the same payment.
    refused(await startSession(shopper, link), 400);
    refused(await t.admin.post(`/admin/payment-collections/${link}/mark-as-paid`, { order_id: order.id }), 400);
    const again = await authorize(shopper, link, sessionOf(started));
    expect(again.statusCode, again.body).toBe(200);
    const collection = (await t.admin.get(`/admin/orders/${order.id}`)).json().order.payment_collections[1];
    expect(collection.payments).toHaveLength(1);
    expect(await paymentViolations(t)).toEqual([]);
  });

  it("answers 404 to anyone but the order's customer, and refuses what cannot be paid", async () => {
    const { order, link } = await owingOrder();
    // Another customer, a signed-out shopper, an unknown collection: not found.
    refused(await startSession(t.customer("cus_paylink_other"), link), 404);
    refused(await startSession(t.store, link), 404);
    refused(await startSession(shopper, "pay_col_missing"), 404);
    const started = await startSession(shopper, link);
    expect(started.statusCode, started.body).toBe(200);
    refused(await authorize(t.customer("cus_paylink_other"), link, sessionOf(started)), 404);
    refused(await authorize(t.store, link, sessionOf(started)), 404);
    refused(await authorize(shopper, link, "payses_missing"), 404);
    // A provider the region does not offer; bad bodies.
    refused(await shopper.post(sessions(link), { provider_id: "pp_system_default" }), 400);
    refused(await shopper.post(sessions(link), {}), 400);
    refused(await shopper.post(sessions(link), { provider_id: 7 }), 400);
    refused(await shopper.post(sessions(link), { provider_id: "pp_test", extra: 1 }), 400);
    refused(await shopper.post(`${sessions(link)}/${sessionOf(started)}/authorize`, { context: "x" }), 400);

    // The order changed since the link was made: it owes less than the link asks for.
    await editFirstLine(t, order.id, 2);
    refused(await startSession(shopper, link), 400);
    refused(await authorize(shopper, link, sessionOf(started)), 400);
    expect((await books(order.id)).collections).toEqual([
      [3200, "authorized"],
      [1000, "not_paid"],
    ]);

    // A canceled order's link is not paid.
    const canceled = await owingOrder();
    const session = sessionOf(await startSession(shopper, canceled.link));
    expect((await t.admin.post(`/admin/orders/${canceled.order.id}/cancel`, {})).statusCode).toBe(200);
    refused(await authorize(shopper, canceled.link, session), 400);
    expect(await paymentViolations(t)).toEqual([]);
  });

  it("lets whoever holds a guest order's link pay it", async () => {
    const { order, link } = await owingOrder(null);
    const started = await startSession(t.store, link);
    expect(started.statusCode, started.body).toBe(200);
    const paid = await authorize(t.store, link, sessionOf(started));
    expect(paid.statusCode, paid.body).toBe(200);
    expect(await books(order.id)).toMatchObject({
      payment_status: "partially_captured",
      collections: [
        [3200, "authorized"],
        [1000, "authorized"],
      ],
    });
  });

  it("reports a decline and changes nothing; the shopper pays with a new session", async () => {
    const { order, link } = await owingOrder();
    const before = await books(order.id);
    const declined = await authorize(
      shopper,
      link,
      sessionOf(await startSession(shopper, link, { behavior: "decline" })),
    );
    refused(declined, 400);
    expect(declined.json().type).toBe("payment_authorization_error");
    expect(await books(order.id)).toEqual(before);

    const failed = await authorize(shopper, link, sessionOf(await startSession(shopper, link, { behavior: "error" })));
    expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    expect(await books(order.id)).toEqual(before);

    const paid = await authorize(shopper, link, sessionOf(await startSession(shopper, link)));
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await books(order.id)).collections).toEqual([
      [3200, "authorized"],
      [1000, "authorized"],
    ]);
  });

  it("leaves the order and its link as they were when a step after the authorization fails", async () => {
    const { order, link } = await owingOrder();
    const before = await books(order.id);
    const session = sessionOf(await startSession(shopper, link));
    const failed = await withFailure(t.database.db, "order_change", "INSERT", "NEW.action = 'payment_authorized'", () =>
      authorize(shopper, link, session),
    );
    expect(failed.statusCode).toBe(500);
    // The authorization was voided; the link is still payable.
    expect(await books(order.id)).toEqual(before);
    const voided = (await t.admin.get(`/admin/orders/${order.id}`)).json().order.payment_collections[1];
    expect(voided.payments.every((p: { canceled_at: string | null }) => p.canceled_at !== null)).toBe(true);

    const paid = await authorize(shopper, link, sessionOf(await startSession(shopper, link)));
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await books(order.id)).collections[1]).toEqual([1000, "authorized"]);
    expect(await paymentViolations(t)).toEqual([]);
  });

  it("makes one payment of two concurrent authorizations, and of the shopper racing the admin's marking", async () => {
    const { order, link } = await owingOrder();
    const session = sessionOf(await startSession(shopper, link));
    const both = await Promise.all([0, 1].map(() => authorize(shopper, link, session)));
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    let collection = (await t.admin.get(`/admin/orders/${order.id}`)).json().order.payment_collections[1];
    expect(collection.payments).toHaveLength(1);

    const raced = await owingOrder();
    const racing = sessionOf(await startSession(shopper, raced.link));
    const [shopperPaid, marked] = await Promise.all([
      authorize(shopper, raced.link, racing),
      t.admin.post(`/admin/payment-collections/${raced.link}/mark-as-paid`, { order_id: raced.order.id }),
    ]);
    const codes = [shopperPaid.statusCode, marked.statusCode];
    expect(
      codes.filter((c) => c === 200),
      `${shopperPaid.body} ${marked.body}`,
    ).toHaveLength(1);
    expect(codes.every((c) => c === 200 || (c >= 400 && c < 500))).toBe(true);
    collection = (await t.admin.get(`/admin/orders/${raced.order.id}`)).json().order.payment_collections[1];
    const live = collection.payments.filter((p: { canceled_at: string | null }) => p.canceled_at === null);
    expect(live).toHaveLength(1);
    expect(await books(raced.order.id)).toMatchObject(
      marked.statusCode === 200
        ? { payment_status: "captured", pending_difference: 0 }
        : { payment_status: "partially_captured", pending_difference: 1000 },
    );
    expect(await paymentViolations(t)).toEqual([]);
  });
});
