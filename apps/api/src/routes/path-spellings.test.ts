import { beforeAll, describe, expect, it } from "vitest";
import { cart as cartTable } from "@kasse/modules/cart/tables";
import { useTestApp } from "../testing";
import { createFixtureProduct } from "../testing/catalog";
import { TEST_ADDRESS } from "../testing/checkout";

// Guards belong to routes, so every spelling of a guarded path that reaches the route meets its
// guard, and every other spelling matches no route. None may be served unguarded.

const t = useTestApp();
let admin: Record<string, string>;
let revokedKey: string;
let readyCartId: string;

type Headers = Record<string, string>;
const send = (method: "GET" | "POST", url: string, headers: Headers = {}, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
const ok = async (res: ReturnType<typeof send>) => {
  const answer = await res;
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
};

/**
 * Ways to write `path` that a client may send: percent-encodings the router decodes (so they reach
 * the route); doubled slashes, other letter cases, an encoded slash and a semicolon that it does
 * not (so they reach no route); and spellings that reach the route or not depending on the
 * client or the routes: dot segments (light-my-request resolves them, as browsers do; a raw
 * client sends them as they are) and a trailing slash (it matches a `/:id` route with an empty id).
 */
function spellings(path: string): { routed: string[]; unrouted: string[]; either: string[] } {
  const [, group, resource, ...rest] = path.split("/");
  const tail = rest.length ? `/${rest.join("/")}` : "";
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
  const g = group!;
  const r = resource!;
  return {
    routed: [
      `/${hex(g[0]!)}${g.slice(1)}/${r}${tail}`,
      `/${g.slice(0, 2)}${hex(g[2]!).toUpperCase()}${g.slice(3)}/${r}${tail}`,
      `/${[...g].map(hex).join("")}/${r}${tail}`,
      `/${g}/${hex(r[0]!)}${r.slice(1)}${tail}`,
      `${path}?x=1`,
    ],
    unrouted: [
      `/${path}`,
      `/${g}//${r}${tail}`,
      `/${g[0]!.toUpperCase()}${g.slice(1)}/${r}${tail}`,
      `/${g.toUpperCase()}/${r}${tail}`,
      `/${g}/${r[0]!.toUpperCase()}${r.slice(1)}${tail}`,
      `/${g}%2F${r}${tail}`,
      `/${g}%2f${r}${tail}`,
      `/${g};x/${r}${tail}`,
    ],
    either: [`${path}/`, `/${g}/./${r}${tail}`, `/x/../${g}/${r}${tail}`, `/${g}/x/..%2F${r}${tail}`],
  };
}

type Reply = Awaited<ReturnType<typeof send>>;

const notFound = (res: Reply, url: string) => {
  expect([404, 405], `${url}: ${res.body}`).toContain(res.statusCode);
  expect(res.json(), url).toEqual({
    type: res.statusCode === 404 ? "not_found" : "not_allowed",
    message: expect.any(String),
  });
};

/** Refused by the guard (`status`, `type`) when it reached a route, else 404/405. */
const refusedOrNotFound = (res: Reply, url: string, status: number, type: string) => {
  if (res.statusCode === 404 || res.statusCode === 405) return notFound(res, url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
  expect(res.json().type, url).toBe(type);
};

beforeAll(async () => {
  admin = await t.adminHeaders();
  const m = t.app.modules;
  const channel = await m.salesChannel.getOrCreateDefault();
  const location = await m.stockLocation.create({ name: "Warehouse" });
  await m.stockLocation.updateSalesChannels(location.id, { add: [channel.id] });
  const region = await m.region.create({
    name: "Europe",
    currency_code: "eur",
    countries: ["de"],
    payment_providers: ["pp_system_default"],
  });
  const product = await createFixtureProduct(
    t,
    {
      title: "Tee",
      status: "published",
      sales_channels: [{ id: channel.id }],
      variants: [{ title: "M", size: "M", stock: 100, prices: [{ currency_code: "eur", amount: 2000 }] }],
    },
    location.id,
  );
  const option = await m.fulfillment.createOption({
    name: "Standard",
    prices: [{ currency_code: "eur", amount: 500 }],
  });

  // A storefront's key, and a cart it filled up to the point of completion; then the key is revoked.
  const key = (await ok(send("POST", "/admin/api-keys", admin, { title: "Storefront", type: "publishable" }))).api_key;
  await ok(send("POST", `/admin/api-keys/${key.id}/sales-channels`, admin, { add: [channel.id] }));
  const store = { "x-publishable-api-key": key.token };
  const address = TEST_ADDRESS;
  const { cart } = await ok(send("POST", "/store/carts", store, { region_id: region.id }));
  await ok(
    send("POST", `/store/carts/${cart.id}/line-items`, store, { variant_id: product.variantIds[0], quantity: 1 }),
  );
  await ok(
    send("POST", `/store/carts/${cart.id}`, store, {
      email: "ada@example.com",
      shipping_address: address,
      billing_address: address,
    }),
  );
  await ok(send("POST", `/store/carts/${cart.id}/shipping-methods`, store, { option_id: option.id }));
  const { payment_collection } = await ok(send("POST", "/store/payment-collections", store, { cart_id: cart.id }));
  await ok(
    send("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, store, {
      provider_id: "pp_system_default",
    }),
  );
  await ok(send("POST", `/admin/api-keys/${key.id}/revoke`, admin));
  readyCartId = cart.id;
  revokedKey = key.token;
}, 60_000);

describe("a revoked or unknown publishable key on every spelling of a store path", () => {
  it("POST /store/carts/{id}/complete: no spelling completes the cart", async () => {
    const { routed, unrouted, either } = spellings(`/store/carts/${readyCartId}/complete`);
    const revoked = { "x-publishable-api-key": revokedKey };
    for (const url of [`/store/carts/${readyCartId}/complete`, ...routed]) {
      const res = await send("POST", url, revoked);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json(), url).toEqual({ type: "invalid_data", message: expect.stringContaining("publishable key") });
    }
    for (const url of unrouted) notFound(await send("POST", url, revoked), url);
    for (const url of either) refusedOrNotFound(await send("POST", url, revoked), url, 400, "invalid_data");
    const state = await t.app.modules.cart.load(readyCartId);
    expect(state.cart.completed_at).toBeNull();
  });

  it("GET /store/products and POST /store/carts: refused for a revoked and an unknown key, no cart made", async () => {
    const carts = async () => (await t.database.db.select({ id: cartTable.id }).from(cartTable)).length;
    const before = await carts();
    for (const key of [revokedKey, "pk_unknown"]) {
      for (const [method, path] of [
        ["GET", "/store/products"],
        ["POST", "/store/carts"],
      ] as const) {
        const { routed, unrouted, either } = spellings(path);
        const attempt = (url: string) =>
          send(method, url, { "x-publishable-api-key": key }, method === "POST" ? {} : undefined);
        for (const url of routed) {
          const res = await attempt(url);
          expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
          expect(res.json().message, url).toContain("publishable key");
        }
        for (const url of unrouted) notFound(await attempt(url), url);
        for (const url of either) refusedOrNotFound(await attempt(url), url, 400, "invalid_data");
      }
    }
    expect(await carts()).toBe(before);
  });
});

/**
 * A GET of `path` in every spelling: anonymous 401 and 403 with `other`'s credentials (the wrong kind of actor) where
 * it is routed, 404 where it is not, one of the two where either may hold.
 */
async function expectGuardedGet(path: string, other: Headers) {
  const { routed, unrouted, either } = spellings(path);
  for (const url of routed) {
    const anonymous = await send("GET", url);
    expect(anonymous.statusCode, url).toBe(401);
    expect(anonymous.json().type).toBe("unauthorized");
    const asOther = await send("GET", url, other);
    expect(asOther.statusCode, url).toBe(403);
    expect(asOther.json().type).toBe("not_allowed");
  }
  for (const url of unrouted) {
    notFound(await send("GET", url), url);
    notFound(await send("GET", url, other), url);
  }
  for (const url of either) {
    refusedOrNotFound(await send("GET", url), url, 401, "unauthorized");
    refusedOrNotFound(await send("GET", url, other), url, 403, "not_allowed");
  }
}

describe("customer routes on every spelling", () => {
  it("GET /store/customers/me: anonymous 401, an admin token 403, never the record", async () => {
    await expectGuardedGet("/store/customers/me", admin);
  });
});

describe("admin routes on every spelling", () => {
  it("GET /admin/users: anonymous 401, a customer token 403", async () => {
    await expectGuardedGet("/admin/users", await t.customerHeaders("cus_someone"));
  });

  it("POST /admin/sales-channels: no anonymous spelling creates a channel", async () => {
    const { routed, unrouted, either } = spellings("/admin/sales-channels");
    const attempt = (url: string) => send("POST", url, {}, { name: "Sneaky" });
    for (const url of routed) expect((await attempt(url)).statusCode, url).toBe(401);
    for (const url of unrouted) notFound(await attempt(url), url);
    for (const url of either) refusedOrNotFound(await attempt(url), url, 401, "unauthorized");
    const { count } = await t.app.modules.salesChannel.list({ name: ["Sneaky"] }, { limit: 1, offset: 0 });
    expect(count).toBe(0);
  });
});
