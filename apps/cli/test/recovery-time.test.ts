import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { seedDemoStore, type DemoStore } from "@kasse/operations";
import { createModules } from "@kasse/modules";
import { loadBaseConfig } from "@kasse/runtime";
import { startKasse, type RunningKasse } from "./kasse-process";
import { running as processesOf } from "./processes";
import { ok, readyCart, storefront, type Answer } from "./storefront";

// How long after a crash a shopper's checkout is an order (docs/recovery.md). A real `kasse start`
// (services mode: PostgreSQL, Redis, its BullMQ worker) is SIGKILLed while 40 checkouts complete
// (all journaled, some unfinished); each shopper whose request died retries it (as a storefront
// does) until it is answered.
// 1. Restarted at once, with the same executor identity: every order exists within 10 s of the
//    restart (the new process resumes its predecessor's executions as it starts).
// 2. Gone for good: another process (another executor identity) has every order within 15 s of
//    the kill (the dead one's leases expire, the recovery sweep or a retry takes them over).

const redisUrl = `${process.env.REDIS_URL ?? "redis://127.0.0.1:6379"}/${randomInt(1, 16)}`;
const RESTART_BOUND_MS = 10_000;
const TAKEOVER_BOUND_MS = 15_000;

let database: TestDatabase;
let store: DemoStore;
let env: Record<string, string>;
let variant: string;
const running = new Set<RunningKasse>();

/** SIGKILLs the server process of `kasse` (the launcher runs it as its child with the server's V8 options) and the launcher. */
function killHard(kasse: RunningKasse): void {
  const tree = processesOf(kasse.child.pid!, "kasse.js");
  for (const proc of tree.reverse()) process.kill(proc.pid, "SIGKILL");
}

beforeAll(async () => {
  if (!onPostgres()) return;
  database = await createTestDatabase();
  store = (await seedDemoStore(createModules()))!;
  // Enough stock that no checkout fails for want of it: what is measured is recovery, not contention.
  await database.db.execute(sql`update inventory_level set stocked_quantity = 100000`);
  env = {
    DATABASE_URL: database.url!,
    REDIS_URL: redisUrl,
    JWT_SECRET: "recovery-test-secret-recovery-test",
    RATE_LIMIT_MAX: "0",
    RATE_LIMIT_AUTH_MAX: "0",
    SHUTDOWN_TIMEOUT_MS: "2000",
  };
}, 120_000);

afterAll(async () => {
  if (!onPostgres()) return;
  for (const kasse of running) killHard(kasse);
  await Promise.all([...running].map((kasse) => kasse.exited));
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${loadBaseConfig(env).redisPrefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await database.close();
});

async function started(extra: Record<string, string>): Promise<RunningKasse> {
  const kasse = await startKasse({ ...env, ...extra });
  running.add(kasse);
  void kasse.exited.then(() => running.delete(kasse));
  return kasse;
}

async function readyCarts(url: string, count: number): Promise<string[]> {
  const call = storefront(url, store.publishable_api_key);
  if (!variant) {
    const { products } = await ok<{ products: Array<{ variants: Array<{ id: string }> }> }>(
      call("GET", `/store/products?limit=1&region_id=${store.region_ids.eu}`),
    );
    variant = products[0]!.variants[0]!.id;
  }
  const carts: string[] = [];
  for (let i = 0; i < count; i += 5)
    carts.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(5, count - i) }, () => readyCart(call, store.region_ids.eu, [variant])),
      )),
    );
  return carts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(20);
  }
}

const executionCount = async (carts: string[]) =>
  (
    await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from workflow_executions where workflow_id = 'complete-cart' and transaction_id in ${carts}`,
    )
  )[0]!.n;

const unfinishedCount = async (carts: string[]) =>
  (
    await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from workflow_executions where workflow_id = 'complete-cart' and transaction_id in ${carts} and state <> 'succeeded'`,
    )
  )[0]!.n;

const ordersOf = (carts: string[]) =>
  queryRows<{ cart_id: string; orders: number }>(
    database.db,
    sql`select cart_id, count(*)::int as orders from "order" where cart_id in ${carts} group by cart_id`,
  );

/**
 * Completes every cart on `first`, as a storefront does: a request that died with the process is
 * sent again to `next()` (the process that answers now) until it is answered with an order.
 */
function completeAll(first: string, next: Promise<string>, carts: string[]): Promise<Answer[]> {
  return Promise.all(
    carts.map(async (id) => {
      const call = (url: string) => storefront(url, store.publishable_api_key)("POST", `/store/carts/${id}/complete`);
      const answer = await call(first).catch((): Answer => ({ status: 0, json: {} }));
      if (answer.status !== 0) return answer;
      const url = await next;
      const deadline = Date.now() + 60_000;
      for (;;) {
        const again = await call(url).catch((): Answer => ({ status: 0, json: {} }));
        // 409: still running elsewhere (its lease not yet expired); 503: that process is stopping.
        if (![0, 409, 503].includes(again.status) || Date.now() > deadline) return again;
        await sleep(100);
      }
    }),
  );
}

/**
 * Kills `kasse` with SIGKILL once `atLeast` of the carts' checkouts are journaled executions (every
 * request has reached the engine: what is measured is the resumption of executions, not the
 * replay of requests that never arrived); resolves with the time of the kill, after the exit.
 */
async function killWhenJournaled(kasse: RunningKasse, carts: string[], atLeast: number): Promise<number> {
  await waitFor(async () => (await executionCount(carts)) >= atLeast, 60_000);
  killHard(kasse);
  const killedAt = Date.now();
  await kasse.exited;
  return killedAt;
}

async function expectOneOrderEach(carts: string[], answers: Answer[]): Promise<void> {
  for (const answer of answers) expect(answer, JSON.stringify(answer.json)).toMatchObject({ status: 200 });
  for (const answer of answers) expect(answer.json.type).toBe("order");
  const orders = await ordersOf(carts);
  expect(orders).toHaveLength(carts.length);
  for (const row of orders) expect(row.orders).toBe(1);
}

describe.skipIf(!onPostgres())("recovery time after a crash during 40 checkouts", () => {
  it("restarted at once, the process resumes what it held: every order exists within 10 s of the restart", async () => {
    const identity = { KASSE_EXECUTOR_ID: `recovery-restart-${randomInt(1e9)}` };
    const first = await started(identity);
    const carts = await readyCarts(first.url, 40);
    let restarted!: (url: string) => void;
    const next = new Promise<string>((resolve) => (restarted = resolve));
    const answers = completeAll(first.url, next, carts);
    await killWhenJournaled(first, carts, carts.length);
    const unfinished = await unfinishedCount(carts);
    expect(unfinished, "every checkout finished before the kill").toBeGreaterThan(0);

    const restartAt = Date.now();
    const second = await started(identity);
    restarted(second.url);
    const listening = Date.now() - restartAt;
    const resumedAt = (await ordersOf(carts)).length;
    await waitFor(async () => (await ordersOf(carts)).length === carts.length, 120_000);
    const recoveredMs = Date.now() - restartAt;
    console.log(
      `recovery after restart: ${recoveredMs} ms from the restart to all ${carts.length} orders (${unfinished} unfinished at the kill; listening after ${listening} ms, ${resumedAt} orders then)`,
    );
    await expectOneOrderEach(carts, await answers);
    expect(recoveredMs).toBeLessThanOrEqual(RESTART_BOUND_MS);
  }, 300_000);

  it("gone for good, another process takes its executions over: every order exists within 15 s of the kill", async () => {
    const doomed = await started({ KASSE_EXECUTOR_ID: `recovery-doomed-${randomInt(1e9)}` });
    const other = await started({ KASSE_EXECUTOR_ID: `recovery-other-${randomInt(1e9)}` });
    const carts = await readyCarts(doomed.url, 40);
    const answers = completeAll(doomed.url, Promise.resolve(other.url), carts);
    const killedAt = await killWhenJournaled(doomed, carts, carts.length);
    const unfinished = await unfinishedCount(carts);
    expect(unfinished, "every checkout finished before the kill").toBeGreaterThan(0);
    await waitFor(async () => (await ordersOf(carts)).length === carts.length, 240_000);
    const recoveredMs = Date.now() - killedAt;
    console.log(
      `recovery by another process: ${recoveredMs} ms from the kill to all ${carts.length} orders (${unfinished} unfinished at the kill)`,
    );
    await expectOneOrderEach(carts, await answers);
    expect(recoveredMs).toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
  }, 400_000);
});
