import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();
let channel: { id: string; name: string };
let collection: { id: string };
let tag: { id: string };
let category: { id: string };
let type: { id: string };

const count = async (query = "") => (await t.admin.get(`/admin/products?limit=0${query}`)).json().count as number;

/** A product with one option, Size, of one value, and what `more` adds (no variants unless it names them). */
const sizedProduct = async (title: string, size: string, more: Record<string, unknown> = {}) => {
  const res = await t.admin.post("/admin/products", { title, options: [{ title: "Size", values: [size] }], ...more });
  return res.json().product;
};

const shirt = (over: Record<string, unknown> = {}) => ({
  title: "Cotton Shirt",
  options: [
    { title: "Size", values: ["S", "M"] },
    { title: "Color", values: ["Red", "Blue"] },
  ],
  variants: [
    {
      title: "S / Red",
      sku: "SHIRT-S-RED",
      options: { Size: "S", Color: "Red" },
      prices: [
        { currency_code: "eur", amount: 1000 },
        { currency_code: "usd", amount: 1200 },
      ],
    },
    {
      title: "M / Blue",
      sku: "SHIRT-M-BLUE",
      manage_inventory: false,
      options: { Size: "M", Color: "Blue" },
      prices: [{ currency_code: "eur", amount: 1100 }],
    },
  ],
  ...over,
});

beforeAll(async () => {
  channel = (await t.admin.post("/admin/sales-channels", { name: "Web" })).json().sales_channel;
  collection = (await t.admin.post("/admin/collections", { title: "Summer" })).json().collection;
  tag = (await t.admin.post("/admin/product-tags", { value: "cotton" })).json().product_tag;
  category = (await t.admin.post("/admin/product-categories", { name: "Shirts", is_active: true })).json()
    .product_category;
  type = (await t.admin.post("/admin/product-types", { value: "apparel" })).json().product_type;
});

describe("admin products: create and retrieve", () => {
  it("creates a product with options, variants, prices, images and links, shaped as Medusa's", async () => {
    const res = await t.admin.post(
      "/admin/products",
      shirt({
        subtitle: "Soft",
        description: "A soft shirt",
        images: [{ url: "https://img/1.png" }, { url: "https://img/2.png" }],
        collection_id: collection.id,
        type_id: type.id,
        tags: [{ id: tag.id }],
        categories: [{ id: category.id }],
        sales_channels: [{ id: channel.id }],
        weight: 200,
        metadata: { fabric: "cotton" },
      }),
    );
    expect(res.statusCode).toBe(200);
    const product = res.json().product;
    expect(product).toMatchObject({
      title: "Cotton Shirt",
      subtitle: "Soft",
      handle: "cotton-shirt",
      status: "draft",
      is_giftcard: false,
      discountable: true,
      thumbnail: null,
      collection_id: collection.id,
      collection: { id: collection.id, title: "Summer", handle: "summer" },
      type_id: type.id,
      type: { id: type.id, value: "apparel" },
      weight: 200,
      metadata: { fabric: "cotton" },
      deleted_at: null,
    });
    expect(product.id).toMatch(/^prod_/);
    expect(product.tags).toEqual([expect.objectContaining({ id: tag.id, value: "cotton" })]);
    expect(product.categories).toEqual([expect.objectContaining({ id: category.id, name: "Shirts" })]);
    expect(product.sales_channels).toEqual([expect.objectContaining({ id: channel.id, name: "Web" })]);
    expect(product.images.map((i: { url: string; rank: number }) => [i.url, i.rank])).toEqual([
      ["https://img/1.png", 0],
      ["https://img/2.png", 1],
    ]);
    expect(
      product.options.map((o: { title: string; values: Array<{ value: string }> }) => [
        o.title,
        o.values.map((v) => v.value),
      ]),
    ).toEqual([
      ["Size", ["S", "M"]],
      ["Color", ["Red", "Blue"]],
    ]);
    expect(product.options[0]).toMatchObject({ product_id: product.id });
    expect(product.options[0].values[0]).toMatchObject({ option_id: product.options[0].id });

    const [small, medium] = product.variants;
    expect(small).toMatchObject({
      title: "S / Red",
      sku: "SHIRT-S-RED",
      manage_inventory: true,
      allow_backorder: false,
      variant_rank: 0,
      product_id: product.id,
    });
    expect(
      small.options.map((o: { value: string; option: { title: string } }) => `${o.option.title}=${o.value}`).sort(),
    ).toEqual(["Color=Red", "Size=S"]);
    expect(small.prices.map((p: { currency_code: string; amount: number }) => [p.currency_code, p.amount])).toEqual([
      ["eur", 1000],
      ["usd", 1200],
    ]);
    expect(small.inventory_items).toEqual([
      { inventory_item_id: expect.stringMatching(/^iitem_/), required_quantity: 1 },
    ]);
    expect(medium.inventory_items).toEqual([]);
    expect(typeof product.created_at).toBe("string");

    const again = await t.admin.get(`/admin/products/${product.id}`);
    expect(again.json().product).toEqual(product);
  });

  it("generates a free handle from the title and rejects a taken explicit one with 409", async () => {
    const a = await sizedProduct("Crème Brûlée!", "One");
    const b = await sizedProduct("Crème Brûlée!", "One");
    expect([a.handle, b.handle]).toEqual(["creme-brulee", "creme-brulee-1"]);
    const before = await count();
    const taken = await t.admin.post("/admin/products", {
      title: "Other",
      handle: "creme-brulee",
      options: [{ title: "Size", values: ["One"] }],
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ type: "conflict", message: "Product with handle: creme-brulee already exists" });
    expect(await count()).toBe(before);
    const badHandle = await t.admin.post("/admin/products", {
      title: "Other",
      handle: "Not A Handle",
      options: [{ title: "Size", values: ["One"] }],
    });
    expect(badHandle.statusCode).toBe(400);
  });

  it("rejects a taken sku with 409 and writes nothing", async () => {
    const before = await count();
    const res = await t.admin.post("/admin/products", shirt({ title: "Clone" }));
    expect(res.statusCode).toBe(409);
    expect(res.json(), res.body).toEqual({
      type: "conflict",
      message: "Product variant with sku: SHIRT-S-RED already exists",
    });
    const dup = await t.admin.post(
      "/admin/products",
      shirt({
        title: "Twice",
        variants: [
          { title: "a", sku: "DUP", options: { Size: "S", Color: "Red" }, prices: [] },
          { title: "b", sku: "DUP", options: { Size: "M", Color: "Red" }, prices: [] },
        ],
      }),
    );
    expect(dup.statusCode).toBe(409);
    expect(await count()).toBe(before);
  });

  it("checks variant options against the product's options (400)", async () => {
    const before = await count();
    const cases: Array<[Record<string, string>, string]> = [
      [{ Size: "XL", Color: "Red" }, "Value 'XL' is not a value of option 'Size'"],
      [{ Size: "S" }, "has no value for option 'Color'"],
      [{ Size: "S", Color: "Red", Fit: "Slim" }, "Option 'Fit' of variant"],
    ];
    for (const [options, message] of cases) {
      const res = await t.admin.post(
        "/admin/products",
        shirt({ title: "Bad", variants: [{ title: "v", options, prices: [] }] }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
      expect(res.json().message).toContain(message);
    }
    const same = await t.admin.post(
      "/admin/products",
      shirt({
        title: "Same",
        variants: [
          { title: "one", options: { Size: "S", Color: "Red" }, prices: [] },
          { title: "two", options: { Size: "S", Color: "Red" }, prices: [] },
        ],
      }),
    );
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toContain("have the same options");
    expect(await count()).toBe(before);
  });

  it("rejects unknown linked ids with 400 naming the id, and writes nothing", async () => {
    const before = await count();
    const bodies: Array<[Record<string, unknown>, string]> = [
      [{ collection_id: "pcol_missing" }, "pcol_missing"],
      [{ type_id: "ptyp_missing" }, "ptyp_missing"],
      [{ tags: [{ id: "ptag_missing" }] }, "ptag_missing"],
      [{ categories: [{ id: "pcat_missing" }] }, "pcat_missing"],
      [{ sales_channels: [{ id: "sc_missing" }] }, "sc_missing"],
    ];
    for (const [extra, id] of bodies) {
      const res = await t.admin.post(
        "/admin/products",
        shirt({ title: "Linked", handle: "linked", variants: [], ...extra }),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
      expect(res.json().message).toContain(id);
    }
    expect(await count()).toBe(before);
  });

  it("rejects malformed bodies with 400 invalid_data and writes nothing", async () => {
    const before = await count();
    const price = (p: Record<string, unknown>) =>
      shirt({ title: "Priced", variants: [{ title: "v", options: { Size: "S", Color: "Red" }, prices: [p] }] });
    const bodies = [
      {},
      { title: "No options" },
      { title: 5, options: [{ title: "Size", values: ["S"] }] },
      { title: "x", options: [{ title: "Size", values: [] }] },
      { title: "x", options: [{ title: "Size", values: ["S"] }], unknown: true },
      { title: "x", options: [{ title: "Size", values: ["S"] }], status: "live" },
      { title: "x", options: [{ title: "Size", values: ["S"] }], weight: -1 },
      { title: "x", options: [{ title: "Size", values: ["S"] }], tags: [{ value: "no id" }] },
      shirt({ variants: [{ title: "no prices", options: { Size: "S", Color: "Red" } }] }),
      price({ currency_code: "eur", amount: -5 }),
      price({ currency_code: "eur", amount: 10.5 }),
      price({ currency_code: "eur", amount: "10" }),
      price({ currency_code: "euro", amount: 10 }),
      price({ amount: 10 }),
    ];
    for (const body of bodies) {
      const res = await t.admin.post("/admin/products", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    const unknownCurrency = await t.admin.post("/admin/products", price({ currency_code: "xyz", amount: 10 }));
    expect(unknownCurrency.statusCode).toBe(400);
    expect(unknownCurrency.json().type).toBe("invalid_data");
    expect(await count()).toBe(before);
  });
});

describe("admin products: list", () => {
  let published: { id: string };
  let other: { id: string };
  beforeAll(async () => {
    published = (
      await t.admin.post("/admin/products", {
        title: "Linen Trousers",
        description: "Breathable summer trousers",
        status: "published",
        collection_id: collection.id,
        tags: [{ id: tag.id }],
        categories: [{ id: category.id }],
        sales_channels: [{ id: channel.id }],
        type_id: type.id,
        options: [{ title: "Size", values: ["32"] }],
        variants: [
          { title: "32", sku: "TROUSER-32", options: { Size: "32" }, prices: [{ currency_code: "eur", amount: 5000 }] },
        ],
      })
    ).json().product;
    other = (
      await t.admin.post("/admin/products", {
        title: "Wool Hat",
        status: "proposed",
        options: [{ title: "Size", values: ["One"] }],
      })
    ).json().product;
  });

  const ids = async (query: string) =>
    (await t.admin.get(`/admin/products?limit=100&${query}`))
      .json()
      .products.map((p: { id: string }) => p.id) as string[];

  it("filters by status, collection, tags, categories, type and sales channel", async () => {
    expect(await ids("status=published")).toEqual([published.id]);
    expect((await ids("status[]=published&status[]=proposed")).sort()).toEqual([published.id, other.id].sort());
    const inCollection = await ids(`collection_id=${collection.id}`);
    expect(inCollection).toContain(published.id);
    expect(inCollection).not.toContain(other.id);
    expect(await ids(`tags[]=${tag.id}&status=published`)).toEqual([published.id]);
    expect(await ids(`categories=${category.id}&status=published`)).toEqual([published.id]);
    expect(await ids(`type_id=${type.id}&status=published`)).toEqual([published.id]);
    expect(await ids(`sales_channel_id=${channel.id}&status=published`)).toEqual([published.id]);
    expect(await ids(`sales_channel_id=sc_nothing`)).toEqual([]);
    expect((await t.admin.get("/admin/products?status=live")).statusCode).toBe(400);
  });

  it("searches title, description, handle and variant sku with q", async () => {
    expect(await ids("q=linen")).toEqual([published.id]);
    expect(await ids("q=BREATHABLE")).toEqual([published.id]);
    expect(await ids("q=linen-trousers")).toEqual([published.id]);
    expect(await ids("q=trouser-3")).toEqual([published.id]);
    expect(await ids("q=100%25")).toEqual([]);
  });

  it("pages with limit and offset, orders, and shapes with fields", async () => {
    const total = await count();
    const first = (await t.admin.get("/admin/products?limit=2&offset=0&order=created_at")).json();
    expect(first).toMatchObject({ count: total, limit: 2, offset: 0 });
    expect(first.products).toHaveLength(2);
    const second = (await t.admin.get("/admin/products?limit=2&offset=2&order=created_at")).json();
    expect(second.products[0].id).not.toBe(first.products[1].id);
    const beyond = (await t.admin.get(`/admin/products?offset=${total}`)).json();
    expect(beyond).toMatchObject({ products: [], count: total, offset: total });
    expect((await t.admin.get("/admin/products?limit=0")).json().products).toEqual([]);
    expect((await t.admin.get("/admin/products?limit=-1")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/products?order=nope")).json().type).toBe("invalid_data");

    const titles = (await t.admin.get("/admin/products?fields=title&order=-title&limit=100")).json().products;
    expect(Object.keys(titles[0]).sort()).toEqual(["id", "title"]);
    const sorted = titles.map((p: { title: string }) => p.title);
    expect(sorted).toEqual([...sorted].sort().reverse());

    const narrow = (
      await t.admin.get(`/admin/products/${published.id}?fields=title,variants.sku,variants.prices`)
    ).json().product;
    expect(narrow).toEqual({
      id: published.id,
      title: "Linen Trousers",
      variants: [{ id: expect.any(String), sku: "TROUSER-32", prices: [expect.objectContaining({ amount: 5000 })] }],
    });
    const extra = (await t.admin.get(`/admin/products/${published.id}?fields=*,variants.sku`)).json().product;
    expect(extra.collection.id).toBe(collection.id);
    expect((await t.admin.get(`/admin/products/${published.id}?fields=bad..field`)).statusCode).toBe(400);
  });
});

describe("admin products: update, variants, options, prices", () => {
  it("updates fields partially and links", async () => {
    const created = (await t.admin.post("/admin/products", shirt({ title: "Polo", variants: [] }))).json().product;
    const res = await t.admin.post(`/admin/products/${created.id}`, {
      status: "published",
      subtitle: null,
      tags: [{ id: tag.id }],
      handle: "polo-shirt",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().product).toMatchObject({
      status: "published",
      subtitle: null,
      title: "Polo",
      handle: "polo-shirt",
      tags: [expect.objectContaining({ id: tag.id })],
    });
    expect((await t.admin.post(`/admin/products/${created.id}`, { handle: "cotton-shirt" })).statusCode).toBe(409);
    expect((await t.admin.post(`/admin/products/${created.id}`, { collection_id: "pcol_nope" })).statusCode).toBe(400);
    expect((await t.admin.post(`/admin/products/${created.id}`, { title: "" })).statusCode).toBe(400);
    expect((await t.admin.post("/admin/products/prod_missing", { title: "x" })).statusCode).toBe(404);
  });

  it("replaces nested options and variants: present kept/updated, missing removed, new created", async () => {
    const created = (
      await t.admin.post(
        "/admin/products",
        shirt({ title: "Replace Me", variants: shirt().variants.map((v) => ({ ...v, sku: `R-${v.sku}` })) }),
      )
    ).json().product;
    const [keep, drop] = created.variants;
    const size = created.options.find((o: { title: string }) => o.title === "Size");
    const res = await t.admin.post(`/admin/products/${created.id}`, {
      options: [
        { id: size.id, title: "Size", values: ["S", "M", "L"] },
        { title: "Color", values: ["Red", "Blue"] },
      ],
      variants: [
        { id: keep.id, title: "Small red", prices: [{ currency_code: "eur", amount: 999 }] },
        {
          title: "L / Blue",
          sku: "R-L-BLUE",
          options: { Size: "L", Color: "Blue" },
          prices: [{ currency_code: "usd", amount: 3000 }],
        },
      ],
    });
    expect(res.statusCode).toBe(200);
    const product = res.json().product;
    expect(
      product.options.find((o: { title: string }) => o.title === "Size").values.map((v: { value: string }) => v.value),
    ).toEqual(["S", "M", "L"]);
    expect(product.variants.map((v: { id: string }) => v.id)).not.toContain(drop.id);
    const kept = product.variants.find((v: { id: string }) => v.id === keep.id);
    expect(kept).toMatchObject({ title: "Small red", sku: "R-SHIRT-S-RED" });
    expect(kept.prices.map((p: { amount: number }) => p.amount)).toEqual([999]);
    const added = product.variants.find((v: { sku: string }) => v.sku === "R-L-BLUE");
    expect(added.prices.map((p: { currency_code: string }) => p.currency_code)).toEqual(["usd"]);
    expect(added.inventory_items).toHaveLength(1);
    // The removed variant's sku is free again.
    expect(
      (
        await t.admin.post(`/admin/products/${created.id}/variants`, {
          title: "back",
          sku: drop.sku,
          options: { Size: "M", Color: "Red" },
          prices: [],
        })
      ).statusCode,
    ).toBe(200);

    const bad = await t.admin.post(`/admin/products/${created.id}`, {
      variants: [{ id: "variant_foreign", title: "x" }],
    });
    expect(bad.statusCode).toBe(400);
    const clash = await t.admin.post(`/admin/products/${created.id}`, {
      variants: [{ id: keep.id }, { title: "dup", options: { Size: "S", Color: "Red" } }],
    });
    expect(clash.statusCode).toBe(400);
    // Nothing of the failed updates was written.
    expect((await t.admin.get(`/admin/products/${created.id}`)).json().product.variants).toHaveLength(3);
  });

  it("manages variants through the variant sub-routes", async () => {
    const created = (await t.admin.post("/admin/products", shirt({ title: "Sub Variants", variants: [] }))).json()
      .product;
    const added = await t.admin.post(`/admin/products/${created.id}/variants`, {
      title: "S / Blue",
      sku: "SUB-1",
      options: { Size: "S", Color: "Blue" },
      prices: [{ currency_code: "eur", amount: 700 }],
    });
    expect(added.statusCode).toBe(200);
    const variant = added.json().product.variants[0];
    expect(variant).toMatchObject({
      sku: "SUB-1",
      prices: [expect.objectContaining({ amount: 700, currency_code: "eur" })],
    });

    const list = (await t.admin.get(`/admin/products/${created.id}/variants`)).json();
    expect(list).toMatchObject({ count: 1, variants: [expect.objectContaining({ id: variant.id })] });
    expect((await t.admin.get(`/admin/products/${created.id}/variants/${variant.id}`)).json().variant.sku).toBe(
      "SUB-1",
    );

    // The dashboard's variant page: the inventory item with its levels, and the images chosen for the variant.
    const image = (
      await t.admin.post(`/admin/products/${created.id}`, { images: [{ url: "https://cdn.example/front.png" }] })
    ).json().product.images[0];
    await t.admin.post(`/admin/products/${created.id}/variants/${variant.id}/images/batch`, { add: [image.id] });
    const fields =
      "*inventory_items,*inventory_items.inventory,*inventory_items.inventory.location_levels,+images.id,+images.url";
    const detail = (
      await t.admin.get(`/admin/products/${created.id}/variants/${variant.id}?fields=${encodeURIComponent(fields)}`)
    ).json().variant;
    expect(detail.inventory_items).toHaveLength(1);
    expect(detail.inventory_items[0].inventory).toMatchObject({
      id: detail.inventory_items[0].inventory_item_id,
      sku: "SUB-1",
      location_levels: [],
    });
    expect(detail.images).toEqual([expect.objectContaining({ id: image.id, url: "https://cdn.example/front.png" })]);

    const updated = await t.admin.post(`/admin/products/${created.id}/variants/${variant.id}`, {
      allow_backorder: true,
      options: { Size: "M", Color: "Blue" },
    });
    const after = updated.json().product.variants[0];
    expect(after.allow_backorder).toBe(true);
    expect(after.options.map((o: { value: string }) => o.value).sort()).toEqual(["Blue", "M"]);
    expect(
      (await t.admin.post(`/admin/products/${created.id}/variants/${variant.id}`, { sku: "SHIRT-S-RED" })).statusCode,
    ).toBe(409);
    expect(
      (await t.admin.post(`/admin/products/${created.id}/variants/variant_missing`, { title: "x" })).statusCode,
    ).toBe(404);
    expect(
      (await t.admin.post(`/admin/products/${created.id}/variants`, { title: "no options", prices: [] })).statusCode,
    ).toBe(400);

    const prices = await t.admin.post(`/admin/products/${created.id}/variants/${variant.id}/prices`, {
      prices: [
        { currency_code: "EUR", amount: 800 },
        { currency_code: "eur", amount: 600, min_quantity: 10, max_quantity: null },
      ],
    });
    expect(prices.statusCode).toBe(200);
    const priced = prices.json().product.variants[0].prices;
    expect(
      priced.map((p: { currency_code: string; amount: number; min_quantity: number | null }) => [
        p.currency_code,
        p.amount,
        p.min_quantity,
      ]),
    ).toEqual([
      ["eur", 600, 10],
      ["eur", 800, null],
    ]);
    for (const body of [
      { prices: [{ currency_code: "eur", amount: -1 }] },
      { prices: [{ currency_code: "zzz", amount: 1 }] },
      {},
      { prices: [{ amount: 1 }] },
    ]) {
      const res = await t.admin.post(`/admin/products/${created.id}/variants/${variant.id}/prices`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect(
      (await t.admin.get(`/admin/products/${created.id}/variants/${variant.id}`)).json().variant.prices,
    ).toHaveLength(2);
    expect(
      (await t.admin.post(`/admin/products/prod_missing/variants/${variant.id}/prices`, { prices: [] })).statusCode,
    ).toBe(404);

    const removed = await t.admin.delete(`/admin/products/${created.id}/variants/${variant.id}`);
    expect(removed.json()).toMatchObject({
      id: variant.id,
      object: "variant",
      deleted: true,
      parent: { id: created.id, variants: [] },
    });
    expect((await t.admin.get(`/admin/products/${created.id}/variants/${variant.id}`)).statusCode).toBe(404);
  });

  it("manages options through the option sub-routes", async () => {
    const created = (
      await t.admin.post("/admin/products", {
        title: "Options",
        options: [{ title: "Size", values: ["S"] }],
        variants: [{ title: "S", options: { Size: "S" }, prices: [] }],
      })
    ).json().product;
    const added = await t.admin.post(`/admin/products/${created.id}/options`, {
      title: "Color",
      values: ["Red", "Green"],
    });
    expect(added.statusCode).toBe(200);
    const color = added.json().product.options.find((o: { title: string }) => o.title === "Color");
    expect(color.values.map((v: { value: string }) => v.value)).toEqual(["Red", "Green"]);
    expect(
      (await t.admin.post(`/admin/products/${created.id}/options`, { title: "Color", values: ["x"] })).statusCode,
    ).toBe(400);
    expect((await t.admin.get(`/admin/products/${created.id}/options/${color.id}`)).json().product_option.title).toBe(
      "Color",
    );

    const renamed = await t.admin.post(`/admin/products/${created.id}/options/${color.id}`, {
      title: "Colour",
      values: ["Red"],
    });
    expect(renamed.json().product.options.find((o: { id: string }) => o.id === color.id)).toMatchObject({
      title: "Colour",
      values: [expect.objectContaining({ value: "Red" })],
    });
    expect((await t.admin.post(`/admin/products/${created.id}/options/opt_missing`, { title: "x" })).statusCode).toBe(
      404,
    );

    const removed = await t.admin.delete(`/admin/products/${created.id}/options/${color.id}`);
    expect(removed.json()).toMatchObject({ id: color.id, object: "product_option", deleted: true });
    expect(removed.json().parent.options.map((o: { title: string }) => o.title)).toEqual(["Size"]);
  });
});

describe("admin products: delete and batch", () => {
  it("soft-deletes: gone from every read, 404 on retrieve, handle and sku reusable", async () => {
    const created = await sizedProduct("Ephemeral", "S", {
      variants: [{ title: "S", sku: "EPH-1", options: { Size: "S" }, prices: [] }],
    });
    const res = await t.admin.delete(`/admin/products/${created.id}`);
    expect(res.json()).toEqual({ id: created.id, object: "product", deleted: true });
    expect((await t.admin.get(`/admin/products/${created.id}`)).statusCode).toBe(404);
    expect(await count(`&id=${created.id}`)).toBe(0);
    expect(await count("&q=ephemeral")).toBe(0);
    expect((await t.admin.delete(`/admin/products/${created.id}`)).statusCode).toBe(404);
    const reused = await t.admin.post("/admin/products", {
      title: "Ephemeral",
      options: [{ title: "Size", values: ["S"] }],
      variants: [{ title: "S", sku: "EPH-1", options: { Size: "S" }, prices: [] }],
    });
    expect(reused.statusCode, reused.body).toBe(200);
    expect(reused.json().product.handle).toBe("ephemeral");
  });

  it("creates, updates and deletes in one batch", async () => {
    const a = await sizedProduct("Batch A", "S");
    const b = await sizedProduct("Batch B", "S");
    const res = await t.admin.post("/admin/products/batch", {
      create: [
        {
          title: "Batch C",
          options: [{ title: "Size", values: ["S"] }],
          variants: [
            { title: "S", sku: "BATCH-C", options: { Size: "S" }, prices: [{ currency_code: "eur", amount: 1 }] },
          ],
        },
      ],
      update: [{ id: a.id, status: "published" }],
      delete: [b.id],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.created).toEqual([expect.objectContaining({ title: "Batch C", handle: "batch-c" })]);
    expect(body.created[0].variants[0].prices[0].amount).toBe(1);
    expect(body.updated).toEqual([expect.objectContaining({ id: a.id, status: "published" })]);
    expect(body.deleted).toEqual({ ids: [b.id], object: "product", deleted: true });
    expect((await t.admin.get(`/admin/products/${b.id}`)).statusCode).toBe(404);
  });

  it("rolls the whole batch back when one item is bad", async () => {
    const a = await sizedProduct("Rollback A", "S");
    const before = await count();
    const batches = [
      {
        create: [{ title: "Good", options: [{ title: "Size", values: ["S"] }] }],
        update: [{ id: a.id, status: "published" }],
        delete: ["prod_missing"],
      },
      {
        create: [{ title: "Good", options: [{ title: "Size", values: ["S"] }] }],
        update: [{ id: a.id, collection_id: "pcol_missing" }],
      },
      {
        create: [
          { title: "Good", options: [{ title: "Size", values: ["S"] }] },
          { title: "Taken", handle: "rollback-a", options: [{ title: "Size", values: ["S"] }] },
        ],
        delete: [a.id],
      },
    ];
    for (const batch of batches) {
      const res = await t.admin.post("/admin/products/batch", batch);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect(await count()).toBe(before);
    expect((await t.admin.get(`/admin/products/${a.id}`)).json().product.status).toBe("draft");
    const invalid = await t.admin.post("/admin/products/batch", { update: [{ status: "published" }] });
    expect(invalid.statusCode).toBe(400);
    expect((await t.admin.post("/admin/products/batch", { update: [{ id: a.id, nope: 1 }] })).statusCode).toBe(400);
  });

  it("requires an admin", async () => {
    expect((await t.app.inject({ method: "GET", url: "/admin/products" })).statusCode).toBe(401);
    expect((await t.app.inject({ method: "POST", url: "/admin/products/batch", payload: {} })).statusCode).toBe(401);
    const customer = await t.customerHeaders("cus_1");
    expect((await t.app.inject({ method: "GET", url: "/admin/products", headers: customer })).statusCode).toBe(403);
  });
});

describe("admin products: what the dashboard's lists ask", () => {
  it("filters by price_list_id[] and answers variants.id with -variants (the product table)", async () => {
    const mk = async (title: string) =>
      (
        await post("/admin/products", {
          title,
          options: [{ title: "Size", values: ["S", "M"] }],
          variants: ["S", "M"].map((s) => ({
            title: s,
            options: { Size: s },
            prices: [{ currency_code: "eur", amount: 1000 }],
          })),
        })
      ).json().product;
    const priced = await mk("Priced by list");
    const other = await mk("Not on the list");
    const list = (
      await post("/admin/price-lists", {
        title: "Sale",
        description: "Sale",
        type: "sale",
        prices: [{ variant_id: priced.variants[0].id, currency_code: "eur", amount: 800 }],
      })
    ).json().price_list;
    const empty = (await post("/admin/price-lists", { title: "Empty", description: "Empty", type: "sale" })).json()
      .price_list;

    const fields =
      "id,title,handle,status,*collection,*sales_channels,variants.id,thumbnail,-type,-options,-tags,-images,-variants";
    const res = await get(
      `/admin/products?limit=10&offset=0&price_list_id[0]=${list.id}&fields=${encodeURIComponent(fields)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().count).toBe(1);
    const [row] = res.json().products;
    expect(row).toMatchObject({ id: priced.id, title: "Priced by list", collection: null, sales_channels: [] });
    expect(row.variants).toEqual(priced.variants.map((v: { id: string }) => ({ id: v.id })));
    expect(row).not.toHaveProperty("options");
    expect(row).not.toHaveProperty("type");

    expect((await get(`/admin/products?price_list_id=${empty.id}`)).json().count).toBe(0);
    expect((await get("/admin/products?price_list_id[]=plist_missing")).json().count).toBe(0);
    expect(
      (await get(`/admin/products?price_list_id[]=${list.id}&price_list_id[]=${empty.id}&is_giftcard=false`))
        .json()
        .products.map((p: { id: string }) => p.id),
    ).toEqual([priced.id]);
    expect(
      (await get(`/admin/products?id=${other.id}&fields=variants.id,-variants`)).json().products[0].variants,
    ).toHaveLength(2);
    expect((await get("/admin/products?price_list_id[0][x]=1")).statusCode).toBe(400);
  });
});

describe("admin product variants: the product page's variant table", () => {
  it("answers inventory_quantity over every location and each inventory item with its levels, when named", async () => {
    const created = await post("/admin/products", {
      title: "Stocked shirt",
      options: [{ title: "Size", values: ["S"] }],
      variants: [
        { title: "S", sku: "STOCKED-S", options: { Size: "S" }, prices: [{ currency_code: "eur", amount: 1000 }] },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    const product = created.json().product;
    const small = product.variants[0];
    const itemId = small.inventory_items[0].inventory_item_id;
    const a = (await post("/admin/stock-locations", { name: "North" })).json().stock_location;
    const b = (await post("/admin/stock-locations", { name: "South" })).json().stock_location;
    expect(
      (await post(`/admin/inventory-items/${itemId}/location-levels`, { location_id: a.id, stocked_quantity: 7 }))
        .statusCode,
    ).toBe(200);
    expect(
      (await post(`/admin/inventory-items/${itemId}/location-levels`, { location_id: b.id, stocked_quantity: 5 }))
        .statusCode,
    ).toBe(200);

    const fields =
      "title,sku,thumbnail,*options,created_at,*inventory_items.inventory.location_levels,inventory_quantity,manage_inventory";
    const res = await get(
      `/admin/products/${product.id}/variants?order=variant_rank&limit=10&fields=${encodeURIComponent(fields)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().variants.find((v: { id: string }) => v.id === small.id);
    expect(row.inventory_quantity).toBe(12);
    // Only what was named: each item's id and levels.
    expect(row.inventory_items).toEqual([
      {
        inventory: {
          id: itemId,
          location_levels: expect.arrayContaining([
            expect.objectContaining({ location_id: a.id, stocked_quantity: 7 }),
            expect.objectContaining({ location_id: b.id, stocked_quantity: 5 }),
          ]),
        },
      },
    ]);
    expect(row).toMatchObject({
      title: "S",
      sku: "STOCKED-S",
      manage_inventory: true,
      options: [expect.objectContaining({ value: "S" })],
    });
    // Without those names neither extra is computed.
    const plain = (await get(`/admin/products/${product.id}/variants`))
      .json()
      .variants.find((v: { id: string }) => v.id === small.id);
    expect(plain).not.toHaveProperty("inventory_quantity");
    expect(plain.inventory_items[0]).not.toHaveProperty("inventory");
  });
});

describe("admin product variants across products", () => {
  it("lists variants of every product with filters, q, paging and fields", async () => {
    const mk = async (title: string, sku: string) =>
      (
        await post("/admin/products", {
          title,
          options: [{ title: "Size", values: ["One"] }],
          variants: [{ title: "One", sku, options: { Size: "One" }, prices: [{ currency_code: "usd", amount: 500 }] }],
        })
      ).json().product;
    const mug = await mk("Across mug", "ACROSS-MUG");
    const cap = await mk("Across cap", "ACROSS-CAP");
    const res = await get(`/admin/product-variants?product_id[]=${mug.id}&product_id[]=${cap.id}&order=sku`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      count: 2,
      variants: [
        { sku: "ACROSS-CAP", product_id: cap.id, prices: [expect.objectContaining({ amount: 500 })] },
        { sku: "ACROSS-MUG", product_id: mug.id },
      ],
    });
    // Each with its product, as the exchange and claim forms' variant table shows it (Medusa's default).
    expect(res.json().variants[0].product).toMatchObject({ id: cap.id, title: "Across cap", thumbnail: null });
    expect(res.json().variants[0].product).not.toHaveProperty("variants");
    // Its fields as the exchange form asks: the product stays.
    const fields = encodeURIComponent(
      "*inventory_items.inventory.location_levels,+inventory_quantity,+manage_inventory",
    );
    const asked = await get(`/admin/product-variants?q=across-c&fields=${fields}`);
    expect(asked.json().variants[0].product).toMatchObject({ title: "Across cap" });
    expect((await get("/admin/product-variants?sku=ACROSS-MUG&fields=sku,inventory_quantity")).json().variants).toEqual(
      [{ id: mug.variants[0].id, sku: "ACROSS-MUG", inventory_quantity: 0 }],
    );
    expect((await get("/admin/product-variants?q=across-c")).json().count).toBe(1);
    for (const query of ["order=secret", "limit=-1", "unknown=1", "id[0][x]=1"]) {
      const bad = await get(`/admin/product-variants?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().type).toBe("invalid_data");
    }
  });
});

// Requests as the admin, for the dashboard tests below.
const post = (url: string, payload: unknown) => t.admin.post(url, payload as object);
const get = (url: string) => t.admin.get(url);

describe("admin products: Medusa's media form and shipping profile", () => {
  it("keeps the images named by their id (in the new order) and adds the others, as the media form sends them", async () => {
    const product = await sizedProduct("Media shirt", "One", {
      images: [{ url: "https://img/a.png" }, { url: "https://img/b.png" }],
    });
    const [a, b] = product.images as Array<{ id: string; url: string }>;
    const res = await t.admin.post(`/admin/products/${product.id}`, {
      images: [
        { id: b!.id, url: b!.url },
        { id: "174nd", url: "https://img/c.png" },
      ],
    });
    expect(res.statusCode).toBe(200);
    const images = res.json().product.images as Array<{ id: string; url: string; rank: number }>;
    expect(images.map((i) => [i.url, i.rank])).toEqual([
      ["https://img/b.png", 0],
      ["https://img/c.png", 1],
    ]);
    expect(images[0]!.id).toBe(b!.id);
    expect(images.map((i) => i.id)).not.toContain(a!.id);
    expect(images[1]!.id).toMatch(/^img_/);
  });

  it("answers shipping_profile when asked: the default profile every product ships under", async () => {
    const product = await sizedProduct("Profiled shirt", "One");
    const profile = await t.app.modules.fulfillment.getOrCreateDefaultProfile();
    const asked = (await t.admin.get(`/admin/products/${product.id}?fields=id,*shipping_profile`)).json().product;
    expect(asked.shipping_profile).toMatchObject({ id: profile.id, type: "default" });
    expect((await t.admin.get(`/admin/products/${product.id}`)).json().product).not.toHaveProperty("shipping_profile");
  });
});

describe("admin products: shipping_profile_id", () => {
  it("takes a live profile on create and update in both dialects, answers it, and refuses an unknown one (400, nothing written)", async () => {
    const created = await t.admin.post("/admin/shipping-profiles", { name: "Bulky", type: "bulky" });
    expect(created.statusCode, created.body).toBe(200);
    const bulky = created.json().shipping_profile as { id: string };
    const fallback = await t.app.modules.fulfillment.getOrCreateDefaultProfile();

    const product = await sizedProduct("Sofa", "One", { shipping_profile_id: bulky.id });
    expect(product.shipping_profile_id).toBe(bulky.id);
    const asked = async () =>
      (await t.admin.get(`/admin/products/${product.id}?fields=id,title,shipping_profile_id,*shipping_profile`)).json()
        .product;
    expect(await asked()).toMatchObject({ shipping_profile_id: bulky.id, shipping_profile: { id: bulky.id } });

    // Medusa's dashboard edits it through its dialect; null unsets it (the default profile then).
    const medusa = await t.admin.post(`/medusa/admin/products/${product.id}`, { shipping_profile_id: fallback.id });
    expect(medusa.statusCode, medusa.body).toBe(200);
    expect(medusa.json().product.shipping_profile_id).toBe(fallback.id);
    expect((await t.admin.post(`/admin/products/${product.id}`, { shipping_profile_id: null })).statusCode).toBe(200);
    expect(await asked()).toMatchObject({ shipping_profile_id: null, shipping_profile: { id: fallback.id } });

    const before = await count();
    for (const base of ["", "/medusa"]) {
      const unknown = await t.admin.post(`${base}/admin/products`, {
        title: "Ghost sofa",
        options: [{ title: "Size", values: ["One"] }],
        shipping_profile_id: "sp_nope",
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toEqual({
        type: "invalid_data",
        message: "Shipping profile with id: sp_nope was not found",
      });
      const update = await t.admin.post(`${base}/admin/products/${product.id}`, {
        title: "Renamed",
        shipping_profile_id: "sp_nope",
      });
      expect(update.statusCode).toBe(400);
      expect(update.json().type).toBe("invalid_data");
    }
    const batch = await t.admin.post("/admin/products/batch", {
      update: [{ id: product.id, title: "Renamed", shipping_profile_id: "sp_nope" }],
    });
    expect(batch.statusCode).toBe(400);
    // A deleted profile is no profile either.
    expect((await t.admin.delete(`/admin/shipping-profiles/${bulky.id}`)).statusCode).toBe(200);
    expect((await t.admin.post(`/admin/products/${product.id}`, { shipping_profile_id: bulky.id })).statusCode).toBe(
      400,
    );
    for (const bad of [42, "", ["sp_1"]]) {
      const res = await t.admin.post(`/admin/products/${product.id}`, { shipping_profile_id: bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect(await count()).toBe(before);
    expect(await asked()).toMatchObject({ title: "Sofa", shipping_profile_id: null });
  });
});

describe("admin product options shared between products (Medusa's product form)", () => {
  it("answers truthfully empty: a Kasse option belongs to its one product", async () => {
    const list = await t.admin.get(
      "/admin/product-options?limit=10&offset=0&is_exclusive=false&fields=id,title,values.id",
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ product_options: [], count: 0, offset: 0, limit: 10 });
    expect((await t.admin.get("/admin/product-options/opt_1")).statusCode).toBe(404);
    expect((await t.admin.get("/admin/product-options?unknown=1")).statusCode).toBe(400);
  });
});
