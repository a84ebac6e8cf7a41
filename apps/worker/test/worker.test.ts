import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { sql } from "drizzle-orm";
import { claimIdempotencyKey, queryRows } from "@kasse/db";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import {
  createBullMqScheduler,
  createEngine,
  step,
  workflow,
  type AnyWorkflow,
  type EngineLogger,
} from "@kasse/workflows";
import { createWorkflowRuntime, loadConfig, type Infrastructure } from "@kasse/runtime";
import { crashWorkflow } from "../../../packages/workflows/test/fixtures/crash-workflow";
import { maintenanceJobs, startWorker } from "../src";
import { killAtMarker } from "./fixtures/kill-at-marker";
import { createModules } from "@kasse/modules";
import { closeTestRedis } from "./fixtures/redis";
import { eventOutbox } from "@kasse/modules/event";

// The worker against real PostgreSQL (or PGlite) and real Redis, on a queue prefix of its own.
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `kasse-test-${randomBytes(4).toString("hex")}`;
const crashChild = fileURLToPath(new URL("../../../packages/workflows/test/fixtures/crash-child.ts", import.meta.url));

let database: TestDatabase;
let redis: Redis;
let infra: Infrastructure;
/** Worker processes' infrastructures (each its own engine and scheduler), closed at the end. */
const processes: Infrastructure[] = [];
const lines: Array<{ msg: string; obj: Record<string, unknown> }> = [];
const logger: EngineLogger = {
  info: (obj, msg = "") => lines.push({ msg, obj: obj as Record<string, unknown> }),
  warn: (obj, msg = "") => lines.push({ msg, obj: obj as Record<string, unknown> }),
  error: (obj, msg = "") => lines.push({ msg, obj: obj as Record<string, unknown> }),
};
const config = loadConfig({
  DATABASE_URL: "postgres://unused",
  REDIS_URL,
  JWT_SECRET: "worker-test-secret-1234",
  WORKER_CONCURRENCY: "3",
  SHUTDOWN_TIMEOUT_MS: "5000",
  LOG_LEVEL: "silent",
});

let slowRuns = 0;
const slowStep = step("worker-slow", {
  invoke: async (input: string) => {
    slowRuns++;
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { output: `${input}!` };
  },
});
const slow = workflow("worker-slow", async (input: string, ctx) => ctx.run(slowStep, input));
const crashable = crashWorkflow();

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(
    sql`create table if not exists test_counters (name text primary key, value integer not null)`,
  );
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  infra = {
    database,
    redis,
    ...createWorkflowRuntime(database, { scheduler: createBullMqScheduler({ connection: redis, prefix }) }),
  };
});
afterAll(async () => {
  for (const other of processes) await other.scheduler.close();
  await infra.scheduler.close();
  await closeTestRedis(redis, prefix);
  await database.close();
});

/** What a worker process runs on: its own engine (knowing `workflows` too) over the shared database and queue. */
function workerProcess(workflows: AnyWorkflow[]): Infrastructure {
  const own = {
    database,
    redis,
    ...createWorkflowRuntime(database, { scheduler: createBullMqScheduler({ connection: redis, prefix }), logger }),
  };
  for (const wf of workflows) own.engine.register(wf);
  processes.push(own);
  return own;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("worker", () => {
  it("runs queued executions from the BullMQ queue and logs each outcome", async () => {
    const worker = await startWorker({ config, infra: workerProcess([slow, crashable]), logger });
    const ids = await Promise.all(["a", "b", "c", "d"].map((x) => infra.engine.enqueue(slow, x)));
    await waitFor(async () =>
      (await Promise.all(ids.map((id) => infra.engine.retrieve(id)))).every((e) => e.state === "succeeded"),
    );
    expect((await infra.engine.retrieve(ids[0]!)).result).toBe("a!");
    expect(slowRuns).toBe(4);
    await waitFor(async () =>
      ids.every((id) =>
        lines.some((l) => l.msg === "execution outcome" && l.obj.executionId === id && l.obj.state === "succeeded"),
      ),
    );
    expect(
      lines.some((l) => l.msg === "worker started" && l.obj.scheduler === "bullmq" && l.obj.concurrency === 3),
    ).toBe(true);
    await worker.close();
  });

  it.skipIf(!onPostgres())("resumes a workflow whose process was SIGKILLed, after its lease expires", async () => {
    const id = await killAtMarker([crashChild, database.url!, "worker-crash", "between"], "BETWEEN");
    expect((await infra.engine.retrieve(id)).state).toBe("running");
    const worker = await startWorker({ config, infra: workerProcess([slow, crashable]), logger, recoveryEveryMs: 250 });
    await waitFor(async () => (await infra.engine.retrieve(id)).state === "succeeded");
    const counts = await queryRows<{ name: string; value: number }>(
      database.db,
      sql`select name, value from test_counters where name like 'worker-crash:%' order by name`,
    );
    expect(counts).toEqual([
      { name: "worker-crash:first", value: 1 },
      { name: "worker-crash:second", value: 1 },
      { name: "worker-crash:third", value: 1 },
    ]);
    await worker.close();
  });

  it("shuts down gracefully: the job in progress finishes first", async () => {
    const worker = await startWorker({ config, infra: workerProcess([slow]), logger });
    const before = slowRuns;
    const id = await infra.engine.enqueue(slow, "graceful");
    await waitFor(async () => slowRuns > before, 10_000);
    await worker.close();
    expect(await infra.engine.retrieve(id)).toMatchObject({
      state: "succeeded",
      result: "graceful!",
      lease_owner: null,
    });
    expect(lines.some((l) => l.msg === "worker stopped")).toBe(true);
  });

  it("on close pauses a long execution after its running step and hands it to another worker at once", async () => {
    let entered!: () => void;
    const inFirst = new Promise<void>((resolve) => (entered = resolve));
    const runs: string[] = [];
    const first = step("handover-first", {
      invoke: async (_: null, ctx) => {
        entered();
        await new Promise((resolve) => setTimeout(resolve, 800));
        runs.push(`first@${ctx.attempt}`);
        return { output: 1 };
      },
    });
    const second = step("handover-second", { invoke: async (_: null) => (runs.push("second"), { output: 2 }) });
    const handover = workflow("worker-handover", async (_: null, ctx) => [
      await ctx.run(first, null),
      await ctx.run(second, null),
    ]);
    // Executions get half of the 1 s to finish, then pause: the first step (800 ms) ends inside it.
    const quick = { ...config, shutdownTimeoutMs: 1_000 };
    // No recovery sweep in the window: only the hand-over can move the execution on.
    const a = await startWorker({ config: quick, infra: workerProcess([handover]), logger, recoveryEveryMs: 60_000 });
    const id = await infra.engine.enqueue(handover, null);
    await inFirst;
    const b = await startWorker({ config, infra: workerProcess([handover]), logger, recoveryEveryMs: 60_000 });
    await a.close();
    const paused = await infra.engine.retrieve(id);
    expect(paused).toMatchObject({ state: "running", lease_owner: null });
    expect(
      lines.some((l) => l.msg === "workflow execution paused for shutdown; lease released" && l.obj.executionId === id),
    ).toBe(true);
    // Well before any lease (30 s) could expire, the other worker finished it from the second step.
    await waitFor(async () => (await infra.engine.retrieve(id)).state === "succeeded", 5_000);
    expect((await infra.engine.retrieve(id)).result).toEqual([1, 2]);
    expect(runs).toEqual(["first@1", "second"]);
    await b.close();
  });

  it("lists the maintenance jobs: recovery sweep and the idempotency-key purge", async () => {
    const engine = createEngine({ events: eventOutbox, db: database.db, modules: () => createModules() });
    const jobs = maintenanceJobs({ db: database.db, engine });
    expect(jobs.map((j) => j.name)).toEqual(["workflow-recovery", "purge-idempotency-keys"]);
    await claimIdempotencyKey(database.db, { scope: "s", key: "old", fingerprint: "f", ttlMs: -1000 });
    await claimIdempotencyKey(database.db, { scope: "s", key: "fresh", fingerprint: "f" });
    expect(await jobs[1]!.run()).toBe(1);
    const left = await queryRows<{ key: string }>(database.db, sql`select key from idempotency_key`);
    expect(left.map((r) => r.key)).toEqual(["fresh"]);
  });
});
