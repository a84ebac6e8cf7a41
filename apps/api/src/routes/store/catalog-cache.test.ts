import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { CATALOG_TABLES } from "@kasse/db";
import * as productSchema from "@kasse/modules/product/tables";
import * as pricingSchema from "@kasse/modules/pricing/tables";
import { createTestApp, type TestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";

// Two API processes on one database: `writer` takes the admin's writes, `reader` answers the
// storefront from its catalog cache. Every read below is first made to fill the reader's cache,
// then the write, then the read that must already show it.

let writer: TestApp;
let reader: TestApp;
let regionId: string;
let locationId: string;
let channelId: string;

beforeAll(async () => {
  writer = await createTestApp();
  reader = await createTestApp({}, { databaseOf: writer });
  const m = writer.app.modules;
  channelId = (await m.salesChannel.getOrCreateDefault()).id;
  regionId = (await m.region.create({ name: "US", currency_code: "usd", countries: ["us"] })).id;
  locationId = (await m.stockLocation.create({ name: "Warehouse" })).id;
  await m.stockLocation.updateSalesChannels(locationId, { add: [channelId] });
}, 120_000);
afterAll(async () => {
  await reader?.close();
  await writer?.close();
});

let serial = 0;
/** A published product with one variant at 1000 usd and 5 in stock. */
async function product(): Promise<{ id: string; variantId: string }> {
  serial++;
  const created = await createFixtureProduct(
    writer,
    {
      title: `Cached ${serial}`,
      status: "published",
      sales_channels: [{ id: channelId }],
      variants: [
        {
          title: "One",
          sku: `CACHED-${serial}`,
          size: "One",
          stock: 5,
          prices: [{ currency_code: "usd", amount: 1000 }],
        },
      ],
    },
    locationId,
  );
  return { id: created.id, variantId: created.variantIds[0]! };
}

const listUrl = (fields = "") =>
  `/store/products?limit=50&region_id=${regionId}${fields ? `&fields=${encodeURIComponent(fields)}` : ""}`;

/** The reader's calculated amount of the product's first variant, from the list and from the product page. */
async function readAmounts(productId: string): Promise<{ list: number | undefined; page: number | undefined }> {
  const list = await reader.store.get(listUrl());
  expect(list.statusCode).toBe(200);
  const listed = (
    list.json().products as Array<{ id: string; variants: Array<{ calculated_price: { calculated_amount: number } }> }>
  ).find((p) => p.id === productId);
  const page = await reader.store.get(`/store/products/${productId}?region_id=${regionId}`);
  expect(page.statusCode).toBe(200);
  return {
    list: listed?.variants[0]?.calculated_price.calculated_amount,
    page: page.json().product.variants[0].calculated_price.calculated_amount,
  };
}

describe("store catalog cache across two API processes", () => {
  it("is invalidated by every table of the product and pricing modules", () => {
    const tables = [...Object.values(productSchema), ...Object.values(pricingSchema)]
      .filter((x) => is(x, PgTable))
      .map((t) => getTableName(t as PgTable));
    expect(tables.length).toBeGreaterThan(15);
    expect(tables.filter((t) => !(CATALOG_TABLES as readonly string[]).includes(t))).toEqual([]);
  });

  it("answers a repeated read with one statement (the catalog version), the same answer, byte for byte", async () => {
    await product();
    const first = await reader.store.get(listUrl());
    let again: Awaited<ReturnType<typeof reader.store.get>> | undefined;
    const statements = await reader.database.statements.record(async () => {
      again = await reader.store.get(listUrl());
    });
    expect(statements.filter((q) => !/from "api_key/.test(q))).toHaveLength(1);
    expect(again!.json()).toEqual(first.json());
    // A hit sends the body serialized for the first answer (catalog-cache.ts): same bytes, same type.
    expect(again!.body).toBe(first.body);
    expect(again!.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(again!.headers["content-length"]).toBe(first.headers["content-length"]);
  });

  it("keeps no answer with a memory budget of 0 MB (CATALOG_CACHE_MB): each read is read afresh", async () => {
    await product();
    const unbudgeted = await createTestApp({ CATALOG_CACHE_MB: "0" }, { databaseOf: writer });
    try {
      const first = await unbudgeted.store.get(listUrl());
      const statements = await unbudgeted.database.statements.record(async () => {
        expect((await unbudgeted.store.get(listUrl())).body).toBe(first.body);
      });
      expect(statements.filter((q) => !/from "api_key/.test(q)).length).toBeGreaterThan(1);
    } finally {
      await unbudgeted.close();
    }
  });

  it("serves one cached answer in minor units and in Medusa's dialect (major units) alike", async () => {
    const p = await product();
    const amount = async (base: string) =>
      (await reader.store.get(`${base}/store/products/${p.id}?region_id=${regionId}`)).json().product.variants[0]
        .calculated_price.calculated_amount;
    expect([await amount(""), await amount("/medusa"), await amount("/medusa"), await amount("")]).toEqual([
      1000, 10, 10, 1000,
    ]);
  });

  it("shows a price updated through the other process at once", async () => {
    const p = await product();
    expect(await readAmounts(p.id)).toEqual({ list: 1000, page: 1000 });
    const updated = await writer.admin.post(`/admin/products/${p.id}/variants/${p.variantId}`, {
      prices: [{ currency_code: "usd", amount: 1500 }],
    });
    expect(updated.statusCode).toBe(200);
    expect(await readAmounts(p.id)).toEqual({ list: 1500, page: 1500 });
  });

  it("hides a product deleted through the other process at once", async () => {
    const p = await product();
    expect((await readAmounts(p.id)).list).toBe(1000);
    expect((await writer.admin.delete(`/admin/products/${p.id}`)).statusCode).toBe(200);
    const list = await reader.store.get(listUrl());
    expect(list.json().products.map((x: { id: string }) => x.id)).not.toContain(p.id);
    expect((await reader.store.get(`/store/products/${p.id}?region_id=${regionId}`)).statusCode).toBe(404);
  });

  it("applies a price-list price added through the other process at once", async () => {
    const p = await product();
    expect(await readAmounts(p.id)).toEqual({ list: 1000, page: 1000 });
    const list = await writer.admin.post("/admin/price-lists", {
      title: "Sale",
      description: "",
      type: "sale",
      status: "active",
    });
    expect(list.statusCode).toBe(200);
    const batch = await writer.admin.post(`/admin/price-lists/${list.json().price_list.id}/prices/batch`, {
      create: [{ variant_id: p.variantId, currency_code: "usd", amount: 800 }],
    });
    expect(batch.statusCode).toBe(200);
    expect(await readAmounts(p.id)).toEqual({ list: 800, page: 800 });
  });

  it("shows the stock changed through the other process in +variants.inventory_quantity at once", async () => {
    const p = await product();
    const url = listUrl("+variants.inventory_quantity");
    const quantity = async () => {
      const res = await reader.store.get(url);
      return (res.json().products as Array<{ id: string; variants: Array<{ inventory_quantity: number }> }>).find(
        (x) => x.id === p.id,
      )?.variants[0]?.inventory_quantity;
    };
    expect(await quantity()).toBe(5);
    const item = (
      await writer.admin.get(`/admin/products/${p.id}?fields=id,variants.id,variants.inventory_items`)
    ).json().product.variants[0].inventory_items[0].inventory_item_id;
    expect(
      (await writer.admin.post(`/admin/inventory-items/${item}/location-levels/${locationId}`, { stocked_quantity: 2 }))
        .statusCode,
    ).toBe(200);
    expect(await quantity()).toBe(2);
  });

  it("shows a scheduled price list from its start, with no write in between", async () => {
    const p = await product();
    const startsAt = new Date(Date.now() + 1_500);
    const list = await writer.admin.post("/admin/price-lists", {
      title: "Flash sale",
      description: "",
      type: "sale",
      status: "active",
      starts_at: startsAt.toISOString(),
      prices: [{ variant_id: p.variantId, currency_code: "usd", amount: 700 }],
    });
    expect(list.statusCode).toBe(200);
    expect(await readAmounts(p.id)).toEqual({ list: 1000, page: 1000 });
    await new Promise((resolve) => setTimeout(resolve, startsAt.getTime() - Date.now() + 50));
    expect(await readAmounts(p.id)).toEqual({ list: 700, page: 700 });
  });
});
