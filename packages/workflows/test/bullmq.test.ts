import { randomBytes } from "node:crypto";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { sql } from "drizzle-orm";
import { connect, queryRows, type Database } from "@kasse/db";
import { createTestDatabase, type TestDatabase } from "@kasse/db/testing";
import { createBullMqScheduler, createEngine, step, workflow, type Engine } from "../src";
import { createEffectsTable, effect, effectsOf } from "./fixtures/effects";
import { crashWorkflow } from "./fixtures/crash-workflow";

// Real Redis (127.0.0.1:6379) with a key prefix of this file's own.
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `kasse-test-${randomBytes(4).toString("hex")}`;
const redis = () => new Redis(REDIS_URL, { maxRetriesPerRequest: null });

let database: TestDatabase;
const cleanup: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  database = await createTestDatabase();
  await createEffectsTable(database.db);
});
afterAll(async () => {
  for (const fn of cleanup.reverse()) await fn();
  const r = redis();
  const keys = await r.keys(`${prefix}:*`);
  if (keys.length) await r.del(...keys);
  await r.quit();
  await database.close();
});

/** One worker process's worth: its own Redis connection, database pool, scheduler and engine. */
async function startWorker(
  name: string,
  workflows: Parameters<typeof createEngine>[0]["workflows"],
  extra: Partial<Parameters<typeof createEngine>[0]> = {},
) {
  const connection = redis();
  const own: Database | undefined = database.url ? await connect({ url: database.url, poolSize: 5 }) : undefined;
  const scheduler = createBullMqScheduler({ connection, prefix });
  const engine = createEngine({
    db: (own ?? database).db,
    scheduler,
    workflows,
    owner: name,
    leaseMs: 2_000,
    ...extra,
  });
  const handled: string[] = [];
  const consumer = await scheduler.consume(
    {
      resume: async (id) =>
        void (await engine.resume(id).then(
          () => handled.push(id),
          () => {},
        )),
      maintenance: [{ name: "recover", everyMs: 300, run: () => engine.recover() }],
    },
    { concurrency: 4 },
  );
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await consumer.close();
    await scheduler.close();
    await connection.quit();
    await own?.close();
  };
  cleanup.push(close);
  return { engine, scheduler, handled, close };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("BullMQ scheduler", () => {
  it("puts the maintenance schedules back after Redis lost them (a restart without persistence)", async () => {
    const connection = redis();
    const scheduler = createBullMqScheduler({ connection, prefix: `${prefix}-lost` });
    let runs = 0;
    const consumer = await scheduler.consume({
      resume: async () => {},
      maintenance: [{ name: "tick", everyMs: 100, run: async () => void runs++ }],
    });
    cleanup.push(async () => {
      await consumer.close();
      await scheduler.close();
      await connection.quit();
    });
    await waitFor(async () => runs > 0);
    // What a Redis restarted without persistence shows: no schedule, and a dropped connection.
    await scheduler.queue.removeJobScheduler("maintenance-tick");
    await scheduler.queue.obliterate({ force: true });
    expect(await scheduler.queue.getJobSchedulers()).toEqual([]);
    connection.disconnect(true);
    await waitFor(async () => (await scheduler.queue.getJobSchedulers()).length === 1);
    const before = runs;
    await waitFor(async () => runs > before + 1);
  });

  it("two workers on one queue never run one step twice", async () => {
    const wf = crashWorkflow();
    const w1 = await startWorker("worker-1", [wf]);
    const w2 = await startWorker("worker-2", [wf]);
    const producer = createEngine({ db: database.db, scheduler: w1.scheduler, workflows: [wf] });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await producer.enqueue(wf, { run: `queued-${i}` }));
    // Duplicate jobs for every execution, so both workers race for each one.
    for (const id of ids) {
      await w1.scheduler.enqueue(id);
      await w2.scheduler.enqueue(id);
    }
    const states = async () =>
      queryRows<{ state: string }>(
        database.db,
        sql`select state from workflow_executions where workflow_id = 'crashable'`,
      );
    await waitFor(async () => (await states()).filter((r) => r.state === "succeeded").length === 20);
    const [counts] = await queryRows<{ total: number; max: number; n: number }>(
      database.db,
      sql`select sum(value)::int as total, max(value)::int as max, count(*)::int as n from test_counters where name like 'queued-%'`,
    );
    expect(counts).toEqual({ total: 60, max: 1, n: 60 });
    const [steps] = await queryRows<{ max: number; n: number }>(
      database.db,
      sql`select max(attempts)::int as max, count(*)::int as n from workflow_step_runs s join workflow_executions e on e.id = s.execution_id where e.workflow_id = 'crashable'`,
    );
    expect(steps).toEqual({ max: 1, n: 60 });
    expect(w1.handled.length + w2.handled.length).toBeGreaterThanOrEqual(20);
    // Idempotent enqueue: a known key gives the same execution.
    const again = await producer.enqueue(wf, { run: "keyed" }, { idempotencyKey: "same" });
    expect(await producer.enqueue(wf, { run: "keyed" }, { idempotencyKey: "same" })).toBe(again);
    await Promise.all([w1.close(), w2.close()]);
  });

  it("retries a failing compensation in the background through delayed jobs until it succeeds", async () => {
    const stubborn = effect("bull-stubborn", { compensateFailTimes: () => 3 });
    const wf = workflow("bull-compensation", async (input: { run: string }, ctx) => {
      await ctx.run({ ...stubborn, retry: { attempts: 1, backoffMs: 1, maxBackoffMs: 1 } }, input);
      await ctx.run(effect("bull-fails", { fatal: () => true }), input);
    });
    const worker = await startWorker("worker-c", [wf], {
      compensationRetry: { attempts: 10, backoffMs: 50, maxBackoffMs: 200 },
    });
    // The caller's engine runs the first attempt; the compensation retries happen in the worker.
    const caller: Engine = worker.engine;
    await expect(caller.execute(wf, { run: "bull-bg" })).rejects.toMatchObject({ type: "invalid_data" });
    const [row] = (await caller.list({ workflow_id: ["bull-compensation"] }, { limit: 1, offset: 0 })).items;
    expect(row!.state).toBe("compensation_failed");
    await waitFor(async () => (await caller.retrieve(row!.id)).state === "compensated");
    const detail = await caller.retrieve(row!.id);
    expect(detail.attempt).toBe(4);
    expect(detail.steps[0]).toMatchObject({ state: "compensated", compensation_attempts: 4 });
    expect(await effectsOf(database.db, "bull-bg")).toEqual([]);
    await worker.close();
  });

  it("the recovery sweep resumes an execution whose process died", async () => {
    const counted = step("sweep-step", { invoke: async (input: string) => ({ output: input.toUpperCase() }) });
    const wf = workflow("swept", async (input: string, ctx) => ctx.run(counted, input));
    await database.db.execute(
      sql`insert into workflow_executions (id, workflow_id, transaction_id, state, input, attempt, lease_owner, lease_expires_at) values ('wfx_swept', 'swept', 'wfx_swept', 'running', '"abc"', 1, 'dead', now() - interval '1 minute')`,
    );
    const worker = await startWorker("worker-s", [wf]);
    await waitFor(async () => (await worker.engine.retrieve("wfx_swept")).state === "succeeded");
    expect((await worker.engine.retrieve("wfx_swept")).result).toBe("ABC");
  });
});

describe("BullMQ scheduler, Redis not answering", () => {
  it("closing before Redis ever answered ends quietly, whatever the connection then hears", async () => {
    // Something else on Redis's port (an HTTP server, say) that answers late: the connections are
    // still in their first attempt when closed, and the garbage (or the refusal) that comes next
    // fails BullMQ's pending start after it dropped its listeners.
    const sockets = new Set<Socket>();
    const notRedis = createServer((socket) => {
      sockets.add(socket);
      setTimeout(() => socket.end("HTTP/1.1 400 Bad Request\r\n\r\n"), 300);
    });
    await new Promise<void>((resolve) => notRedis.listen(0, "127.0.0.1", resolve));
    const port = (notRedis.address() as AddressInfo).port;
    const stray: unknown[] = [];
    const onStray = (reason: unknown) => void stray.push(reason);
    process.on("unhandledRejection", onStray);
    process.on("uncaughtException", onStray);
    try {
      const connection = new Redis(port, "127.0.0.1", { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
      connection.on("error", () => {});
      const scheduler = createBullMqScheduler({ connection, prefix });
      const consumer = await scheduler.consume({ resume: async () => {}, maintenance: [] }, { concurrency: 1 });
      expect(connection.status).not.toBe("ready");
      await consumer.close();
      await scheduler.close();
      connection.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(stray.map(String)).toEqual([]);
    } finally {
      process.off("unhandledRejection", onStray);
      process.off("uncaughtException", onStray);
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => notRedis.close(resolve));
    }
  }, 30_000);
});
