import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { onPostgres } from "@kasse/db/testing";
import { order as orderTable } from "@kasse/modules/order/tables";
import { payment as paymentTable } from "@kasse/modules/payment/tables";
import { useTestApp } from "../../testing";
import { withFailure } from "../../testing/inject-failure";
import { checkoutReadyCart, checkoutStore, PP_TEST_REGION, TEST_ADDRESS } from "../../testing/checkout";

const t = useTestApp();
let regionId: string;
let optionId: string;
let tee: string;
let limited: string;
let scarce: string;
let campaignId: string;

beforeAll(async () => {
  const m = t.app.modules;
  const store = await checkoutStore(t, {
    region: PP_TEST_REGION,
    variants: [
      { title: "M", sku: "TEE-M", size: "M", stock: 1000, prices: [{ currency_code: "eur", amount: 2000 }] },
      { title: "L", sku: "TEE-L", size: "L", stock: 1, prices: [{ currency_code: "eur", amount: 2000 }] },
      { title: "XL", sku: "TEE-XL", size: "XL", stock: 25, prices: [{ currency_code: "eur", amount: 2000 }] },
    ],
  });
  ({ regionId, optionId } = store);
  [tee, limited, scarce] = store.variantIds as [string, string, string];
  campaignId = (
    await m.promotion.createCampaign({
      name: "Launch",
      campaign_identifier: "launch",
      budget: { type: "usage", limit: 1 },
    })
  ).id;
  await m.promotion.create({
    code: "ONCE",
    type: "standard",
    campaign_id: campaignId,
    application_method: { type: "percentage", target_type: "items", allocation: "across", value: 10 },
  });
}, 60_000);

type Headers = Record<string, string>;
const complete = (cartId: string, headers: Headers = {}) =>
  t.store.post(`/store/carts/${cartId}/complete`, undefined, headers);
const address = TEST_ADDRESS;

type Reply = Awaited<ReturnType<typeof t.store.post>>;

async function ok(res: Promise<Reply>) {
  const answer = await res;
  expect(answer.statusCode, JSON.stringify(answer.json())).toBe(200);
  return answer.json();
}

interface Checkout {
  variant?: string;
  quantity?: number;
  provider?: string;
  behavior?: "authorize" | "decline" | "requires_more" | "error";
  /** The pp_test session's data, when more than a behavior (`hang_ms`, `fail_times`). */
  data?: Record<string, unknown>;
  promo?: string;
  headers?: Headers;
}

/** A cart ready to complete, built through the store API as a storefront does. */
const readyCart = (options: Checkout = {}) =>
  checkoutReadyCart(t, {
    region_id: regionId,
    option_id: optionId,
    variant_id: options.variant ?? tee,
    quantity: options.quantity,
    provider: options.provider,
    data: options.data ?? (options.behavior ? { behavior: options.behavior } : {}),
    promo: options.promo,
    headers: options.headers,
  });

/** Every effect a completion can leave for a cart: orders, reservations, payments, budget, cart state. */
async function effects(cartId: string) {
  const m = t.app.modules;
  const db = t.database.db;
  const state = await m.cart.load(cartId);
  const lineIds = state.items.map((i) => i.id);
  const collection = await m.payment.collectionForCart(cartId);
  const [orders, reservations, payments, campaign] = await Promise.all([
    db.select({ id: orderTable.id }).from(orderTable).where(eq(orderTable.cart_id, cartId)),
    lineIds.length ? m.inventory.listReservations({ line_item_id: lineIds }, { limit: 100, offset: 0 }) : { count: 0 },
    collection
      ? db
          .select()
          .from(paymentTable)
          .where(inArray(paymentTable.payment_collection_id, [collection.id]))
      : [],
    m.promotion.retrieveCampaign(campaignId),
  ]);
  return {
    orders: orders.length,
    reservations: reservations.count,
    live_payments: payments.filter((p) => !p.canceled_at).length,
    canceled_payments: payments.filter((p) => p.canceled_at).length,
    budget_used: campaign.budget?.used,
    completed: state.cart.completed_at !== null,
    collection_status: collection?.status,
  };
}

async function expectCartError(res: Reply, type: string, name: string, message?: RegExp) {
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(body.type).toBe("cart");
  expect(body.error).toMatchObject({ type, name });
  expect(Object.keys(body.error).sort()).toEqual(["message", "name", "type"]);
  if (message) expect(body.error.message).toMatch(message);
  return body;
}

describe("POST /store/carts/{id}/complete: success", () => {
  it("places a pending order with the cart's lines, addresses, shipping and totals, and reserves stock", async () => {
    const cart = await readyCart({ quantity: 2 });
    const res = await complete(cart.id);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.type).toBe("order");
    const order = body.order;
    expect(order.id).toMatch(/^order_/);
    expect(order).toMatchObject({
      status: "pending",
      payment_status: "authorized",
      fulfillment_status: "not_fulfilled",
      email: "ada@example.com",
      currency_code: "eur",
      region_id: regionId,
      sales_channel_id: cart.sales_channel_id,
      locale: null,
      subtotal: cart.subtotal,
      discount_total: cart.discount_total,
      tax_total: cart.tax_total,
      shipping_total: cart.shipping_total,
      total: cart.total,
    });
    expect(order.total).toBe(4500);
    expect(Number.isInteger(order.display_id)).toBe(true);
    expect(order.items).toHaveLength(1);
    expect(order.items[0]).toMatchObject({
      title: cart.items[0].title,
      variant_id: tee,
      quantity: 2,
      unit_price: 2000,
      total: 4000,
    });
    expect(order.items[0].id).toMatch(/^ordli_/);
    expect(order.shipping_methods).toEqual([
      expect.objectContaining({ name: "Standard", amount: 500, shipping_option_id: optionId }),
    ]);
    expect(order.shipping_address).toMatchObject(address);
    expect(order.billing_address).toMatchObject(address);
    expect(order.payment_collections).toEqual([
      expect.objectContaining({ id: cart.payment_collection.id, status: "authorized", authorized_amount: 4500 }),
    ]);
    expect(await effects(cart.id)).toMatchObject({ orders: 1, reservations: 1, live_payments: 1, completed: true });
    expect((await ok(t.store.get(`/store/orders/${order.id}`))).order).toMatchObject({
      id: order.id,
      status: "pending",
    });
    expect((await ok(t.store.get(`/store/carts/${cart.id}`))).cart.completed_at).not.toBeNull();
  });

  it("the order keeps the shopper's locale from the cart, in the store's and the admin's answers", async () => {
    const cart = await readyCart();
    await ok(t.store.post(`/store/carts/${cart.id}`, { locale: "de-DE" }));
    const order = (await ok(complete(cart.id))).order;
    expect(order.locale).toBe("de-DE");
    expect((await ok(t.store.get(`/store/orders/${order.id}`))).order.locale).toBe("de-DE");
    expect((await ok(t.store.get(`/store/orders/${order.id}?fields=id,locale`))).order).toEqual({
      id: order.id,
      locale: "de-DE",
    });
    expect((await ok(t.store.get(`/admin/orders/${order.id}`, await t.adminHeaders()))).order.locale).toBe("de-DE");
  });

  it("completing again returns the same order without placing another", async () => {
    const cart = await readyCart();
    const first = (await ok(complete(cart.id))).order;
    const executions = async () =>
      (await t.app.infra.engine.list({ transaction_id: [cart.id] }, { limit: 100, offset: 0 })).count;
    expect(await executions()).toBe(1);
    const again = await ok(complete(cart.id));
    // Answered from the order itself: no workflow ran.
    expect(await executions()).toBe(1);
    expect(again).toMatchObject({ type: "order", order: { id: first.id, display_id: first.display_id } });
    expect(await effects(cart.id)).toMatchObject({ orders: 1, reservations: 1, live_payments: 1 });
  });

  it("display ids increase from order to order", async () => {
    const a = (await ok(complete((await readyCart()).id))).order;
    const b = (await ok(complete((await readyCart()).id))).order;
    expect(b.display_id).toBeGreaterThan(a.display_id);
  });

  it("uses a payment the customer authorized before completing", async () => {
    const cart = await readyCart({ provider: "pp_test" });
    const session = cart.payment_collection.payment_sessions[0];
    await ok(
      t.store.post(`/store/payment-collections/${cart.payment_collection.id}/payment-sessions/${session.id}/authorize`),
    );
    const order = (await ok(complete(cart.id))).order;
    expect(order).toMatchObject({ payment_status: "authorized" });
    expect(await effects(cart.id)).toMatchObject({ orders: 1, live_payments: 1, canceled_payments: 0 });
  });

  it("a customer's cart is completed with their token only; the order is theirs", async () => {
    const customer = await t.app.modules.customer.create({ email: "grace@example.com" });
    const headers = await t.customerHeaders(customer.id);
    const cart = await readyCart({ headers });
    const stranger = await complete(cart.id, await t.customerHeaders("cus_other"));
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().type).toBe("not_found");
    expect((await complete(cart.id)).statusCode).toBe(404);
    expect(await effects(cart.id)).toMatchObject({ orders: 0, reservations: 0, completed: false });
    const order = (await ok(complete(cart.id, headers))).order;
    expect(order.customer_id).toBe(customer.id);
    // Even completed, the cart stays someone else's for others.
    expect((await complete(cart.id)).statusCode).toBe(404);
  });
});

describe("POST /store/carts/{id}/complete: preconditions", () => {
  const expectMissing = async (cartId: string, pieces: string[], absent: string[] = []) => {
    const res = await complete(cartId);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.type).toBe("invalid_data");
    for (const piece of pieces) expect(body.message).toContain(piece);
    for (const piece of absent) expect(body.message).not.toContain(piece);
    expect(await effects(cartId)).toMatchObject({ orders: 0, reservations: 0, live_payments: 0, completed: false });
  };

  it("names each missing piece with 400 invalid_data and writes nothing, until the cart is complete", async () => {
    const { cart } = await ok(t.store.post("/store/carts", { region_id: regionId }));
    await expectMissing(cart.id, [
      "items",
      "email",
      "shipping address",
      "billing address",
      "shipping method",
      "payment collection",
    ]);
    await ok(t.store.post(`/store/carts/${cart.id}/line-items`, { variant_id: tee, quantity: 1 }));
    await expectMissing(
      cart.id,
      ["email", "shipping address", "billing address", "shipping method", "payment collection"],
      ["items"],
    );
    await ok(t.store.post(`/store/carts/${cart.id}`, { email: "ada@example.com" }));
    await expectMissing(
      cart.id,
      ["shipping address", "billing address", "shipping method", "payment collection"],
      ["email"],
    );
    await ok(t.store.post(`/store/carts/${cart.id}/shipping-address`, address));
    await expectMissing(cart.id, ["billing address", "shipping method", "payment collection"], ["shipping address"]);
    await ok(t.store.post(`/store/carts/${cart.id}/billing-address`, address));
    await expectMissing(cart.id, ["shipping method", "payment collection"], ["billing address"]);
    await ok(t.store.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: optionId }));
    await expectMissing(cart.id, ["payment collection"], ["shipping method"]);
    const { payment_collection } = await ok(t.store.post("/store/payment-collections", { cart_id: cart.id }));
    await expectMissing(cart.id, ["payment session"], ["payment collection"]);
    await ok(
      t.store.post(`/store/payment-collections/${payment_collection.id}/payment-sessions`, {
        provider_id: "pp_system_default",
      }),
    );
    // The earlier refusals do not block the completion once the cart is ready.
    expect((await ok(complete(cart.id))).type).toBe("order");
  });

  it("a payment authorized for another amount than the cart's total is authorized anew: the order's payment is its total", async () => {
    for (const quantity of [1, 3]) {
      // Authorized for 2 units, then the cart shrinks (1) or grows (3): the authorization no longer is its total.
      const cart = await readyCart({ provider: "pp_test", quantity: 2 });
      const collectionId = cart.payment_collection.id;
      const session = cart.payment_collection.payment_sessions[0];
      await ok(t.store.post(`/store/payment-collections/${collectionId}/payment-sessions/${session.id}/authorize`));
      const line = cart.items[0];
      const changed = (await ok(t.store.post(`/store/carts/${cart.id}/line-items/${line.id}`, { quantity }))).cart;
      expect(changed.total).toBe(cart.total + (quantity - 2) * 2000);
      expect(changed.payment_collection).toMatchObject({ status: "authorized", authorized_amount: cart.total });
      const order = (await ok(complete(cart.id))).order;
      expect(order.total).toBe(changed.total);
      const paid = await t.app.modules.payment.retrieveCollection(collectionId);
      expect(paid).toMatchObject({ status: "authorized", amount: order.total, authorized_amount: order.total });
      // The stale authorization is voided at the provider; the one left is the order's total.
      expect(paid.payments.map((p) => [p.amount, p.canceled_at === null])).toEqual([
        [cart.total, false],
        [order.total, true],
      ]);
      expect(await effects(cart.id)).toMatchObject({ orders: 1, live_payments: 1, canceled_payments: 1 });
    }
  });

  it("a failure after the re-authorization voids it too; the next completion, with a new session, pays the total", async () => {
    const cart = await readyCart({ provider: "pp_test", quantity: 2 });
    const collectionId = cart.payment_collection.id;
    const session = cart.payment_collection.payment_sessions[0];
    await ok(t.store.post(`/store/payment-collections/${collectionId}/payment-sessions/${session.id}/authorize`));
    const shrunk = (await ok(t.store.post(`/store/carts/${cart.id}/line-items/${cart.items[0].id}`, { quantity: 1 })))
      .cart;
    const res = await withFailure(t.database.db, "order", "INSERT", "true", () => complete(cart.id));
    await expectCartError(res, "unknown_error", "UnknownError");
    // The stale authorization and the renewed one are both voided: nothing held, nothing placed.
    expect(await effects(cart.id)).toMatchObject({
      orders: 0,
      reservations: 0,
      live_payments: 0,
      canceled_payments: 2,
      completed: false,
    });
    expect((await t.app.modules.payment.collectionForCart(cart.id))!.amount).toBe(shrunk.total);
    await ok(t.store.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: "pp_test" }));
    const order = (await ok(complete(cart.id))).order;
    expect(order.total).toBe(shrunk.total);
    expect(await t.app.modules.payment.retrieveCollection(collectionId)).toMatchObject({
      status: "authorized",
      authorized_amount: shrunk.total,
    });
    expect(await effects(cart.id)).toMatchObject({ orders: 1, live_payments: 1, canceled_payments: 2 });
  });

  it("refuses a payment collection in another currency than the cart", async () => {
    const cart = await readyCart({ provider: "pp_test" });
    await t.database.db.execute(`update payment_collection set currency_code = 'usd' where cart_id = '${cart.id}'`);
    const res = await complete(cart.id);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      type: "invalid_data",
      message: expect.stringMatching(/is in usd, the cart in eur/),
    });
    expect(await effects(cart.id)).toMatchObject({ orders: 0, reservations: 0, completed: false });
  });

  it("a cart write whose amount sync is lost (failure after the cart's commit) still checks out for the cart's total", async () => {
    const cart = await readyCart({ provider: "pp_test", quantity: 1 });
    const collectionId = cart.payment_collection.id;
    expect(cart.payment_collection.amount).toBe(cart.total);
    // Every write of the collection fails while the line is added: the cart's write commits, its sync does not.
    const added = await withFailure(t.database.db, "payment_collection", "UPDATE", "true", () =>
      ok(t.store.post(`/store/carts/${cart.id}/line-items`, { variant_id: tee, quantity: 1 })),
    );
    expect(added.cart.total).toBe(cart.total + 2000);
    expect(added.cart.payment_collection.amount).toBe(cart.total);
    const stale = await t.app.modules.payment.retrieveCollection(collectionId);
    expect(stale.amount).toBe(cart.total);
    expect(stale.payment_sessions[0]!.amount).toBe(cart.total);

    const order = (await ok(complete(cart.id))).order;
    expect(order.total).toBe(added.cart.total);
    const paid = await t.app.modules.payment.retrieveCollection(collectionId);
    expect(paid).toMatchObject({ amount: added.cart.total, authorized_amount: added.cart.total });
    expect(paid.payments.map((p) => p.amount)).toEqual([added.cart.total]);
    expect(await effects(cart.id)).toMatchObject({ orders: 1, live_payments: 1, canceled_payments: 0 });
  });

  it("a lost amount sync is made up before a new session and before the store's authorization", async () => {
    const cart = await readyCart({ provider: "pp_test", quantity: 1 });
    const collectionId = cart.payment_collection.id;
    const grow = () =>
      withFailure(t.database.db, "payment_collection", "UPDATE", "true", () =>
        ok(t.store.post(`/store/carts/${cart.id}/line-items`, { variant_id: tee, quantity: 1 })),
      );
    const once = (await grow()).cart;
    expect(once.payment_collection.amount).toBe(cart.total);
    const session = await ok(
      t.store.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: "pp_test" }),
    );
    expect(session.payment_collection.amount).toBe(once.total);
    expect(session.payment_collection.payment_sessions).toEqual([
      expect.objectContaining({ amount: once.total, status: "pending" }),
    ]);
    const twice = (await grow()).cart;
    expect(twice.payment_collection.amount).toBe(once.total);
    const sessionId = session.payment_collection.payment_sessions[0].id;
    const authorized = await ok(
      t.store.post(`/store/payment-collections/${collectionId}/payment-sessions/${sessionId}/authorize`),
    );
    expect(authorized.payment_collection).toMatchObject({
      status: "authorized",
      amount: twice.total,
      authorized_amount: twice.total,
    });
    expect((await ok(complete(cart.id))).order.total).toBe(twice.total);
  });

  it("answers unknown carts with 404 and bodies with unknown fields with 400", async () => {
    const missing = await complete("cart_missing");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: "not_found", message: expect.stringContaining("cart_missing") });
    const cart = await readyCart();
    const bad = await t.store.post(`/store/carts/${cart.id}/complete`, { bogus: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().type).toBe("invalid_data");
    expect(await effects(cart.id)).toMatchObject({ orders: 0, completed: false });
    expect((await ok(t.store.post(`/store/carts/${cart.id}/complete`, {}))).type).toBe("order");
  });
});

describe("POST /store/carts/{id}/complete: pp_test outcomes and compensation", () => {
  it("authorize: places the order", async () => {
    const cart = await readyCart({ provider: "pp_test", behavior: "authorize" });
    expect((await ok(complete(cart.id))).order).toMatchObject({ payment_status: "authorized" });
  });

  it("decline: payment_authorization_error, cart unchanged, stock released; a new session then completes", async () => {
    const cart = await readyCart({ provider: "pp_test", behavior: "decline" });
    const body = await expectCartError(
      await complete(cart.id),
      "payment_authorization_error",
      "PaymentAuthorizationError",
      /declined/,
    );
    expect(body.cart).toMatchObject({
      id: cart.id,
      completed_at: null,
      total: cart.total,
      items: [expect.objectContaining({ id: cart.items[0].id, quantity: 2 })],
    });
    expect(await effects(cart.id)).toMatchObject({ orders: 0, reservations: 0, live_payments: 0, completed: false });
    // Completing again without fixing the payment fails the same way (a new attempt, not a stored answer).
    await expectCartError(await complete(cart.id), "payment_authorization_error", "PaymentAuthorizationError");
    await ok(
      t.store.post(`/store/payment-collections/${cart.payment_collection.id}/payment-sessions`, {
        provider_id: "pp_test",
        data: { behavior: "authorize" },
      }),
    );
    const done = await ok(complete(cart.id));
    expect(done, JSON.stringify(done.error)).toMatchObject({ type: "order", order: { status: "pending" } });
    expect(await effects(cart.id)).toMatchObject({ orders: 1, reservations: 1, live_payments: 1, completed: true });
  });

  it("requires_more: payment_requires_more_error and nothing kept", async () => {
    const cart = await readyCart({ provider: "pp_test", behavior: "requires_more" });
    const body = await expectCartError(
      await complete(cart.id),
      "payment_requires_more_error",
      "PaymentRequiresMoreError",
    );
    expect(body.cart.completed_at).toBeNull();
    expect(await effects(cart.id)).toMatchObject({ orders: 0, reservations: 0, live_payments: 0, completed: false });
  });

  it("error: the provider failure is compensated and reported", async () => {
    const cart = await readyCart({ provider: "pp_test", behavior: "error" });
    await expectCartError(await complete(cart.id), "provider_error", "ProviderError", /pp_test/);
    expect(await effects(cart.id)).toMatchObject({ orders: 0, reservations: 0, live_payments: 0, completed: false });
  });

  it("flaky: the provider's failures are retried with backoff and the order is placed", async () => {
    const cart = await readyCart({ provider: "pp_test", data: { behavior: "flaky", fail_times: 2 } });
    const done = await ok(complete(cart.id));
    expect(done.order, JSON.stringify(done.error)).toMatchObject({ payment_status: "authorized" });
    expect(await effects(cart.id)).toMatchObject({ orders: 1, reservations: 1, live_payments: 1, completed: true });
    // Failing more often than the step retries: reported and compensated.
    const stubborn = await readyCart({ provider: "pp_test", data: { behavior: "flaky", fail_times: 3 } });
    await expectCartError(await complete(stubborn.id), "provider_error", "ProviderError", /flaky failure 3 of 3/);
    expect(await effects(stubborn.id)).toMatchObject({
      orders: 0,
      reservations: 0,
      live_payments: 0,
      completed: false,
    });
  });

  it("hang: every attempt times out, the checkout compensates, and the provider's late answer changes nothing", async () => {
    // Each of the three attempts waits 5 s; the first one's answer (an authorization) comes at 16 s.
    const cart = await readyCart({ provider: "pp_test", data: { behavior: "hang", hang_ms: 16_000 } });
    const started = Date.now();
    await expectCartError(
      await complete(cart.id),
      "timeout",
      "Timeout",
      /pp_test did not answer the authorization within 5000 ms/,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(15_000);
    const compensated = {
      orders: 0,
      reservations: 0,
      live_payments: 0,
      canceled_payments: 0,
      completed: false,
      collection_status: "not_paid",
    };
    expect(await effects(cart.id)).toMatchObject(compensated);
    await new Promise((resolve) => setTimeout(resolve, started + 17_000 - Date.now()));
    expect(await effects(cart.id)).toMatchObject(compensated);
    const [session] = (await t.app.modules.payment.collectionForCart(cart.id))!.payment_sessions;
    expect(session).toMatchObject({ status: "pending", authorized_at: null });
    // The shopper pays with another session and gets one order.
    await ok(
      t.store.post(`/store/payment-collections/${cart.payment_collection.id}/payment-sessions`, {
        provider_id: "pp_test",
        data: { behavior: "authorize" },
      }),
    );
    expect((await ok(complete(cart.id))).type).toBe("order");
    expect(await effects(cart.id)).toMatchObject({ orders: 1, reservations: 1, live_payments: 1, completed: true });
  }, 40_000);

  it("insufficient inventory: reported in the cart answer, nothing authorized", async () => {
    const first = await readyCart({ variant: limited, quantity: 1, provider: "pp_test" });
    const second = await readyCart({ variant: limited, quantity: 1, provider: "pp_test" });
    expect((await ok(complete(first.id))).type).toBe("order");
    const body = await expectCartError(
      await complete(second.id),
      "invalid_data",
      "InvalidData",
      /insufficient inventory/i,
    );
    expect(body.cart.items[0]).toMatchObject({ variant_id: limited, quantity: 1 });
    expect(await effects(second.id)).toMatchObject({
      orders: 0,
      reservations: 0,
      live_payments: 0,
      canceled_payments: 0,
      completed: false,
    });
  });

  it("promotion budget used up before checkout: cart_changed, nothing authorized, the cart refreshed without the discount", async () => {
    const campaign = await t.app.modules.promotion.createCampaign({
      name: "Twice",
      campaign_identifier: "twice",
      budget: { type: "usage", limit: 1 },
    });
    await t.app.modules.promotion.create({
      code: "TWICE",
      type: "standard",
      campaign_id: campaign.id,
      application_method: { type: "percentage", target_type: "items", allocation: "across", value: 10 },
    });
    const winner = await readyCart({ provider: "pp_test", promo: "TWICE" });
    const late = await readyCart({ provider: "pp_test", promo: "TWICE" });
    expect(late.discount_total).toBeGreaterThan(0);
    const placed = (await ok(complete(winner.id))).order;
    expect(placed.discount_total).toBe(winner.discount_total);
    const refused = await expectCartError(
      await complete(late.id),
      "cart_changed",
      "CartChanged",
      /the promotion TWICE no longer applies \(its campaign's budget is used up\)/,
    );
    // The answer's cart is the refreshed one: what the shopper pays now.
    expect(refused.cart).toMatchObject({ discount_total: 0, total: late.total + late.discount_total, promotions: [] });
    expect(refused.cart.payment_collection.amount).toBe(refused.cart.total);
    expect(await effects(late.id)).toMatchObject({ orders: 0, reservations: 0, live_payments: 0, completed: false });
    // Completing the refreshed cart again pays its new total, with the same session.
    const order = (await ok(complete(late.id))).order;
    expect(order).toMatchObject({ discount_total: 0, total: refused.cart.total });
    expect((await t.app.modules.promotion.retrieveCampaign(campaign.id)).budget?.used).toBe(1);
  });

  it("promotion budget used up while the payment is being authorized: cart_changed, the authorization canceled, the cart refreshed", async () => {
    // ONCE's budget takes one order; the late cart's provider answers after the winner's order is placed.
    const winner = await readyCart({ provider: "pp_test", promo: "ONCE" });
    const late = await readyCart({ provider: "pp_test", promo: "ONCE", data: { behavior: "hang", hang_ms: 1500 } });
    expect(late.discount_total).toBeGreaterThan(0);
    const [lateAnswer] = await Promise.all([
      complete(late.id),
      new Promise((resolve) => setTimeout(resolve, 300)).then(() => ok(complete(winner.id))),
    ]);
    expect((await effects(winner.id)).budget_used).toBe(1);
    const refused = await expectCartError(lateAnswer, "cart_changed", "CartChanged", /budget/i);
    expect(refused.cart).toMatchObject({ discount_total: 0, total: late.total + late.discount_total });
    expect(await effects(late.id)).toMatchObject({
      orders: 0,
      reservations: 0,
      live_payments: 0,
      canceled_payments: 1,
      budget_used: 1,
      completed: false,
    });
    // The voided session is not authorized again (that was a 500: its payment row is kept); a new session is the way on.
    const [voided] = (await t.app.modules.payment.collectionForCart(late.id))!.payment_sessions;
    const again = await t.store.post(
      `/store/payment-collections/${late.payment_collection.id}/payment-sessions/${voided!.id}/authorize`,
      {},
    );
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ type: "not_allowed", message: expect.stringMatching(/canceled/) });
    expect((await effects(late.id)).canceled_payments).toBe(1);
    await ok(
      t.store.post(`/store/payment-collections/${late.payment_collection.id}/payment-sessions`, {
        provider_id: "pp_test",
      }),
    );
    const order = (await ok(complete(late.id))).order;
    expect(order).toMatchObject({ discount_total: 0, total: refused.cart.total });
  });

  it("a failure injected at each step is fully compensated, and the next attempt succeeds", async () => {
    const db = t.database.db;
    // The budget's test: a promotion whose campaign has room for every attempt below.
    const roomy = await t.app.modules.promotion.createCampaign({
      name: "Roomy",
      campaign_identifier: "roomy",
      budget: { type: "usage", limit: 100 },
    });
    await t.app.modules.promotion.create({
      code: "ROOMY",
      type: "standard",
      campaign_id: roomy.id,
      application_method: {
        type: "fixed",
        target_type: "order",
        allocation: "across",
        value: 100,
        currency_code: "eur",
      },
    });
    const used = async () => (await t.app.modules.promotion.retrieveCampaign(roomy.id)).budget?.used;
    const failures: Array<[string, "INSERT" | "UPDATE", string]> = [
      ["reservation_item", "INSERT", "true"],
      ["promotion_campaign_budget", "UPDATE", "true"],
      ["order", "INSERT", "true"],
      ["order_line_item", "INSERT", "true"],
      ["cart", "UPDATE", "NEW.completed_at is not null"],
    ];
    for (const [table, op, when] of failures) {
      const cart = await readyCart({ provider: "pp_test", promo: "ROOMY" });
      const before = await used();
      const res = await withFailure(db, table, op, when, () => complete(cart.id));
      const body = await expectCartError(res, "unknown_error", "UnknownError");
      expect(body.cart, table).toMatchObject({ id: cart.id, completed_at: null, total: cart.total });
      const after = await effects(cart.id);
      expect(after, table).toMatchObject({ orders: 0, reservations: 0, live_payments: 0, completed: false });
      // The authorization happens before the promotion and order steps: those failures void it.
      expect(after.canceled_payments, table).toBe(table === "reservation_item" ? 0 : 1);
      expect(await used(), table).toBe(before);
      await ok(
        t.store.post(`/store/payment-collections/${cart.payment_collection.id}/payment-sessions`, {
          provider_id: "pp_test",
        }),
      );
      const retried = await ok(complete(cart.id));
      expect(retried.type, `${table}: ${JSON.stringify(retried.error)}`).toBe("order");
      expect(await used()).toBe(before! + 1);
    }
  }, 60_000);
});

describe.skipIf(!onPostgres())("POST /store/carts/{id}/complete: concurrency on PostgreSQL", () => {
  it("20 parallel completes of one cart make one order, and all answers carry it", async () => {
    const cart = await readyCart({ provider: "pp_test" });
    const answers = await Promise.all(Array.from({ length: 20 }, () => complete(cart.id)));
    const ids = answers.map((res) => {
      expect(res.statusCode).toBe(200);
      expect(res.json().type).toBe("order");
      return res.json().order.id;
    });
    expect(new Set(ids).size).toBe(1);
    expect(await effects(cart.id)).toMatchObject({ orders: 1, reservations: 1, live_payments: 1 });
  }, 60_000);

  it("40 carts racing for 25 units: exactly 25 orders, the rest told 'insufficient inventory', stock consistent", async () => {
    const carts: Array<{ id: string }> = [];
    for (let i = 0; i < 40; i++) carts.push(await readyCart({ variant: scarce, quantity: 1 }));
    const answers = await Promise.all(carts.map((c) => complete(c.id)));
    const orders = answers.filter((res) => res.json().type === "order");
    const refused = answers.filter((res) => res.json().type === "cart");
    expect(answers.every((res) => res.statusCode === 200)).toBe(true);
    expect(orders).toHaveLength(25);
    expect(refused).toHaveLength(15);
    for (const res of refused) expect(res.json().error.message).toMatch(/insufficient inventory/i);
    const m = t.app.modules;
    const [link] = (await m.inventory.listVariantInventoryItems([scarce])).get(scarce)!;
    const levels = await m.inventory.listLevels(link!.inventory_item_id, {}, { limit: 10, offset: 0 });
    expect(levels.items.reduce((sum, l) => sum + l.reserved_quantity, 0)).toBe(25);
    expect(levels.items.reduce((sum, l) => sum + l.stocked_quantity, 0)).toBe(25);
    const reservations = await m.inventory.listReservations(
      { inventory_item_id: [link!.inventory_item_id] },
      { limit: 100, offset: 0 },
    );
    expect(reservations.count).toBe(25);
    const states = await Promise.all(carts.map((c) => effects(c.id)));
    expect(states.filter((s) => s.completed && s.orders === 1 && s.reservations === 1)).toHaveLength(25);
    expect(states.filter((s) => !s.completed && s.orders === 0 && s.reservations === 0)).toHaveLength(15);
  }, 120_000);
});
