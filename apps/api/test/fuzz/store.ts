import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { createUserAccount } from "@kasse/flows";
import { seedDemoStore } from "@kasse/operations";
import type { TestApp } from "../../src/testing";
import type { Pools } from "./arbitraries";

export type Actor = "anonymous" | "customer" | "admin";
/** How the admin proves itself: a user's JWT, or the secret API key in one of its three forms. */
export type AdminCredential = "jwt" | "header" | "basic" | "query";

/** The seeded store the fuzzer drives: who can call, and the real ids it knows. */
export interface FuzzStore {
  /** The caller's headers; for the admin by `credential` (`query` sends no header: see {@link FuzzStore.apiToken}). */
  headers(actor: Actor, credential: AdminCredential): Record<string, string>;
  /** The secret API key, for `?api_token=`. */
  apiToken: string;
  publishableKey: string;
  pools: Pools;
  /** Ids the fuzzer must not delete or revoke: its own actors and keys. */
  protectedIds: Set<string>;
  /** Learns every id (and `*_id`) an answer shows. */
  harvest(body: unknown): void;
}

const PASSWORD = "fuzz-password-1";

/** The fields the seed reads from the answers it gets. */
interface SeedAnswer {
  token: string;
  customer: { id: string };
  api_key: { id: string; token: string };
  user: { id: string };
  products: Array<{ variants: Array<{ id: string }> }>;
  cart: { id: string };
  shipping_options: Array<{ id: string }>;
  payment_collection: { id: string; payment_sessions: Array<{ id: string }> };
}

/**
 * The demo store, an admin user and a customer who log in with a password (so their tokens
 * are real), a secret API key, and a completed checkout by the customer (an order, a payment,
 * a fulfillment-ready order), then every id the admin and the customer can list.
 */
export async function seedFuzzStore(t: TestApp, listRoutes: string[]): Promise<FuzzStore> {
  const { app } = t;
  const demo = (await seedDemoStore(app.modules))!;
  const inject = async (method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({
      method: method as "GET",
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    if (res.statusCode >= 300) throw new Error(`fuzz seed: ${method} ${url} answered ${res.statusCode} ${res.body}`);
    return res.json() as SeedAnswer;
  };

  await createUserAccount(
    app.infra.engine,
    { email: "fuzz-admin@example.com", password: PASSWORD },
    { scryptLogN: t.config.scryptLogN },
  );
  const adminToken = (
    await inject("POST", "/auth/user/emailpass", { email: "fuzz-admin@example.com", password: PASSWORD })
  ).token;
  const admin = { authorization: `Bearer ${adminToken}` };
  const registration = (
    await inject("POST", "/auth/customer/emailpass/register", {
      email: "fuzz-customer@example.com",
      password: PASSWORD,
    })
  ).token;
  const { customer } = await inject(
    "POST",
    "/store/customers",
    { email: "fuzz-customer@example.com", first_name: "Fuzz" },
    { authorization: `Bearer ${registration}` },
  );
  const customerToken = (
    await inject("POST", "/auth/customer/emailpass", { email: "fuzz-customer@example.com", password: PASSWORD })
  ).token;
  const shopper = { authorization: `Bearer ${customerToken}`, "x-publishable-api-key": demo.publishable_api_key };
  const { api_key: secretKey } = await inject("POST", "/admin/api-keys", { title: "fuzz", type: "secret" }, admin);
  const me = (await inject("GET", "/admin/users/me", undefined, admin)).user;

  // A checkout through the store API, as a storefront does it.
  const address = {
    first_name: "Ada",
    last_name: "Lovelace",
    address_1: "1 Main St",
    city: "New York",
    postal_code: "10001",
    country_code: "us",
  };
  const { products } = await inject(
    "GET",
    `/store/products?limit=2&region_id=${demo.region_ids.us}`,
    undefined,
    shopper,
  );
  /** A cart ready to complete (one line of the `nth` product, addresses, shipping, a session), built as a storefront does. */
  const readyCart = async (nth: number, quantity: number) => {
    const { cart } = await inject(
      "POST",
      "/store/carts",
      {
        region_id: demo.region_ids.us,
        email: "fuzz-customer@example.com",
        shipping_address: address,
        billing_address: address,
      },
      shopper,
    );
    await inject(
      "POST",
      `/store/carts/${cart.id}/line-items`,
      { variant_id: products[nth]!.variants[0]!.id, quantity },
      shopper,
    );
    const { shipping_options } = await inject("GET", `/store/shipping-options?cart_id=${cart.id}`, undefined, shopper);
    await inject("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0]!.id }, shopper);
    const { payment_collection } = await inject("POST", "/store/payment-collections", { cart_id: cart.id }, shopper);
    const session = await inject(
      "POST",
      `/store/payment-collections/${payment_collection.id}/payment-sessions`,
      { provider_id: "pp_system_default" },
      shopper,
    );
    return { cart, collection: session.payment_collection };
  };
  const { cart } = await readyCart(0, 1);
  await inject("POST", `/store/carts/${cart.id}/complete`, undefined, shopper);
  // A second cart, left open for the cart routes.
  await inject("POST", "/store/carts", { region_id: demo.region_ids.eu }, shopper);
  // A third, ready and its payment authorized: the cart routes change it after the authorization,
  // and its completion must still charge exactly its total (the run ends with `kasse check`'s payment checks).
  const { cart: authorized, collection } = await readyCart(1, 2);
  await inject(
    "POST",
    `/store/payment-collections/${collection.id}/payment-sessions/${collection.payment_sessions[0]!.id}/authorize`,
    {},
    shopper,
  );

  const pools: Pools = new Map();
  const protectedIds = new Set<string>([me.id, customer.id, secretKey.id, demo.sales_channel_id]);
  const add = (name: string, value: unknown) => {
    if (typeof value !== "string" || !value || value.length > 200 || protectedIds.has(value)) return;
    let pool = pools.get(name);
    if (!pool) pools.set(name, (pool = new Set()));
    if (pool.size < 50) pool.add(value);
  };
  const harvest = (body: unknown, parent = "") => {
    if (Array.isArray(body)) return body.forEach((item) => harvest(item, parent));
    if (!body || typeof body !== "object") return;
    for (const [key, value] of Object.entries(body)) {
      if (key === "id" && parent) add(idName(parent), value);
      else if (key.endsWith("_id")) add(key, value);
      else if (key === "code" && parent) add("code", value);
      if (value && typeof value === "object") harvest(value, key);
    }
  };
  for (const url of listRoutes) {
    const res = await app.inject({
      method: "GET",
      url: `${url}?limit=50`,
      headers: url.startsWith("/admin") ? admin : shopper,
    });
    if (res.statusCode === 200) harvest(res.json());
  }
  for (const url of ["/store/customers/me", `/store/carts/${cart.id}`, `/store/carts/${authorized.id}`])
    harvest((await app.inject({ method: "GET", url, headers: shopper })).json());
  pools.set("actor_type", new Set(["customer", "user"]));
  pools.set("provider", new Set(["emailpass", "google", "github"]));
  return {
    headers(actor, credential): Record<string, string> {
      if (actor === "anonymous") return {};
      if (actor === "customer") return { authorization: `Bearer ${customerToken}` };
      if (credential === "header") return { "x-service-access-token": secretKey.token };
      if (credential === "basic")
        return { authorization: `Basic ${Buffer.from(`${secretKey.token}:`).toString("base64")}` };
      return credential === "jwt" ? admin : {};
    },
    apiToken: secretKey.token,
    publishableKey: demo.publishable_api_key,
    pools,
    protectedIds,
    harvest: (body) => harvest(body),
  };
}

/** The path-parameter name an object under `key` is known by: `variants` → `variant_id`, `items` → `line_id`. */
export function idName(key: string): string {
  const special: Record<string, string> = {
    items: "line_id",
    payment_sessions: "session_id",
    location_levels: "location_id",
    me: "customer_id",
  };
  if (special[key]) return special[key]!;
  key = key.replaceAll("-", "_");
  const one = key.endsWith("ies") ? `${key.slice(0, -3)}y` : key.endsWith("s") ? key.slice(0, -1) : key;
  return `${one}_id`;
}

/**
 * Tables a refused request may write by design: the saga journal records every run, a refused
 * one too (an admin reads why at `/admin/workflow-executions`), and an `Idempotency-Key` stores
 * the answer it was given, a 4xx included (Stripe's semantics). What they may not hold is a run
 * left unfinished: the fingerprint counts runs that are neither done nor failed instead.
 */
const WRITTEN_WHEN_REFUSED = new Set(["workflow_executions", "workflow_step_runs", "idempotency_key"]);

/**
 * A cheap fingerprint of the whole database: each table's row count and latest `updated_at`.
 * A refused request (4xx) must leave it as it was.
 */
export async function fingerprinter(t: TestApp): Promise<() => Promise<Map<string, string>>> {
  const db = t.database.db;
  const tables = await queryRows<{ table_name: string; has_updated: boolean }>(
    db,
    sql`select t.table_name, exists (select 1 from information_schema.columns c where c.table_schema = t.table_schema and c.table_name = t.table_name and c.column_name = 'updated_at') as has_updated
        from information_schema.tables t where t.table_schema = 'public' and t.table_type = 'BASE TABLE' order by t.table_name`,
  );
  const parts = tables
    .filter(({ table_name }) => !WRITTEN_WHEN_REFUSED.has(table_name))
    .map(
      ({ table_name, has_updated }) =>
        `select '${table_name}' as name, count(*)::text || '/' || ${has_updated ? "coalesce(max(updated_at)::text, '')" : "''"} as state from "${table_name}"`,
    );
  parts.push(
    `select 'unfinished workflow runs' as name, count(*)::text as state from "workflow_executions" where state in ('running', 'compensating')`,
  );
  const query = sql.raw(parts.join(" union all "));
  return async () =>
    new Map((await queryRows<{ name: string; state: string }>(db, query)).map((row) => [row.name, row.state]));
}
