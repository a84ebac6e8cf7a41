import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { HANDLE_PATTERN, MAX_AMOUNT } from "@kasse/core";
import { MAX_OFFSET, queryRows } from "@kasse/db";
import { useTestApp } from "../testing";
import { MAX_JSON_DEPTH } from "./input-policy";

const t = useTestApp();
let admin: Record<string, string>;
let store: Record<string, string>;
beforeAll(async () => {
  admin = { ...(await t.adminHeaders()), "content-type": "application/json" };
  await t.app.modules.region.create({ name: "Europe", currency_code: "eur", countries: ["de"] });
  const key = (await t.admin.post("/admin/api-keys", { title: "Storefront", type: "publishable" })).json().api_key;
  const channel = await t.app.modules.salesChannel.getOrCreateDefault();
  await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: [channel.id] });
  store = { "x-publishable-api-key": key.token, "content-type": "application/json" };
});

/** POSTs a raw JSON text (so escapes such as \u0000 and \ud800 reach the server as written). */
const postRaw = (url: string, json: string | Buffer, headers: Record<string, string>) =>
  t.app.inject({ method: "POST", url, headers, payload: json });
const count = async (table: string) =>
  Number((await queryRows<{ n: number | string }>(t.database.db, sql.raw(`select count(*) as n from ${table}`)))[0]!.n);

function expectRefused(res: { statusCode: number; json(): unknown }, message?: RegExp) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { type: string; message: string };
  expect(body).toEqual({ type: "invalid_data", message: expect.any(String) });
  if (message) expect(body.message).toMatch(message);
}

describe("text PostgreSQL cannot hold is refused at the edge", () => {
  it("a NUL character in a JSON string: 400, and no cart is created (was 500)", async () => {
    const before = await count("cart");
    expectRefused(
      await postRaw("/store/carts", '{"email":"a\\u0000b@x.co"}', store),
      /Field 'email' contains a NUL character/,
    );
    expectRefused(
      await postRaw("/store/carts", '{"metadata":{"note":["ok","a\\u0000"]}}', store),
      /Field 'metadata.note.1' contains a NUL/,
    );
    expect(await count("cart")).toBe(before);
  });

  it("a NUL character in a key, without echoing the key", async () => {
    const before = await count("cart");
    const res = await postRaw("/store/carts", '{"metadata":{"a\\u0000b":1}}', store);
    expectRefused(res, /A field name in the body at 'metadata' contains a NUL character/);
    expect(await count("cart")).toBe(before);
  });

  it("a lone UTF-16 surrogate in a value or a key: 400 (was stored as U+FFFD); a well-formed pair is kept as sent", async () => {
    const before = await count("cart");
    expectRefused(await postRaw("/store/carts", '{"email":"\\ud800x@x.co"}', store), /unpaired UTF-16 surrogate/);
    expectRefused(
      await postRaw("/store/carts", '{"metadata":{"k":"\\udc00"}}', store),
      /Field 'metadata.k' contains an unpaired UTF-16 surrogate/,
    );
    expectRefused(
      await postRaw("/store/carts", '{"metadata":{"\\ud83d":"x"}}', store),
      /A field name in the body at 'metadata'/,
    );
    expect(await count("cart")).toBe(before);

    const ok = await postRaw("/store/carts", '{"metadata":{"k":"\\ud83d\\ude00 Größe"}}', store);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().cart.metadata).toEqual({ k: "😀 Größe" });
  });

  it("a body that is not valid UTF-8: 400 instead of silently replaced bytes", async () => {
    const before = await count("cart");
    const bytes = Buffer.concat([
      Buffer.from('{"metadata":{"k":"'),
      Buffer.from([0xed, 0xa0, 0x80, 0xff]),
      Buffer.from('"}}'),
    ]);
    expectRefused(await postRaw("/store/carts", bytes, store), /not valid UTF-8/);
    expect(await count("cart")).toBe(before);
  });

  it("a NUL in the query string or a path parameter: 400 on store and admin routes (was 500)", async () => {
    expectRefused(await t.store.get("/store/products?q=a%00b", store), /Field 'q' contains a NUL character/);
    expectRefused(await t.store.get("/store/products?handle[]=x%00", store), /contains a NUL character/);
    expectRefused(await t.store.get("/admin/products?id=prod_%00", admin), /contains a NUL character/);
    expectRefused(await t.store.get("/admin/products/prod_%00x", admin), /Field 'id' contains a NUL character/);
    expectRefused(await t.store.get("/store/carts/cart_%00", store), /Field 'id' contains a NUL character/);
  });
});

/** `levels` nested arrays around `inner`, as JSON text. */
const nested = (levels: number, inner = "1") => `${"[".repeat(levels)}${inner}${"]".repeat(levels)}`;

describe("nesting", () => {
  it(`a body nested deeper than ${MAX_JSON_DEPTH} levels: 400 (metadata 5,000 levels deep was a 500)`, async () => {
    const before = await count("cart");
    expectRefused(
      await postRaw("/store/carts", `{"metadata":{"deep":${nested(5000)}}}`, store),
      new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`),
    );
    expectRefused(
      await postRaw("/admin/sales-channels", `{"name":"n","metadata":{"deep":${nested(100_000)}}}`, admin),
      /nested deeper/,
    );
    expect(await count("cart")).toBe(before);
  });

  it(`${MAX_JSON_DEPTH} levels are accepted, ${MAX_JSON_DEPTH + 1} are not`, async () => {
    // The body object is level 1, metadata level 2, then the arrays.
    const ok = await postRaw("/store/carts", `{"metadata":{"deep":${nested(MAX_JSON_DEPTH - 2)}}}`, store);
    expect(ok.statusCode).toBe(200);
    expect(JSON.stringify(ok.json().cart.metadata.deep)).toBe(nested(MAX_JSON_DEPTH - 2));
    expectRefused(
      await postRaw("/store/carts", `{"metadata":{"deep":${nested(MAX_JSON_DEPTH - 1)}}}`, store),
      /nested deeper/,
    );
  });
});

describe("paging bounds", () => {
  const lists = ["/admin/products", "/admin/orders", "/admin/customers", "/admin/sales-channels"];

  it(`an offset above ${MAX_OFFSET}: 400 on every list (a huge one was a 500)`, async () => {
    for (const url of lists) {
      expectRefused(await t.admin.get(`${url}?offset=99999999999999999999`), /offset/);
      expectRefused(await t.admin.get(`${url}?offset=${MAX_OFFSET + 1}`), /offset/);
    }
    expectRefused(await t.store.get("/store/products?offset=99999999999999999999", store), /offset/);
    const deepest = await t.admin.get(`/admin/products?offset=${MAX_OFFSET}`);
    expect(deepest.statusCode).toBe(200);
    expect(deepest.json()).toMatchObject({ products: [], offset: MAX_OFFSET });
  });

  it("a limit above 1000: 400; 1000 is served", async () => {
    for (const url of lists) {
      expectRefused(await t.admin.get(`${url}?limit=1001`), /limit/);
      expectRefused(await t.admin.get(`${url}?limit=99999999999999999999`), /limit/);
    }
    expectRefused(await t.store.get("/store/products?limit=1001", store), /limit/);
    expect((await t.admin.get("/admin/products?limit=1000")).json().limit).toBe(1000);
  });
});

const product = (fields: Record<string, unknown>) =>
  JSON.stringify({ options: [{ title: "Size", values: ["One"] }], ...fields });

describe("string lengths and handles", () => {
  it("a 3,000-character title is 400 with or without a handle, and no product is written (was 500)", async () => {
    const before = await count("product");
    expectRefused(
      await postRaw("/admin/products", product({ title: "t".repeat(3000) }), admin),
      /Field 'title' must NOT have more than 255 characters/,
    );
    expectRefused(
      await postRaw("/admin/products", product({ title: "t".repeat(3000), handle: "long-title" }), admin),
      /Field 'title'/,
    );
    expect(await count("product")).toBe(before);
  });

  it("a generated handle is cut to fit, and still gets a unique suffix", async () => {
    // "ß" folds to "ss": a 255-character title makes a 510-character handle before cutting.
    const title = "ß".repeat(255);
    const first = await postRaw("/admin/products", product({ title }), admin);
    const second = await postRaw("/admin/products", product({ title }), admin);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    const [a, b] = [first.json().product.handle as string, second.json().product.handle as string];
    expect(a.length).toBeLessThanOrEqual(255);
    expect(a).toMatch(new RegExp(HANDLE_PATTERN));
    expect(b).toBe(`${a}-1`);
    expect(b.length).toBeLessThanOrEqual(255);
  });

  it("an explicit handle is checked for shape and length", async () => {
    const before = await count("product");
    expectRefused(
      await postRaw("/admin/products", product({ title: "Shoe", handle: "h".repeat(256) }), admin),
      /Field 'handle' must NOT have more than 255/,
    );
    expectRefused(
      await postRaw("/admin/products", product({ title: "Shoe", handle: "Not A Handle" }), admin),
      /Field 'handle' must match pattern/,
    );
    expectRefused(
      await postRaw("/admin/collections", JSON.stringify({ title: "C", handle: "c".repeat(256) }), admin),
      /Field 'handle'/,
    );
    expect(await count("product")).toBe(before);
    const ok = await postRaw("/admin/products", product({ title: "Shoe", handle: "h".repeat(255) }), admin);
    expect(ok.statusCode).toBe(200);
  });

  it("filters bound their length, not their shape: a handle or email that cannot match finds nothing", async () => {
    const res = await t.store.get("/store/products?handle=men/shirts", store);
    expect(res.statusCode).toBe(200);
    expect(res.json().products).toEqual([]);
    expect((await t.admin.get("/admin/customers?email=not-an-email")).json().customers).toEqual([]);
    expectRefused(
      await t.store.get(`/store/products?handle=${"h".repeat(256)}`, store),
      /Field 'handle.0' must NOT have more than 255/,
    );
    expectRefused(await t.admin.get(`/admin/customers?email=${"e".repeat(321)}`), /Field 'email.0'/);
  });

  it("emails, names and descriptions have limits too", async () => {
    const [carts, channels] = [await count("cart"), await count("sales_channel")];
    expectRefused(
      await postRaw("/store/carts", JSON.stringify({ email: `${"a".repeat(320)}@x.co` }), store),
      /Field 'email'/,
    );
    expectRefused(
      await postRaw("/admin/sales-channels", JSON.stringify({ name: "n".repeat(256) }), admin),
      /Field 'name'/,
    );
    expectRefused(
      await postRaw("/admin/sales-channels", JSON.stringify({ name: "n", description: "d".repeat(10_001) }), admin),
      /Field 'description'/,
    );
    expect([await count("cart"), await count("sales_channel")]).toEqual([carts, channels]);
  });
});

describe("integer bounds", () => {
  it("an integer its column cannot hold: 400, nothing written (a variant rank or price quantity over 2^31 was a 500)", async () => {
    const before = await count("product");
    const variant = (fields: Record<string, unknown>, price: Record<string, unknown> = {}) =>
      product({
        title: "Big",
        variants: [
          {
            title: "One",
            options: { Size: "One" },
            ...fields,
            prices: [{ currency_code: "eur", amount: 100, ...price }],
          },
        ],
      });
    expectRefused(
      await postRaw("/admin/products", variant({ variant_rank: 3_000_000_000 }), admin),
      /Field 'variants.0.variant_rank' must be <= 2147483647/,
    );
    expectRefused(
      await postRaw("/admin/products", variant({}, { min_quantity: 3_000_000_000 }), admin),
      /Field 'variants.0.prices.0.min_quantity' must be <= 2147483647/,
    );
    expectRefused(
      await postRaw("/admin/products", variant({}, { amount: MAX_AMOUNT + 1 }), admin),
      /Field 'variants.0.prices.0.amount' must be <= 10000000000000/,
    );
    expectRefused(
      await postRaw("/admin/products", variant({}, { amount: 1e20 }), admin),
      /Field 'variants.0.prices.0.amount' must be <= 10000000000000/,
    );
    expect(await count("product")).toBe(before);
    expect(
      (await postRaw("/admin/products", variant({ variant_rank: 2_147_483_647 }, { amount: MAX_AMOUNT }), admin))
        .statusCode,
    ).toBe(200);
  });
});

const keys = (n: number, keyOf = (i: number) => `k${i}`) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [keyOf(i), i]));

describe("metadata limits (Stripe's: 50 keys, key 40 characters, value 500 characters)", () => {
  it("900 KB of metadata on an anonymous cart: 400, nothing written (was accepted)", async () => {
    const before = await count("cart");
    const res = await postRaw("/store/carts", JSON.stringify({ metadata: { blob: "x".repeat(900 * 1024) } }), store);
    expectRefused(res, /Field 'metadata.blob' must be at most 500 characters as JSON/);
    expect(await count("cart")).toBe(before);
  });

  it("51 keys, a 41-character key or a 501-character value: 400; at the limits: 200", async () => {
    const before = await count("cart");
    expectRefused(
      await postRaw("/store/carts", JSON.stringify({ metadata: keys(51) }), store),
      /Field 'metadata' must NOT have more than 50 properties/,
    );
    expectRefused(
      await postRaw("/store/carts", JSON.stringify({ metadata: { ["k".repeat(41)]: 1 } }), store),
      /A field name in 'metadata' must NOT have more than 40 characters/,
    );
    expectRefused(
      await postRaw("/store/carts", JSON.stringify({ metadata: { k: "v".repeat(501) } }), store),
      /Field 'metadata.k' must be at most 500/,
    );
    expect(await count("cart")).toBe(before);

    const atLimits = { ...keys(49), ["k".repeat(40)]: "v".repeat(500) };
    const ok = await postRaw("/store/carts", JSON.stringify({ metadata: atLimits }), store);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().cart.metadata).toEqual(atLimits);
  });

  it("a nested value counts as its JSON text", async () => {
    const small = { size: { w: 10, h: 20 }, tags: ["a", "b"] };
    const ok = await postRaw("/store/carts", JSON.stringify({ metadata: small }), store);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().cart.metadata).toEqual(small);
    // 50 strings of 9 characters: 549 characters as JSON.
    const before = await count("cart");
    expectRefused(
      await postRaw(
        "/store/carts",
        JSON.stringify({ metadata: { list: Array.from({ length: 50 }, () => "x".repeat(9)) } }),
        store,
      ),
      /Field 'metadata.list' must be at most 500/,
    );
    expect(await count("cart")).toBe(before);
  });

  it("the same limits hold on admin routes and on nested metadata fields", async () => {
    const channels = await count("sales_channel");
    expectRefused(
      await postRaw("/admin/sales-channels", JSON.stringify({ name: "n", metadata: keys(51) }), admin),
      /50 properties/,
    );
    expect(await count("sales_channel")).toBe(channels);
    const products = await count("product");
    expectRefused(
      await postRaw(
        "/admin/products",
        JSON.stringify({ title: "P", options: [{ title: "Size", values: ["One"], metadata: { k: "v".repeat(501) } }] }),
        admin,
      ),
      /Field 'options.0.metadata.k' must be at most 500/,
    );
    expect(await count("product")).toBe(products);
  });
});
