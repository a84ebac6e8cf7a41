import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@kasse/db";
import { createTestApp, withFailure, type TestApp } from "../../testing";

// Updating, deleting and batching products, and the variant sub-routes, are sagas over product,
// pricing and inventory: each module's write is a step of its own, and a failing step puts back
// what the steps before it replaced, so the product is exactly as it was.

let t: TestApp;
let locationId: string;
let channelId: string;
let tagId: string;
beforeAll(async () => {
  t = await createTestApp();
  const location = await t.admin.post("/admin/stock-locations", { name: "Saga warehouse" });
  locationId = location.json().stock_location.id;
  channelId = (await t.admin.post("/admin/sales-channels", { name: "Saga channel" })).json().sales_channel.id;
  tagId = (await t.admin.post("/admin/product-tags", { value: "saga" })).json().product_tag.id;
});
afterAll(() => t.close());

/**
 * A published shirt in S and M, priced (S also in a price list), each variant with a stocked
 * inventory item, in a sales channel, tagged, S shown with the product's image.
 */
async function shirt(suffix: string): Promise<string> {
  const res = await t.admin.post("/admin/products", {
    title: `Write saga ${suffix}`,
    handle: `write-saga-${suffix}`,
    status: "published",
    images: [{ url: `https://img.test/${suffix}.png` }],
    sales_channels: [{ id: channelId }],
    tags: [{ id: tagId }],
    options: [{ title: "Size", values: ["S", "M"] }],
    variants: [
      {
        title: "S",
        sku: `WS-${suffix}-S`,
        options: { Size: "S" },
        prices: [{ currency_code: "eur", amount: 1500 }],
      },
      {
        title: "M",
        sku: `WS-${suffix}-M`,
        options: { Size: "M" },
        prices: [
          { currency_code: "eur", amount: 1700 },
          { currency_code: "usd", amount: 1900 },
        ],
      },
    ],
  });
  expect(res.statusCode).toBe(200);
  const product = res.json().product;
  const small = product.variants.find((v: { title: string }) => v.title === "S");
  const images = await t.admin.post(`/admin/products/${product.id}/variants/${small.id}/images/batch`, {
    add: [product.images[0].id],
  });
  expect(images.statusCode).toBe(200);
  const list = await t.admin.post("/admin/price-lists", {
    title: `Saga sale ${suffix}`,
    type: "sale",
    prices: [{ variant_id: small.id, currency_code: "eur", amount: 1200 }],
  });
  expect(list.statusCode).toBe(200);
  for (const variant of product.variants) {
    const [link] = await links(variant.id);
    await t.app.modules.inventory.createLevels(link!.inventory_item_id, [
      { location_id: locationId, stocked_quantity: 7 },
    ]);
  }
  return product.id;
}

const links = (variantId: string) =>
  queryRows<{ inventory_item_id: string; required_quantity: number }>(
    t.database.db,
    sql`select l.inventory_item_id, l.required_quantity from inventory_item_variant l
        join inventory_item i on i.id = l.inventory_item_id and i.deleted_at is null
        where l.variant_id = ${variantId} order by l.inventory_item_id`,
  );

/**
 * Everything of a product a write could change, in every module: the admin's answer (fields,
 * options, variants with their prices, images, tags, sales channels), each variant's images, every
 * price (price lists' too), and each variant's inventory items with their levels.
 */
async function state(id: string) {
  const res = await t.admin.get(`/admin/products/${id}`);
  expect(res.statusCode).toBe(200);
  const product = res.json().product;
  const inventory: Record<string, unknown> = {};
  for (const variant of product.variants) {
    inventory[`${variant.id} images`] = await queryRows(
      t.database.db,
      sql`select image_id from product_variant_image where variant_id = ${variant.id} order by image_id`,
    );
    inventory[`${variant.id} prices`] = await queryRows(
      t.database.db,
      sql`select id, price_list_id, currency_code, amount, created_at from price where variant_id = ${variant.id} order by id`,
    );
    inventory[variant.id] = await queryRows(
      t.database.db,
      sql`select l.inventory_item_id, l.required_quantity, l.created_at, i.sku, lv.location_id, lv.stocked_quantity
          from inventory_item_variant l
          join inventory_item i on i.id = l.inventory_item_id and i.deleted_at is null
          left join inventory_level lv on lv.inventory_item_id = i.id and lv.deleted_at is null
          where l.variant_id = ${variant.id} order by l.inventory_item_id`,
    );
  }
  return { product, inventory };
}

const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: string }>(t.database.db, query))[0]!.n);
/** Released events of a kind: one of a compensated execution is never released (and purged later). */
const released = (name: string) =>
  count(
    sql`select count(*) as n from event e left join workflow_executions x on x.id = e.execution_id where e.name = ${name} and (e.execution_id is null or x.state = 'succeeded')`,
  );
const totals = async () => ({
  products: await count(sql`select count(*) as n from product where deleted_at is null`),
  variants: await count(sql`select count(*) as n from product_variant where deleted_at is null`),
  options: await count(sql`select count(*) as n from product_option_value where deleted_at is null`),
  prices: await count(sql`select count(*) as n from price`),
  items: await count(sql`select count(*) as n from inventory_item where deleted_at is null`),
  levels: await count(sql`select count(*) as n from inventory_level where deleted_at is null`),
  links: await count(sql`select count(*) as n from inventory_item_variant`),
  updated: await released("product.updated"),
  deleted: await released("product.deleted"),
  created: await released("product.created"),
});

/** The states of a workflow's executions, oldest first. */
const executions = async (workflow: string) =>
  (
    await queryRows<{ state: string }>(
      t.database.db,
      sql`select state from workflow_executions where workflow_id = ${workflow} order by created_at`,
    )
  ).map((e) => e.state);

/**
 * An update that changes every module: a new title, links and image (S's image link goes with the
 * old image), M replaced by L (new option value, variant, prices, item), S re-priced.
 */
const reshape = (product: { handle: string; variants: Array<{ id: string; title: string }> }) => ({
  title: "Reshaped",
  sales_channels: [],
  tags: [],
  images: [{ url: `https://img.test/${product.handle}-new.png` }],
  options: [{ title: "Size", values: ["S", "L"] }],
  variants: [
    {
      id: product.variants.find((v) => v.title === "S")!.id,
      options: { Size: "S" },
      prices: [{ currency_code: "eur", amount: 999 }],
    },
    {
      title: "L",
      sku: `${product.handle}-L`,
      options: { Size: "L" },
      prices: [{ currency_code: "eur", amount: 2100 }],
    },
  ],
});

describe("updating a product is a saga", () => {
  it("changes the product, its prices and its inventory, journaled", async () => {
    const id = await shirt("ok");
    const before = await state(id);
    const removed = before.product.variants.find((v: { title: string }) => v.title === "M");
    const events = await released("product.updated");
    const res = await t.admin.post(`/admin/products/${id}`, reshape(before.product));
    expect(res.statusCode).toBe(200);
    const { product } = res.json();
    expect(product.title).toBe("Reshaped");
    const prices = Object.fromEntries(
      product.variants.map((v: { title: string; prices: Array<{ currency_code: string; amount: number }> }) => [
        v.title,
        v.prices.map((p) => `${p.currency_code}:${p.amount}`),
      ]),
    );
    expect(prices).toEqual({ S: ["eur:999"], L: ["eur:2100"] });
    const added = product.variants.find((v: { title: string }) => v.title === "L");
    expect(await links(added.id)).toHaveLength(1);
    // The removed variant's item was used by no other variant: it went with it.
    expect(await links(removed.id)).toEqual([]);
    expect(await executions("update-products")).toEqual(["succeeded"]);
    expect(await released("product.updated")).toBe(events + 1);
  });

  for (const [at, table] of [
    ["pricing", "price"],
    ["inventory", "inventory_item"],
  ] as const) {
    it(`a failure at the ${at} step leaves the product exactly as it was`, async () => {
      const id = await shirt(`fail-${at}`);
      const before = await state(id);
      const counted = await totals();
      const res = await withFailure(t.database.db, table, "INSERT", "true", () =>
        t.admin.post(`/admin/products/${id}`, reshape(before.product)),
      );
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ type: "unknown_error" });
      expect(await state(id)).toEqual(before);
      expect(await totals()).toEqual(counted);
      expect((await executions("update-products")).at(-1)).toBe("compensated");

      // Nothing of the failed attempt holds the sku or the option value: the same update now succeeds.
      const again = await t.admin.post(`/admin/products/${id}`, reshape(before.product));
      expect(again.statusCode).toBe(200);
      expect(again.json().product.title).toBe("Reshaped");
    });
  }

  it("a price pricing refuses is a 400 before anything is written", async () => {
    const id = await shirt("bad-price");
    const before = await state(id);
    const counted = await totals();
    const body = reshape(before.product);
    body.variants[1]!.prices = [{ currency_code: "zzz", amount: 100 }];
    const res = await t.admin.post(`/admin/products/${id}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: "invalid_data", message: expect.stringContaining("zzz") });
    expect(await state(id)).toEqual(before);
    expect(await totals()).toEqual(counted);
    expect(await count(sql`select count(*) as n from product_variant where product_id = ${id}`)).toBe(2);
  });

  it("a 404 for an unknown product writes nothing", async () => {
    const counted = await totals();
    const res = await t.admin.post("/admin/products/prod_missing", { title: "Nope" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: "not_found" });
    expect(await totals()).toEqual(counted);
  });
});

describe("deleting a product is a saga", () => {
  for (const [at, table] of [
    ["pricing", "price"],
    ["inventory", "inventory_item"],
  ] as const) {
    it(`a failure at the ${at} step leaves the product, its prices and its stock in place`, async () => {
      const id = await shirt(`delete-${at}`);
      const before = await state(id);
      const counted = await totals();
      // Deleting removes prices (pricing) and soft-deletes the items (an UPDATE, inventory).
      const op = table === "price" ? "DELETE" : "UPDATE";
      const res = await withFailure(t.database.db, table, op, "true", () => t.admin.delete(`/admin/products/${id}`));
      expect(res.statusCode).toBe(500);
      expect(await state(id)).toEqual(before);
      expect(await totals()).toEqual(counted);
      expect((await executions("delete-products")).at(-1)).toBe("compensated");
      const listed = await t.admin.get(`/admin/products?q=${encodeURIComponent(before.product.title)}`);
      expect(listed.json().count).toBe(1);
    });
  }

  it("deletes the product, its prices and its items", async () => {
    const id = await shirt("delete-ok");
    const variantIds = (await state(id)).product.variants.map((v: { id: string }) => v.id);
    const events = await released("product.deleted");
    const res = await t.admin.delete(`/admin/products/${id}`);
    expect(res.statusCode).toBe(200);
    expect(await released("product.deleted")).toBe(events + 1);
    expect(res.json()).toEqual({ id, object: "product", deleted: true });
    expect((await t.admin.get(`/admin/products/${id}`)).statusCode).toBe(404);
    for (const variantId of variantIds) expect(await links(variantId)).toEqual([]);
    expect(
      await count(sql`select count(*) as n from price where variant_id in (${sql.join(variantIds, sql`, `)})`),
    ).toBe(0);
    expect((await executions("delete-products")).at(-1)).toBe("succeeded");
  });
});

describe("a product batch is a saga, all or nothing", () => {
  it("a failure at the inventory step undoes the creates, updates and deletes of the whole batch", async () => {
    const updated = await shirt("batch-update");
    const deleted = await shirt("batch-delete");
    const before = { updated: await state(updated), deleted: await state(deleted) };
    const counted = await totals();
    const res = await withFailure(t.database.db, "inventory_item", "INSERT", "true", () =>
      t.admin.post("/admin/products/batch", {
        create: [
          {
            title: "Batch new",
            handle: "write-saga-batch-new",
            options: [{ title: "Size", values: ["S"] }],
            variants: [{ title: "S", sku: "WS-BATCH-NEW", options: { Size: "S" }, prices: [] }],
          },
        ],
        update: [{ id: updated, ...reshape(before.updated.product) }],
        delete: [deleted],
      }),
    );
    expect(res.statusCode).toBe(500);
    expect(await state(updated)).toEqual(before.updated);
    expect(await state(deleted)).toEqual(before.deleted);
    expect(await totals()).toEqual(counted);
    expect((await t.admin.get("/admin/products?handle=write-saga-batch-new")).json().count).toBe(0);
    expect(await executions("batch-products")).toEqual(["compensated"]);
  });

  it("a failure at the pricing step undoes it too", async () => {
    const updated = await shirt("batch-price");
    const before = await state(updated);
    const counted = await totals();
    const res = await withFailure(t.database.db, "price", "INSERT", "true", () =>
      t.admin.post("/admin/products/batch", { update: [{ id: updated, ...reshape(before.product) }] }),
    );
    expect(res.statusCode).toBe(500);
    expect(await state(updated)).toEqual(before);
    expect(await totals()).toEqual(counted);
    expect((await executions("batch-products")).at(-1)).toBe("compensated");
  });
});

describe("variant writes are sagas", () => {
  it("a failure at the inventory step of a new variant leaves the product as it was", async () => {
    const id = await shirt("variant-create");
    await t.admin.post(`/admin/products/${id}/options/${(await state(id)).product.options[0].id}`, {
      values: ["S", "M", "L"],
    });
    const before = await state(id);
    const counted = await totals();
    const res = await withFailure(t.database.db, "inventory_item", "INSERT", "true", () =>
      t.admin.post(`/admin/products/${id}/variants`, {
        title: "L",
        sku: "WS-VARIANT-L",
        options: { Size: "L" },
        prices: [{ currency_code: "eur", amount: 2500 }],
      }),
    );
    expect(res.statusCode).toBe(500);
    expect(await state(id)).toEqual(before);
    expect(await totals()).toEqual(counted);
    expect((await executions("write-product-variants")).at(-1)).toBe("compensated");
  });

  it("a failure at a later step of a variant update (pricing) or delete (inventory) leaves the product as it was", async () => {
    const id = await shirt("variant-write");
    const before = await state(id);
    const counted = await totals();
    const [s, m] = before.product.variants as Array<{ id: string }>;
    const update = await withFailure(t.database.db, "price", "INSERT", "true", () =>
      t.admin.post(`/admin/products/${id}/variants/${s!.id}`, {
        title: "Small",
        prices: [{ currency_code: "eur", amount: 1 }],
      }),
    );
    expect(update.statusCode).toBe(500);
    const remove = await withFailure(t.database.db, "inventory_item", "UPDATE", "true", () =>
      t.admin.delete(`/admin/products/${id}/variants/${m!.id}`),
    );
    expect(remove.statusCode).toBe(500);
    expect(await state(id)).toEqual(before);
    expect(await totals()).toEqual(counted);
    expect((await executions("write-product-variants")).slice(-2)).toEqual(["compensated", "compensated"]);
  });
});
