import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@kasse/db";
import { createTestApp, withFailure, type TestApp } from "../../testing";

// POST /admin/products is a saga over product, pricing and inventory: each module's write is a
// step of its own, and a failing step undoes the ones before it.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const shirt = (suffix: string) => ({
  title: `Saga shirt ${suffix}`,
  handle: `saga-shirt-${suffix}`,
  options: [{ title: "Size", values: ["S", "M"] }],
  variants: [
    {
      title: "S",
      sku: `SAGA-${suffix}-S`,
      manage_inventory: true,
      options: { Size: "S" },
      prices: [{ currency_code: "eur", amount: 1500 }],
    },
    {
      title: "M",
      sku: `SAGA-${suffix}-M`,
      manage_inventory: true,
      options: { Size: "M" },
      prices: [
        { currency_code: "eur", amount: 1700 },
        { currency_code: "usd", amount: 1900 },
      ],
    },
  ],
});

const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: string }>(t.database.db, query))[0]!.n);
const totals = async () => ({
  products: await count(sql`select count(*) as n from product where deleted_at is null`),
  variants: await count(sql`select count(*) as n from product_variant where deleted_at is null`),
  prices: await count(sql`select count(*) as n from price`),
  items: await count(sql`select count(*) as n from inventory_item where deleted_at is null`),
  links: await count(sql`select count(*) as n from inventory_item_variant`),
  // Released events: an event of a compensated execution is never released (and purged later).
  events: await count(
    sql`select count(*) as n from event e left join workflow_executions x on x.id = e.execution_id where e.name = 'product.created' and (e.execution_id is null or x.state = 'succeeded')`,
  ),
});

describe("creating a product is a saga", () => {
  it("writes the product, its prices and its inventory items, journaled, with one product.created", async () => {
    const res = await t.admin.post("/admin/products", shirt("ok"));
    expect(res.statusCode).toBe(200);
    const { product } = res.json();
    expect(product.variants).toHaveLength(2);
    const prices = Object.fromEntries(
      product.variants.map((v: { sku: string; prices: Array<{ currency_code: string; amount: number }> }) => [
        v.sku,
        v.prices.map((p) => `${p.currency_code}:${p.amount}`).sort(),
      ]),
    );
    expect(prices).toEqual({ "SAGA-ok-S": ["eur:1500"], "SAGA-ok-M": ["eur:1700", "usd:1900"] });
    for (const variant of product.variants) {
      const items = await queryRows<{ inventory_item_id: string }>(
        t.database.db,
        sql`select inventory_item_id from inventory_item_variant where variant_id = ${variant.id}`,
      );
      expect(items).toHaveLength(1);
    }
    const executions = await queryRows<{ state: string }>(
      t.database.db,
      sql`select state from workflow_executions where workflow_id = 'create-products'`,
    );
    expect(executions.map((e) => e.state)).toEqual(["succeeded"]);
    const events = await queryRows<{ data: { id: string } }>(
      t.database.db,
      sql`select data from event where name = 'product.created'`,
    );
    expect(events.map((e) => e.data.id)).toEqual([product.id]);
  });

  it("a failure at the inventory step leaves no product, no price and no inventory item", async () => {
    const before = await totals();
    const res = await withFailure(t.database.db, "inventory_item", "INSERT", "true", () =>
      t.admin.post("/admin/products", shirt("fail")),
    );
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ type: "unknown_error" });
    expect(await totals()).toEqual(before);
    const listed = await t.admin.get("/admin/products?q=Saga%20shirt%20fail");
    expect(listed.json()).toMatchObject({ count: 0, products: [] });
    const executions = await queryRows<{ state: string }>(
      t.database.db,
      sql`select state from workflow_executions where workflow_id = 'create-products' order by created_at`,
    );
    expect(executions.map((e) => e.state)).toEqual(["succeeded", "compensated"]);

    // Nothing of the failed attempt is left holding the handle or the skus.
    const again = await t.admin.post("/admin/products", shirt("fail"));
    expect(again.statusCode).toBe(200);
    expect(again.json().product).toMatchObject({ handle: "saga-shirt-fail" });
  });

  it("a failure at the pricing step leaves no product", async () => {
    const before = await totals();
    const res = await withFailure(t.database.db, "price", "INSERT", "true", () =>
      t.admin.post("/admin/products", shirt("price")),
    );
    expect(res.statusCode).toBe(500);
    expect(await totals()).toEqual(before);
  });

  it("an unknown sales channel is a 400 before anything is written", async () => {
    const before = await totals();
    const res = await t.admin.post("/admin/products", { ...shirt("channel"), sales_channels: [{ id: "sc_missing" }] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: "invalid_data", message: expect.stringContaining("sc_missing") });
    expect(await totals()).toEqual(before);
  });
});
