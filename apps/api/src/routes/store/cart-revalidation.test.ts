import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";
import { checkoutReadyCart, checkoutStore, PP_TEST_REGION, type CheckoutStore } from "../../testing/checkout";

// Checkout charges what the store offers when the shopper completes, not what the cart remembers:
// each change an admin (or the clock, or other orders) makes to what a waiting cart charges for is
// refused by the completion, named, and the cart refreshed, so the next completion pays the new
// total and the payment is exactly the order's total. A read shows the cart as checkout would charge it.

const t = useTestApp();
let store: CheckoutStore;
let tee: string;

beforeAll(async () => {
  store = await checkoutStore(t, {
    region: PP_TEST_REGION,
    variants: [{ title: "M", size: "M", stock: 1000, prices: [{ currency_code: "eur", amount: 2000 }] }],
  });
  tee = store.variantIds[0]!;
}, 60_000);

type Reply = Awaited<ReturnType<typeof t.store.post>>;

async function ok(res: Promise<Reply>) {
  const answer = await res;
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

const complete = (cartId: string) => t.store.post(`/store/carts/${cartId}/complete`);
const admin = async (method: "post" | "delete", url: string, body?: object) => {
  const res = method === "post" ? await t.admin.post(url, body ?? {}) : await t.admin.delete(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

/** A published product of one variant in the store's channel, stocked, at `amount` in eur. */
async function product(title: string, amount: number): Promise<{ id: string; variant: string }> {
  const created = await createFixtureProduct(
    t,
    {
      title,
      status: "published",
      sales_channels: [{ id: store.channelId }],
      variants: [{ title: "One", size: "One", stock: 100, prices: [{ currency_code: "eur", amount }] }],
    },
    store.locationId,
  );
  return { id: created.id, variant: created.variantIds[0]! };
}

/** A code promotion of 10 % on items in a campaign of its own (with these dates and budget). */
async function promotion(code: string, campaign: { ends_at?: Date; budget?: number } = {}) {
  const m = t.app.modules;
  const created = await m.promotion.createCampaign({
    name: code,
    campaign_identifier: code.toLowerCase(),
    ...(campaign.ends_at ? { ends_at: campaign.ends_at.toISOString() } : {}),
    ...(campaign.budget ? { budget: { type: "usage" as const, limit: campaign.budget } } : {}),
  });
  const promo = await m.promotion.create({
    code,
    type: "standard",
    campaign_id: created.id,
    application_method: { type: "percentage", target_type: "items", allocation: "each", value: 10 },
  });
  return { id: promo.id, campaign_id: created.id };
}

/** A cart of these lines (2 × the first, then the others), shipping, maybe a code, a payment session. */
const ready = (lines: Array<{ variant: string; quantity?: number }>, promo?: string) =>
  checkoutReadyCart(t, {
    region_id: store.regionId,
    option_id: store.optionId,
    variant_id: lines[0]!.variant,
    quantity: lines[0]!.quantity ?? 2,
    more_items: lines.slice(1).map((l) => ({ variant_id: l.variant, quantity: l.quantity ?? 1 })),
    provider: "pp_test",
    promo,
  });

/** The completion's refusal: `cart_changed`, its message naming each change, the cart refreshed. */
async function expectChanged(res: Reply, ...names: RegExp[]) {
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body.type, res.body).toBe("cart");
  expect(body.error).toMatchObject({ type: "cart_changed", name: "CartChanged" });
  expect(body.error.message).toMatch(/^The cart changed since it was priced: .*\. Review it and complete it again\.$/);
  for (const name of names) expect(body.error.message).toMatch(name);
  // The collection follows the refreshed total: the next completion authorizes exactly that.
  expect(body.cart.payment_collection.amount).toBe(body.cart.total);
  return body.cart;
}

/** No order, reservation or payment was left by a refused completion. */
async function nothingKept(cartId: string) {
  const m = t.app.modules;
  const state = await m.cart.load(cartId);
  const collection = await m.payment.collectionForCart(cartId);
  expect(state.cart.completed_at).toBeNull();
  expect(await m.order.findByCart(cartId)).toBeUndefined();
  expect(collection?.payments ?? []).toEqual([]);
  const reservations = state.items.length
    ? await m.inventory.listReservations({ line_item_id: state.items.map((i) => i.id) }, { limit: 10, offset: 0 })
    : { count: 0 };
  expect(reservations.count).toBe(0);
}

/** Completes the cart and checks the order is at `total` and its payment exactly that. */
async function completesAt(cartId: string, total: number) {
  const order = (await ok(complete(cartId))).order;
  expect(order.total).toBe(total);
  const collection = (await t.app.modules.payment.collectionForCart(cartId))!;
  expect(collection).toMatchObject({ status: "authorized", amount: total, authorized_amount: total });
  expect(collection.payments.filter((p) => !p.canceled_at).map((p) => p.amount)).toEqual([total]);
  return order;
}

const past = () => new Date(Date.now() - 60_000).toISOString();
/** Resolves once `at` has passed. */
const until = (at: Date) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at.getTime() - Date.now()) + 50));

describe("completion re-checks the promotions it charges for", () => {
  const cases: Array<[string, (p: { id: string; campaign_id: string }) => Promise<unknown>, RegExp]> = [
    [
      "deactivated",
      (p) => admin("post", `/admin/promotions/${p.id}`, { status: "inactive" }),
      /it is no longer active/,
    ],
    ["deleted", (p) => admin("delete", `/admin/promotions/${p.id}`), /it no longer exists/],
    [
      "whose campaign an admin ended",
      (p) => admin("post", `/admin/campaigns/${p.campaign_id}`, { ends_at: past() }),
      /its campaign has ended/,
    ],
  ];
  for (const [what, invalidate, why] of cases)
    it(`a promotion ${what} after the shopper applied it: refused, named, the cart without it; then the full price`, async () => {
      const code = `GONE${cases.findIndex((c) => c[0] === what)}`;
      const promo = await promotion(code);
      const cart = await ready([{ variant: tee }], code);
      expect(cart.discount_total).toBe(400);
      await invalidate(promo);
      const refreshed = await expectChanged(
        await complete(cart.id),
        new RegExp(`the promotion ${code} no longer applies \\(${why.source}\\)`),
      );
      expect(refreshed).toMatchObject({ discount_total: 0, total: cart.total + 400, promotions: [] });
      await nothingKept(cart.id);
      await completesAt(cart.id, cart.total + 400);
    });

  it("GET /store/carts/{id} shows the cart as checkout would charge it: no discount once the promotion is gone", async () => {
    const promo = await promotion("READ");
    const cart = await ready([{ variant: tee }], "READ");
    await admin("post", `/admin/promotions/${promo.id}`, { status: "inactive" });
    const read = (await ok(t.store.get(`/store/carts/${cart.id}`))).cart;
    expect(read).toMatchObject({ discount_total: 0, total: cart.total + 400, promotions: [] });
    expect(read.items[0].adjustments).toEqual([]);
    expect(read.payment_collection.amount).toBe(read.total);
    // The read refreshed the cart: nothing is left for checkout to refuse.
    await completesAt(cart.id, read.total);
  });

  it("a campaign that ends while the cart waits (no write at all): refused once the date has passed", async () => {
    const ends = new Date(Date.now() + 4000);
    await promotion("LATER", { ends_at: ends });
    const [waiting, read] = [await ready([{ variant: tee }], "LATER"), await ready([{ variant: tee }], "LATER")];
    expect(Date.now()).toBeLessThan(ends.getTime());
    expect([waiting.discount_total, read.discount_total]).toEqual([400, 400]);
    await until(ends);
    await expectChanged(await complete(waiting.id), /the promotion LATER no longer applies \(its campaign has ended\)/);
    await completesAt(waiting.id, waiting.total + 400);
    expect((await ok(t.store.get(`/store/carts/${read.id}`))).cart).toMatchObject({ discount_total: 0 });
  });

  it("a budget used up by other orders: refused with the budget named", async () => {
    const promo = await promotion("SCARCE", { budget: 1 });
    const cart = await ready([{ variant: tee }], "SCARCE");
    await t.app.modules.promotion.registerUsage([{ promotion_id: promo.id, amount: 400 }]);
    await expectChanged(
      await complete(cart.id),
      /the promotion SCARCE no longer applies \(its campaign's budget is used up\)/,
    );
    await completesAt(cart.id, cart.total + 400);
  });
});

describe("completion re-checks the prices it charges", () => {
  it("a sale price whose price list an admin ended: refused, the base price charged next", async () => {
    const shirt = await product("Sale shirt", 2000);
    const list = await admin("post", "/admin/price-lists", {
      title: "Sale",
      type: "sale",
      status: "active",
      prices: [{ variant_id: shirt.variant, currency_code: "eur", amount: 1500 }],
    });
    const cart = await ready([{ variant: shirt.variant }]);
    expect(cart.items[0].unit_price).toBe(1500);
    await admin("post", `/admin/price-lists/${list.price_list.id}`, { ends_at: past() });
    const refreshed = await expectChanged(await complete(cart.id), /the price of Sale shirt \(One\) changed/);
    expect(refreshed.items[0].unit_price).toBe(2000);
    await nothingKept(cart.id);
    await completesAt(cart.id, cart.total + 1000);
  });

  it("a price list that ends while the cart waits: the read and the completion charge the base price", async () => {
    const shirt = await product("Timed shirt", 2000);
    const ends = new Date(Date.now() + 4000);
    await admin("post", "/admin/price-lists", {
      title: "Weekend",
      type: "sale",
      status: "active",
      ends_at: ends.toISOString(),
      prices: [{ variant_id: shirt.variant, currency_code: "eur", amount: 1500 }],
    });
    const [waiting, read] = [await ready([{ variant: shirt.variant }]), await ready([{ variant: shirt.variant }])];
    expect(Date.now()).toBeLessThan(ends.getTime());
    await until(ends);
    await expectChanged(await complete(waiting.id), /the price of Timed shirt \(One\) changed/);
    await completesAt(waiting.id, waiting.total + 1000);
    expect((await ok(t.store.get(`/store/carts/${read.id}`))).cart.items[0].unit_price).toBe(2000);
  });

  it("a variant repriced: refused, named, and the new price charged (a percentage discount follows it)", async () => {
    const shirt = await product("Repriced shirt", 2000);
    await promotion("TENPC");
    const cart = await ready([{ variant: shirt.variant }], "TENPC");
    await admin("post", `/admin/products/${shirt.id}/variants/${shirt.variant}/prices`, {
      prices: [{ currency_code: "eur", amount: 2600 }],
    });
    const refreshed = await expectChanged(
      await complete(cart.id),
      /the price of Repriced shirt \(One\) changed/,
      /the discount of the promotion TENPC changed/,
    );
    expect(refreshed).toMatchObject({ discount_total: 520, total: 2 * 2600 - 520 + 500 });
    await completesAt(cart.id, refreshed.total);
  });
});

describe("completion re-checks that what it sells is for sale", () => {
  it("a product unpublished, or taken out of the cart's sales channel: its line is removed and named", async () => {
    for (const [what, change, why] of [
      [
        "unpublished",
        (id: string) => admin("post", `/admin/products/${id}`, { status: "draft" }),
        /its product is not published/,
      ],
      [
        "out of the channel",
        (id: string) => admin("post", `/admin/sales-channels/${store.channelId}/products`, { remove: [id] }),
        /it is not sold in the cart's sales channel/,
      ],
    ] as const) {
      const mug = await product(`Mug ${what}`, 800);
      const cart = await ready([{ variant: tee }, { variant: mug.variant, quantity: 1 }]);
      await change(mug.id);
      const refreshed = await expectChanged(
        await complete(cart.id),
        new RegExp(`Mug ${what} \\(One\\) is no longer for sale: ${why.source}`),
      );
      expect(refreshed.items.map((i: { variant_id: string }) => i.variant_id)).toEqual([tee]);
      expect(refreshed.total).toBe(cart.total - 800);
      await nothingKept(cart.id);
      const order = await completesAt(cart.id, cart.total - 800);
      expect(order.items.map((i: { variant_id: string }) => i.variant_id)).toEqual([tee]);
    }
  });

  it("the cart's sales channel disabled: nothing in it is for sale any more", async () => {
    const m = t.app.modules;
    const outlet = await m.salesChannel.create({ name: "Outlet" });
    await m.stockLocation.updateSalesChannels(store.locationId, { add: [outlet.id] });
    const cap = await product("Outlet cap", 900);
    await admin("post", `/admin/sales-channels/${outlet.id}/products`, { add: [cap.id] });
    const { cart } = await ok(
      t.store.post("/store/carts", { region_id: store.regionId, sales_channel_id: outlet.id, email: "a@example.com" }),
    );
    await ok(t.store.post(`/store/carts/${cart.id}/line-items`, { variant_id: cap.variant, quantity: 1 }));
    const address = {
      first_name: "A",
      last_name: "B",
      address_1: "X 1",
      city: "Berlin",
      postal_code: "10115",
      country_code: "de",
    };
    await ok(t.store.post(`/store/carts/${cart.id}`, { shipping_address: address, billing_address: address }));
    await ok(t.store.post(`/store/carts/${cart.id}/shipping-methods`, { option_id: store.optionId }));
    const { payment_collection } = await ok(t.store.post("/store/payment-collections", { cart_id: cart.id }));
    await ok(
      t.store.post(`/store/payment-collections/${payment_collection.id}/payment-sessions`, {
        provider_id: "pp_system_default",
      }),
    );
    await admin("post", `/admin/sales-channels/${outlet.id}`, { is_disabled: true });
    const refreshed = await expectChanged(
      await complete(cart.id),
      /Outlet cap \(One\) is no longer for sale: the cart's sales channel is disabled/,
    );
    expect(refreshed.items).toEqual([]);
    const empty = await complete(cart.id);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/missing items/);
  });
});

describe("a cart moved to another sales channel", () => {
  it("keeps only the lines that channel sells, and completes at their price", async () => {
    const kiosk = await t.app.modules.salesChannel.create({ name: "Kiosk" });
    await t.app.modules.stockLocation.updateSalesChannels(store.locationId, { add: [kiosk.id] });
    const [both, webOnly] = [await product("Everywhere tee", 1200), await product("Web-only mug", 800)];
    await admin("post", `/admin/sales-channels/${kiosk.id}/products`, { add: [both.id] });
    const cart = await ready([{ variant: both.variant }, { variant: webOnly.variant, quantity: 1 }]);
    const moved = (await ok(t.store.post(`/store/carts/${cart.id}`, { sales_channel_id: kiosk.id }))).cart;
    expect(moved.sales_channel_id).toBe(kiosk.id);
    expect(moved.items.map((i: { variant_id: string }) => i.variant_id)).toEqual([both.variant]);
    expect(moved.total).toBe(cart.total - 800);
    await completesAt(cart.id, moved.total);
  });
});

describe("completion refuses only what changed", () => {
  it("catalog writes that change nothing the cart charges for: the order is placed at once", async () => {
    const other = await product("Unrelated", 100);
    const promo = await promotion("STILL");
    const cart = await ready([{ variant: tee }], "STILL");
    await admin("post", `/admin/products/${other.id}`, { title: "Unrelated, renamed" });
    await admin("post", `/admin/promotions/${promo.id}`, { metadata: { note: "touched" } });
    const order = await completesAt(cart.id, cart.total);
    expect(order.discount_total).toBe(400);
  });
});
