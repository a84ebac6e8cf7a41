import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { onPostgres } from "@kasse/db/testing";
import { paymentSession, paymentWebhookEvent } from "@kasse/modules/payment/tables";
import {
  eventsOf,
  orderCounts,
  payIntent,
  startStripeTestApp,
  stripeCart,
  webhooksSettled,
  webhookTarget,
  type StripeTestApp,
} from "../testing/stripe";

// pp_stripe_stripe end to end: the real SDK against the Stripe fake (no internet), the store and
// admin APIs in both dialects, and webhooks processed by the worker's queue (consumed in this process).

let s: StripeTestApp;
beforeAll(async () => {
  s = await startStripeTestApp();
});
afterAll(() => s?.close());

const complete = (cartId: string, base = "") => s.t.store.post(`${base}/store/carts/${cartId}/complete`);
const send = (events: Parameters<StripeTestApp["fake"]["sendEvents"]>[1], options = {}) =>
  s.fake.sendEvents(webhookTarget(s.t), events, options);
const sessionsOf = (collectionId: string) =>
  s.t.database.db.select().from(paymentSession).where(eq(paymentSession.payment_collection_id, collectionId));

describe("configuration", () => {
  it("a region offers pp_stripe_stripe; an unknown provider is a 400 and writes nothing, in both dialects", async () => {
    for (const base of ["", "/medusa"]) {
      const ok = await s.t.admin.post(`${base}/admin/regions`, {
        name: `Stripe ${base}`,
        currency_code: "eur",
        payment_providers: ["pp_stripe_stripe"],
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().region.payment_providers).toEqual([{ id: "pp_stripe_stripe", is_enabled: true }]);
      const bad = await s.t.admin.post(`${base}/admin/regions`, {
        name: `Nope ${base}`,
        currency_code: "eur",
        payment_providers: ["pp_paypal_paypal"],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({
        type: "invalid_data",
        message: "Payment provider pp_paypal_paypal is not available",
      });
      const listed = await s.t.admin.get(`${base}/admin/regions?q=Nope`);
      expect(listed.json().regions).toEqual([]);
      const update = await s.t.admin.post(`${base}/admin/regions/${ok.json().region.id}`, {
        payment_providers: ["pp_stripe_stripe", "pp_unknown"],
      });
      expect(update.statusCode).toBe(400);
      const after = await s.t.admin.get(`${base}/admin/regions/${ok.json().region.id}`);
      expect(after.json().region.payment_providers).toEqual([{ id: "pp_stripe_stripe", is_enabled: true }]);
    }
  });
});

describe("payment sessions", () => {
  it("a session is a PaymentIntent: amount, currency, manual capture, the session id, the step's idempotency key", async () => {
    const cart = await stripeCart(s);
    expect(cart.intent_id).toMatch(/^pi_/);
    expect(cart.client_secret).toMatch(new RegExp(`^${cart.intent_id}_secret_`));
    const intent = s.fake.intent(cart.intent_id);
    expect(intent).toMatchObject({
      amount: cart.total,
      currency: "eur",
      capture_method: "manual",
      metadata: { session_id: cart.session_id },
      automatic_payment_methods: { enabled: true },
      status: "requires_payment_method",
    });
    const created = s.fake.requests.filter(
      (r) => r.operation === "payment_intents.create" && r.status === 200 && !r.replayed,
    );
    expect(created.at(-1)!.idempotency_key).toMatch(/^wfx_.*:0$/);
  });

  it("a changed cart total updates the intent's amount before anything authorizes it", async () => {
    const cart = await stripeCart(s, 1);
    const before = s.fake.intent(cart.intent_id).amount;
    const item = (await s.t.store.get(`/store/carts/${cart.cart_id}`)).json().cart.items[0];
    const res = await s.t.store.post(`/store/carts/${cart.cart_id}/line-items/${item.id}`, { quantity: 3 });
    expect(res.statusCode).toBe(200);
    const total = res.json().cart.total;
    expect(total).toBe(before + 4_000);
    expect(s.fake.intent(cart.intent_id).amount).toBe(total);
    const update = s.fake.requests.filter((r) => r.operation === "payment_intents.update").at(-1)!;
    expect(update.idempotency_key).toMatch(new RegExp(`^${cart.session_id}:amount:${total}:\\d+$`));
    // Back and forth: a total that returns to an earlier amount is a change of its own, made at Stripe too.
    for (const quantity of [1, 3, 1, 3]) {
      const again = await s.t.store.post(`/store/carts/${cart.cart_id}/line-items/${item.id}`, { quantity });
      expect(again.statusCode).toBe(200);
      expect(s.fake.intent(cart.intent_id).amount).toBe(again.json().cart.total);
    }
    await payIntent(s.fake, cart.intent_id);
    const done = await complete(cart.cart_id);
    expect(done.json().type).toBe("order");
    expect(done.json().order.total).toBe(total);
  });

  it("a cart changed after the shopper paid: no order for the amount Stripe holds; a new payment for the new total", async () => {
    const cart = await stripeCart(s, 1);
    await payIntent(s.fake, cart.intent_id);
    const item = (await s.t.store.get(`/store/carts/${cart.cart_id}`)).json().cart.items[0];
    const changed = await s.t.store.post(`/store/carts/${cart.cart_id}/line-items/${item.id}`, { quantity: 2 });
    expect(changed.statusCode).toBe(200);
    const total = changed.json().cart.total;
    expect(s.fake.intent(cart.intent_id)).toMatchObject({ status: "requires_capture", amount: cart.total });
    const refused = await complete(cart.cart_id);
    expect(refused.json()).toMatchObject({ type: "cart", error: { type: "payment_authorization_error" } });
    expect(refused.json().error.message).toMatch(/^Stripe holds/);
    const again = await s.t.store.post(`/store/payment-collections/${cart.collection_id}/payment-sessions`, {
      provider_id: "pp_stripe_stripe",
    });
    expect(again.statusCode).toBe(200);
    const intentId = again.json().payment_collection.payment_sessions[0].data.id;
    expect(s.fake.intent(intentId).amount).toBe(total);
    await payIntent(s.fake, intentId);
    const done = await complete(cart.cart_id);
    expect(done.json().order.total).toBe(total);
    expect(done.json().order.payment_collections[0].payments.at(-1).amount).toBe(total);
  });

  it("a replaced session cancels its intent", async () => {
    const cart = await stripeCart(s);
    const res = await s.t.store.post(`/store/payment-collections/${cart.collection_id}/payment-sessions`, {
      provider_id: "pp_stripe_stripe",
    });
    expect(res.statusCode).toBe(200);
    const sessions = res.json().payment_collection.payment_sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0].data.id).not.toBe(cart.intent_id);
    expect(s.fake.intent(cart.intent_id).status).toBe("canceled");
    const cancel = s.fake.requests.filter((r) => r.operation === "payment_intents.cancel").at(-1)!;
    expect(cancel.idempotency_key).toBe(`cancel:${cart.session_id}`);
  });

  for (const mode of ["500", "unreachable"] as const) {
    it(`Stripe ${mode === "500" ? "answering 500" : "unreachable"} while a session starts: a 502 provider_error, nothing written`, async () => {
      const cart = await stripeCart(s);
      const before = await sessionsOf(cart.collection_id);
      s.fake.fail("payment_intents.create", { mode, times: 50 });
      try {
        const res = await s.t.store.post(`/store/payment-collections/${cart.collection_id}/payment-sessions`, {
          provider_id: "pp_stripe_stripe",
        });
        expect(res.statusCode).toBe(502);
        expect(res.json()).toMatchObject({ type: "provider_error" });
        expect(res.json().message).toMatch(/^Stripe is unavailable/);
      } finally {
        s.fake.fail("payment_intents.create", { mode, times: 0 });
      }
      expect(await sessionsOf(cart.collection_id)).toEqual(before);
      expect(s.fake.intent(cart.intent_id).status).toBe("requires_payment_method");
    });
  }
});

describe("checkout", () => {
  it("an authorized intent places the order; capture and refunds go to Stripe with Kasse's keys, in major units under /medusa", async () => {
    const cart = await stripeCart(s);
    await payIntent(s.fake, cart.intent_id);
    const done = await complete(cart.cart_id, "/medusa");
    expect(done.statusCode).toBe(200);
    const order = done.json().order;
    expect(order.total).toBe(cart.total / 100);
    expect(order.payment_status).toBe("authorized");
    const paymentId = order.payment_collections[0].payments[0].id;
    const captured = await s.t.admin.post(`/medusa/admin/payments/${paymentId}/capture`, {});
    expect(captured.statusCode).toBe(200);
    expect(s.fake.intent(cart.intent_id)).toMatchObject({ status: "succeeded", amount_received: cart.total });
    const refunded = await s.t.admin.post(`/medusa/admin/payments/${paymentId}/refund`, { amount: 5 });
    expect(refunded.statusCode).toBe(200);
    expect(s.fake.counts(cart.intent_id)).toMatchObject({ authorizations: 1, captures: 1, refunds: 1 });
    const refunds = s.fake.requests.filter((r) => r.operation === "refunds.create");
    expect(refunds.at(-1)!.idempotency_key).toMatch(/^wfx_/);
    const after = (await s.t.admin.get(`/admin/orders/${order.id}`)).json().order;
    expect(after.payment_status).toBe("partially_refunded");
    expect(after.payment_collections[0].refunded_amount).toBe(500);
  });

  it("a declined card fails the checkout; the cart stays completable with a new payment", async () => {
    const cart = await stripeCart(s);
    await payIntent(s.fake, cart.intent_id, "pm_card_chargeDeclined");
    const failed = await complete(cart.cart_id);
    expect(failed.json()).toMatchObject({ type: "cart", error: { type: "payment_authorization_error" } });
    const again = await s.t.store.post(`/store/payment-collections/${cart.collection_id}/payment-sessions`, {
      provider_id: "pp_stripe_stripe",
    });
    const intentId = again.json().payment_collection.payment_sessions[0].data.id;
    await payIntent(s.fake, intentId);
    const done = await complete(cart.cart_id);
    expect(done.json().type).toBe("order");
  });

  it("3-D Secure pending: payment_requires_more_error, no order", async () => {
    const cart = await stripeCart(s);
    await payIntent(s.fake, cart.intent_id, "pm_card_threeDSecure2Required");
    const res = await complete(cart.cart_id);
    expect(res.json()).toMatchObject({ type: "cart", error: { type: "payment_requires_more_error" } });
    expect((await orderCounts(s.t, [cart.cart_id])).get(cart.cart_id)).toBe(0);
  });

  it("Stripe failing during authorization: the checkout compensates and the cart stays completable", async () => {
    const cart = await stripeCart(s);
    await payIntent(s.fake, cart.intent_id);
    s.fake.fail("payment_intents.retrieve", { mode: "500", times: 100 });
    let res;
    try {
      res = await complete(cart.cart_id);
    } finally {
      s.fake.fail("payment_intents.retrieve", { mode: "500", times: 0 });
    }
    expect(res.json()).toMatchObject({ type: "cart", error: { type: "provider_error" } });
    const open = (await s.t.store.get(`/store/carts/${cart.cart_id}`)).json().cart;
    expect(open.completed_at).toBeNull();
    const done = await complete(cart.cart_id);
    expect(done.json().type).toBe("order");
    expect(s.fake.counts(cart.intent_id)).toMatchObject({ authorizations: 1, cancels: 0 });
  });

  it("a capture whose answer was lost is retried with the same key: captured once", async () => {
    const cart = await stripeCart(s);
    await payIntent(s.fake, cart.intent_id);
    const order = (await complete(cart.cart_id)).json().order;
    const paymentId = order.payment_collections[0].payments[0].id;
    s.fake.fail("payment_intents.capture", { mode: "500", afterEffect: true, times: 3 });
    const res = await s.t.admin.post(`/admin/payments/${paymentId}/capture`, {});
    expect(res.statusCode).toBe(200);
    const captures = s.fake.requests.filter(
      (r) => r.operation === "payment_intents.capture" && r.path.includes(cart.intent_id),
    );
    expect(captures.length).toBeGreaterThan(1);
    expect(new Set(captures.map((r) => r.idempotency_key)).size).toBe(1);
    expect(s.fake.counts(cart.intent_id).captures).toBe(1);
    expect((await s.t.admin.get(`/admin/orders/${order.id}`)).json().order.payment_status).toBe("captured");
  });
});

describe("webhooks", () => {
  it("a bad or missing signature is a 400 and records nothing; an unknown provider a 404", async () => {
    const cart = await stripeCart(s);
    await payIntent(s.fake, cart.intent_id);
    const [event] = eventsOf(s.fake, cart.intent_id, "payment_intent.amount_capturable_updated");
    const signed = s.fake.webhookRequest(event!);
    const url = "/hooks/payment/stripe_stripe";
    const forged = await s.t.app.inject({
      method: "POST",
      url,
      // One hex digit of the signature changed (to another digit: "0" would leave a signature starting with 0 as it was).
      headers: {
        ...signed.headers,
        "stripe-signature": signed.headers["stripe-signature"]!.replace(
          /v1=(.)/,
          (_, c) => `v1=${c === "0" ? "1" : "0"}`,
        ),
      },
      payload: signed.payload,
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ type: "invalid_data", message: "The Stripe webhook signature is not valid" });
    const tampered = await s.t.app.inject({
      method: "POST",
      url,
      headers: signed.headers,
      payload: signed.payload.replace(`"${cart.intent_id}"`, `"${cart.intent_id}x"`),
    });
    expect(tampered.statusCode).toBe(400);
    const unsigned = await s.t.app.inject({
      method: "POST",
      url,
      headers: { "content-type": "application/json" },
      payload: signed.payload,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toEqual({ type: "invalid_data", message: "The Stripe-Signature header is missing" });
    const unknown = await s.t.app.inject({ method: "POST", url: "/hooks/payment/paypal", ...signed });
    expect(unknown.statusCode).toBe(404);
    const recorded = await s.t.database.db
      .select()
      .from(paymentWebhookEvent)
      .where(eq(paymentWebhookEvent.event_id, event!.id));
    expect(recorded).toEqual([]);
    expect((await orderCounts(s.t, [cart.cart_id])).get(cart.cart_id)).toBe(0);
  });

  it("a shopper who closed the tab gets the order from the webhook; the same event three times: one order", async () => {
    const cart = await stripeCart(s);
    await payIntent(s.fake, cart.intent_id);
    const events = eventsOf(s.fake, cart.intent_id, "payment_intent.amount_capturable_updated");
    const deliveries = await send(events, { times: 3 });
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    await webhooksSettled(s.t);
    expect((await orderCounts(s.t, [cart.cart_id])).get(cart.cart_id)).toBe(1);
    const [recorded] = await s.t.database.db
      .select()
      .from(paymentWebhookEvent)
      .where(eq(paymentWebhookEvent.event_id, events[0]!.id));
    expect(recorded!.outcome).toMatch(/^order order_/);
    // The storefront comes back: the same order.
    const done = await complete(cart.cart_id);
    expect(done.json().type).toBe("order");
    expect(s.fake.counts(cart.intent_id)).toMatchObject({ authorizations: 1, captures: 0, cancels: 0 });
  });

  it("processing and failed payments place nothing; settled, the webhook places the order", async () => {
    const cart = await stripeCart(s);
    s.fake.simulate.processing(cart.intent_id);
    await send(eventsOf(s.fake, cart.intent_id, "payment_intent.processing"));
    const early = await complete(cart.cart_id);
    expect(early.json()).toMatchObject({ type: "cart", error: { type: "payment_requires_more_error" } });
    await webhooksSettled(s.t);
    expect((await orderCounts(s.t, [cart.cart_id])).get(cart.cart_id)).toBe(0);

    const declined = await stripeCart(s);
    await payIntent(s.fake, declined.intent_id, "pm_card_chargeDeclined");
    await send(eventsOf(s.fake, declined.intent_id, "payment_intent.payment_failed"));
    await webhooksSettled(s.t);
    expect((await orderCounts(s.t, [declined.cart_id])).get(declined.cart_id)).toBe(0);

    s.fake.simulate.settle(cart.intent_id, "succeeded");
    await send(eventsOf(s.fake, cart.intent_id, "payment_intent.amount_capturable_updated"));
    await webhooksSettled(s.t);
    expect((await orderCounts(s.t, [cart.cart_id])).get(cart.cart_id)).toBe(1);
  });

  it("a refund and a cancellation made in Stripe's dashboard are reflected on the order, once", async () => {
    const refunded = await stripeCart(s);
    await payIntent(s.fake, refunded.intent_id);
    const order = (await complete(refunded.cart_id)).json().order;
    const paymentId = order.payment_collections[0].payments[0].id;
    await s.t.admin.post(`/admin/payments/${paymentId}/capture`, {});
    await s.fake.client().refunds.create({ payment_intent: refunded.intent_id, amount: 1_000 });
    const refundEvents = eventsOf(s.fake, refunded.intent_id, "charge.refunded");
    await send(refundEvents, { times: 2 });
    await webhooksSettled(s.t);
    let after = (await s.t.admin.get(`/admin/orders/${order.id}`)).json().order;
    expect(after.payment_status).toBe("partially_refunded");
    expect(after.payment_collections[0].payments[0].refunds.map((r: { amount: number }) => r.amount)).toEqual([1_000]);
    // A refund Kasse made itself is not counted twice when its webhook comes.
    await s.t.admin.post(`/admin/payments/${paymentId}/refund`, { amount: 500 });
    await send(eventsOf(s.fake, refunded.intent_id, "charge.refunded").slice(refundEvents.length));
    await webhooksSettled(s.t);
    after = (await s.t.admin.get(`/admin/orders/${order.id}`)).json().order;
    expect(after.payment_collections[0].refunded_amount).toBe(1_500);

    const canceled = await stripeCart(s);
    await payIntent(s.fake, canceled.intent_id);
    const second = (await complete(canceled.cart_id)).json().order;
    await s.fake.client().paymentIntents.cancel(canceled.intent_id);
    await send(eventsOf(s.fake, canceled.intent_id, "payment_intent.canceled"), { times: 2 });
    await webhooksSettled(s.t);
    const voided = (await s.t.admin.get(`/admin/orders/${second.id}`)).json().order;
    expect(voided.payment_status).toBe("canceled");
    expect(voided.payment_collections[0].payments[0].canceled_at).not.toBeNull();
  });

  it("a session start retried after Stripe's answer was lost: one intent naming the session, and the webhook places the order", async () => {
    const cart = await stripeCart(s);
    const intentsBefore = s.fake.counts().intents;
    s.fake.fail("payment_intents.create", { mode: "500", afterEffect: true, times: 3 });
    const res = await s.t.store.post(`/store/payment-collections/${cart.collection_id}/payment-sessions`, {
      provider_id: "pp_stripe_stripe",
    });
    expect(res.statusCode).toBe(200);
    const session = res.json().payment_collection.payment_sessions[0];
    const intent = s.fake.intent(session.data.id);
    expect(intent.metadata.session_id).toBe(session.id);
    expect(s.fake.counts().intents).toBe(intentsBefore + 1);
    await payIntent(s.fake, intent.id);
    await send(eventsOf(s.fake, intent.id, "payment_intent.amount_capturable_updated"));
    await webhooksSettled(s.t);
    expect((await orderCounts(s.t, [cart.cart_id])).get(cart.cart_id)).toBe(1);
  });

  it.skipIf(!onPostgres())(
    "a webhook that overtakes its session's commit places the order once the session is there",
    async () => {
      const cart = await stripeCart(s);
      const seen = s.fake.events.length;
      const held = await s.t.database.db.transaction(async (tx) => {
        await tx.execute("lock table payment_session in exclusive mode" as never);
        const started = s.t.store.post(`/store/payment-collections/${cart.collection_id}/payment-sessions`, {
          provider_id: "pp_stripe_stripe",
        });
        // The new intent exists at Stripe; its session's row waits for the lock.
        const intent = await vi.waitFor(
          () => {
            const made = s.fake.events.slice(seen).find((e) => e.type === "payment_intent.created");
            if (!made) throw new Error("not yet");
            return made.data.object as { id: string };
          },
          { timeout: 10_000, interval: 20 },
        );
        await payIntent(s.fake, intent.id);
        expect(
          (await send(eventsOf(s.fake, intent.id, "payment_intent.amount_capturable_updated"))).map((d) => d.status),
        ).toEqual([200]);
        await new Promise((resolve) => setTimeout(resolve, 600));
        return { started, intent };
      });
      expect((await held.started).statusCode).toBe(200);
      await webhooksSettled(s.t);
      expect((await orderCounts(s.t, [cart.cart_id])).get(cart.cart_id)).toBe(1);
      expect(s.fake.counts(held.intent.id)).toMatchObject({ authorizations: 1, cancels: 0 });
      // The webhook's first look found no session: its plan was retried until the session was there.
      const [event] = eventsOf(s.fake, held.intent.id, "payment_intent.amount_capturable_updated");
      const listed = await s.t.admin.get("/admin/workflow-executions?workflow_id=process-payment-webhook&limit=1000");
      const execution = listed
        .json()
        .workflow_executions.find((e: { transaction_id: string }) => e.transaction_id === `webhook:${event!.id}`);
      const detail = (await s.t.admin.get(`/admin/workflow-executions/${execution.id}`)).json().workflow_execution;
      const plan = detail.steps.find((step: { name: string }) => step.name === "plan-payment-webhook");
      expect(plan.attempts).toBeGreaterThan(1);
    },
  );
});
