import type { IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { allSubscribers, bindSubscribers } from "@kasse/flows";
import {
  catalogEntries,
  createEventDispatcher,
  eventProblems,
  type EventDispatcher,
  type EventRow,
} from "@kasse/modules/event";
import { event as eventTable } from "@kasse/modules/event/tables";
import { renderTemplate } from "@kasse/modules/notification";
import { notification as notificationTable } from "@kasse/modules/notification/tables";
import { createTestApp, startWebhookReceiver, type TestApp, type WebhookReceiver } from "../src/testing";
import { checkoutReadyCart, checkoutStore, PP_TEST_REGION } from "../src/testing/checkout";

// A dispatcher runs in this process as in embedded mode: it wakes when a workflow releases events,
// so tests wait for its round (`run()`) and look for their messages among all received.
//
// The events a shopper's checkout and an admin's order handling commit, as a receiver and the
// shopper see them: one `order.placed` per order and none for a failed checkout, signed webhooks
// that verify with the `standardwebhooks` package, and the emails the shopper expects.

let t: TestApp;
let admin: Record<string, string>;
let dispatcher: EventDispatcher;
let regionId: string;
let optionId: string;
let locationId: string;
let channelId: string;
let tee: string;
let single: string;
let whsec: string;
let hooks: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
  admin = await t.adminHeaders();
  const m = t.app.modules;
  const store = await checkoutStore(t, {
    region: PP_TEST_REGION,
    variants: [
      { title: "M", sku: "EVT-TEE-M", size: "M", stock: 1000, prices: [{ currency_code: "eur", amount: 2000 }] },
      { title: "L", sku: "EVT-TEE-L", size: "L", stock: 1, prices: [{ currency_code: "eur", amount: 2000 }] },
    ],
  });
  ({ regionId, optionId, locationId, channelId } = store);
  [tee, single] = store.variantIds as [string, string];
  hooks = await startWebhookReceiver();
  const created = await t.admin.post("/admin/webhooks", {
    url: hooks.url,
    events: ["order.placed", "order.canceled", "shipment.created", "payment.refunded"],
  });
  whsec = created.json().webhook.secret;
  dispatcher = createEventDispatcher({
    webhooks: m.webhooks,
    subscribers: bindSubscribers(allSubscribers, { modules: t.app.modules, engine: t.app.infra.engine }),
  });
}, 60_000);
afterAll(async () => {
  await dispatcher.close();
  await hooks.close();
  await t.close();
});

async function ok(res: ReturnType<typeof t.store.post>) {
  const answer = await res;
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

/** A cart ready to complete, built through the store API: two tees paid with the system provider unless told. */
async function readyCart(
  options: { variant?: string; quantity?: number; provider?: string; behavior?: string; email?: string } = {},
) {
  const cart = await checkoutReadyCart(t, {
    region_id: regionId,
    option_id: optionId,
    variant_id: options.variant ?? tee,
    quantity: options.quantity,
    provider: options.provider,
    data: options.behavior ? { behavior: options.behavior } : {},
    email: options.email,
  });
  return cart.id as string;
}

const events = (name: string): Promise<EventRow[]> =>
  t.database.db.select().from(eventTable).where(eq(eventTable.name, name)).orderBy(asc(eventTable.created_at));
const placedFor = async (orderId: string) => (await events("order.placed")).filter((e) => e.data.id === orderId);
const mails = async (template: string) =>
  (await t.database.db.select().from(notificationTable).where(eq(notificationTable.template, template))).map((n) => ({
    ...n,
    ...renderTemplate(n.template, n.data),
  }));
const verify = (r: { headers: IncomingHttpHeaders; body: string }) =>
  new Webhook(whsec).verify(r.body, {
    "webhook-id": String(r.headers["webhook-id"]),
    "webhook-timestamp": String(r.headers["webhook-timestamp"]),
    "webhook-signature": String(r.headers["webhook-signature"]),
  }) as { id: string; type: string; data: Record<string, unknown> };

describe("events of a checkout", () => {
  it("a completed checkout commits one order.placed; the receiver verifies it and the shopper gets a confirmation with items, amounts and addresses", async () => {
    const cartId = await readyCart({ quantity: 2 });
    const completed = await ok(t.store.post(`/store/carts/${cartId}/complete`));
    expect(completed.type).toBe("order");
    const order = completed.order;
    const placed = await placedFor(order.id);
    expect(placed).toHaveLength(1);
    expect(placed[0]!.data).toEqual({
      id: order.id,
      display_id: order.display_id,
      cart_id: cartId,
      customer_id: null,
      email: "ada@example.com",
      currency_code: "eur",
      total: 4500,
      item_count: 2,
    });
    expect((await events("cart.created")).some((e) => e.data.id === cartId)).toBe(true);

    // The dispatcher may already be on it (a workflow in this process released the event): wait for its round.
    await dispatcher.run();
    const message = hooks.received.map(verify).find((m) => m.type === "order.placed" && m.data.id === order.id);
    expect(message).toMatchObject({ id: placed[0]!.id, data: { total: 4500, currency_code: "eur" } });
    const confirmations = (await mails("order.placed")).filter((m) => m.data.order_id === order.id);
    expect(confirmations).toHaveLength(1);
    const mail = confirmations[0]!;
    expect(mail).toMatchObject({
      to: "ada@example.com",
      status: "success",
      subject: `Order #${order.display_id} confirmed`,
    });
    expect(mail.text).toContain("2 × Tee (M): €40.00");
    expect(mail.text).toContain("Shipping: €5.00");
    expect(mail.text).toContain("Total: €45.00");
    expect(mail.text).toContain("Shipping to:\n  Ada Lovelace\n  Hauptstr. 1\n  10115 Berlin\n  DE");
    // Dispatched once: another round sends nothing again.
    await dispatcher.run();
    expect(hooks.received.filter((r) => r.headers["webhook-id"] === placed[0]!.id)).toHaveLength(1);
    expect((await mails("order.placed")).filter((m) => m.data.order_id === order.id)).toHaveLength(1);
  });

  it("a warmed order's background work (dispatch, webhook delivery, confirmation mail) assembles no SQL text", async () => {
    // Each order's event claim, delivery, webhook attempt and mail is hot background work: every
    // statement of it is built once (`builtOnce`), so none is assembled per order once warm.
    const BUILD_BUDGET = 0;
    const placeOrder = async () => {
      const cartId = await readyCart();
      // Events the cart's writes released are dispatched before the recording starts.
      await dispatcher.run();
      let orderId = "";
      const built = await t.database.statements.builds(async () => {
        orderId = (await ok(t.store.post(`/store/carts/${cartId}/complete`))).order.id;
        await dispatcher.run();
      });
      return { orderId, built };
    };
    await placeOrder();
    const { orderId, built } = await placeOrder();
    const [placed] = await placedFor(orderId);
    expect(hooks.received.filter((r) => r.headers["webhook-id"] === placed!.id)).toHaveLength(1);
    const confirmations = (await mails("order.placed")).filter((m) => m.data.order_id === orderId);
    expect(confirmations.map((m) => m.status)).toEqual(["success"]);
    expect(built, built.join("\n")).toHaveLength(BUILD_BUDGET);
  });

  it("a declined payment or stock running out commits no order.placed", async () => {
    const before = (await events("order.placed")).length;
    const declined = await readyCart({ provider: "pp_test", behavior: "decline" });
    const answer = await ok(t.store.post(`/store/carts/${declined}/complete`));
    expect(answer.type).toBe("cart");
    expect(answer.error.type).toBe("payment_authorization_error");

    const first = await readyCart({ variant: single, quantity: 1, provider: "pp_test" });
    const second = await readyCart({ variant: single, quantity: 1, provider: "pp_test" });
    expect((await ok(t.store.post(`/store/carts/${first}/complete`))).type).toBe("order");
    const soldOut = await ok(t.store.post(`/store/carts/${second}/complete`));
    expect(soldOut.type).toBe("cart");
    expect((await events("order.placed")).length).toBe(before + 1);
    // The compensated executions' unreleased events are purged, never delivered.
    await dispatcher.purge();
    await dispatcher.run();
    expect(
      (await events("order.placed")).filter((e) => e.data.cart_id === declined || e.data.cart_id === second),
    ).toHaveLength(0);
  });
});

describe("events of order handling", () => {
  it("shipping with tracking, refunding and canceling: events delivered and the shopper's messages", async () => {
    const shipped = (await ok(t.store.post(`/store/carts/${await readyCart({ email: "grace@example.com" })}/complete`)))
      .order;
    const lines = shipped.items.map((i: { id: string; quantity: number }) => ({ id: i.id, quantity: i.quantity }));
    const location = (await t.app.modules.stockLocation.list({}, { limit: 1, offset: 0 })).items[0]!.id;
    const fulfilled = await ok(
      t.store.post(`/admin/orders/${shipped.id}/fulfillments`, { items: lines, location_id: location }, admin),
    );
    const fulfillmentId = fulfilled.order.fulfillments[0].id;
    await ok(
      t.store.post(
        `/admin/orders/${shipped.id}/fulfillments/${fulfillmentId}/shipments`,
        {
          labels: [
            {
              tracking_number: "1Z999AA10123456784",
              tracking_url: "https://track.example.com/1Z999AA10123456784",
              label_url: "https://labels.example.com/1.pdf",
            },
          ],
        },
        admin,
      ),
    );
    const [collection] = await t.app.modules.payment.listCollections({ id: shipped.payment_collection_ids ?? [] });
    const paymentId =
      collection?.payments[0]?.id ?? (await t.app.modules.payment.collectionForCart(shipped.cart_id))!.payments[0]!.id;
    await ok(t.store.post(`/admin/payments/${paymentId}/capture`, {}, admin));
    await ok(t.store.post(`/admin/payments/${paymentId}/refund`, { amount: 1500 }, admin));

    const canceled = (
      await ok(t.store.post(`/store/carts/${await readyCart({ email: "linus@example.com" })}/complete`))
    ).order;
    await ok(t.store.post(`/admin/orders/${canceled.id}/cancel`, {}, admin));

    await dispatcher.run();
    const messages = hooks.received.map(verify);
    expect(messages.find((m) => m.type === "shipment.created")).toMatchObject({
      data: { id: fulfillmentId, order_id: shipped.id, tracking_numbers: ["1Z999AA10123456784"] },
    });
    expect(messages.find((m) => m.type === "payment.refunded" && m.data.order_id === shipped.id)).toMatchObject({
      data: { id: paymentId, amount: 1500, currency_code: "eur" },
    });
    expect(messages.find((m) => m.type === "order.canceled")).toMatchObject({ data: { id: canceled.id } });
    for (const name of ["order.fulfillment_created", "payment.captured"])
      expect(
        (await events(name)).some((e) => e.data.order_id === shipped.id),
        name,
      ).toBe(true);

    const [shipMail] = (await mails("order.shipped")).filter((m) => m.data.order_id === shipped.id);
    expect(shipMail).toMatchObject({
      to: "grace@example.com",
      status: "success",
      subject: `Order #${shipped.display_id} has shipped`,
    });
    expect(shipMail!.text).toContain("2 × Tee (M): €40.00");
    expect(shipMail!.text).toContain("Tracking:\n  1Z999AA10123456784 https://track.example.com/1Z999AA10123456784");
    const [refundMail] = (await mails("order.refunded")).filter((m) => m.data.order_id === shipped.id);
    expect(refundMail).toMatchObject({ to: "grace@example.com", subject: `Refund for order #${shipped.display_id}` });
    expect(refundMail!.text).toContain("We refunded €15.00 for your order");
    const [cancelMail] = (await mails("order.canceled")).filter((m) => m.data.order_id === canceled.id);
    expect(cancelMail).toMatchObject({ to: "linus@example.com", subject: `Order #${canceled.display_id} canceled` });
    expect(cancelMail!.text).toContain(`Your order #${canceled.display_id} (€45.00) was canceled.`);
  });

  it("a confirmed order edit mails the shopper the changed order and what is still to pay, unless asked not to", async () => {
    const edited = async (email: string, request: Record<string, unknown>) => {
      const order = (await ok(t.store.post(`/store/carts/${await readyCart({ email, quantity: 1 })}/complete`))).order;
      await ok(t.store.post("/admin/order-edits", { order_id: order.id }, admin));
      await ok(t.store.post(`/admin/order-edits/${order.id}/items/item/${order.items[0].id}`, { quantity: 3 }, admin));
      await ok(t.store.post(`/admin/order-edits/${order.id}/request`, request, admin));
      const confirmed = (await ok(t.store.post(`/admin/order-edits/${order.id}/confirm`, {}, admin))).order_preview;
      return { order, confirmed };
    };
    const told = await edited("ada@example.com", {});
    const silent = await edited("alan@example.com", { no_notification: true });
    await dispatcher.run();

    const forOrder = async (id: string) => (await mails("order.edited")).filter((m) => m.data.order_id === id);
    const [mail] = await forOrder(told.order.id);
    expect(mail).toMatchObject({
      to: "ada@example.com",
      status: "success",
      subject: `Order #${told.order.display_id} was changed`,
    });
    expect(mail!.text).toContain("3 × Tee (M): €60.00");
    expect(mail!.text).toContain(`Total: €${(told.confirmed.total / 100).toFixed(2)}`);
    // Paid with the system provider (authorized, not captured): the whole new total is still to pay.
    expect(mail!.text).toContain(`Still to pay: €${(told.confirmed.summary.pending_difference / 100).toFixed(2)}`);
    expect(await forOrder(silent.order.id)).toEqual([]);
    const confirmedEvents = (await events("order-edit.confirmed")).filter((e) => e.data.order_id === silent.order.id);
    expect(confirmedEvents.map((e) => e.data.no_notification)).toEqual([true]);
  });

  /** An order of two tees (€45.00 with shipping), both fulfilled and its payment captured: what a return, an exchange or a claim starts from. */
  async function capturedOrder(email: string) {
    const order = (await ok(t.store.post(`/store/carts/${await readyCart({ email, quantity: 2 })}/complete`))).order;
    const line = order.items[0].id as string;
    const post = (path: string, body: Record<string, unknown>) => ok(t.store.post(path, body, admin));
    await post(`/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: line, quantity: 2 }],
      location_id: locationId,
    });
    const paymentId = (await t.app.modules.payment.collectionForCart(order.cart_id))!.payments[0]!.id;
    await post(`/admin/payments/${paymentId}/capture`, {});
    return { order, email, line, post };
  }
  const mailsFor = async (template: string, orderId: string) =>
    (await mails(template)).filter((m) => m.data.order_id === orderId);
  /** Asserts the one message of `template` for `to.order` (sent once): delivered to `to.email` with `subject`, its text holding each of `says`. */
  const expectOneMail = async (
    template: string,
    to: { order: { id: string }; email: string },
    subject: string,
    ...says: string[]
  ) => {
    const found = await mailsFor(template, to.order.id);
    expect(found, template).toHaveLength(1);
    expect(found[0]).toMatchObject({ to: to.email, subject, status: "success" });
    for (const line of says) expect(found[0]!.text).toContain(line);
  };
  const eventsFor = async (name: string, orderId: string) =>
    (await events(name)).filter((e) => e.data.order_id === orderId);

  it("a return requested and received mails the shopper what to send back and where the money stands, unless asked not to", async () => {
    const told = await capturedOrder("ada@example.com");
    const { return: ret } = await told.post(`/admin/orders/${told.order.id}/returns`, {
      items: [{ id: told.line, quantity: 1 }],
      location_id: locationId,
    });
    await told.post(`/admin/returns/${ret.id}/receive`, {});

    // Medusa's dashboard: the request and the receipt put together, confirmed with its "Send notification" off.
    const silent = await capturedOrder("alan@example.com");
    const begun = (await silent.post("/admin/returns", { order_id: silent.order.id, location_id: locationId })).return;
    await silent.post(`/admin/returns/${begun.id}/request-items`, { items: [{ id: silent.line, quantity: 1 }] });
    await silent.post(`/admin/returns/${begun.id}/request`, { no_notification: true });
    await silent.post(`/medusa/admin/returns/${begun.id}/receive`, {});
    await silent.post(`/admin/returns/${begun.id}/receive-items`, { items: [{ id: silent.line, quantity: 1 }] });
    await silent.post(`/admin/returns/${begun.id}/receive/confirm`, { no_notification: true });
    await dispatcher.run();

    const n = told.order.display_id;
    const sendBack = "Please send back:\n  1 × Tee (M): €20.00";
    const credit = "Once they arrive, €20.00 comes off what you pay";
    await expectOneMail("order.return_requested", told, `Return for order #${n} requested`, sendBack, credit);
    // Captured in full: the tee's €20.00 was refunded at the receipt, so nothing is owed either way.
    const back = "Received:\n  1 × Tee (M): €20.00\n\nNothing is left to pay.";
    await expectOneMail("order.return_received", told, `Return for order #${n} received`, back);
    expect((await mailsFor("order.refunded", told.order.id)).map((m) => m.data.amount)).toEqual([2000]);

    for (const template of ["order.return_requested", "order.return_received"])
      expect(await mailsFor(template, silent.order.id), template).toEqual([]);
    for (const name of ["order.return_requested", "order.return_received"])
      expect(
        (await eventsFor(name, silent.order.id)).map((e) => e.data.no_notification),
        name,
      ).toEqual([true]);
  }, 60_000);

  it("a confirmed exchange mails what comes back, what is sent out and the difference, once; not with no_notification", async () => {
    const exchanged = await capturedOrder("grace@example.com");
    const exchange = async (o: typeof exchanged, request: Record<string, unknown>) => {
      const { exchange: begun } = await o.post("/admin/exchanges", { order_id: o.order.id });
      await o.post(`/admin/exchanges/${begun.id}/inbound/items`, { items: [{ id: o.line, quantity: 1 }] });
      await o.post(`/admin/exchanges/${begun.id}/outbound/items`, { items: [{ variant_id: tee, quantity: 2 }] });
      await o.post(`/admin/returns/${begun.return_id}`, { location_id: locationId });
      await o.post(`/admin/exchanges/${begun.id}/request`, request);
    };
    await exchange(exchanged, {});
    const silent = await capturedOrder("linus@example.com");
    await exchange(silent, { no_notification: true });
    await dispatcher.run();

    // One tee back (€20.00 off) for two more (€40.00): €65.00, of which €45.00 is paid.
    const says =
      "Please send back:\n  1 × Tee (M): €20.00\n\nWe send you:\n  2 × Tee (M): €40.00\n\nNew order total: €65.00\nStill to pay: €20.00";
    await expectOneMail(
      "order.exchange",
      exchanged,
      `Exchange for order #${exchanged.order.display_id} confirmed`,
      says,
    );
    // The exchange's message says what to send back: its inbound return sends none of its own.
    expect(await mailsFor("order.return_requested", exchanged.order.id)).toEqual([]);
    expect(await mailsFor("order.exchange", silent.order.id)).toEqual([]);
    expect((await eventsFor("order.exchange_created", silent.order.id)).map((e) => e.data.no_notification)).toEqual([
      true,
    ]);
  }, 60_000);

  it("a confirmed refund claim mails the claimed units, their refund and what is due back", async () => {
    const claimed = await capturedOrder("barbara@example.com");
    const { claim } = await claimed.post("/admin/claims", { order_id: claimed.order.id, type: "refund" });
    await claimed.post(`/admin/claims/${claim.id}/claim-items`, {
      items: [{ id: claimed.line, quantity: 1, reason: "production_failure" }],
    });
    await claimed.post(`/admin/claims/${claim.id}/request`, {});
    await dispatcher.run();

    const says =
      "Claimed items:\n  1 × Tee (M): €20.00\n\nRefunded for the claimed items: €20.00\n\nNew order total: €25.00\nDue back to you: €20.00";
    await expectOneMail("order.claim", claimed, `Claim for order #${claimed.order.display_id} confirmed`, says);
  }, 60_000);

  it("a converted draft order mails the shopper its confirmation", async () => {
    const { draft_order: draft } = await ok(
      t.store.post(
        "/admin/draft-orders",
        {
          region_id: regionId,
          email: "hedy@example.com",
          sales_channel_id: channelId,
          items: [{ variant_id: tee, quantity: 1 }],
        },
        admin,
      ),
    );
    const { order } = await ok(t.store.post(`/admin/draft-orders/${draft.id}/convert-to-order`, {}, admin));
    await dispatcher.run();
    const to = { order, email: "hedy@example.com" };
    await expectOneMail("order.placed", to, `Order #${order.display_id} confirmed`, "1 × Tee (M): €20.00");
  }, 60_000);

  it("every event committed in this file matches its catalog schema and version", async () => {
    const all = await t.database.db.select().from(eventTable);
    expect(all.length).toBeGreaterThan(10);
    const versions = new Map(catalogEntries().map((e) => [e.name, e.version]));
    for (const row of all) {
      expect(eventProblems(row.name, row.data), `${row.name} ${JSON.stringify(row.data)}`).toEqual([]);
      expect(row.version).toBe(versions.get(row.name as never));
    }
    const names = new Set(all.map((e) => e.name));
    for (const name of [
      "order.placed",
      "order.canceled",
      "order.fulfillment_created",
      "shipment.created",
      "payment.captured",
      "payment.refunded",
      "cart.created",
      "cart.updated",
      "order-edit.confirmed",
      "order.exchange_created",
      "order.claim_created",
      "order.return_requested",
      "order.return_received",
      "inventory-item.updated",
    ])
      expect(names, name).toContain(name);
  });
});
