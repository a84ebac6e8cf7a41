import { beforeAll, describe, expect, it } from "vitest";
import { countQueries } from "@kasse/db/testing";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";

const t = useTestApp();
let regionId: string;

beforeAll(async () => {
  const m = t.app.modules;
  const channel = await m.salesChannel.getOrCreateDefault();
  regionId = (await m.region.create({ name: "US", currency_code: "usd", countries: ["us"] })).id;
  const location = await m.stockLocation.create({ name: "Warehouse" });
  await m.stockLocation.updateSalesChannels(location.id, { add: [channel.id] });
  const collection = await m.product.collections.create({ title: "All" });
  const category = await m.product.categories.create({ name: "All", is_active: true });
  const tag = await m.product.tags.create({ value: "demo" });
  for (let i = 0; i < 100; i++) {
    await createFixtureProduct(
      t,
      {
        title: `Product ${String(i).padStart(3, "0")}`,
        status: "published",
        collection_id: collection.id,
        categories: [{ id: category.id }],
        tags: [{ id: tag.id }],
        images: [{ url: `https://img.example/${i}.png` }],
        sales_channels: [{ id: channel.id }],
        variants: ["S", "M", "L"].map((size) => ({
          title: size,
          sku: `P${i}-${size}`,
          size,
          stock: 5,
          prices: [
            { currency_code: "usd", amount: 1000 + i },
            { currency_code: "eur", amount: 900 + i },
          ],
        })),
      },
      location.id,
    );
  }
}, 300_000);

describe("store product page cost", () => {
  const fields = encodeURIComponent("*variants.calculated_price,+variants.inventory_quantity");

  it("is a constant number of queries whatever the page size", async () => {
    // Warm the publishable-key plugin's default-channel cache so every page pays the same.
    await t.app.inject({ method: "GET", url: "/store/products?limit=1" });
    const counts: number[] = [];
    for (const limit of [15, 50, 100]) {
      counts.push(
        await countQueries(t.database.db, async () => {
          const res = await t.app.inject({
            method: "GET",
            url: `/store/products?limit=${limit}&region_id=${regionId}&fields=${fields}`,
          });
          expect(res.statusCode).toBe(200);
          const body = res.json();
          expect(body.products).toHaveLength(limit);
          expect(body.products[0].variants).toHaveLength(3);
          expect(body.products[0].variants[0].calculated_price.calculated_amount).toBeGreaterThanOrEqual(1000);
          expect(body.products[0].variants[0].inventory_quantity).toBe(5);
        }),
      );
    }
    expect(counts, JSON.stringify(counts)).toEqual([counts[0], counts[0], counts[0]]);
    expect(counts[0]).toBeLessThanOrEqual(20);
    console.warn(`GET /store/products with prices and stock: ${counts[0]} queries per page`);
  });

  it("answers a 100-product page quickly", async () => {
    const url = `/store/products?limit=100&region_id=${regionId}&fields=${fields}`;
    await t.app.inject({ method: "GET", url });
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await t.app.inject({ method: "GET", url });
      runs.push(performance.now() - started);
    }
    runs.sort((a, b) => a - b);
    console.warn(`GET /store/products?limit=100 median ${runs[2]!.toFixed(1)} ms`);
    expect(runs[2]).toBeLessThan(2000);
  });
});
