import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";

const t = useTestApp();
let eu: { id: string };
let us: { id: string };
let shirt: { id: string; variantIds: string[] };
let mug: { id: string; variantIds: string[] };
let draft: { id: string; variantIds: string[] };
let elsewhere: { id: string; variantIds: string[] };
let standard: { id: string };
let express: { id: string };
let usOnly: { id: string };

beforeAll(async () => {
  const m = t.app.modules;
  const channel = await m.salesChannel.getOrCreateDefault();
  const other = await m.salesChannel.create({ name: "Retail" });
  const location = await m.stockLocation.create({ name: "Warehouse" });
  await m.stockLocation.updateSalesChannels(location.id, { add: [channel.id] });
  eu = await m.region.create({ name: "Europe", currency_code: "eur", countries: ["de", "fr"] });
  us = await m.region.create({ name: "US", currency_code: "usd", countries: ["us"] });
  await m.tax.create({ country_code: "de", default_tax_rate: { rate: 19, code: "DE19", name: "MwSt" } });
  await m.tax.create({ country_code: "fr", default_tax_rate: { rate: 20, code: "FR20", name: "TVA" } });
  const inChannel = { status: "published" as const, sales_channels: [{ id: channel.id }] };
  shirt = await createFixtureProduct(
    t,
    {
      title: "Shirt",
      thumbnail: "https://img.example/shirt.png",
      ...inChannel,
      variants: [
        {
          title: "S",
          sku: "SHIRT-S",
          size: "S",
          stock: 10,
          prices: [
            { currency_code: "eur", amount: 1000 },
            { currency_code: "eur", amount: 900, min_quantity: 5 },
            { currency_code: "usd", amount: 1200 },
          ],
        },
        { title: "M", sku: "SHIRT-M", size: "M", stock: 2, prices: [{ currency_code: "eur", amount: 1000 }] },
      ],
    },
    location.id,
  );
  /** A product in `channelId` with one variant (`size`, its title too) of `stock` units at `amount` eur. */
  const oneVariant = (
    title: string,
    product: { status: "published" | "draft"; channelId: string },
    variant: { size: string; stock: number; amount: number },
  ) =>
    createFixtureProduct(
      t,
      {
        title,
        status: product.status,
        sales_channels: [{ id: product.channelId }],
        variants: [
          {
            title: variant.size,
            size: variant.size,
            stock: variant.stock,
            prices: [{ currency_code: "eur", amount: variant.amount }],
          },
        ],
      },
      location.id,
    );
  mug = await oneVariant(
    "Mug",
    { status: "published", channelId: channel.id },
    { size: "One", stock: 100, amount: 500 },
  );
  draft = await oneVariant("Draft", { status: "draft", channelId: channel.id }, { size: "D", stock: 5, amount: 100 });
  elsewhere = await oneVariant(
    "Retail only",
    { status: "published", channelId: other.id },
    { size: "R", stock: 5, amount: 100 },
  );
  standard = await m.fulfillment.createOption({
    name: "Standard",
    prices: [
      { currency_code: "eur", amount: 800 },
      { currency_code: "usd", amount: 900 },
    ],
  });
  express = await m.fulfillment.createOption({
    name: "Express",
    region_id: eu.id,
    prices: [{ currency_code: "eur", amount: 1500 }],
  });
  usOnly = await m.fulfillment.createOption({
    name: "US Ground",
    region_id: us.id,
    prices: [{ currency_code: "usd", amount: 500 }],
  });
  await m.promotion.create({
    code: "TENOFF",
    type: "standard",
    application_method: { type: "percentage", target_type: "items", allocation: "across", value: 10 },
  });
  await m.promotion.create({
    code: "USD5",
    type: "standard",
    application_method: { type: "fixed", target_type: "order", allocation: "across", value: 500, currency_code: "usd" },
  });
});

type Headers = Record<string, string>;
const post = (url: string, payload?: unknown, headers: Headers = {}) =>
  t.app.inject({ method: "POST", url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function newCart(body: Record<string, unknown> = { region_id: eu.id }, headers: Headers = {}) {
  const res = await post("/store/carts", body, headers);
  expect(res.statusCode).toBe(200);
  return res.json().cart;
}

/** The cart after its shipping address is set to `address`. */
async function shipTo(cartId: string, address: Record<string, string>) {
  return (await post(`/store/carts/${cartId}/shipping-address`, address)).json().cart;
}

function expect400(res: { statusCode: number; json(): { type: string; message: string } }, message?: RegExp) {
  expect(res.statusCode).toBe(400);
  expect(res.json().type).toBe("invalid_data");
  if (message) expect(res.json().message).toMatch(message);
}

describe("store carts: create and read", () => {
  it("creates a cart in the region's currency and the default channel; reads it by id", async () => {
    const cart = await newCart({ region_id: eu.id, email: "a@example.com", metadata: { ref: "x" } });
    expect(cart.id).toMatch(/^cart_/);
    expect(cart).toMatchObject({
      region_id: eu.id,
      currency_code: "eur",
      email: "a@example.com",
      customer_id: null,
      metadata: { ref: "x" },
      items: [],
      shipping_methods: [],
    });
    expect(cart).toMatchObject({
      subtotal: 0,
      discount_total: 0,
      shipping_total: 0,
      tax_total: 0,
      total: 0,
      completed_at: null,
      payment_collection: null,
    });
    expect(cart.region).toMatchObject({ id: eu.id, currency_code: "eur" });
    expect(cart.sales_channel_id).toMatch(/^sc_/);
    const read = await t.store.get(`/store/carts/${cart.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().cart).toMatchObject({ id: cart.id, email: "a@example.com" });
    expect((await t.store.get(`/store/carts/${cart.id}?fields=id,total`)).json().cart).toEqual({
      id: cart.id,
      total: 0,
    });
    expect((await t.store.get(`/store/carts/${cart.id}?fields=*items,%2Bitems.total`)).json().cart).toMatchObject({
      id: cart.id,
      total: 0,
      items: [],
    });
    expect400(await t.store.get(`/store/carts/${cart.id}?fields=bad field`));
  });

  it("uses the store's first region when none is named", async () => {
    const cart = await newCart({});
    expect(cart.region_id).toBe(eu.id);
    expect(cart.currency_code).toBe("eur");
  });

  it("rejects bad create bodies with 400 invalid_data", async () => {
    expect400(await post("/store/carts", { region_id: "reg_missing" }), /reg_missing/);
    expect400(await post("/store/carts", { region_id: eu.id, currency_code: "usd" }), /currency/i);
    expect400(await post("/store/carts", { region_id: eu.id, bogus: 1 }));
    expect400(await post("/store/carts", { email: "not-an-email" }));
    expect400(await post("/store/carts", { region_id: 5 }));
    expect400(await post("/store/carts", { sales_channel_id: "sc_missing" }), /sc_missing/);
  });

  it("answers unknown carts with 404", async () => {
    const res = await t.store.get("/store/carts/cart_missing");
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe("not_found");
  });
});

describe("store carts: line items", () => {
  it("adds a variant with its snapshot and merges a second add of the same variant", async () => {
    const cart = await newCart();
    const first = await post(`/store/carts/${cart.id}/line-items`, {
      variant_id: shirt.variantIds[0],
      quantity: 1,
      metadata: { gift: true },
    });
    expect(first.statusCode).toBe(200);
    const item = first.json().cart.items[0];
    expect(item).toMatchObject({
      cart_id: cart.id,
      variant_id: shirt.variantIds[0],
      product_id: shirt.id,
      quantity: 1,
      unit_price: 1000,
      is_tax_inclusive: false,
      subtotal: 1000,
      tax_total: 0,
      discount_total: 0,
      total: 1000,
      metadata: { gift: true },
      variant: {
        id: shirt.variantIds[0],
        title: "S",
        sku: "SHIRT-S",
        product: { id: shirt.id, title: "Shirt", thumbnail: "https://img.example/shirt.png" },
      },
      adjustments: [],
      tax_lines: [],
    });
    const merged = (
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 2 })
    ).json().cart;
    expect(merged.items).toHaveLength(1);
    expect(merged.items[0]).toMatchObject({ id: item.id, quantity: 3, subtotal: 3000 });
    expect(merged).toMatchObject({ subtotal: 3000, item_subtotal: 3000, total: 3000 });
  });

  it("re-prices with quantity tiers when the quantity changes", async () => {
    const cart = await newCart();
    const item = (
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 4 })
    ).json().cart.items[0];
    expect(item.unit_price).toBe(1000);
    const updated = (await post(`/store/carts/${cart.id}/line-items/${item.id}`, { quantity: 5 })).json().cart;
    expect(updated.items[0]).toMatchObject({ quantity: 5, unit_price: 900, subtotal: 4500 });
    const back = (await post(`/store/carts/${cart.id}/line-items/${item.id}`, { quantity: 2 })).json().cart;
    expect(back.items[0]).toMatchObject({ quantity: 2, unit_price: 1000 });
  });

  it("rejects bad quantities and unsellable variants with 400, leaving the cart unchanged", async () => {
    const cart = await newCart();
    await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 });
    const url = `/store/carts/${cart.id}/line-items`;
    for (const quantity of [0, -1, 1.5, "2", null])
      expect400(await post(url, { variant_id: shirt.variantIds[0], quantity }));
    expect400(await post(url, { variant_id: shirt.variantIds[0] }));
    expect400(await post(url, { variant_id: shirt.variantIds[0], quantity: 1, extra: true }));
    expect400(await post(url, { variant_id: "variant_missing", quantity: 1 }), /variant_missing/);
    expect400(await post(url, { variant_id: draft.variantIds[0], quantity: 1 }), /not published/);
    expect400(await post(url, { variant_id: elsewhere.variantIds[0], quantity: 1 }), /sales channel/);
    expect400(await post(url, { variant_id: shirt.variantIds[1], quantity: 3 }), /insufficient inventory/i);
    const usd = await newCart({ region_id: us.id });
    expect400(
      await post(`/store/carts/${usd.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 }),
      /no price in usd/,
    );
    expect((await t.store.get(`/store/carts/${usd.id}`)).json().cart.items).toEqual([]);
    const after = (await t.store.get(`/store/carts/${cart.id}`)).json().cart;
    expect(after.items).toHaveLength(1);
    expect(after.items[0]).toMatchObject({ variant_id: mug.variantIds[0], quantity: 1 });
    expect(after.total).toBe(500);
  });

  it("refuses a line whose total would leave the exact integer range (400), leaving the cart unchanged", async () => {
    const m = t.app.modules;
    const channel = await m.salesChannel.getOrCreateDefault();
    const dock = await m.stockLocation.create({ name: "Dock" });
    await m.stockLocation.updateSalesChannels(dock.id, { add: [channel.id] });
    const yacht = await createFixtureProduct(
      t,
      {
        title: "Yacht",
        status: "published",
        sales_channels: [{ id: channel.id }],
        // The largest price a request may set: 10^13 minor units.
        variants: [
          {
            title: "Y",
            size: "Y",
            stock: 2_000_000_000,
            prices: [{ currency_code: "eur", amount: 10_000_000_000_000 }],
          },
        ],
      },
      dock.id,
    );
    const cart = await newCart();
    const url = `/store/carts/${cart.id}/line-items`;
    const one = (await post(url, { variant_id: yacht.variantIds[0], quantity: 1 })).json().cart;
    expect(one.total).toBe(10_000_000_000_000);
    // 1,000 × 10^13 is 10^16, past 2^53: refused with a message, never a 500 or a rounded total.
    expect400(await post(url, { variant_id: yacht.variantIds[0], quantity: 999 }), /largest amount/);
    expect400(await post(`${url}/${one.items[0].id}`, { quantity: 1_000_000 }), /largest amount/);
    const after = (await t.store.get(`/store/carts/${cart.id}`)).json().cart;
    expect(after.items).toHaveLength(1);
    expect(after.items[0].quantity).toBe(1);
    expect(after.total).toBe(10_000_000_000_000);
  });

  it("counts the merged quantity against inventory", async () => {
    const cart = await newCart();
    await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[1], quantity: 2 });
    expect400(
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[1], quantity: 1 }),
      /insufficient inventory/i,
    );
    const item = (await t.store.get(`/store/carts/${cart.id}`)).json().cart.items[0];
    expect(item.quantity).toBe(2);
    expect400(await post(`/store/carts/${cart.id}/line-items/${item.id}`, { quantity: 3 }), /insufficient inventory/i);
  });

  it("updates and deletes lines; quantity 0 removes; bad updates are 400/404", async () => {
    const cart = await newCart();
    const items = (
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 })
    ).json().cart.items;
    const [mugLine] = items;
    const two = (
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 1 })
    ).json().cart;
    const shirtLine = two.items.find((i: { variant_id: string }) => i.variant_id === shirt.variantIds[0]);
    for (const quantity of [-1, 1.2, "3"])
      expect400(await post(`/store/carts/${cart.id}/line-items/${mugLine.id}`, { quantity }));
    expect((await post(`/store/carts/${cart.id}/line-items/cali_missing`, { quantity: 1 })).statusCode).toBe(404);
    const removed = await t.store.delete(`/store/carts/${cart.id}/line-items/${shirtLine.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ id: shirtLine.id, object: "line-item", deleted: true });
    expect(removed.json().parent.items).toHaveLength(1);
    const zero = (await post(`/store/carts/${cart.id}/line-items/${mugLine.id}`, { quantity: 0 })).json().cart;
    expect(zero.items).toEqual([]);
    expect(zero.total).toBe(0);
    expect((await t.store.delete(`/store/carts/${cart.id}/line-items/${mugLine.id}`)).statusCode).toBe(404);
  });
});

describe("store carts: addresses, taxes, shipping", () => {
  it("computes taxes from the shipping address and adds shipping; totals add up", async () => {
    const cart = await newCart();
    await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 2 });
    const address = {
      first_name: "Ada",
      address_1: "Hauptstr. 1",
      city: "Berlin",
      postal_code: "10115",
      country_code: "DE",
    };
    const updated = await post(`/store/carts/${cart.id}`, {
      email: "ada@example.com",
      shipping_address: address,
      billing_address: address,
    });
    expect(updated.statusCode).toBe(200);
    const taxed = updated.json().cart;
    expect(taxed.shipping_address).toMatchObject({ ...address, country_code: "de" });
    expect(taxed.billing_address.city).toBe("Berlin");
    expect(taxed.items[0]).toMatchObject({
      subtotal: 2000,
      tax_total: 380,
      total: 2380,
      tax_lines: [{ rate: 19, code: "DE19" }],
    });
    expect(taxed).toMatchObject({ subtotal: 2000, tax_total: 380, total: 2380 });

    const options = await t.store.get(`/store/shipping-options?cart_id=${cart.id}`);
    expect(options.statusCode).toBe(200);
    const names = options.json().shipping_options.map((o: { name: string; amount: number }) => `${o.name}:${o.amount}`);
    expect(names.sort()).toEqual(["Express:1500", "Standard:800"]);

    const shipped = (
      await post(`/store/carts/${cart.id}/shipping-methods`, { option_id: standard.id, data: { note: "door" } })
    ).json().cart;
    expect(shipped.shipping_methods).toHaveLength(1);
    expect(shipped.shipping_methods[0]).toMatchObject({
      shipping_option_id: standard.id,
      name: "Standard",
      amount: 800,
      tax_total: 152,
      total: 952,
      data: { note: "door" },
    });
    expect(shipped).toMatchObject({
      subtotal: 2000,
      shipping_subtotal: 800,
      shipping_total: 952,
      tax_total: 532,
      total: 3332,
    });
    // Same profile: the new method replaces the old one.
    const replaced = (await post(`/store/carts/${cart.id}/shipping-methods`, { option_id: express.id })).json().cart;
    expect(replaced.shipping_methods.map((s: { name: string }) => s.name)).toEqual(["Express"]);

    // A French address changes the rate everywhere.
    const fr = await shipTo(cart.id, { address_1: "1 rue", city: "Paris", postal_code: "75001", country_code: "fr" });
    expect(fr.items[0].tax_total).toBe(400);
    expect(fr.shipping_methods[0].tax_total).toBe(300);
    expect(fr.total).toBe(2000 + 400 + 1500 + 300);
    const taxes = await post(`/store/carts/${cart.id}/taxes`);
    expect(taxes.statusCode).toBe(200);
    expect(taxes.json().cart.tax_total).toBe(700);
  });

  it("rejects invalid shipping options and bad addresses with 400", async () => {
    const cart = await newCart();
    expect400(await post(`/store/carts/${cart.id}/shipping-methods`, { option_id: usOnly.id }), new RegExp(usOnly.id));
    expect400(await post(`/store/carts/${cart.id}/shipping-methods`, { option_id: "so_missing" }));
    expect400(await post(`/store/carts/${cart.id}/shipping-methods`, {}));
    expect400(await post(`/store/carts/${cart.id}/shipping-address`, { city: "Berlin" }));
    expect400(
      await post(`/store/carts/${cart.id}/shipping-address`, {
        address_1: "x",
        city: "y",
        postal_code: "1",
        country_code: "deu",
      }),
    );
    expect400(
      await post(`/store/carts/${cart.id}/billing-address`, {
        address_1: "x",
        city: "y",
        postal_code: "1",
        country_code: "de",
        zip: 1,
      }),
    );
    expect400(await post(`/store/carts/${cart.id}/taxes`, { x: 1 }));
    expect400(await t.store.get(`/store/shipping-options`));
  });

  it("refuses line breaks and control characters in names and address lines, and an email that is not one address", async () => {
    const cart = await newCart();
    const address = { address_1: "Main St 1", city: "Berlin", postal_code: "10115", country_code: "de" };
    const oneLine = /must be one line of text/;
    for (const [field, value] of [
      ["first_name", "Ana\r\nBcc: victim@example.com"],
      ["last_name", "Smith\n\nYour order was cancelled: call +1 555"],
      ["company", "Acme\tInc"],
      ["address_1", "Main\u0085St"],
      ["city", "Berlin\u2028Mitte"],
      ["phone", "+49\u0000"],
    ] as const) {
      const res = await post(`/store/carts/${cart.id}/shipping-address`, { ...address, [field]: value });
      expect400(res, field === "phone" ? undefined : oneLine);
    }
    expect400(await post(`/store/carts/${cart.id}`, { billing_address: { ...address, province: "B\rE" } }), oneLine);
    for (const email of [
      "<script>x@shop.test",
      "x@shop.test>",
      "a b@shop.test",
      "a,victim@shop.test",
      "a@b@shop.test",
      "ana@shop",
      "ana@-shop.test",
      "ana@shop..test",
      '"ana"@shop.test',
      "ana@shop.test\r\nBcc: victim@example.com",
    ])
      expect400(await post(`/store/carts/${cart.id}`, { email }), /email address/);
    const after = (await t.store.get(`/store/carts/${cart.id}`)).json().cart;
    expect(after.email).toBeNull();
    expect(after.shipping_address).toBeNull();
    const ok = (await post(`/store/carts/${cart.id}`, { email: "ana.o'neil+shop@mail.example.co.uk" })).json().cart;
    expect(ok.email).toBe("ana.o'neil+shop@mail.example.co.uk");
  });

  it("changing the region re-prices the lines and drops shipping methods that no longer apply", async () => {
    const cart = await newCart();
    await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 1 });
    await shipTo(cart.id, { address_1: "a", city: "Berlin", postal_code: "1", country_code: "de" });
    await post(`/store/carts/${cart.id}/shipping-methods`, { option_id: express.id });
    const moved = await post(`/store/carts/${cart.id}`, { region_id: us.id });
    expect(moved.statusCode).toBe(200);
    const usCart = moved.json().cart;
    expect(usCart).toMatchObject({
      region_id: us.id,
      currency_code: "usd",
      shipping_methods: [],
      shipping_address: null,
    });
    expect(usCart.items[0]).toMatchObject({ unit_price: 1200, tax_total: 0 });
    expect(usCart.total).toBe(1200);
    // A cart holding a variant without a usd price cannot move there.
    const other = await newCart();
    await post(`/store/carts/${other.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 });
    expect400(await post(`/store/carts/${other.id}`, { region_id: us.id }), /no price in usd/);
    expect((await t.store.get(`/store/carts/${other.id}`)).json().cart.region_id).toBe(eu.id);
    expect400(await post(`/store/carts/${other.id}`, { currency_code: "usd" }));
    expect400(await post(`/store/carts/${other.id}`, { region_id: "reg_missing" }));
  });

  it("in a region without automatic taxes, computes taxes only when asked", async () => {
    const region = await t.app.modules.region.create({
      name: "Manual taxes",
      currency_code: "eur",
      countries: ["be"],
      automatic_taxes: false,
    });
    await t.app.modules.tax.create({ country_code: "be", default_tax_rate: { rate: 21, code: "BE21", name: "BTW" } });
    const cart = await newCart({ region_id: region.id });
    await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 1 });
    const addressed = await shipTo(cart.id, {
      address_1: "a",
      city: "Brussel",
      postal_code: "1000",
      country_code: "be",
    });
    expect(addressed.tax_total).toBe(0);
    const taxed = (await post(`/store/carts/${cart.id}/taxes`, {})).json().cart;
    expect(taxed.items[0]).toMatchObject({ tax_total: 210, tax_lines: [{ rate: 21, code: "BE21" }] });
    expect(taxed.total).toBe(1210);
    // Later changes keep the computed tax lines (re-applied to the new quantity).
    const more = (
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 1 })
    ).json().cart;
    expect(more.items[0].tax_total).toBe(420);
  });

  it("uses tax-inclusive prices per the price preference", async () => {
    const region = await t.app.modules.region.create({ name: "Austria", currency_code: "eur", countries: ["at"] });
    await t.app.modules.tax.create({ country_code: "at", default_tax_rate: { rate: 20, code: "AT20", name: "USt" } });
    await t.app.modules.pricePreference.create({ attribute: "region_id", value: region.id, is_tax_inclusive: true });
    const cart = await newCart({
      region_id: region.id,
      shipping_address: { address_1: "a", city: "Wien", postal_code: "1010", country_code: "at" },
    });
    const taxed = (
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 1 })
    ).json().cart;
    expect(taxed.items[0]).toMatchObject({
      unit_price: 1000,
      is_tax_inclusive: true,
      subtotal: 833,
      tax_total: 167,
      total: 1000,
    });
    const shipped = (await post(`/store/carts/${cart.id}/shipping-methods`, { option_id: standard.id })).json().cart;
    expect(shipped.shipping_methods[0]).toMatchObject({
      amount: 800,
      is_tax_inclusive: true,
      tax_total: 133,
      total: 800,
    });
    expect(shipped.total).toBe(1800);
  });
});

describe("store carts: promotions", () => {
  it("applies and removes codes; unknown or inapplicable codes are 400 and change nothing", async () => {
    const cart = await newCart();
    await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 2 });
    const applied = await post(`/store/carts/${cart.id}/promotions`, { promo_codes: ["TENOFF"] });
    expect(applied.statusCode).toBe(200);
    const discounted = applied.json().cart;
    expect(discounted).toMatchObject({ subtotal: 2000, discount_total: 200, discount_subtotal: 200, total: 1800 });
    expect(discounted.items[0].adjustments).toEqual([expect.objectContaining({ code: "TENOFF", amount: 200 })]);
    expect(discounted.promotions).toEqual([
      {
        id: expect.any(String),
        code: "TENOFF",
        is_automatic: false,
        application_method: {
          type: "percentage",
          target_type: "items",
          allocation: "across",
          value: 10,
          currency_code: null,
        },
      },
    ]);
    // A read shows the same promotions.
    expect((await t.store.get(`/store/carts/${cart.id}`)).json().cart.promotions).toEqual(discounted.promotions);
    // Quantity changes re-evaluate the promotion.
    const more = (
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 1 })
    ).json().cart;
    expect(more).toMatchObject({ subtotal: 3000, discount_total: 300, total: 2700 });

    expect400(await post(`/store/carts/${cart.id}/promotions`, { promo_codes: ["NOPE"] }), /NOPE/);
    expect400(await post(`/store/carts/${cart.id}/promotions`, { promo_codes: ["USD5"] }), /USD5/);
    expect400(await post(`/store/carts/${cart.id}/promotions`, { promo_codes: [] }));
    expect400(await post(`/store/carts/${cart.id}/promotions`, {}));
    expect((await t.store.get(`/store/carts/${cart.id}`)).json().cart).toMatchObject({
      discount_total: 300,
      total: 2700,
    });

    const removed = await t.store.delete(`/store/carts/${cart.id}/promotions`, { promo_codes: ["TENOFF"] });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().cart).toMatchObject({ discount_total: 0, total: 3000, promotions: [] });
    // The cart update takes `promo_codes` too (Medusa), with the same checks.
    expect400(await post(`/store/carts/${cart.id}`, { promo_codes: ["NOPE"] }), /NOPE/);
    expect((await post(`/store/carts/${cart.id}`, { promo_codes: ["tenoff"] })).json().cart).toMatchObject({
      discount_total: 300,
      total: 2700,
    });
  });

  it("applies automatic promotions on every change", async () => {
    const cart = await newCart({ region_id: us.id });
    await t.app.modules.promotion.create({
      code: "AUTOSHIP",
      type: "standard",
      is_automatic: true,
      application_method: { type: "percentage", target_type: "shipping_methods", allocation: "each", value: 100 },
    });
    try {
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 1 });
      const shipped = (await post(`/store/carts/${cart.id}/shipping-methods`, { option_id: usOnly.id })).json().cart;
      expect(shipped.shipping_methods[0]).toMatchObject({ amount: 500, discount_total: 500, total: 0 });
      expect(shipped).toMatchObject({ subtotal: 1200, shipping_total: 0, discount_total: 500, total: 1200 });
      expect(shipped.promotions).toEqual([expect.objectContaining({ code: "AUTOSHIP", is_automatic: true })]);
    } finally {
      const { items } = await t.app.modules.promotion.list({ q: "AUTOSHIP" }, { limit: 1, offset: 0 });
      await t.app.modules.promotion.delete(items[0]!.id);
    }
  });
});

describe("store carts: a code-less automatic promotion", () => {
  it("accepts and ignores null codes (a storefront sends the automatic promotion's null code back)", async () => {
    // A storefront is shown the application method as it was created.
    const application_method = {
      type: "fixed",
      target_type: "order",
      allocation: "across",
      value: 100,
      currency_code: "eur",
    } as const;
    const auto = await t.app.modules.promotion.create({ type: "standard", is_automatic: true, application_method });
    try {
      const cart = await newCart({ region_id: eu.id });
      const filled = (
        await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 2 })
      ).json().cart;
      expect(filled.promotions).toEqual([
        {
          id: auto.id,
          code: null,
          is_automatic: true,
          application_method,
        },
      ]);
      expect(filled).toMatchObject({ discount_total: 100, discount_subtotal: 100 });
      // What the storefront sends when a code is added: the current codes (null here) plus the new one.
      const added = await post(`/store/carts/${cart.id}`, { promo_codes: [null, "TENOFF"] });
      expect(added.statusCode).toBe(200);
      expect(
        added
          .json()
          .cart.promotions.map((p: { code: string | null }) => p.code)
          .sort(),
      ).toEqual(["TENOFF", null].sort());
      // And when it is removed again.
      const removed = await post(`/store/carts/${cart.id}`, { promo_codes: [null] });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().cart.promotions).toEqual([expect.objectContaining({ id: auto.id, code: null })]);
      expect(removed.json().cart.discount_total).toBe(100);
      expect400(await post(`/store/carts/${cart.id}`, { promo_codes: [null, 5] }));
      expect400(await post(`/store/carts/${cart.id}`, { promo_codes: [""] }));
    } finally {
      await t.app.modules.promotion.delete(auto.id);
    }
  });
});

describe("store carts: ownership, customers, completion", () => {
  it("links a signed-in customer's cart and hides it from everyone else (404)", async () => {
    const customer = await t.app.modules.customer.create({ email: "owner@example.com" });
    const owner = await t.customerHeaders(customer.id);
    const cart = await newCart({ region_id: eu.id }, owner);
    expect(cart).toMatchObject({ customer_id: customer.id, email: "owner@example.com" });
    expect((await t.store.get(`/store/carts/${cart.id}`, owner)).statusCode).toBe(200);
    const someoneElse = await t.customerHeaders("cus_other");
    for (const headers of [{}, someoneElse]) {
      expect((await t.store.get(`/store/carts/${cart.id}`, headers)).statusCode).toBe(404);
      expect(
        (await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 }, headers))
          .statusCode,
      ).toBe(404);
      expect((await post(`/store/carts/${cart.id}`, { email: "x@example.com" }, headers)).statusCode).toBe(404);
      expect((await t.store.get(`/store/shipping-options?cart_id=${cart.id}`, headers)).statusCode).toBe(404);
      expect((await post("/store/payment-collections", { cart_id: cart.id }, headers)).statusCode).toBe(404);
    }
    expect((await t.store.get(`/store/carts/${cart.id}`, owner)).json().cart.email).toBe("owner@example.com");
  });

  it("transfers a guest cart to the signed-in customer", async () => {
    const customer = await t.app.modules.customer.create({ email: "taker@example.com" });
    const headers = await t.customerHeaders(customer.id);
    const cart = await newCart();
    expect((await post(`/store/carts/${cart.id}/customer`)).statusCode).toBe(401);
    expect((await post(`/store/carts/${cart.id}/customer`, { customer_id: "cus_someone" }, headers)).statusCode).toBe(
      403,
    );
    expect400(await post(`/store/carts/${cart.id}/customer`, { bogus: 1 }, headers));
    const res = await post(`/store/carts/${cart.id}/customer`, undefined, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().cart).toMatchObject({ customer_id: customer.id, email: "taker@example.com" });
    expect((await t.store.get(`/store/carts/${cart.id}`)).statusCode).toBe(404);
  });

  it("serializes concurrent writes to one cart: parallel adds merge into one line", async () => {
    const cart = await newCart();
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const read = (await t.store.get(`/store/carts/${cart.id}`)).json().cart;
    expect(read.items).toHaveLength(1);
    expect(read.items[0].quantity).toBe(5);
    expect(read.total).toBe(2500);
  });

  it("takes the publishable key's sales channel and refuses channels outside it", async () => {
    const admin = await t.adminHeaders();
    const retail = await t.app.modules.salesChannel.create({ name: "Kiosk" });
    const key = (await post("/admin/api-keys", { title: "Kiosk", type: "publishable" }, admin)).json().api_key;
    await post(`/admin/api-keys/${key.id}/sales-channels`, { add: [retail.id] }, admin);
    const headers = { "x-publishable-api-key": key.token };
    expect((await newCart({ region_id: eu.id }, headers)).sales_channel_id).toBe(retail.id);
    const defaultChannel = await t.app.modules.salesChannel.getOrCreateDefault();
    expect400(
      await post("/store/carts", { region_id: eu.id, sales_channel_id: defaultChannel.id }, headers),
      /publishable key/,
    );
    // The shirt is not sold in that channel.
    const cart = await newCart({ region_id: eu.id }, headers);
    expect400(
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: shirt.variantIds[0], quantity: 1 }, headers),
      /sales channel/,
    );
  });

  it("re-prices for the customer's groups when a cart is transferred (customer-group price list)", async () => {
    const m = t.app.modules;
    const customer = await m.customer.create({ email: "vip@example.com" });
    const group = await m.customer.createGroup({ name: "VIP" });
    await m.customer.updateGroupCustomers(group.id, { add: [customer.id] });
    await m.priceList.create({
      title: "VIP",
      type: "override",
      status: "active",
      rules: [{ rule_type: "customer_group_id", value: group.id }],
      prices: [{ variant_id: mug.variantIds[0]!, currency_code: "eur", amount: 350 }],
    });
    const cart = await newCart();
    expect(
      (await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 2 })).json().cart
        .items[0].unit_price,
    ).toBe(500);
    const transferred = (
      await post(`/store/carts/${cart.id}/customer`, {}, await t.customerHeaders(customer.id))
    ).json().cart;
    expect(transferred.items[0]).toMatchObject({ unit_price: 350, subtotal: 700 });
    expect(transferred.total).toBe(700);
  });

  it("a completed cart is read-only", async () => {
    const cart = await newCart();
    await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 });
    await t.app.modules.cart.update(cart.id, { completed_at: new Date() });
    expect((await t.store.get(`/store/carts/${cart.id}`)).statusCode).toBe(200);
    const line = (await t.store.get(`/store/carts/${cart.id}`)).json().cart.items[0];
    expect400(
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 }),
      /completed/,
    );
    expect400(await post(`/store/carts/${cart.id}/line-items/${line.id}`, { quantity: 2 }), /completed/);
    expect400(await t.store.delete(`/store/carts/${cart.id}/line-items/${line.id}`), /completed/);
    expect400(await post(`/store/carts/${cart.id}`, { email: "late@example.com" }), /completed/);
    expect400(await post(`/store/carts/${cart.id}/shipping-methods`, { option_id: standard.id }), /completed/);
    expect400(await post("/store/payment-collections", { cart_id: cart.id }), /completed/);
    expect((await t.store.get(`/store/carts/${cart.id}`)).json().cart).toMatchObject({
      email: null,
      items: [{ quantity: 1 }],
    });
  });
});

describe("store payment collections", () => {
  it("creates one collection per cart for its total, keeps the amount in sync, starts and authorizes a session", async () => {
    const cart = await newCart();
    await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 2 });
    const created = await post("/store/payment-collections", { cart_id: cart.id });
    expect(created.statusCode).toBe(200);
    const collection = created.json().payment_collection;
    expect(collection).toMatchObject({
      cart_id: cart.id,
      amount: 1000,
      currency_code: "eur",
      status: "not_paid",
      authorized_amount: 0,
      payment_sessions: [],
    });
    expect(collection.payment_providers).toEqual([{ id: "pp_system_default", is_enabled: true }]);
    expect((await post("/store/payment-collections", { cart_id: cart.id })).json().payment_collection.id).toBe(
      collection.id,
    );

    const more = (
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 })
    ).json().cart;
    expect(more.payment_collection).toMatchObject({ id: collection.id, amount: 1500 });

    const session = await post(`/store/payment-collections/${collection.id}/payment-sessions`, {
      provider_id: "pp_system_default",
    });
    expect(session.statusCode).toBe(200);
    const withSession = session.json().payment_collection;
    expect(withSession.payment_sessions).toEqual([
      expect.objectContaining({
        provider_id: "pp_system_default",
        amount: 1500,
        status: "pending",
        currency_code: "eur",
      }),
    ]);
    const sessionId = withSession.payment_sessions[0].id;

    const authorized = await post(
      `/store/payment-collections/${collection.id}/payment-sessions/${sessionId}/authorize`,
    );
    expect(authorized.statusCode).toBe(200);
    expect(authorized.json().payment_collection).toMatchObject({ status: "authorized", authorized_amount: 1500 });
    expect(authorized.json().payment_collection.payment_sessions[0].status).toBe("authorized");

    // Once authorized, the amount no longer follows the cart.
    const after = (
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 })
    ).json().cart;
    expect(after.total).toBe(2000);
    expect(after.payment_collection).toMatchObject({ amount: 1500, status: "authorized" });
  });

  it("racing cart writes leave the collection and its pending session at the final cart total", async () => {
    for (let round = 0; round < 3; round++) {
      const cart = await newCart();
      const line = (
        await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 })
      ).json().cart.items[0];
      const collection = (await post("/store/payment-collections", { cart_id: cart.id })).json().payment_collection;
      expect(
        (
          await post(`/store/payment-collections/${collection.id}/payment-sessions`, {
            provider_id: "pp_system_default",
          })
        ).statusCode,
      ).toBe(200);
      // Adds and quantity changes at once: each write's own sync follows its commit, in any order.
      const writes = await Promise.all([
        ...Array.from({ length: 4 }, () =>
          post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 }),
        ),
        post(`/store/carts/${cart.id}/line-items/${line.id}`, { quantity: 7 }),
        ...Array.from({ length: 2 }, () =>
          post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 2 }),
        ),
      ]);
      expect(writes.map((r) => r.statusCode)).toEqual(writes.map(() => 200));
      const read = (await t.store.get(`/store/carts/${cart.id}`)).json().cart;
      expect(read.total).toBe(read.items[0].quantity * 500);
      expect(read.payment_collection).toMatchObject({ amount: read.total, status: "not_paid" });
      expect(read.payment_collection.payment_sessions).toEqual([
        expect.objectContaining({ amount: read.total, status: "pending" }),
      ]);
      // The last write's answer already shows the amount it synced.
      const last = writes.map((r) => r.json().cart).find((c) => c.total === read.total)!;
      expect(last.payment_collection.amount).toBe(read.total);
    }
  });

  it("rejects bad payment requests", async () => {
    expect400(await post("/store/payment-collections", {}));
    expect400(await post("/store/payment-collections", { cart_id: 5 }));
    expect((await post("/store/payment-collections", { cart_id: "cart_missing" })).statusCode).toBe(404);
    const cart = await newCart();
    const collection = (await post("/store/payment-collections", { cart_id: cart.id })).json().payment_collection;
    expect400(await post(`/store/payment-collections/${collection.id}/payment-sessions`, {}));
    expect400(
      await post(`/store/payment-collections/${collection.id}/payment-sessions`, { provider_id: "pp_test" }),
      /pp_test/,
    );
    expect400(
      await post(`/store/payment-collections/${collection.id}/payment-sessions`, {
        provider_id: "pp_system_default",
        extra: 1,
      }),
    );
    expect(
      (await post(`/store/payment-collections/pay_col_missing/payment-sessions`, { provider_id: "pp_system_default" }))
        .statusCode,
    ).toBe(404);
    expect(
      (await post(`/store/payment-collections/${collection.id}/payment-sessions/payses_missing/authorize`)).statusCode,
    ).toBe(404);
  });

  it("reports a declined authorization as payment_authorization_error", async () => {
    const region = await t.app.modules.region.create({
      name: "Test pay",
      currency_code: "eur",
      countries: ["it"],
      payment_providers: ["pp_test"],
    });
    const cart = await newCart({ region_id: region.id });
    await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 });
    const collection = (await post("/store/payment-collections", { cart_id: cart.id })).json().payment_collection;
    // A new pp_test session (behaving as `behavior` says; authorizing without one) and its store authorization.
    const authorizeNew = async (behavior?: string) => {
      const session = (
        await post(`/store/payment-collections/${collection.id}/payment-sessions`, {
          provider_id: "pp_test",
          ...(behavior ? { data: { behavior } } : {}),
        })
      ).json().payment_collection.payment_sessions[0];
      const res = await post(
        `/store/payment-collections/${collection.id}/payment-sessions/${session.id}/authorize`,
        {},
      );
      return { session, res };
    };
    const { res } = await authorizeNew("decline");
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe("payment_authorization_error");
    expect((await t.store.get(`/store/carts/${cart.id}`)).json().cart.payment_collection).toMatchObject({
      status: "not_paid",
      authorized_amount: 0,
    });
    // A further customer step is its own error; the session keeps that status.
    const { session: more, res: asked } = await authorizeNew("requires_more");
    expect(asked.statusCode).toBe(400);
    expect(asked.json().type).toBe("payment_requires_more_error");
    expect((await t.store.get(`/store/carts/${cart.id}`)).json().cart.payment_collection.payment_sessions).toEqual([
      expect.objectContaining({ id: more.id, status: "requires_more" }),
    ]);
    // A declined session may be tried again: the failed attempt does not answer for the next one.
    const { res: ok } = await authorizeNew();
    expect(ok.statusCode).toBe(200);
    expect(ok.json().payment_collection).toMatchObject({ status: "authorized", authorized_amount: 500 });
  });

  it("concurrent authorizations of one session make one authorization and answer it to all", async () => {
    for (let round = 0; round < 3; round++) {
      const cart = await newCart();
      await post(`/store/carts/${cart.id}/line-items`, { variant_id: mug.variantIds[0], quantity: 1 });
      const collection = (await post("/store/payment-collections", { cart_id: cart.id })).json().payment_collection;
      const session = (
        await post(`/store/payment-collections/${collection.id}/payment-sessions`, { provider_id: "pp_system_default" })
      ).json().payment_collection.payment_sessions[0];
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          post(`/store/payment-collections/${collection.id}/payment-sessions/${session.id}/authorize`),
        ),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
      for (const a of answers)
        expect(a.json().payment_collection).toMatchObject({ status: "authorized", authorized_amount: 500 });
      const stored = await t.app.modules.payment.retrieveCollection(collection.id);
      expect(stored).toMatchObject({ status: "authorized", authorized_amount: 500 });
      expect(stored.payments).toHaveLength(1);
    }
  });
});
