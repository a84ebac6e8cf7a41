import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoStore, type DemoStore } from "@kasse/operations";
import { useTestApp } from "../testing";
import { US_ADDRESS } from "../testing/checkout";

// The statements each storefront, checkout and admin-list request sends to the database, counted
// by the test database's query logger (transactions included, the saga's journal too). A change
// that makes one of these requests cost more fails here; when one gets cheaper, lower its number.
// Lists cost the same whatever the page size: one statement per relation, never one per row.

/** Budgets, in statements per request; the same on PostgreSQL and PGlite. */
const BUDGET = {
  // A catalog read the process has not cached: it also reads the catalog version (before the
  // answer) and when the next price list starts or ends (the answer's expiry), 2 more than uncached.
  "GET /store/products?limit=15&region_id": 15,
  "GET /store/products/:id?region_id": 15,
  // The same reads again, answered from the process's catalog cache: the catalog version's read only.
  "GET /store/products?limit=15&region_id, cached": 1,
  "GET /store/products/:id?region_id, cached": 1,
  "GET /store/product-categories": 2,
  "GET /store/collections": 1,
  "GET /store/regions": 3,
  // Cart writes and the checkout each commit one event with the change (the outbox insert:
  // cart.created, cart.updated, order.placed), counted in these budgets.
  "POST /store/carts": 6,
  "POST /store/carts/:id/line-items": 13,
  "POST /store/carts/:id": 11,
  "POST /store/carts/:id/shipping-methods": 13,
  "POST /store/payment-collections": 5,
  // A saga (create-payment-session: the provider's call outside any transaction): 3 reads (the
  // collection, the cart, the region), the journal's 4 (execution, step running, step succeeded,
  // execution finished), the step's 3 (the collection, the replaced sessions' delete, the insert),
  // the answer's collection. 8 before it was a saga (one transaction holding the cart's lock).
  "POST /store/payment-collections/:id/payment-sessions": 11,
  // 33 on a quiet run, on PostgreSQL and PGlite alike (32 before closing the cart and placing the
  // order became two steps, each changing one module). The saga's journal renews leases when a step
  // is slow, so a loaded machine sees a few more; the budget leaves room for that, not for growth.
  "POST /store/carts/:id/complete": 35,
  "GET /admin/orders?limit=15": 4,
} as const;
type Route = keyof typeof BUDGET;

// The SQL texts drizzle still assembles at request time once the process is warm (recorded by the
// test database's watch on its dialect): a hot statement is built once, on its first use
// (`builtOnce`), so assembling one per request costs CPU on every call (27 per checkout flow
// before they were). A statement whose text varies per call (a shape per call) is built per call.

/** Budgets, in SQL texts assembled per warmed request (or flow); the same on PostgreSQL and PGlite. */
const BUILD_BUDGET = {
  // The 7 requests of a guest checkout: every statement built once (multi-row inserts, the
  // reservations and the order's lines and methods, through JSON rows: one text at any number).
  "guest checkout, 7 requests": 0,
  "GET /store/products?limit=15&region_id, cached": 0,
  "GET /store/products/:id?region_id, cached": 0,
  "GET /admin/orders?limit=15": 0,
} as const;
type Built = keyof typeof BUILD_BUDGET;

const t = useTestApp();
let store: DemoStore;
let headers: Record<string, string>;
let admin: Record<string, string>;
let optionId: string;
let variantIds: string[];
const counts = new Map<Route, number>();
const builds = new Map<Built, string[]>();

beforeAll(async () => {
  store = (await seedDemoStore(t.app.modules))!;
  headers = { "x-publishable-api-key": store.publishable_api_key };
  admin = await t.adminHeaders();
  const options = await t.admin.get(`/admin/shipping-options?region_id=${store.region_ids.us}`);
  optionId = options.json().shipping_options[0].id;
  const products = await t.admin.get("/admin/products?limit=100&fields=id,variants.id");
  variantIds = products
    .json()
    .products.flatMap((p: { variants: Array<{ id: string }> }) => p.variants.map((v) => v.id));
}, 120_000);

// The publishable key's lookup (the key, its channels, which of them are enabled) is cached per
// process for 5 s (plugins/publishable-key.ts): it lands on whichever request finds the entry
// expired, so it is not counted against a route.
const KEY_LOOKUP =
  /from "api_key(_sales_channel)?" where|^select "id" from "sales_channel" where \("sales_channel"\."id" = any\(.*\) and "sales_channel"\."is_disabled" = /;

/**
 * Sends the request, expects 200, and returns its statements (without the key lookup), the SQL
 * texts drizzle assembled for it (without the key lookup's) and its answer.
 */
async function measure(method: "GET" | "POST", url: string, payload?: object, extra: Record<string, string> = {}) {
  let res: Awaited<ReturnType<typeof t.app.inject>> | undefined;
  let recorded: string[] = [];
  const built = await t.database.statements.builds(async () => {
    recorded = await t.database.statements.record(async () => {
      res = await t.app.inject({ method, url, headers: { ...headers, ...extra }, ...(payload ? { payload } : {}) });
    });
  });
  expect(res!.statusCode, `${method} ${url}: ${res!.body}`).toBe(200);
  const statements = recorded.filter((q) => !KEY_LOOKUP.test(q));
  if (process.env.KASSE_PRINT_STATEMENTS === "all")
    console.warn(`${method} ${url}: ${statements.length}\n${statements.map((q) => `  ${q.slice(0, 160)}`).join("\n")}`);
  return { count: statements.length, statements, builds: built.filter((q) => !KEY_LOOKUP.test(q)), body: res!.json() };
}

const address = US_ADDRESS;

/**
 * The harness's guest checkout (shared/bench `checkout`), step by step, with each step's count, and
 * the SQL texts drizzle assembled over the flow.
 */
async function checkout(variantId: string): Promise<{ steps: Map<Route, number>; builds: string[] }> {
  const step = new Map<Route, number>();
  const built: string[] = [];
  const send = async (...args: Parameters<typeof measure>) => {
    const measured = await measure(...args);
    built.push(...measured.builds);
    return measured;
  };
  const cart = await send("POST", "/store/carts", {
    region_id: store.region_ids.us,
    sales_channel_id: store.sales_channel_id,
  });
  step.set("POST /store/carts", cart.count);
  const id: string = cart.body.cart.id;
  step.set(
    "POST /store/carts/:id/line-items",
    (await send("POST", `/store/carts/${id}/line-items`, { variant_id: variantId, quantity: 1 })).count,
  );
  step.set(
    "POST /store/carts/:id",
    (
      await send("POST", `/store/carts/${id}`, {
        email: "ada@example.com",
        shipping_address: address,
        billing_address: address,
      })
    ).count,
  );
  step.set(
    "POST /store/carts/:id/shipping-methods",
    (await send("POST", `/store/carts/${id}/shipping-methods`, { option_id: optionId })).count,
  );
  const collection = await send("POST", "/store/payment-collections", { cart_id: id });
  step.set("POST /store/payment-collections", collection.count);
  const session = await send(
    "POST",
    `/store/payment-collections/${collection.body.payment_collection.id}/payment-sessions`,
    { provider_id: "pp_system_default" },
  );
  step.set("POST /store/payment-collections/:id/payment-sessions", session.count);
  const complete = await send("POST", `/store/carts/${id}/complete`);
  expect(complete.body.type).toBe("order");
  step.set("POST /store/carts/:id/complete", complete.count);
  if (process.env.KASSE_PRINT_STATEMENTS) console.warn(complete.statements.map((q) => q.slice(0, 100)).join("\n"));
  return { steps: step, builds: built };
}

describe("statements per request", () => {
  it("storefront catalog reads", async () => {
    const list = `/store/products?limit=15&region_id=${store.region_ids.us}`;
    const page = await measure("GET", list);
    if (process.env.KASSE_PRINT_STATEMENTS) console.warn(page.statements.join("\n"));
    expect(page.body.products).toHaveLength(15);
    counts.set("GET /store/products?limit=15&region_id", page.count);
    // A page of 1 and a page of 20 cost what a page of 15 does.
    expect((await measure("GET", `/store/products?limit=1&region_id=${store.region_ids.us}`)).count).toBe(page.count);
    expect((await measure("GET", `/store/products?limit=20&region_id=${store.region_ids.us}`)).count).toBe(page.count);
    const product = `/store/products/${page.body.products[0].id}?region_id=${store.region_ids.us}`;
    counts.set("GET /store/products/:id?region_id", (await measure("GET", product)).count);
    const cached = await measure("GET", list);
    expect(cached.body).toEqual(page.body);
    counts.set("GET /store/products?limit=15&region_id, cached", cached.count);
    builds.set("GET /store/products?limit=15&region_id, cached", cached.builds);
    const cachedProduct = await measure("GET", product);
    counts.set("GET /store/products/:id?region_id, cached", cachedProduct.count);
    builds.set("GET /store/products/:id?region_id, cached", cachedProduct.builds);
    counts.set("GET /store/product-categories", (await measure("GET", "/store/product-categories")).count);
    counts.set("GET /store/collections", (await measure("GET", "/store/collections")).count);
    counts.set("GET /store/regions", (await measure("GET", "/store/regions")).count);
  });

  it("guest checkout, each step", async () => {
    await checkout(variantIds[0]!); // the first checkout warms what is cached per process
    const warm = await checkout(variantIds[1]!);
    for (const [route, count] of warm.steps) counts.set(route, count);
    builds.set("guest checkout, 7 requests", warm.builds);
  });

  it("admin order list, whatever the page size", async () => {
    for (const variantId of variantIds.slice(2, 16)) await checkout(variantId);
    const page = await measure("GET", "/admin/orders?limit=15", undefined, admin);
    if (process.env.KASSE_PRINT_STATEMENTS) console.warn(page.statements.join("\n"));
    expect(page.body.orders).toHaveLength(15);
    counts.set("GET /admin/orders?limit=15", page.count);
    // The same statement texts at any page size (`= any($1)`, not `in ($1, …, $n)`): each is prepared once per connection.
    const small = await measure("GET", "/admin/orders?limit=1", undefined, admin);
    expect([...small.statements].sort()).toEqual([...page.statements].sort());
    // Again, warm: what the list still assembles per request.
    builds.set("GET /admin/orders?limit=15", (await measure("GET", "/admin/orders?limit=15", undefined, admin)).builds);
  }, 120_000);

  afterAll(() => {
    console.warn(
      `statements per request:\n${[...counts].map(([route, n]) => `  ${route}: ${n} (budget ${BUDGET[route]})`).join("\n")}`,
    );
    console.warn(
      `SQL texts assembled, warm:\n${[...builds]
        .map(([name, texts]) => `  ${name}: ${texts.length} (budget ${BUILD_BUDGET[name]})`)
        .join("\n")}`,
    );
  });

  it("stays within each route's budget", () => {
    expect([...counts.keys()].sort()).toEqual(Object.keys(BUDGET).sort());
    const over = [...counts]
      .filter(([route, n]) => n > BUDGET[route])
      .map(([route, n]) => `${route}: ${n} > ${BUDGET[route]}`);
    expect(over).toEqual([]);
  });

  it("assembles no more SQL texts than its budget once warm", () => {
    expect([...builds.keys()].sort()).toEqual(Object.keys(BUILD_BUDGET).sort());
    const over = [...builds]
      .filter(([name, texts]) => texts.length > BUILD_BUDGET[name])
      .map(
        ([name, texts]) =>
          `${name}: ${texts.length} > ${BUILD_BUDGET[name]}\n${texts.map((q) => `    ${q.slice(0, 100)}`).join("\n")}`,
      );
    expect(over).toEqual([]);
  });
});
