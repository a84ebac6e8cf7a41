import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payment } from "@kasse/modules/payment/tables";
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

// Stripe's webhook and the storefront's completion (and the storefront's retry of it) arrive at
// once for many carts: each cart gets one order and one authorization, counted at the Stripe fake.
// Then the delay from a webhook's delivery to its order, for shoppers who closed the tab.

let s: StripeTestApp;
beforeAll(async () => {
  s = await startStripeTestApp();
}, 180_000);
afterAll(() => s?.close());

const CARTS = 20;

/** The payment rows of each collection (a second authorization would be a second row). */
async function paymentCounts(collectionIds: string[]): Promise<Map<string, number>> {
  const rows = await s.t.database.db
    .select({ id: payment.payment_collection_id, n: sql<number>`count(*)::int` })
    .from(payment)
    .where(inArray(payment.payment_collection_id, collectionIds))
    .groupBy(payment.payment_collection_id);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

describe("webhook, complete and a retry of complete at once", () => {
  it(`${CARTS} carts: one order each, one authorization each`, async () => {
    const carts = [];
    for (let i = 0; i < CARTS; i++) carts.push(await stripeCart(s, 1));
    for (const cart of carts) await payIntent(s.fake, cart.intent_id);
    const target = webhookTarget(s.t);
    const answers = await Promise.all(
      carts.map(async (cart) => {
        const events = eventsOf(s.fake, cart.intent_id, "payment_intent.amount_capturable_updated");
        const [first, webhook, retry] = await Promise.all([
          s.t.store.post(`/store/carts/${cart.cart_id}/complete`),
          s.fake.sendEvents(target, events),
          s.t.store.post(`/store/carts/${cart.cart_id}/complete`),
        ]);
        return { cart, first: first.json(), webhook, retry: retry.json() };
      }),
    );
    await webhooksSettled(s.t, 120_000);
    const ids = carts.map((c) => c.cart_id);
    const orders = await orderCounts(s.t, ids);
    const payments = await paymentCounts(carts.map((c) => c.collection_id));
    for (const { cart, first, webhook, retry } of answers) {
      expect(webhook.map((d) => d.status)).toEqual([200]);
      expect(first.type, JSON.stringify(first.error)).toBe("order");
      expect(retry.type, JSON.stringify(retry.error)).toBe("order");
      expect(retry.order.id).toBe(first.order.id);
      expect(orders.get(cart.cart_id)).toBe(1);
      expect(payments.get(cart.collection_id)).toBe(1);
      expect(s.fake.counts(cart.intent_id)).toMatchObject({ authorizations: 1, captures: 0, cancels: 0 });
      expect(s.fake.intent(cart.intent_id).status).toBe("requires_capture");
    }
  }, 180_000);
});

describe("webhook to order", () => {
  it("measures the delay from a webhook's delivery to its order (p50, p99)", async () => {
    const carts = [];
    for (let i = 0; i < 30; i++) carts.push(await stripeCart(s, 1));
    for (const cart of carts) await payIntent(s.fake, cart.intent_id);
    const target = webhookTarget(s.t);
    const delays: number[] = [];
    for (const cart of carts) {
      const started = performance.now();
      await s.fake.sendEvents(target, eventsOf(s.fake, cart.intent_id, "payment_intent.amount_capturable_updated"));
      while (!(await s.t.app.modules.order.findByCart(cart.cart_id))) await new Promise((r) => setTimeout(r, 5));
      delays.push(performance.now() - started);
    }
    delays.sort((a, b) => a - b);
    const at = (q: number) => Math.round(delays[Math.min(delays.length - 1, Math.ceil(q * delays.length) - 1)]!);
    console.warn(`webhook → order over ${delays.length} carts: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
    const placed = await s.t.database.db.select().from(payment).where(eq(payment.provider_id, "pp_stripe_stripe"));
    expect(placed.length).toBeGreaterThanOrEqual(carts.length);
    expect(at(0.99)).toBeLessThan(10_000);
  }, 180_000);
});
