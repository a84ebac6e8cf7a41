import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { createEngine, createInProcessScheduler } from "../src";
import { createEffectsTable } from "./fixtures/effects";
import { crashWorkflow } from "./fixtures/crash-workflow";

// A child process (its own PostgreSQL connections) runs the workflow and is SIGKILLed mid-way;
// PGlite in memory cannot be shared with a child, so this runs on PostgreSQL only.
const child = fileURLToPath(new URL("./fixtures/crash-child.ts", import.meta.url));
const root = fileURLToPath(new URL("../../..", import.meta.url));

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await createEffectsTable(database.db);
});
afterAll(() => database?.close());

/** Starts the child, waits for its `<label> <executionId>` line, kills it with SIGKILL. */
function runAndKill(run: string, mode: "between" | "inside"): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", child, database.url!, run, mode], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`child did not reach the hook: ${err}`));
    }, 20_000);
    proc.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    proc.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = new RegExp(`${mode.toUpperCase()} (\\S+)\\n`).exec(out);
      if (!match) return;
      clearTimeout(timer);
      proc.kill("SIGKILL");
      proc.on("exit", (_code, signal) =>
        signal === "SIGKILL" ? resolve(match[1]!) : reject(new Error(`child exited with ${signal}`)),
      );
    });
    proc.on("error", reject);
  });
}

const counters = async (run: string) =>
  Object.fromEntries(
    (
      await queryRows<{ name: string; value: number }>(
        database.db,
        sql`select name, value from test_counters where name like ${`${run}:%`}`,
      )
    ).map((r) => [r.name.split(":")[1], r.value]),
  );

/** A worker-like consumer: the recovery sweep as a maintenance job, resumes through the scheduler. */
async function recoveringWorker() {
  const scheduler = createInProcessScheduler();
  const engine = createEngine({ db: database.db, scheduler, leaseMs: 1_000, workflows: [crashWorkflow()] });
  const consumer = await scheduler.consume({
    resume: async (id) => void (await engine.resume(id).catch(() => {})),
    maintenance: [{ name: "recover", everyMs: 200, run: () => engine.recover() }],
  });
  return {
    engine,
    close: async () => {
      await consumer.close();
      await scheduler.close();
    },
  };
}

async function waitForState(engine: ReturnType<typeof createEngine>, id: string, state: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await engine.retrieve(id)).state !== state) {
    if (Date.now() > deadline) throw new Error(`execution ${id} did not reach ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!onPostgres())("crash recovery (SIGKILL)", () => {
  it("a run without a crash, for reference", async () => {
    const result = await createEngine({ db: database.db }).execute(crashWorkflow(), { run: "reference" });
    expect(result).toEqual({
      run: "reference",
      steps: ["first done for reference", "second done for reference", "third done for reference"],
    });
    expect(await counters("reference")).toEqual({ first: 1, second: 1, third: 1 });
  });

  it("resumes after the process is killed between steps; each effect applied once", async () => {
    const id = await runAndKill("between", "between");
    const crashed = await createEngine({ db: database.db }).retrieve(id);
    expect(crashed).toMatchObject({ state: "running", lease_owner: "crash-child" });
    expect(crashed.steps.map((s) => [s.name, s.state])).toEqual([["first", "succeeded"]]);
    expect(await counters("between")).toEqual({ first: 1 });

    const worker = await recoveringWorker();
    await waitForState(worker.engine, id, "succeeded");
    const done = await worker.engine.retrieve(id);
    expect(done.result).toEqual({
      run: "between",
      steps: ["first done for between", "second done for between", "third done for between"],
    });
    expect(done.attempt).toBe(2);
    expect(done.steps.map((s) => [s.name, s.state, s.attempts])).toEqual([
      ["first", "succeeded", 1],
      ["second", "succeeded", 1],
      ["third", "succeeded", 1],
    ]);
    expect(await counters("between")).toEqual({ first: 1, second: 1, third: 1 });
    await worker.close();
  });

  it("resumes after the process is killed inside a step's transaction: its write rolled back, then applied once", async () => {
    const id = await runAndKill("inside", "inside");
    const crashed = await createEngine({ db: database.db }).retrieve(id);
    expect(crashed.steps.map((s) => [s.name, s.state])).toEqual([["first", "succeeded"]]);
    expect(await counters("inside")).toEqual({ first: 1 }); // the killed step's write never committed

    const worker = await recoveringWorker();
    await waitForState(worker.engine, id, "succeeded");
    expect((await worker.engine.retrieve(id)).result).toEqual({
      run: "inside",
      steps: ["first done for inside", "second done for inside", "third done for inside"],
    });
    expect(await counters("inside")).toEqual({ first: 1, second: 1, third: 1 });
    await worker.close();
  });
});

describe.skipIf(!onPostgres())("lease takeover", () => {
  it("a step run by two processes at once is applied once: the journal row decides", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inStep = new Promise<void>((resolve) => (entered = resolve));
    const slow = crashWorkflow({
      inside: async () => {
        entered();
        await gate;
      },
    });
    const a = createEngine({ db: database.db, leaseMs: 60_000, owner: "process-a" });
    const running = a.execute(slow, { run: "takeover" });
    await inStep;
    // Process A looks dead (its lease ran out) while it is still inside step 2: B takes over.
    await database.db.execute(
      sql`update workflow_executions set lease_expires_at = now() - interval '1 second' where lease_owner = 'process-a'`,
    );
    const [{ id }] = (await queryRows<{ id: string }>(
      database.db,
      sql`select id from workflow_executions where lease_owner = 'process-a'`,
    )) as [{ id: string }];
    const b = createEngine({ db: database.db, leaseMs: 60_000, owner: "process-b", workflows: [crashWorkflow()] });
    const resumed = b.resume(id);
    await new Promise((resolve) => setTimeout(resolve, 200)); // B is now blocked behind A's uncommitted effect
    release();
    const [resultA, resultB] = await Promise.all([running, resumed]);
    expect(resultA).toEqual(resultB);
    expect(await counters("takeover")).toEqual({ first: 1, second: 1, third: 1 });
    expect((await b.retrieve(id)).steps.map((s) => [s.name, s.state])).toEqual([
      ["first", "succeeded"],
      ["second", "succeeded"],
      ["third", "succeeded"],
    ]);
  });
});
