import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { onPostgres } from "@kasse/db/testing";
import { useTestApp } from "../src/testing";
import { createFixtureProduct } from "../src/testing/catalog";
import { checkoutReadyCart, checkoutStore, PP_TEST_REGION, type CheckoutStore } from "../src/testing/checkout";

/**
 * A property of checkout, over every way the world can move under a waiting cart: a cart holds a
 * sale price and a promotion, then any subset of these events happens in any order (the store
 * changes what the cart charges for, the shopper authorizes, reads or writes the cart), then the
 * shopper completes. Whatever happened: no order is placed at an amount the store no longer
 * offers (the order's total is the model's), its payment is exactly its total, a read shows what
 * checkout would charge, and a completion refused names what changed.
 */

/** What the store changes under the cart (and the shopper's shrinking of an authorized cart). */
const INVALIDATIONS = [
  "deactivate", // the promotion set inactive
  "delete", // the promotion deleted
  "expire", // its campaign ended by an admin
  "exhaust", // its campaign's budget used up by other orders
  "unpublish", // product B set to draft
  "unchannel", // product B taken out of the cart's sales channel
  "reprice", // product A's base price raised
  "end_sale", // the price list selling A cheaper ended
  "shrink", // the shopper takes one A out of the cart
] as const;
/** What the shopper does meanwhile. */
const SHOPPER = ["authorize", "read", "touch"] as const;
type Event = (typeof INVALIDATIONS)[number] | (typeof SHOPPER)[number];

/** What the store offers for the cart, as the test models it. */
interface Offer {
  promotion: boolean;
  sale: boolean;
  a_price: number;
  b_for_sale: boolean;
  a_quantity: number;
}

const SHIPPING = 500;

/** The cart's total for an offer: A (1500 on sale, else its base price) and B (1000), 10 % off each line, shipping. */
function priced(offer: Offer) {
  const lines = [(offer.sale ? 1500 : offer.a_price) * offer.a_quantity, ...(offer.b_for_sale ? [1000] : [])];
  const subtotal = lines.reduce((a, b) => a + b, 0);
  const discount = offer.promotion ? lines.reduce((sum, line) => sum + line / 10, 0) : 0;
  return {
    unit_a: offer.sale ? 1500 : offer.a_price,
    discount,
    total: subtotal - discount + SHIPPING,
    lines: lines.length,
  };
}

const t = useTestApp();
let store: CheckoutStore;
let run = 0;

beforeAll(async () => {
  store = await checkoutStore(t, {
    region: PP_TEST_REGION,
    variants: [{ title: "M", size: "M", stock: 10, prices: [{ currency_code: "eur", amount: 2000 }] }],
    shipping_amount: SHIPPING,
  });
}, 60_000);

async function product(title: string, amount: number) {
  const created = await createFixtureProduct(
    t,
    {
      title,
      status: "published",
      sales_channels: [{ id: store.channelId }],
      variants: [{ title, size: "One", stock: 100, prices: [{ currency_code: "eur", amount }] }],
    },
    store.locationId,
  );
  return { id: created.id, variant: created.variantIds[0]! };
}

/** A run's own products, sale, promotion and cart, so that no run's changes touch another's. */
async function fixture() {
  const n = ++run;
  const m = t.app.modules;
  const [a, b] = [await product(`Product A${n}`, 2000), await product(`Product B${n}`, 1000)];
  const sale = await m.priceList.create({
    title: `Sale ${n}`,
    type: "sale",
    status: "active",
    prices: [{ variant_id: a.variant, currency_code: "eur", amount: 1500 }],
  });
  const campaign = await m.promotion.createCampaign({
    name: `Campaign ${n}`,
    campaign_identifier: `stale-${n}`,
    budget: { type: "usage", limit: 1 },
  });
  const code = `STALE${n}`;
  const promotion = await m.promotion.create({
    code,
    type: "standard",
    campaign_id: campaign.id,
    application_method: { type: "percentage", target_type: "items", allocation: "each", value: 10 },
  });
  const cart = await checkoutReadyCart(t, {
    region_id: store.regionId,
    option_id: store.optionId,
    variant_id: a.variant,
    quantity: 2,
    more_items: [{ variant_id: b.variant, quantity: 1 }],
    provider: "pp_test",
    promo: code,
  });
  return { n, a, b, sale: sale.id, campaign: campaign.id, promotion: promotion.id, code, cart };
}

type Reply = Awaited<ReturnType<typeof t.store.post>>;
const expect200 = (res: Reply, what: string) => expect(res.statusCode, `${what}: ${res.body}`).toBe(200);

describe("checkout under every change to what a waiting cart charges for", () => {
  it("never places an order at an amount the store no longer offers; the payment is the order's total; a refusal names what changed", async () => {
    const past = () => new Date(Date.now() - 60_000).toISOString();
    await fc.assert(
      fc.asyncProperty(fc.shuffledSubarray([...INVALIDATIONS, ...SHOPPER]), async (events: Event[]) => {
        const f = await fixture();
        const offer: Offer = { promotion: true, sale: true, a_price: 2000, b_for_sale: true, a_quantity: 2 };
        // What the cart was last computed with: what a completion compares with the store.
        let seen = { ...offer };
        expect(f.cart.total).toBe(priced(offer).total);
        let deleted = false;
        const lineOf = (variant: string) => f.cart.items.find((i: { variant_id: string }) => i.variant_id === variant);
        const collectionId = f.cart.payment_collection.id;
        for (const event of events) {
          if (event === "deactivate") {
            if (!deleted)
              expect200(await t.admin.post(`/admin/promotions/${f.promotion}`, { status: "inactive" }), event);
            offer.promotion = false;
          } else if (event === "delete") {
            expect200(await t.admin.delete(`/admin/promotions/${f.promotion}`), event);
            deleted = true;
            offer.promotion = false;
          } else if (event === "expire") {
            expect200(await t.admin.post(`/admin/campaigns/${f.campaign}`, { ends_at: past() }), event);
            offer.promotion = false;
          } else if (event === "exhaust") {
            await t.app.modules.promotion.registerUsage([{ promotion_id: f.promotion, amount: 1 }]);
            offer.promotion = false;
          } else if (event === "unpublish") {
            expect200(await t.admin.post(`/admin/products/${f.b.id}`, { status: "draft" }), event);
            offer.b_for_sale = false;
          } else if (event === "unchannel") {
            const res = await t.admin.post(`/admin/sales-channels/${store.channelId}/products`, { remove: [f.b.id] });
            expect200(res, event);
            offer.b_for_sale = false;
          } else if (event === "reprice") {
            const res = await t.admin.post(`/admin/products/${f.a.id}/variants/${f.a.variant}/prices`, {
              prices: [{ currency_code: "eur", amount: 2600 }],
            });
            expect200(res, event);
            offer.a_price = 2600;
          } else if (event === "end_sale") {
            expect200(await t.admin.post(`/admin/price-lists/${f.sale}`, { ends_at: past() }), event);
            offer.sale = false;
          } else if (event === "shrink" || event === "touch") {
            // A cart write prices the cart anew: it shows (and keeps) what the store offers now.
            const res =
              event === "shrink"
                ? await t.store.post(`/store/carts/${f.cart.id}/line-items/${lineOf(f.a.variant).id}`, { quantity: 1 })
                : await t.store.post(`/store/carts/${f.cart.id}`, { metadata: { touched: true } });
            expect200(res, event);
            if (event === "shrink") offer.a_quantity = 1;
            expect(res.json().cart.total, event).toBe(priced(offer).total);
            seen = { ...offer };
          } else if (event === "read") {
            const res = await t.store.get(`/store/carts/${f.cart.id}`);
            expect200(res, event);
            const cart = res.json().cart;
            expect(cart.total, "a read shows what checkout charges").toBe(priced(offer).total);
            expect(cart.discount_total).toBe(priced(offer).discount);
            seen = { ...offer };
          } else if (event === "authorize") {
            const session = f.cart.payment_collection.payment_sessions[0].id;
            const res = await t.store.post(
              `/store/payment-collections/${collectionId}/payment-sessions/${session}/authorize`,
            );
            expect200(res, event);
          }
        }

        const first = await t.store.post(`/store/carts/${f.cart.id}/complete`);
        expect200(first, "complete");
        const before = priced(seen);
        const now = priced(offer);
        // What a completion must name: each difference between the cart as last computed and the store now.
        const endedBy = events.filter((e) => ["deactivate", "delete", "expire", "exhaust"].includes(e));
        const changed = [
          seen.promotion && !offer.promotion && new RegExp(`the promotion ${f.code} no longer applies`),
          seen.promotion && !offer.promotion && endedBy.join() === "exhaust" && /budget is used up/,
          seen.promotion && offer.promotion && before.discount !== now.discount && /the discount of the promotion/,
          seen.b_for_sale && !offer.b_for_sale && new RegExp(`Product B${f.n} is no longer for sale`),
          before.unit_a !== now.unit_a && new RegExp(`the price of Product A${f.n} changed`),
        ].filter((x): x is RegExp => x instanceof RegExp);
        let answer = first.json();
        if (changed.length) {
          expect(answer.type, `${events.join(" → ")}: expected a refusal naming ${changed.join(", ")}`).toBe("cart");
          expect(answer.error.type).toBe("cart_changed");
          for (const name of changed) expect(answer.error.message, events.join(" → ")).toMatch(name);
          expect(answer.cart.total).toBe(now.total);
          const again = await t.store.post(`/store/carts/${f.cart.id}/complete`);
          expect200(again, "complete again");
          answer = again.json();
        }
        expect(answer.type, `${events.join(" → ")}: ${JSON.stringify(answer.error ?? "")}`).toBe("order");
        const order = answer.order;
        expect(order.total, events.join(" → ")).toBe(now.total);
        expect(order.discount_total).toBe(now.discount);
        expect(order.items).toHaveLength(now.lines);
        const collection = (await t.app.modules.payment.collectionForCart(f.cart.id))!;
        expect(collection).toMatchObject({ status: "authorized", amount: now.total, authorized_amount: now.total });
        expect(collection.payments.filter((p) => !p.canceled_at).map((p) => p.amount)).toEqual([now.total]);
      }),
      { numRuns: onPostgres() ? 25 : 12, seed: Number(process.env.STALE_SEED ?? 20_260_615), endOnFailure: true },
    );
  }, 600_000);
});
