import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { seedDemoStore, type DemoStore } from "@kasse/operations";
import { createModules } from "@kasse/modules";
import { loadBaseConfig } from "@kasse/runtime";
import { startKasse, type Exit } from "./kasse-process";
import { ok, readyCart, storefront, type Answer, type Storefront } from "./storefront";

// SIGTERM to a real `kasse start` (services mode: PostgreSQL, Redis, the BullMQ worker) while 20
// guest checkouts are completing, then a second process on the same database: every cart ends with
// exactly one order, stock moved by exactly the units ordered, and nothing logged a connection error.

// A Redis database of its own, so this test's queue and its recovery sweeps meet no other test's.
const redisUrl = `${process.env.REDIS_URL ?? "redis://127.0.0.1:6379"}/${randomInt(1, 16)}`;
const CARTS = 20;
const SHUTDOWN_TIMEOUT_MS = 2000;
const CONNECTION_ERRORS =
  /CONNECTION_ENDED|CONNECTION_DESTROYED|CONNECTION_CLOSED|Connection terminated|connection is closed|Connection is closed|ECONNRESET|database is closed/i;

let database: TestDatabase;
let store: DemoStore;
let env: Record<string, string>;

beforeAll(async () => {
  if (!onPostgres()) return;
  database = await createTestDatabase();
  store = (await seedDemoStore(createModules()))!;
  env = {
    DATABASE_URL: database.url!,
    REDIS_URL: redisUrl,
    JWT_SECRET: "shutdown-test-secret-shutdown-test",
    LOG_LEVEL: "info",
    // Executions get half of it to finish, then pause at their next step and give their lease back.
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    RATE_LIMIT_MAX: "0",
    RATE_LIMIT_AUTH_MAX: "0",
  };
}, 120_000);

afterAll(async () => {
  if (!onPostgres()) return;
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${loadBaseConfig(env).redisPrefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await database.close();
});

/** The two variants with the most stock, so 20 carts can buy both (they also contend for the same rows). */
async function stockedVariants(call: Storefront): Promise<string[]> {
  const { products } = await ok<{ products: Array<{ variants: Array<{ id: string; inventory_quantity: number }> }> }>(
    call(
      "GET",
      `/store/products?limit=50&region_id=${store.region_ids.eu}&fields=*variants,+variants.inventory_quantity`,
    ),
  );
  const variants = products.flatMap((p) => p.variants);
  const top = variants.sort((a, b) => b.inventory_quantity - a.inventory_quantity).slice(0, 2);
  expect(top.every((v) => v.inventory_quantity >= CARTS)).toBe(true);
  return top.map((v) => v.id);
}

const executions = () =>
  queryRows<{ id: string; state: string; lease_owner: string | null }>(
    database.db,
    sql`select id, state, lease_owner from workflow_executions where workflow_id = 'complete-cart'`,
  );

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const output = (exit: Exit) => `${exit.stdout}\n${exit.stderr}`;

describe.skipIf(!onPostgres())("SIGTERM during 20 concurrent checkouts", () => {
  it("finishes or hands back every checkout: each cart ends with one order after a restart, stock matches, no connection errors", async () => {
    const first = await startKasse(env);
    const call = storefront(first.url, store.publishable_api_key);
    const variants = await stockedVariants(call);
    const carts: string[] = [];
    for (let i = 0; i < CARTS; i += 5)
      carts.push(...(await Promise.all([0, 1, 2, 3, 4].map(() => readyCart(call, store.region_ids.eu, variants)))));
    const [before] = await queryRows<{ reserved: number }>(
      database.db,
      sql`select coalesce(sum(reserved_quantity), 0)::int as reserved from inventory_level`,
    );

    // All 20 completions at once; SIGTERM as soon as the first execution is journaled.
    let answered = 0;
    let killedAt = 0;
    const completions = carts.map((id) =>
      call("POST", `/store/carts/${id}/complete`).then(
        (res) => ((answered += 1), res),
        (error: unknown): Answer => (
          (answered += 1),
          {
            status: 0,
            json: { error: String((error as { cause?: unknown }).cause ?? error), afterKill: Date.now() - killedAt },
          }
        ),
      ),
    );
    await waitFor(async () => (await executions()).length > 0, 20_000);
    killedAt = Date.now();
    first.child.kill("SIGTERM");
    const inFlightAtSignal = CARTS - answered;
    const firstAnswers = await Promise.all(completions);
    const firstExit = await first.exited;

    expect(inFlightAtSignal).toBeGreaterThan(0);
    expect(firstExit.code, output(firstExit)).toBe(0);
    expect(output(firstExit)).not.toMatch(CONNECTION_ERRORS);
    expect(output(firstExit), "an error was logged").not.toMatch(/"level":(50|60)/);
    // Each answer is an order, or a refusal to retry (503) from the stopping process. A connection
    // is cut only at the deadline, when a handler outlived SHUTDOWN_TIMEOUT_MS (a loaded machine):
    // never before it, and that cart too ends with one order below.
    for (const answer of firstAnswers) {
      if (answer.status === 200) expect(answer.json.type, JSON.stringify(answer.json)).toBe("order");
      else if (answer.status === 0)
        expect(answer.json.afterKill, JSON.stringify(answer.json)).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS);
      else expect(answer, JSON.stringify(answer.json)).toMatchObject({ status: 503, json: { type: "unavailable" } });
    }
    // Nothing it started failed, and what it could not finish it handed back (no lease left to expire).
    for (const execution of await executions()) {
      expect(["succeeded", "running"]).toContain(execution.state);
      if (execution.state === "running") expect(execution.lease_owner).toBeNull();
    }

    // A new process on the same database: its worker resumes the handed-back executions, and the
    // storefront's retried completion finishes the carts whose first call was refused.
    const second = await startKasse(env);
    await waitFor(async () => (await executions()).every((e) => e.state === "succeeded"), 30_000);
    const retry = storefront(second.url, store.publishable_api_key);
    for (const [i, id] of carts.entries()) {
      if (firstAnswers[i]!.status === 200) continue;
      const again = await ok(retry("POST", `/store/carts/${id}/complete`));
      expect(again.type).toBe("order");
    }
    const secondExit = await second.stop();
    expect(secondExit.code).toBe(0);
    expect(output(secondExit)).not.toMatch(CONNECTION_ERRORS);

    const orders = await queryRows<{ cart_id: string; orders: number; units: number }>(
      database.db,
      sql`select o.cart_id, count(distinct o.id)::int as orders, sum(i.quantity)::int as units from "order" o join order_line_item i on i.order_id = o.id where o.cart_id in ${carts} group by o.cart_id`,
    );
    expect(orders).toHaveLength(CARTS);
    for (const row of orders) expect(row).toMatchObject({ orders: 1, units: variants.length });
    const [after] = await queryRows<{ reserved: number }>(
      database.db,
      sql`select coalesce(sum(reserved_quantity), 0)::int as reserved from inventory_level`,
    );
    expect(after!.reserved - before!.reserved).toBe(CARTS * variants.length);
    const [reservations] = await queryRows<{ units: number }>(
      database.db,
      sql`select coalesce(sum(quantity), 0)::int as units from reservation_item where deleted_at is null`,
    );
    expect(reservations!.units).toBe(CARTS * variants.length);
  }, 180_000);
});
