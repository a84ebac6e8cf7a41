import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@kasse/db";
import { seedDemoStore, type DemoStore } from "@kasse/operations";
import { demoPicture } from "./static-files";
import { createTestApp, JPEG, MULTIPART, multipartForm, PNG, type TestApp } from "../testing";
import { checkoutReadyCart, US_ADDRESS } from "../testing/checkout";

const OLD = "http://old.shop.test";
const NEW = "https://new.shop.example";
const dir = mkdtempSync(join(tmpdir(), "kasse-file-urls-"));
let old: TestApp;
let store: DemoStore;
let headers: Record<string, string>;
/** The uploads made under the old address, by the URL it answered then. */
const uploaded = new Map<string, Buffer>();
let orderId: string;
let openCartId: string;
/** The hoodie's product and its variant shown with one of its images. */
let shownVariant: string;

/** Every string of an answer that names a picture: thumbnails, image URLs, wherever they are. */
function pictureUrls(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) pictureUrls(item, out);
  else if (value && typeof value === "object")
    for (const [key, field] of Object.entries(value)) {
      if ((key === "thumbnail" || key === "url") && typeof field === "string") out.push(field);
      else pictureUrls(field, out);
    }
  return out;
}

async function upload(t: TestApp, filename: string, content: Buffer): Promise<string> {
  const res = await t.app.inject({
    method: "POST",
    url: "/admin/uploads",
    headers: { ...(await t.adminHeaders()), "content-type": MULTIPART },
    payload: multipartForm([{ name: "files", filename, content }]),
  });
  expect(res.statusCode, res.body).toBe(200);
  const url = res.json().files[0].url as string;
  uploaded.set(url, content);
  return url;
}

const productId = async (t: TestApp, handle: string): Promise<string> =>
  (await t.store.get(`/store/products?handle=${handle}`, headers)).json().products[0].id;

beforeAll(async () => {
  old = await createTestApp({ PUBLIC_URL: `${OLD}/`, FILE_DIR: dir });
  store = (await seedDemoStore(old.app.modules, { pictures: demoPicture }))!;
  headers = { "x-publishable-api-key": store.publishable_api_key };
  // The dashboard's way: upload, then send the URL the upload answered (root contract and Medusa's dialect).
  const front = await upload(old, "front.png", PNG);
  const back = await upload(old, "back.jpg", JPEG);
  const hoodie = await productId(old, "hoodie");
  const set = await old.admin.post(`/admin/products/${hoodie}`, {
    thumbnail: front,
    images: [{ url: front }, { url: back }, { url: "https://images.example.com/hoodie.png" }],
  });
  expect(set.statusCode, set.body).toBe(200);
  // A variant shown with one of them (Medusa's variant images).
  const variant = set.json().product.variants[0].id as string;
  shownVariant = `/admin/products/${hoodie}/variants/${variant}`;
  const image = set.json().product.images.find((i: { url: string }) => i.url === back).id as string;
  const shown = await old.admin.post(`/admin/products/${hoodie}/variants/${variant}/images/batch`, { add: [image] });
  expect(shown.statusCode, shown.body).toBe(200);
  const chinos = await productId(old, "chinos");
  const medusa = await old.admin.post(`/medusa/admin/products/${chinos}`, { thumbnail: back, images: [{ url: back }] });
  expect(medusa.statusCode, medusa.body).toBe(200);

  const [option] = await queryRows<{ id: string }>(
    old.database.db,
    sql`select id from shipping_option where region_id = ${store.region_ids.us} limit 1`,
  );
  const variantOf = async (handle: string) =>
    (await old.store.get(`/store/products/${handle}`, headers)).json().product.variants[0].id as string;
  const lines = {
    region_id: store.region_ids.us,
    option_id: option!.id,
    variant_id: await variantOf("hoodie"),
    more_items: [
      { variant_id: await variantOf("linen-shirt"), quantity: 1 },
      { variant_id: await variantOf("chinos"), quantity: 1 },
    ],
    address: US_ADDRESS,
    headers,
  };
  const cart = await checkoutReadyCart(old, lines);
  const completed = await old.app.inject({ method: "POST", url: `/store/carts/${cart.id}/complete`, headers });
  expect(completed.json().type, completed.body).toBe("order");
  orderId = completed.json().order.id;
  openCartId = (await checkoutReadyCart(old, lines)).id;
}, 120_000);
afterAll(async () => {
  await old.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("pictures' URLs follow the store's address", () => {
  it("are answered at the address of the time, and stored without it", async () => {
    const hoodie = (await old.store.get("/store/products/hoodie", headers)).json().product;
    expect(hoodie.thumbnail).toMatch(new RegExp(`^${OLD}/static/uploads/[0-9a-z]+-[0-9a-f]{16}-front\\.png$`));
    const [stored] = await queryRows<{ thumbnail: string }>(
      old.database.db,
      sql`select thumbnail from product where handle = 'hoodie'`,
    );
    expect(stored!.thumbnail).toBe(new URL(hoodie.thumbnail).pathname);
    // Another site's picture is kept as it was given.
    expect(hoodie.images.map((i: { url: string }) => i.url)).toContain("https://images.example.com/hoodie.png");
  });

  it("after a restart under another PUBLIC_URL, every picture of products, carts and orders carries the new address and is served", async () => {
    const now = await createTestApp({ PUBLIC_URL: NEW, FILE_DIR: dir }, { databaseOf: old });
    try {
      const answers: unknown[] = [];
      for (const base of ["", "/medusa"]) {
        const get = async (url: string, as = now.store, extra: Record<string, string> = headers) => {
          const res = await as.get(`${base}${url}`, extra);
          expect(res.statusCode, `${base}${url}: ${res.body}`).toBe(200);
          answers.push(res.json());
          return res.json();
        };
        const list = await get("/store/products?limit=20&fields=handle,thumbnail,*images,*variants.images");
        expect(list.products).toHaveLength(20);
        for (const handle of ["hoodie", "chinos", "linen-shirt"]) await get(`/store/products/${handle}`);
        await get(`/store/carts/${openCartId}`);
        await get(`/admin/orders/${orderId}?fields=*items,*items.product,*items.variant.product`, now.admin, {});
        await get("/admin/products?limit=20&fields=handle,thumbnail,*images", now.admin, {});
        expect((await get(`${shownVariant}?fields=*images`, now.admin, {})).variant.images).toHaveLength(1);
        // Cached catalog answers (a second read is the cache's body) say the same.
        await get("/store/products?limit=20&fields=handle,thumbnail,*images,*variants.images");
      }
      const urls = answers.flatMap((a) => pictureUrls(a));
      const ours = urls.filter((u) => u !== "https://images.example.com/hoodie.png");
      // 20 products' thumbnails and images in six lists, three products twice, three cart lines, three order lines…
      expect(ours.length).toBeGreaterThan(250);
      // …and the variant shown with an image, in the store's two lists and the admin's variant, in both dialects.
      const variantImages = answers.flatMap((a) => {
        const { products = [], variant } = a as {
          products?: Array<{ variants?: Array<{ images?: Array<{ url: string }> }> }>;
          variant?: { images: Array<{ url: string }> };
        };
        const variants = [...products.flatMap((p) => p.variants ?? []), ...(variant ? [variant] : [])];
        return variants.flatMap((v) => (v.images ?? []).map((i) => i.url));
      });
      expect(variantImages).toHaveLength(6);
      for (const url of ours)
        expect(url).toMatch(new RegExp(`^${NEW}/static/uploads/[0-9a-z]+-[0-9a-f]{16}-[a-z-]+\\.(png|jpg)$`));
      expect(JSON.stringify(answers)).not.toContain("old.shop.test");

      const cart = answers.find((a) => (a as { cart?: unknown }).cart) as {
        cart: { items: Array<{ thumbnail: string; product_handle: string }> };
      };
      expect(cart.cart.items.map((i) => i.thumbnail)).toHaveLength(3);
      const order = answers.find((a) => (a as { order?: unknown }).order) as {
        order: { items: Array<{ thumbnail: string }> };
      };
      expect(order.order.items.every((i) => i.thumbnail.startsWith(`${NEW}/static/uploads/`))).toBe(true);

      // Each is served by the restarted store, with the bytes uploaded (or seeded) under the old address.
      const byPath = new Map([...uploaded].map(([url, content]) => [new URL(url).pathname, content]));
      for (const url of new Set(ours)) {
        const served = await now.store.get(new URL(url).pathname);
        expect(served.statusCode, url).toBe(200);
        const handle = /-([a-z-]+)\.png$/.exec(url)?.[1];
        const expected = byPath.get(new URL(url).pathname) ?? (await demoPicture(handle!));
        expect(served.rawPayload.equals(expected), url).toBe(true);
      }
      // An upload's own answer is at the new address too.
      const key = new URL(ours[0]!).pathname.split("/").pop()!;
      expect((await now.admin.get(`/admin/uploads/${key}`)).json().file.url).toBe(`${NEW}/static/uploads/${key}`);
    } finally {
      await now.close();
    }
  });

  it("migration 0024 turns the absolute URLs written before into references when they name this store's files", async () => {
    const run = (statement: string) => old.database.db.execute(sql.raw(statement));
    const key = new URL([...uploaded.keys()][0]!).pathname.split("/").pop()!;
    const foreign = "https://cdn.other.example/static/uploads/mx00000-0123456789abcdef-shirt.png";
    const foreignDemo = "https://cdn.other.example/static/demo/banner.png";
    // As stores wrote them before: the seed's and uploads' URLs at the address of the time (unset: localhost).
    await run(
      `update product set thumbnail = 'http://localhost:9000/static/uploads/${key}' where handle = 'sunglasses'`,
    );
    await run(
      `update product_image set url = '${OLD}/static/demo/sunglasses.png' where product_id = (select id from product where handle = 'sunglasses')`,
    );
    await run(`update product set thumbnail = '${foreign}' where handle = 'shorts'`);
    await run(
      `update product_image set url = '${foreignDemo}' where product_id = (select id from product where handle = 'shorts')`,
    );
    await run(
      `update order_line_item set thumbnail = 'http://localhost:9000/static/uploads/${key}' where order_id = '${orderId}'`,
    );
    await run(`update cart_line_item set thumbnail = '${OLD}/static/demo/hoodie.png' where cart_id = '${openCartId}'`);
    const migration = readFileSync(new URL("../../../../drizzle/0024_file_references.sql", import.meta.url), "utf8");
    for (let i = 0; i < 2; i++)
      for (const statement of migration.split("--> statement-breakpoint")) await run(statement); // twice: the same

    const now = await createTestApp({ PUBLIC_URL: NEW, FILE_DIR: dir }, { databaseOf: old });
    try {
      const sunglasses = (await now.store.get("/store/products/sunglasses", headers)).json().product;
      expect(sunglasses.thumbnail).toBe(`${NEW}/static/uploads/${key}`);
      expect(sunglasses.images.map((i: { url: string }) => i.url)).toEqual([`${NEW}/static/demo/sunglasses.png`]);
      const shorts = (await now.store.get("/store/products/shorts", headers)).json().product;
      expect(shorts.thumbnail).toBe(foreign);
      expect(shorts.images.map((i: { url: string }) => i.url)).toEqual([foreignDemo]);
      const order = (await now.admin.get(`/medusa/admin/orders/${orderId}?fields=*items`)).json().order;
      expect(order.items.map((i: { thumbnail: string }) => i.thumbnail)).toEqual(
        order.items.map(() => `${NEW}/static/uploads/${key}`),
      );
      const cart = (await now.store.get(`/store/carts/${openCartId}`, headers)).json().cart;
      expect(cart.items.map((i: { thumbnail: string }) => i.thumbnail)).toEqual(
        cart.items.map(() => `${NEW}/static/demo/hoodie.png`),
      );
      for (const url of [sunglasses.thumbnail, sunglasses.images[0].url, cart.items[0].thumbnail]) {
        const served = await now.store.get(new URL(url).pathname);
        expect(served.statusCode, url).toBe(200);
        expect(served.rawPayload.length, url).toBeGreaterThan(0);
      }
    } finally {
      await now.close();
    }
  });
});
