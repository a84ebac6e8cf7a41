import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCountingDatabase, type CountingDatabase } from "@kasse/db/testing";
import { buildApp, type App } from "../../app";
import { createWorkflowRuntime, loadConfig, modulesOptions } from "@kasse/runtime";
import { actorHeaders } from "../../testing";

let database: CountingDatabase;
let app: App;
let admin: Record<string, string>;

beforeAll(async () => {
  database = await createCountingDatabase();
  const config = loadConfig({
    JWT_SECRET: "test-secret-test-secret-test-secret",
    LOG_LEVEL: "silent",
    RATE_LIMIT_MAX: "0",
    RATE_LIMIT_AUTH_MAX: "0",
    SCRYPT_LOG_N: "4",
  });
  app = await buildApp({
    config,
    infra: { database, ...createWorkflowRuntime(database, { modules: modulesOptions(config) }) },
    logger: false,
  });
  await app.ready();
  admin = await actorHeaders(app, "user", "user_q");
});
afterAll(async () => {
  await app.close();
  await database.close();
});

const post = (url: string, payload: object) => app.inject({ method: "POST", url, headers: admin, payload });

/** A product with every relation populated: variants with options, prices and inventory, images, links. */
async function seedProduct(
  n: number,
  links: { channel: string; collection: string; tag: string; category: string; type: string },
) {
  const res = await post("/admin/products", {
    title: `Product ${n}`,
    status: "published",
    images: [{ url: `https://img/${n}-1.png` }, { url: `https://img/${n}-2.png` }],
    collection_id: links.collection,
    type_id: links.type,
    tags: [{ id: links.tag }],
    categories: [{ id: links.category }],
    sales_channels: [{ id: links.channel }],
    options: [{ title: "Size", values: ["S", "M"] }],
    variants: ["S", "M"].map((size) => ({
      title: size,
      sku: `P${n}-${size}`,
      options: { Size: size },
      prices: [
        { currency_code: "eur", amount: 100 * n },
        { currency_code: "usd", amount: 120 * n },
      ],
    })),
  });
  expect(res.statusCode).toBe(200);
}

describe("product reads cost a constant number of queries", () => {
  it("lists a page of 1 and a page of 50 fully loaded products with the same number of queries", async () => {
    const links = {
      channel: (await post("/admin/sales-channels", { name: "Web" })).json().sales_channel.id,
      collection: (await post("/admin/collections", { title: "All" })).json().collection.id,
      tag: (await post("/admin/product-tags", { value: "t" })).json().product_tag.id,
      category: (await post("/admin/product-categories", { name: "C" })).json().product_category.id,
      type: (await post("/admin/product-types", { value: "y" })).json().product_type.id,
    };
    for (let n = 1; n <= 50; n++) await seedProduct(n, links);

    const page = async (limit: number) => {
      let body:
        | {
            products: Array<{
              variants: Array<{ prices: unknown[]; inventory_items: unknown[] }>;
              images: unknown[];
              sales_channels: unknown[];
            }>;
          }
        | undefined;
      const queries = await database.count(async () => {
        const res = await app.inject({
          method: "GET",
          url: `/admin/products?limit=${limit}&sales_channel_id=${links.channel}&q=product`,
          headers: admin,
        });
        expect(res.statusCode).toBe(200);
        body = res.json();
      });
      return { queries, body: body! };
    };
    const one = await page(1);
    const fifty = await page(50);
    expect(one.body.products).toHaveLength(1);
    expect(fifty.body.products).toHaveLength(50);
    for (const product of fifty.body.products) {
      expect(product.variants).toHaveLength(2);
      expect(product.variants[0]!.prices).toHaveLength(2);
      expect(product.variants[0]!.inventory_items).toHaveLength(1);
      expect(product.images).toHaveLength(2);
      expect(product.sales_channels).toHaveLength(1);
    }
    expect(fifty.queries).toBe(one.queries);
    // the caller's session check; page + count, variants + their options, options + values, images,
    // tags, categories, collection, type, channel links; then prices, inventory links, channel records (+count).
    expect(one.queries).toBeLessThanOrEqual(17);
  });
});
