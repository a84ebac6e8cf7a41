import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { db as ambient, queryRows } from "@kasse/db";
import { onPostgres, useTestDatabase } from "@kasse/db/testing";
import { createEngine, createInProcessScheduler, step, workflow, type Scheduler } from "../src";
import { createEffectsTable, effect, effectsOf } from "./fixtures/effects";

// Graceful shutdown of the engine (`drain`): no new claims, running work finishes or pauses at a
// step boundary with its lease given back, and another engine carries on from the journal.

const database = useTestDatabase();
beforeAll(async () => {
  await createEffectsTable(database.db);
});

const newEngine = (extra: Partial<Parameters<typeof createEngine>[0]> = {}) =>
  createEngine({ db: database.db, leaseMs: 60_000, ...extra });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A step that writes its effect after `ms` (the effect table counts how often it ran); `started` resolves as it begins. */
const slow = (name: string, ms: number, started?: () => void) =>
  step(name, {
    invoke: async (input: { run: string }, ctx) => {
      started?.();
      await sleep(ms);
      await ambient.execute(
        sql`insert into test_effects (execution_id, step, run) values (${ctx.executionId}, ${name}, ${input.run})`,
      );
      return { output: name };
    },
  });

const lease = async (id: string) =>
  (
    await queryRows<{ lease_owner: string | null; state: string }>(
      database.db,
      sql`select lease_owner, state from workflow_executions where id = ${id}`,
    )
  )[0]!;
const idOf = async (workflowId: string) =>
  (
    await queryRows<{ id: string }>(
      database.db,
      sql`select id from workflow_executions where workflow_id = ${workflowId}`,
    )
  )[0]!.id;

/** A promise and the function that resolves it: the test waits until a step has begun. */
function signal(): { reached: Promise<void>; reach: () => void } {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reached, reach };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(10);
  }
}

describe("engine drain", () => {
  it("lets an execution that finishes within the first half of the timeout finish", async () => {
    const wf = workflow("drain-quick", async (input: { run: string }, ctx) => [
      await ctx.run(slow("quick-a", 50), input),
      await ctx.run(slow("quick-b", 50), input),
    ]);
    const engine = newEngine();
    const running = engine.execute(wf, { run: "quick" });
    await waitFor(
      async () =>
        (await queryRows(database.db, sql`select 1 from workflow_executions where workflow_id = 'drain-quick'`))
          .length > 0,
    );
    expect(await engine.drain(4_000)).toEqual({ unfinished: [] });
    expect(await running).toEqual(["quick-a", "quick-b"]);
    expect(await effectsOf(database.db, "quick")).toEqual(["quick-a", "quick-b"]);
  });

  it("pauses a long execution after its running step, gives the lease back and queues it; the retried call finishes it once elsewhere", async () => {
    const aStarted = signal();
    const steps = [slow("long-a", 600, aStarted.reach), effect("long-b"), effect("long-c")];
    const wf = workflow("drain-long", async (input: { run: string }, ctx) => {
      for (const s of steps) await ctx.run(s as ReturnType<typeof effect>, input);
      return "done";
    });
    const queued: string[] = [];
    const scheduler: Scheduler = { ...createInProcessScheduler(), enqueue: async (id) => void queued.push(id) };
    const engine = newEngine({ scheduler });
    const running = engine.execute(wf, { run: "long" }, { idempotencyKey: "long" });
    running.catch(() => {});
    await aStarted.reached;
    // Halting begins at 500 ms, while step a runs; a ends at ~600 ms and b never starts.
    expect(await engine.drain(1_000)).toEqual({ unfinished: [] });
    await expect(running).rejects.toMatchObject({ type: "unavailable", status: 503 });
    const id = await idOf("drain-long");
    expect(await lease(id)).toEqual({ lease_owner: null, state: "running" });
    expect(await effectsOf(database.db, "long")).toEqual(["long-a"]);
    expect(queued).toEqual([id]);

    // The caller's retry on a live engine takes it over at once (no lease to wait for), from step b.
    const next = newEngine({ waitTimeoutMs: 1_000 });
    expect(await next.execute(wf, { run: "long" }, { idempotencyKey: "long" })).toBe("done");
    expect(await effectsOf(database.db, "long")).toEqual(["long-a", "long-b", "long-c"]);
  });

  it("refuses new claims at once and new executions once halting, writing nothing", async () => {
    const wf = workflow("drain-refuse", async (input: { run: string }, ctx) => ctx.run(effect("refuse-a"), input));
    const engine = newEngine({ workflows: [wf] });
    const other = newEngine({ workflows: [wf] });
    await database.db.execute(
      sql`insert into workflow_executions (id, workflow_id, transaction_id, state, input, attempt) values ('wfx_orphan', 'drain-refuse', 'wfx_orphan', 'running', ${JSON.stringify({ run: "orphan" })}::jsonb, 0)`,
    );
    const drained = engine.drain(200);
    await expect(engine.resume("wfx_orphan")).rejects.toMatchObject({ type: "unavailable" });
    await drained;
    await expect(engine.execute(wf, { run: "late" })).rejects.toMatchObject({ type: "unavailable" });
    expect(
      await queryRows(database.db, sql`select 1 from workflow_executions where input->>'run' = 'late'`),
    ).toHaveLength(0);
    expect(await lease("wfx_orphan")).toEqual({ lease_owner: null, state: "running" });
    // Another engine is not affected.
    expect(await other.resume("wfx_orphan")).toEqual({ step: "refuse-a", attempt: 1 });
  });

  it("cuts a retry's backoff short and pauses there", async () => {
    let attempts = 0;
    const flaky = step("backoff-flaky", {
      invoke: async (_: null) => {
        attempts++;
        throw new Error("transient");
      },
      retry: { attempts: 5, backoffMs: 30_000, maxBackoffMs: 30_000 },
    });
    const wf = workflow("drain-backoff", async (_: null, ctx) => ctx.run(flaky, null));
    const engine = newEngine();
    const running = engine.execute(wf, null);
    await waitFor(async () => attempts === 1);
    const begun = Date.now();
    await engine.drain(200);
    expect(Date.now() - begun).toBeLessThan(1_000);
    await expect(running).rejects.toMatchObject({ type: "unavailable" });
    const id = await idOf("drain-backoff");
    expect(await lease(id)).toEqual({ lease_owner: null, state: "running" });
    expect(attempts).toBe(1);
    const [journaled] = await queryRows<{ state: string; attempts: number }>(
      database.db,
      sql`select state, attempts from workflow_step_runs where execution_id = ${id}`,
    );
    expect(journaled).toEqual({ state: "running", attempts: 1 });
  });

  it("leaves the lease of a step that outlives the timeout, so nobody else runs that step meanwhile", async () => {
    const aStarted = signal();
    const wf = workflow("drain-overrun", async (input: { run: string }, ctx) => [
      await ctx.run(slow("overrun-a", 800, aStarted.reach), input),
      await ctx.run(effect("overrun-b"), input),
    ]);
    const engine = newEngine();
    const running = engine.execute(wf, { run: "overrun" });
    running.catch(() => {});
    await aStarted.reached;
    const { unfinished } = await engine.drain(200);
    expect(unfinished).toHaveLength(1);
    const id = unfinished[0]!;
    if (onPostgres()) expect((await lease(id)).lease_owner).toBe(engine.owner); // PGlite has one connection: the read waits for the step
    // When the step does end, the run stops there and hands the execution back.
    await expect(running).rejects.toMatchObject({ type: "unavailable" });
    expect(await lease(id)).toEqual({ lease_owner: null, state: "running" });
    expect(await effectsOf(database.db, "overrun")).toEqual(["overrun-a"]);
  });

  it("pauses between two compensations; the next engine finishes compensating", async () => {
    const undone: string[] = [];
    const bStarted = signal();
    const undoable = (name: string, ms = 0) =>
      step(name, {
        invoke: async (_: null) => ({ output: name }),
        compensate: async () => {
          if (ms) bStarted.reach();
          await sleep(ms);
          undone.push(name);
        },
      });
    const refuse = step("comp-refuse", {
      invoke: async (_: null): Promise<{ output: null }> => {
        throw new Error("boom");
      },
      retry: { attempts: 1 },
    });
    const steps = [undoable("comp-a"), undoable("comp-b", 600)];
    const wf = workflow("drain-compensate", async (_: null, ctx) => {
      for (const s of steps) await ctx.run(s, null);
      await ctx.run(refuse, null);
    });
    const engine = newEngine();
    const running = engine.execute(wf, null);
    running.catch(() => {});
    await bStarted.reached;
    await engine.drain(1_000);
    await expect(running).rejects.toMatchObject({ type: "unavailable" });
    const id = await idOf("drain-compensate");
    expect(await lease(id)).toEqual({ lease_owner: null, state: "compensating" });
    expect(undone).toEqual(["comp-b"]);
    const next = newEngine({ workflows: [wf] });
    await expect(next.resume(id)).rejects.toMatchObject({ message: "boom" });
    expect(undone).toEqual(["comp-b", "comp-a"]);
    expect((await lease(id)).state).toBe("compensated");
  });
});
