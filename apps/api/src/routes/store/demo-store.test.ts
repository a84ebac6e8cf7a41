import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onDatabase } from "@kasse/db";
import { seedDemoStore, type DemoStore } from "@kasse/operations";
import { demoPicture } from "../../plugins/static-files";
import { createTestApp, startS3Server, type TestApp } from "../../testing";

const dir = mkdtempSync(join(tmpdir(), "kasse-demo-"));
let t: TestApp;
let store: DemoStore;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: "https://api.shop.example/", FILE_DIR: dir });
  const seeded = await seedDemoStore(t.app.modules, { pictures: demoPicture });
  expect(seeded).not.toBeNull();
  store = seeded!;
}, 120_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The 20 products' handles and pictures, as a storefront reads them. */
async function pictures(
  app: TestApp,
  key: string,
): Promise<Array<{ handle: string; thumbnail: string; images: Array<{ url: string }> }>> {
  const { products } = (
    await app.store.get("/store/products?limit=20&fields=handle,thumbnail,*images", { "x-publishable-api-key": key })
  ).json();
  expect(products).toHaveLength(20);
  return products;
}

describe("the demo store", () => {
  it("has a picture per product, stored through the file provider (an upload like any other)", async () => {
    for (const product of await pictures(t, store.publishable_api_key)) {
      expect(product.thumbnail).toMatch(
        new RegExp(`^https://api\\.shop\\.example/static/uploads/[0-9a-z]+-[0-9a-f]{16}-${product.handle}\\.png$`),
      );
      expect(product.images.map((i) => i.url)).toEqual([product.thumbnail]);
      const file = await t.store.get(new URL(product.thumbnail).pathname);
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe("image/png");
      expect(file.rawPayload.equals(await demoPicture(product.handle))).toBe(true);
      expect(file.rawPayload.length).toBeLessThan(10_000);
    }
    expect(readdirSync(dir)).toHaveLength(20);
    expect(await onDatabase(t.database.db, () => t.app.modules.file.usage())).toEqual({
      bytes: expect.any(Number),
      files: 20,
    });
    // Stores seeded before keep their pictures: Kasse still serves the shipped ones.
    const shipped = await t.store.get("/static/demo/linen-shirt.png");
    expect(shipped.statusCode).toBe(200);
    expect(shipped.headers["cache-control"]).toMatch(/max-age=86400/);
    expect((await t.store.get("/static/demo/nope.png")).statusCode).toBe(404);
    // No directory listing.
    expect((await t.store.get("/static/demo/")).json()).toEqual({ type: "not_allowed", message: "Forbidden" });
    expect((await t.store.get("/static/../package.json")).statusCode).toBe(404);
    expect((await t.store.get("/static/%2e%2e/package.json")).statusCode).toBe(404);
  });

  it("keeps its pictures in the bucket with FILE_PROVIDER=s3: any API process serves them", async () => {
    const s3 = await startS3Server();
    const other = await createTestApp(s3.env);
    try {
      // On the other app's database, as its own process would seed it (the test process's is `t`'s).
      const seeded = await onDatabase(other.database.db, () =>
        seedDemoStore(other.app.modules, { pictures: demoPicture }),
      );
      for (const product of await pictures(other, seeded!.publishable_api_key)) {
        expect(product.thumbnail).toMatch(
          new RegExp(`^${s3.endpoint}/${s3.bucket}/[0-9a-z]+-[0-9a-f]{16}-${product.handle}\\.png$`),
        );
        const served = await fetch(product.thumbnail);
        expect(served.headers.get("content-type")).toBe("image/png");
        expect(Buffer.from(await served.arrayBuffer()).equals(await demoPicture(product.handle))).toBe(true);
      }
    } finally {
      await other.close();
      await s3.close();
    }
  }, 120_000);

  it("has no pictures when the seed is given none", async () => {
    const other = await createTestApp();
    try {
      await onDatabase(other.database.db, () => seedDemoStore(other.app.modules));
      const product = (await other.app.inject({ method: "GET", url: "/store/products/linen-shirt" })).json().product;
      expect(product.thumbnail).toBeNull();
      expect(product.images).toEqual([]);
    } finally {
      await other.close();
    }
  }, 120_000);

  it("is seeded once", async () => {
    expect(store.product_count).toBe(20);
    expect(await seedDemoStore(t.app.modules)).toBeNull();
    expect((await t.store.get("/store/regions")).json().count).toBe(2);
  });

  it("serves its catalog to a storefront with the publishable key, priced and stocked", async () => {
    const headers = { "x-publishable-api-key": store.publishable_api_key };
    const fields = encodeURIComponent("*variants.calculated_price,+variants.inventory_quantity");
    const us = (
      await t.store.get(`/store/products?limit=20&region_id=${store.region_ids.us}&fields=${fields}`, headers)
    ).json();
    expect(us.count).toBe(20);
    for (const product of us.products) {
      expect(product.variants.length).toBeGreaterThan(0);
      for (const variant of product.variants) {
        expect(variant.calculated_price).toMatchObject({
          currency_code: "usd",
          is_calculated_price_tax_inclusive: false,
        });
        expect(variant.inventory_quantity).toBeGreaterThanOrEqual(5);
      }
    }
    const eu = (await t.store.get(`/store/products/linen-shirt?region_id=${store.region_ids.eu}`, headers)).json()
      .product;
    expect(eu.variants[0].calculated_price).toMatchObject({
      currency_code: "eur",
      calculated_amount: 5300,
      is_calculated_price_tax_inclusive: true,
    });
    expect(eu.collection.title).toBe("Seasonal");
    expect(eu.categories[0].handle).toBe("shirts");
    expect((await t.store.get("/store/collections", headers)).json().count).toBe(2);
    expect((await t.store.get("/store/product-categories", headers)).json().count).toBe(4);
    expect((await t.store.get(`/store/products?category_id[]=${eu.categories[0].id}`, headers)).json().count).toBe(5);
  });

  it("answers GET /store/products on the demo data quickly", async () => {
    const url = `/store/products?region_id=${store.region_ids.us}&fields=${encodeURIComponent("*variants.calculated_price,+variants.inventory_quantity")}`;
    const headers = { "x-publishable-api-key": store.publishable_api_key };
    await t.store.get(url, headers);
    const runs: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      expect((await t.store.get(url, headers)).statusCode).toBe(200);
      runs.push(performance.now() - started);
    }
    runs.sort((a, b) => a - b);
    console.warn(`GET /store/products (demo store, 15 products) median ${runs[5]!.toFixed(1)} ms`);
    expect(runs[5]).toBeLessThan(1000);
  });
});
