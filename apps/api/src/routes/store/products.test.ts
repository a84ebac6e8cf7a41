import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";

const t = useTestApp();
const ids: Record<string, string> = {};
let shirt: { id: string; variantIds: string[] };
let mug: { id: string; variantIds: string[] };

beforeAll(async () => {
  const m = t.app.modules;
  const defaultChannel = await m.salesChannel.getOrCreateDefault();
  const other = await m.salesChannel.create({ name: "Other" });
  ids.default = defaultChannel.id;
  ids.other = other.id;
  ids.us = (await m.region.create({ name: "US", currency_code: "usd", countries: ["us"] })).id;
  ids.eu = (await m.region.create({ name: "EU", currency_code: "eur", countries: ["de", "fr"] })).id;
  const location = await m.stockLocation.create({ name: "Warehouse" });
  await m.stockLocation.updateSalesChannels(location.id, { add: [defaultChannel.id] });
  ids.collection = (await m.product.collections.create({ title: "Summer", handle: "summer" })).id;
  ids.category = (await m.product.categories.create({ name: "Shirts", handle: "shirts", is_active: true })).id;
  ids.tag = (await m.product.tags.create({ value: "cotton" })).id;
  ids.type = (await m.product.types.create({ value: "apparel" })).id;

  shirt = await createFixtureProduct(
    t,
    {
      title: "Linen Shirt",
      handle: "linen-shirt",
      status: "published",
      collection_id: ids.collection,
      type_id: ids.type,
      categories: [{ id: ids.category }],
      tags: [{ id: ids.tag }],
      images: [{ url: "https://img.example/shirt.png" }],
      sales_channels: [{ id: defaultChannel.id }],
      variants: [
        {
          title: "S",
          sku: "SHIRT-S",
          size: "S",
          stock: 7,
          prices: [
            { currency_code: "usd", amount: 3000 },
            { currency_code: "eur", amount: 2800 },
            { currency_code: "usd", amount: 2000, min_quantity: 10 },
          ],
        },
        {
          title: "M",
          sku: "SHIRT-M",
          size: "M",
          stock: 0,
          prices: [
            { currency_code: "usd", amount: 3200 },
            { currency_code: "usd", amount: 3100, rules: { region_id: ids.us } },
          ],
        },
      ],
    },
    location.id,
  );
  mug = await createFixtureProduct(t, {
    title: "Coffee Mug",
    status: "published",
    sales_channels: [{ id: defaultChannel.id }],
    variants: [{ title: "One size", size: "One", prices: [{ currency_code: "usd", amount: 1200 }] }],
  });
  await createFixtureProduct(t, {
    title: "Draft Hat",
    status: "draft",
    sales_channels: [{ id: defaultChannel.id }],
    variants: [{ title: "Hat", size: "One", prices: [{ currency_code: "usd", amount: 1 }] }],
  });
  await createFixtureProduct(t, {
    title: "Other Channel Scarf",
    status: "published",
    sales_channels: [{ id: other.id }],
    variants: [{ title: "Scarf", size: "One", prices: [{ currency_code: "usd", amount: 1 }] }],
  });
  const gone = await createFixtureProduct(t, {
    title: "Deleted Sock",
    status: "published",
    sales_channels: [{ id: defaultChannel.id }],
    variants: [{ title: "Sock", size: "One", prices: [{ currency_code: "usd", amount: 1 }] }],
  });
  await m.product.delete([gone.id]);
});

const titles = (body: { products: Array<{ title: string }> }) => body.products.map((p) => p.title);

describe("GET /store/products visibility", () => {
  it("shows only published, live products of the default channel", async () => {
    const res = await t.store.get("/store/products?order=title");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: 2, offset: 0, limit: 15 });
    expect(titles(res.json())).toEqual(["Coffee Mug", "Linen Shirt"]);
  });

  it("uses the publishable key's channels, and sales_channel_id", async () => {
    const key = await t.app.modules.apiKey.create({ title: "Other store", type: "publishable" }, "user_1");
    await t.app.modules.apiKey.updateSalesChannels(key.id, { add: [ids.other!] });
    const keyed = await t.store.get("/store/products", { "x-publishable-api-key": key.token });
    expect(titles(keyed.json())).toEqual(["Other Channel Scarf"]);
    expect(titles((await t.store.get(`/store/products?sales_channel_id=${ids.other}`)).json())).toEqual([
      "Other Channel Scarf",
    ]);
    const outside = await t.store.get(`/store/products?sales_channel_id=${ids.default}`, {
      "x-publishable-api-key": key.token,
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().type).toBe("invalid_data");
    const bad = await t.store.get("/store/products", { "x-publishable-api-key": "pk_nope" });
    expect(bad.statusCode).toBe(400);
    const empty = await t.app.modules.apiKey.create({ title: "No channels", type: "publishable" }, "user_1");
    expect((await t.store.get("/store/products", { "x-publishable-api-key": empty.token })).json()).toMatchObject({
      products: [],
      count: 0,
    });
    expect(
      (await t.store.get(`/store/products/${shirt.id}`, { "x-publishable-api-key": empty.token })).statusCode,
    ).toBe(404);
  });

  it("retrieves by id or handle; hidden products are 404", async () => {
    expect((await t.store.get(`/store/products/${shirt.id}`)).json().product.handle).toBe("linen-shirt");
    expect((await t.store.get("/store/products/linen-shirt")).json().product.id).toBe(shirt.id);
    const all = await t.app.modules.product.list({}, { limit: 50, offset: 0 }, { relations: [] });
    for (const hidden of all.items.filter((p) => p.title !== "Linen Shirt" && p.title !== "Coffee Mug")) {
      const res = await t.store.get(`/store/products/${hidden.id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().type).toBe("not_found");
    }
    expect((await t.store.get("/store/products/prod_missing")).statusCode).toBe(404);
  });
});

describe("a disabled sales channel", () => {
  it("shows nothing to its key or to sales_channel_id: lists, by id and handle, variants, options, new carts", async () => {
    const kiosk = (await t.admin.post("/admin/sales-channels", { name: "Kiosk" })).json().sales_channel;
    const lamp = await createFixtureProduct(t, {
      title: "Kiosk Lamp",
      handle: "kiosk-lamp",
      status: "published",
      sales_channels: [{ id: kiosk.id }],
      variants: [{ title: "Lamp", size: "One", prices: [{ currency_code: "usd", amount: 900 }] }],
    });
    const key = (await t.admin.post("/admin/api-keys", { title: "Kiosk", type: "publishable" })).json().api_key;
    await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: [kiosk.id] });
    const asKey = { "x-publishable-api-key": key.token };
    const seen = async () => ({
      list: titles((await t.store.get("/store/products", asKey)).json()),
      byId: (await t.store.get(`/store/products/${lamp.id}`, asKey)).statusCode,
      byHandle: (await t.store.get("/store/products/kiosk-lamp", asKey)).statusCode,
      variants: (await t.store.get("/store/product-variants", asKey)).json().variants.length,
      options: (await t.store.get("/store/product-options", asKey)).json().product_options.length,
      byChannel: titles((await t.store.get(`/store/products?sales_channel_id=${kiosk.id}`)).json()),
      cart: (await t.store.post("/store/carts", { region_id: ids.us }, asKey)).statusCode,
    });
    expect(await seen()).toEqual({
      list: ["Kiosk Lamp"],
      byId: 200,
      byHandle: 200,
      variants: 1,
      options: 1,
      byChannel: ["Kiosk Lamp"],
      cart: 200,
    });

    expect((await t.admin.post(`/admin/sales-channels/${kiosk.id}`, { is_disabled: true })).statusCode).toBe(200);
    expect(await seen()).toEqual({
      list: [],
      byId: 404,
      byHandle: 404,
      variants: 0,
      options: 0,
      byChannel: [],
      cart: 400,
    });
    const cart = await t.store.post("/store/carts", { region_id: ids.us }, asKey);
    expect(cart.json()).toMatchObject({ type: "invalid_data" });
    // The other channels' products are untouched.
    expect(titles((await t.store.get("/store/products?order=title")).json())).toEqual(["Coffee Mug", "Linen Shirt"]);

    await t.admin.post(`/admin/sales-channels/${kiosk.id}`, { is_disabled: false });
    expect((await seen()).list).toEqual(["Kiosk Lamp"]);
  });
});

describe("GET /store/products filters and paging", () => {
  it.each([
    ["q=linen", ["Linen Shirt"]],
    ["q=SHIRT-M", ["Linen Shirt"]],
    ["q=nothing", []],
    ["collection_id[]=COLLECTION", ["Linen Shirt"]],
    ["category_id[]=CATEGORY", ["Linen Shirt"]],
    ["tags[]=cotton", ["Linen Shirt"]],
    ["tags=wool", []],
    ["type_id=TYPE", ["Linen Shirt"]],
    ["handle=linen-shirt", ["Linen Shirt"]],
    ["id[]=MUG", ["Coffee Mug"]],
    ["order=-title", ["Linen Shirt", "Coffee Mug"]],
    ["order=title&limit=1&offset=1", ["Linen Shirt"]],
    ["limit=0", []],
    ["offset=5", []],
  ])("%s", async (query, expected) => {
    const url = `/store/products?${query.replace("COLLECTION", ids.collection!).replace("CATEGORY", ids.category!).replace("TYPE", ids.type!).replace("MUG", mug.id)}`;
    const res = await t.store.get(url);
    expect(res.statusCode).toBe(200);
    expect(titles(res.json())).toEqual(expected);
  });

  it("filters by tag id and collection as the storefront's related-products rail sends them (indexed arrays)", async () => {
    const res = await t.store.get(
      `/store/products?limit=12&offset=0&collection_id[0]=${ids.collection}&tag_id[0]=${ids.tag}&tag_id[1]=ptag_other&is_giftcard=false`,
    );
    expect(res.statusCode).toBe(200);
    expect(titles(res.json())).toEqual(["Linen Shirt"]);
    expect(titles((await t.store.get(`/store/products?tag_id=ptag_none`)).json())).toEqual([]);
  });

  it("filters by option value ids: products with a variant of any of them", async () => {
    const product = (await t.store.get("/store/products/linen-shirt")).json().product;
    const valueOf = (size: string) =>
      product.options[0].values.find((v: { value: string }) => v.value === size).id as string;
    const mugValue = (await t.store.get(`/store/products/${mug.id}`)).json().product.options[0].values[0].id as string;
    expect(titles((await t.store.get(`/store/products?option_value_id[0]=${valueOf("M")}`)).json())).toEqual([
      "Linen Shirt",
    ]);
    expect(
      titles(
        (
          await t.store.get(
            `/store/products?order=title&option_value_id[0]=${valueOf("S")}&option_value_id[1]=${mugValue}`,
          )
        ).json(),
      ),
    ).toEqual(["Coffee Mug", "Linen Shirt"]);
    expect((await t.store.get(`/store/products?option_value_id=optval_missing`)).json()).toMatchObject({
      products: [],
      count: 0,
    });
  });

  it("keeps the total count when paging", async () => {
    expect((await t.store.get("/store/products?limit=1")).json()).toMatchObject({ count: 2, limit: 1, offset: 0 });
  });
});

describe("GET /store/products shapes and fields", () => {
  it("answers the contract's Store shapes", async () => {
    const product = (await t.store.get("/store/products/linen-shirt")).json().product;
    expect(product).toMatchObject({
      id: shirt.id,
      title: "Linen Shirt",
      status: "published",
      collection: { id: ids.collection, title: "Summer", handle: "summer" },
      categories: [{ id: ids.category, name: "Shirts", handle: "shirts" }],
      tags: [{ id: ids.tag, value: "cotton" }],
      type: { id: ids.type, value: "apparel" },
      images: [{ url: "https://img.example/shirt.png" }],
    });
    expect(Object.keys(product.collection).sort()).toEqual(["handle", "id", "title"]);
    expect(Object.keys(product.categories[0]).sort()).toEqual(["handle", "id", "name"]);
    expect(product.options).toHaveLength(1);
    expect(product.options[0].title).toBe("Size");
    expect(product.options[0].values.map((v: object) => Object.keys(v).sort())).toEqual([
      ["id", "value"],
      ["id", "value"],
    ]);
    const small = product.variants.find((v: { sku: string }) => v.sku === "SHIRT-S");
    expect(small.options).toEqual([
      {
        id: expect.any(String),
        value: "S",
        option_id: product.options[0].id,
        option: { id: product.options[0].id, title: "Size" },
      },
    ]);
    expect(small).not.toHaveProperty("calculated_price");
    expect(small).not.toHaveProperty("inventory_quantity");
    expect(product).not.toHaveProperty("deleted_at");
    expect(product).not.toHaveProperty("sales_channels");
  });

  it("narrows to named fields", async () => {
    const res = (await t.store.get("/store/products?fields=id,title&order=title")).json();
    expect(res.products).toEqual([
      { id: mug.id, title: "Coffee Mug" },
      { id: shirt.id, title: "Linen Shirt" },
    ]);
    const nested = (await t.store.get("/store/products/linen-shirt?fields=title,variants.sku")).json().product;
    expect(nested).toEqual({
      id: shirt.id,
      title: "Linen Shirt",
      variants: [
        { id: expect.any(String), sku: "SHIRT-S" },
        { id: expect.any(String), sku: "SHIRT-M" },
      ],
    });
  });

  it.each(["*,variants.inventory_quantity", "+variants.inventory_quantity", "*variants,+variants.inventory_quantity"])(
    "adds inventory_quantity with fields=%s",
    async (fields) => {
      const product = (await t.store.get(`/store/products/linen-shirt?fields=${encodeURIComponent(fields)}`)).json()
        .product;
      expect(product.title).toBe("Linen Shirt");
      const bySku = Object.fromEntries(
        product.variants.map((v: { sku: string; inventory_quantity: number }) => [v.sku, v.inventory_quantity]),
      );
      expect(bySku).toEqual({ "SHIRT-S": 7, "SHIRT-M": 0 });
    },
  );

  it("counts stock only at locations of the request's channel", async () => {
    const product = (
      await t.store.get(
        `/store/products?sales_channel_id=${ids.other}&fields=${encodeURIComponent("*,variants.inventory_quantity")}`,
      )
    ).json().products[0];
    expect(product.title).toBe("Other Channel Scarf");
    expect(product.variants[0]).not.toHaveProperty("inventory_quantity"); // no inventory item linked
  });
});

describe("calculated_price", () => {
  const priceOf = async (query: string, sku = "SHIRT-S", headers: Record<string, string> = {}) => {
    const res = await t.store.get(
      `/store/products/linen-shirt?fields=${encodeURIComponent("*variants.calculated_price")}&${query}`,
      headers,
    );
    expect(res.statusCode).toBe(200);
    return res.json().product.variants.find((v: { sku: string }) => v.sku === sku).calculated_price;
  };

  it("prices by currency and by region (the region's currency and region rules)", async () => {
    expect(await priceOf("currency_code=eur")).toEqual({
      id: expect.any(String),
      calculated_amount: 2800,
      original_amount: 2800,
      currency_code: "eur",
      is_calculated_price_tax_inclusive: false,
      is_original_price_tax_inclusive: false,
      calculated_price: {
        id: expect.any(String),
        price_list_id: null,
        price_list_type: null,
        min_quantity: null,
        max_quantity: null,
      },
      original_price: expect.objectContaining({ price_list_id: null }),
    });
    expect((await priceOf(`region_id=${ids.us}`)).calculated_amount).toBe(3000);
    expect((await priceOf(`region_id=${ids.us}`, "SHIRT-M")).calculated_amount).toBe(3100);
    expect((await priceOf("currency_code=usd", "SHIRT-M")).calculated_amount).toBe(3200);
    // A quantity tier from 10 does not apply to a single unit.
    expect((await priceOf("currency_code=USD")).calculated_amount).toBe(3000);
    // No price in the currency: null, not an invented amount.
    expect(await priceOf("currency_code=eur", "SHIRT-M")).toBeNull();
  });

  it("changes when a sale list is activated, and ignores it when dearer", async () => {
    const created = await t.admin.post("/admin/price-lists", {
      title: "Sale",
      type: "sale",
      prices: [
        { variant_id: shirt.variantIds[0], currency_code: "usd", amount: 2500 },
        { variant_id: shirt.variantIds[1], currency_code: "usd", amount: 9999 },
      ],
    });
    const list = created.json().price_list;
    expect((await priceOf("currency_code=usd")).calculated_amount).toBe(3000);
    await t.admin.post(`/admin/price-lists/${list.id}`, { status: "active" });
    expect(await priceOf("currency_code=usd")).toMatchObject({
      calculated_amount: 2500,
      original_amount: 3000,
      calculated_price: { price_list_id: list.id, price_list_type: "sale" },
    });
    expect((await priceOf("currency_code=usd", "SHIRT-M")).calculated_amount).toBe(3200);
    await t.admin.post(`/admin/price-lists/${list.id}`, {
      ends_at: "2020-01-02T00:00:00.000Z",
      starts_at: "2020-01-01T00:00:00.000Z",
    });
    expect((await priceOf("currency_code=usd")).calculated_amount).toBe(3000);
    await t.admin.delete(`/admin/price-lists/${list.id}`);
  });

  it("applies a customer-group override only to that group's customers, and a region-rule list only in that region", async () => {
    const group = await t.app.modules.customer.createGroup({ name: "VIP" });
    const customer = await t.app.modules.customer.create({ email: "vip@example.com" });
    await t.app.modules.customer.updateGroupCustomers(group.id, { add: [customer.id] });
    await t.admin.post("/admin/price-lists", {
      title: "VIP",
      type: "override",
      status: "active",
      rules: { customer_group_id: [group.id] },
      prices: [{ variant_id: shirt.variantIds[0], currency_code: "usd", amount: 3500 }],
    });
    expect((await priceOf("currency_code=usd")).calculated_amount).toBe(3000);
    const vip = await t.customerHeaders(customer.id);
    expect(await priceOf("currency_code=usd", "SHIRT-S", vip)).toMatchObject({
      calculated_amount: 3500,
      original_amount: 3500,
      calculated_price: { price_list_type: "override" },
    });
    expect(
      (await priceOf("currency_code=usd", "SHIRT-S", await t.customerHeaders("cus_other"))).calculated_amount,
    ).toBe(3000);

    await t.admin.post("/admin/price-lists", {
      title: "EU sale",
      type: "sale",
      status: "active",
      rules: [{ rule_type: "region_id", value: ids.eu }],
      prices: [{ variant_id: shirt.variantIds[0], currency_code: "eur", amount: 2000 }],
    });
    expect((await priceOf("currency_code=eur")).calculated_amount).toBe(2800);
    expect((await priceOf(`region_id=${ids.eu}`)).calculated_amount).toBe(2000);
  });

  it("flags tax-inclusive prices from price preferences, region before currency", async () => {
    const pref = (
      await t.admin.post("/admin/price-preferences", {
        attribute: "currency_code",
        value: "eur",
        is_tax_inclusive: true,
      })
    ).json().price_preference;
    expect((await priceOf("currency_code=eur")).is_calculated_price_tax_inclusive).toBe(true);
    expect((await priceOf(`region_id=${ids.eu}`)).is_calculated_price_tax_inclusive).toBe(true);
    await t.admin.post("/admin/price-preferences", { attribute: "region_id", value: ids.eu, is_tax_inclusive: false });
    expect((await priceOf(`region_id=${ids.eu}`)).is_calculated_price_tax_inclusive).toBe(false);
    expect((await priceOf("currency_code=usd")).is_calculated_price_tax_inclusive).toBe(false);
    await t.admin.delete(`/admin/price-preferences/${pref.id}`);
  });

  it("prices product lists too", async () => {
    const body = (await t.store.get("/store/products?currency_code=usd&order=title")).json();
    expect(body.products[0].variants[0].calculated_price.calculated_amount).toBe(1200);
  });
});

describe("variant images", () => {
  it("shows a variant with the product images an admin chose for it (*variants.images), none by default", async () => {
    const before = (
      await t.store.get(`/store/products/${shirt.id}?fields=${encodeURIComponent("*variants.images")}`)
    ).json().product;
    expect(before.variants.map((v: { images: unknown[] }) => v.images)).toEqual([[], []]);
    const image = before.images[0];
    const batch = (variantId: string, body: unknown, productId = shirt.id) =>
      t.admin.post(`/admin/products/${productId}/variants/${variantId}/images/batch`, body as object);

    const added = await batch(shirt.variantIds[1]!, { add: [image.id] });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ added: [image.id], removed: [] });
    // Adding again changes nothing.
    expect((await batch(shirt.variantIds[1]!, { add: [image.id] })).statusCode).toBe(200);
    const after = (
      await t.store.get(
        `/store/products?id[0]=${shirt.id}&fields=${encodeURIComponent("*variants.calculated_price,*variants.images,*variants.options")}`,
      )
    ).json().products[0];
    const bySku = (sku: string) => after.variants.find((v: { sku: string }) => v.sku === sku);
    expect(bySku("SHIRT-M").images).toEqual([{ id: image.id, url: "https://img.example/shirt.png", rank: 0 }]);
    expect(bySku("SHIRT-S").images).toEqual([]);
    // Not asked: not loaded.
    expect((await t.store.get(`/store/products/${shirt.id}`)).json().product.variants[0]).not.toHaveProperty("images");

    // Another product's image, another product's variant, unknown ids, bad bodies: refused, nothing written.
    const mugVariant = mug.variantIds[0]!;
    const foreign = await batch(shirt.variantIds[0]!, { add: ["pimg_other"] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toMatch(/pimg_other/);
    expect((await batch(mugVariant, { add: [image.id] })).statusCode).toBe(404);
    expect((await batch(mugVariant, { add: [image.id] }, mug.id)).statusCode).toBe(400);
    for (const body of [{ add: "x" }, { add: [5] }, { nope: [] }, { add: [""] }])
      expect((await batch(shirt.variantIds[0]!, body)).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: `/admin/products/${shirt.id}/variants/${shirt.variantIds[0]}/images/batch`,
          payload: { add: [image.id] },
        })
      ).statusCode,
    ).toBe(401);
    expect(bySku("SHIRT-S").images).toEqual([]);

    const removed = await batch(shirt.variantIds[1]!, { remove: [image.id] });
    expect(removed.json()).toEqual({ added: [], removed: [image.id] });
    const gone = (
      await t.store.get(`/store/products/${shirt.id}?fields=${encodeURIComponent("*variants.images")}`)
    ).json().product;
    expect(gone.variants.map((v: { images: unknown[] }) => v.images)).toEqual([[], []]);
  });
});

describe("GET /store/product-options", () => {
  it("lists the options of the visible products with their values; every option is its product's own", async () => {
    const res = await t.store.get("/store/product-options?fields=*values&order=created_at");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 2, offset: 0, limit: 50 });
    const shirtOption = body.product_options.find((o: { product_id: string }) => o.product_id === shirt.id);
    expect(shirtOption).toMatchObject({ title: "Size", is_exclusive: true, values: [{ value: "S" }, { value: "M" }] });
    expect(shirtOption).not.toHaveProperty("deleted_at");
    // Draft, other-channel and deleted products' options are not listed.
    expect(body.product_options.map((o: { product_id: string }) => o.product_id).sort()).toEqual(
      [shirt.id, mug.id].sort(),
    );
    // Medusa's shared options (is_exclusive false): Kasse has none.
    expect((await t.store.get("/store/product-options?is_exclusive=false&fields=*values")).json()).toMatchObject({
      product_options: [],
      count: 0,
    });
    expect((await t.store.get("/store/product-options?is_exclusive=true")).json().count).toBe(2);
    expect(
      (await t.store.get(`/store/product-options?id[0]=${shirtOption.id}`))
        .json()
        .product_options.map((o: { id: string }) => o.id),
    ).toEqual([shirtOption.id]);
    expect((await t.store.get("/store/product-options?title=Colour")).json().count).toBe(0);
    expect((await t.store.get("/store/product-options?q=siz&limit=1")).json()).toMatchObject({ count: 2, limit: 1 });
    expect((await t.store.get("/store/product-options?fields=id,title&limit=1")).json().product_options[0]).toEqual({
      id: expect.any(String),
      title: "Size",
    });
  });

  it("rejects bad input", async () => {
    for (const query of ["is_exclusive=maybe", "limit=-1", "nope=1", "order=price"]) {
      const res = await t.store.get(`/store/product-options?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
  });
});

describe("bad input", () => {
  it.each([
    "region_id=reg_missing",
    "currency_code=zzz",
    "currency_code=12",
    "currency_code=euro",
    "limit=-1",
    "limit=abc",
    "offset=-3",
    "order=price",
    "fields=variants..sku",
    "unknown=1",
    "is_giftcard=maybe",
    `tag_id[0]=${"x".repeat(300)}`,
    "option_value_id[a][b]=1",
  ])("%s → 400 invalid_data", async (query) => {
    const res = await t.store.get(`/store/products?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe("invalid_data");
    expect(typeof res.json().message).toBe("string");
  });

  it("rejects bad input on retrieve too", async () => {
    expect((await t.store.get("/store/products/linen-shirt?region_id=reg_missing")).statusCode).toBe(400);
    expect((await t.store.get("/store/products/linen-shirt?nope=1")).statusCode).toBe(400);
  });
});
