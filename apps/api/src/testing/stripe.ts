import { inArray, sql } from "drizzle-orm";
import { order } from "@kasse/modules/order/tables";
import { expect, vi } from "vitest";
import { startStripeFake, type StripeFake, type WebhookRequest } from "@kasse/modules/payment/testing";
import type { Consumer } from "@kasse/workflows";
import { createTestApp, type TestApp } from "./app";
import { checkoutReadyCart, checkoutStore, type CheckoutStore } from "./checkout";
import { editFirstLine } from "./orders";

/** A test app with Stripe configured against a fake, and the worker's queue consumed in the process. */
export interface StripeTestApp {
  t: TestApp;
  fake: StripeFake;
  store: CheckoutStore;
  close(): Promise<void>;
}

/** A German region offering Stripe only. */
const STRIPE_REGION = {
  name: "Europe",
  currency_code: "eur",
  countries: ["de"],
  payment_providers: ["pp_stripe_stripe"],
};

/**
 * An app whose `pp_stripe_stripe` talks to a {@link startStripeFake} (through `STRIPE_API_URL`), a store
 * selling one stocked variant at 20.00 EUR with 5.00 shipping in a region offering Stripe, and the
 * engine's queue consumed here, as a worker would (webhook processing runs).
 */
export async function startStripeTestApp(env: Record<string, string> = {}): Promise<StripeTestApp> {
  const fake = await startStripeFake();
  const t = await createTestApp({
    STRIPE_API_KEY: fake.apiKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_URL: fake.url,
    ...env,
  });
  const { engine, scheduler } = t.app.infra;
  const consumer: Consumer = await scheduler.consume(
    {
      resume: (id) =>
        engine.resume(id).then(
          () => undefined,
          () => undefined,
        ),
      maintenance: [],
    },
    { concurrency: 8 },
  );
  const store = await checkoutStore(t, {
    region: STRIPE_REGION,
    variants: [{ title: "M", size: "M", stock: 1_000, prices: [{ currency_code: "eur", amount: 2_000 }] }],
  });
  return {
    t,
    fake,
    store,
    close: async () => {
      await consumer.close();
      await t.close();
      await fake.close();
    },
  };
}

/** A cart ready to complete with a Stripe session, and its PaymentIntent. */
export interface StripeCart {
  cart_id: string;
  collection_id: string;
  session_id: string;
  intent_id: string;
  client_secret: string;
  total: number;
}

/** A cart built through the store API (`quantity` shirts) with a Stripe payment session; the intent is not paid yet. */
export async function stripeCart(s: StripeTestApp, quantity = 2): Promise<StripeCart> {
  const cart = await checkoutReadyCart(s.t, {
    region_id: s.store.regionId,
    option_id: s.store.optionId,
    variant_id: s.store.variantIds[0]!,
    quantity,
    provider: "pp_stripe_stripe",
  });
  const session = cart.payment_collection.payment_sessions[0];
  return {
    cart_id: cart.id,
    collection_id: cart.payment_collection.id,
    session_id: session.id,
    intent_id: session.data.id,
    client_secret: session.data.client_secret,
    total: cart.total,
  };
}

/** The shopper pays in the browser (Stripe.js confirming the intent) with a Stripe test card. */
export async function payIntent(fake: StripeFake, intentId: string, card = "pm_card_visa"): Promise<void> {
  await fake
    .client()
    .paymentIntents.confirm(intentId, { payment_method: card })
    .catch(() => undefined);
}

/** Delivers a webhook request to the app as Stripe would, answering the HTTP status. */
export function webhookTarget(t: TestApp, url = "/hooks/payment/stripe_stripe") {
  return async (request: WebhookRequest): Promise<number> =>
    (await t.app.inject({ method: "POST", url, headers: request.headers, payload: request.payload })).statusCode;
}

/** The intent's events of `type`, as Stripe made them. */
export function eventsOf(fake: StripeFake, intentId: string, type: string): ReturnType<StripeFake["eventsOf"]> {
  return fake.eventsOf(intentId).filter((event) => event.type === type);
}

/** Waits until every webhook execution has ended (the worker processed every recorded event). */
export async function webhooksSettled(t: TestApp, timeout = 30_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const res = await t.admin.get("/admin/workflow-executions?workflow_id=process-payment-webhook&limit=1000");
      const running = res
        .json()
        .workflow_executions.filter((e: { state: string }) => e.state === "running" || e.state === "compensating");
      expect(running).toEqual([]);
    },
    { timeout, interval: 50 },
  );
}

/** How many orders, live or not, were placed for each of the carts (read from the table: a duplicate must show). */
export async function orderCounts(t: TestApp, cartIds: string[]): Promise<Map<string, number>> {
  const rows = await t.database.db
    .select({ cart_id: order.cart_id, n: sql<number>`count(*)::int` })
    .from(order)
    .where(inArray(order.cart_id, cartIds))
    .groupBy(order.cart_id);
  const counts = new Map(cartIds.map((id) => [id, 0]));
  for (const row of rows) counts.set(row.cart_id!, Number(row.n));
  return counts;
}

/**
 * Test fixture: a guest's order placed through Stripe (2 shirts at 20.00 and 5.00 shipping), then
 * edited to 3 shirts: 20.00 owed. The shopper pays the edit's collection through its link
 * ({@link payLink}). Answers the order, the collection and the store's authorization.
 */
export async function payOrderDifference(s: StripeTestApp, around?: AroundAuthorize) {
  const cart = await stripeCart(s);
  await payIntent(s.fake, cart.intent_id);
  const done = await s.t.store.post(`/store/carts/${cart.cart_id}/complete`);
  expect(done.statusCode, done.body).toBe(200);
  const orderId = done.json().order.id as string;
  await editFirstLine(s.t, orderId, 3);
  const o = (await s.t.admin.get(`/admin/orders/${orderId}`)).json().order;
  const link = (o.payment_collections as Array<{ id: string; amount: number }>).find(
    (c) => c.id !== cart.collection_id,
  )!;
  expect(link.amount).toBe(2000);
  return { orderId, link: link.id, ...(await payLink(s, link.id, around)) };
}

type Answer = Awaited<ReturnType<StripeTestApp["t"]["app"]["inject"]>>;
/** Wraps the store's authorization call (e.g. in `withFailure`). */
type AroundAuthorize = (authorize: () => Promise<Answer>) => Promise<Answer>;

/**
 * The shopper pays an order's collection `linkId` (20.00) as Medusa's storefront does: a Stripe
 * session in major units, the PaymentIntent paid in the browser, then the store's authorization
 * (through `around` when given). Answers the intent and the authorization's answer.
 */
export async function payLink(s: StripeTestApp, linkId: string, around: AroundAuthorize = (authorize) => authorize()) {
  const started = await s.t.store.post(`/medusa/store/payment-collections/${linkId}/payment-sessions`, {
    provider_id: "pp_stripe_stripe",
  });
  expect(started.statusCode, started.body).toBe(200);
  const session = started.json().payment_collection.payment_sessions[0];
  expect(session).toMatchObject({ provider_id: "pp_stripe_stripe", amount: 20 });
  expect(s.fake.intent(session.data.id)).toMatchObject({ amount: 2000, currency: "eur" });
  // A provider this region does not offer.
  const other = await s.t.store.post(`/store/payment-collections/${linkId}/payment-sessions`, {
    provider_id: "pp_test",
  });
  expect(other.statusCode, other.body).toBe(400);

  await payIntent(s.fake, session.data.id);
  const paid = await around(() =>
    s.t.store.post(`/medusa/store/payment-collections/${linkId}/payment-sessions/${session.id}/authorize`, {}),
  );
  return { intent: session.data.id as string, paid };
}
