import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { sql } from "drizzle-orm";
import { errors, KasseError } from "@kasse/core";
import { db as ambient, inTransaction, queryRows } from "@kasse/db";
import { useTestDatabase } from "@kasse/db/testing";
import {
  createEngine,
  createInProcessScheduler,
  step,
  workflow,
  WorkflowDivergenceError,
  workflowExecutions,
  workflowStepRuns,
} from "../src";
import { createEffectsTable, effect, effectsOf, sequence } from "./fixtures/effects";

const database = useTestDatabase();
beforeAll(async () => {
  await createEffectsTable(database.db);
});

const newEngine = (extra: Partial<Parameters<typeof createEngine>[0]> = {}) =>
  createEngine({ db: database.db, leaseMs: 2_000, ...extra });

describe("workflow engine", () => {
  it("runs every step and journals the success, with types flowing to the result", async () => {
    const engine = newEngine();
    const wf = sequence("success", [effect("a"), effect("b"), effect("c")]);
    const result = await engine.execute(wf, { run: "ok-1" });
    expectTypeOf(result).toEqualTypeOf<{ run: string; steps: string[] }>();
    expect(result).toEqual({ run: "ok-1", steps: ["a", "b", "c"] });
    expect(await effectsOf(database.db, "ok-1")).toEqual(["a", "b", "c"]);
    const [execution] = await engine.list({ workflow_id: ["success"] }, { limit: 10, offset: 0 }).then((r) => r.items);
    const detail = await engine.retrieve(execution!.id);
    expect(detail).toMatchObject({ state: "succeeded", result, attempt: 1, lease_owner: null });
    expect(detail.finished_at).toBeInstanceOf(Date);
    expect(detail.steps.map((s) => [s.index, s.name, s.state, s.attempts])).toEqual([
      [0, "a", "succeeded", 1],
      [1, "b", "succeeded", 1],
      [2, "c", "succeeded", 1],
    ]);
  });

  it("retries a failing step with backoff, then succeeds", async () => {
    const engine = newEngine();
    const flaky = effect("flaky", { failTimes: () => 2 });
    const wf = sequence("retry", [effect("a"), flaky]);
    const result = await engine.execute(wf, { run: "retry-1" });
    expect(result.steps).toEqual(["a", "flaky"]);
    const detail = await engine.retrieve(
      (await engine.list({ workflow_id: ["retry"] }, { limit: 1, offset: 0 })).items[0]!.id,
    );
    expect(detail.steps[1]).toMatchObject({
      name: "flaky",
      state: "succeeded",
      attempts: 3,
      error: null,
      output: { step: "flaky", attempt: 3 },
    });
    expect(await effectsOf(database.db, "retry-1")).toEqual(["a", "flaky"]);
  });

  it("compensates succeeded steps in reverse order and throws the original typed error", async () => {
    const order: string[] = [];
    const tracked = (name: string) =>
      step(name, {
        invoke: async (input: { run: string }, ctx) => {
          await ambient.execute(
            sql`insert into test_effects (execution_id, step, run) values (${ctx.executionId}, ${name}, ${input.run})`,
          );
          return { output: name };
        },
        compensate: async (out) => {
          order.push(out);
          await ambient.execute(sql`delete from test_effects where step = ${out} and run = 'comp-1'`);
        },
      });
    const refuse = step("refuse", {
      invoke: async (): Promise<{ output: null }> => {
        throw errors.invalidData("Insufficient inventory for item iitem_1");
      },
    });
    const wf = workflow("compensate", async (input: { run: string }, ctx) => {
      await ctx.run(tracked("one"), input);
      await ctx.run(tracked("two"), input);
      await ctx.run(tracked("three"), input);
      await ctx.run(refuse, undefined);
      return "unreachable";
    });
    const engine = newEngine();
    const error = await engine.execute(wf, { run: "comp-1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KasseError);
    expect(error).toMatchObject({ type: "invalid_data", message: "Insufficient inventory for item iitem_1" });
    expect(order).toEqual(["three", "two", "one"]);
    expect(await effectsOf(database.db, "comp-1")).toEqual([]);
    const [row] = (await engine.list({ workflow_id: ["compensate"] }, { limit: 1, offset: 0 })).items;
    const detail = await engine.retrieve(row!.id);
    expect(detail.state).toBe("compensated");
    expect(detail.error).toMatchObject({ type: "invalid_data", retryable: false });
    expect(detail.steps.map((s) => [s.name, s.state, s.attempts])).toEqual([
      ["one", "compensated", 1],
      ["two", "compensated", 1],
      ["three", "compensated", 1],
      ["refuse", "failed", 1], // not retryable: failed at once
    ]);
    expect(detail.steps.every((s) => s.state !== "compensated" || s.compensated_at instanceof Date)).toBe(true);
  });

  it("fails with nothing to undo as `failed`, and retries retryable errors up to the limit first", async () => {
    let calls = 0;
    const broken = step("broken", {
      invoke: async (): Promise<{ output: number }> => {
        calls++;
        throw new Error("provider down");
      },
      retry: { attempts: 4, backoffMs: 1 },
    });
    const engine = newEngine();
    const wf = workflow("fails", async (_: null, ctx) => ctx.run(broken, null));
    const error = await engine.execute(wf, null).catch((e: unknown) => e);
    expect(error).toMatchObject({ type: "unknown_error", message: "provider down" });
    expect(calls).toBe(4);
    const [row] = (await engine.list({ workflow_id: ["fails"] }, { limit: 1, offset: 0 })).items;
    expect(row).toMatchObject({ state: "failed", error: { type: "unknown_error" } });
    expect((await engine.retrieve(row!.id)).steps[0]).toMatchObject({ state: "failed", attempts: 4 });
  });

  it("counts a step running past timeoutMs as a retryable failure, and aborts the abandoned attempt's signal", async () => {
    let calls = 0;
    const signals: AbortSignal[] = [];
    const slow = step("slow", {
      invoke: async (_: null, ctx) => {
        calls++;
        signals.push(ctx.signal);
        if (calls === 1) await new Promise((resolve) => setTimeout(resolve, 300));
        return { output: calls };
      },
      timeoutMs: 100,
      retry: { attempts: 2, backoffMs: 1 },
    });
    const engine = newEngine();
    expect(
      await engine.execute(
        workflow("timeout", async (_: null, ctx) => ctx.run(slow, null)),
        null,
      ),
    ).toBe(2);
    const [row] = (await engine.list({ workflow_id: ["timeout"] }, { limit: 1, offset: 0 })).items;
    expect((await engine.retrieve(row!.id)).steps[0]).toMatchObject({ state: "succeeded", attempts: 2 });
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);

    const never = step("never", {
      invoke: async (_: null) => new Promise<{ output: null }>(() => {}),
      timeoutMs: 50,
      retry: { attempts: 1 },
    });
    const wf = workflow("timeout-fails", async (_: null, ctx) => ctx.run(never, null));
    const error = await engine.execute(wf, null).catch((e: unknown) => e);
    expect(error).toMatchObject({ type: "timeout", message: "Step 'never' timed out after 50 ms" });
  });

  it("runs ctx.all branches in parallel with deterministic journal indexes", async () => {
    const engine = newEngine();
    const delayed = (name: string, ms: number) =>
      step(name, {
        invoke: async (input: number) => {
          await new Promise((resolve) => setTimeout(resolve, ms));
          return { output: `${name}:${input}` };
        },
      });
    const wf = workflow("parallel", async (input: number, ctx) => {
      const [a, b] = await ctx.all([ctx.run(delayed("slow", 60), input), ctx.run(delayed("fast", 1), input + 1)]);
      expectTypeOf(a).toEqualTypeOf<string>();
      const c = await ctx.run(delayed("after", 1), 0);
      return [a, b, c];
    });
    expect(await engine.execute(wf, 1)).toEqual(["slow:1", "fast:2", "after:0"]);
    const [row] = (await engine.list({ workflow_id: ["parallel"] }, { limit: 1, offset: 0 })).items;
    expect((await engine.retrieve(row!.id)).steps.map((s) => s.name)).toEqual(["slow", "fast", "after"]);
  });

  it("gives ctx.idempotencyKey as execution id + step index and takes advisory locks", async () => {
    const engine = newEngine();
    await database.db.execute(sql`insert into test_counters (name, value) values ('locked', 0)`);
    // A read-then-write that only stays correct because of ctx.lock.
    const increment = step("increment", {
      invoke: async (_: null, ctx) => {
        await ctx.lock(["counter:locked", "another"]);
        const [row] = await queryRows<{ value: number }>(
          ambient,
          sql`select value from test_counters where name = 'locked'`,
        );
        await new Promise((resolve) => setTimeout(resolve, 5));
        await ambient.execute(sql`update test_counters set value = ${row!.value + 1} where name = 'locked'`);
        return { output: ctx.idempotencyKey };
      },
    });
    const wf = workflow("locked", async (_: null, ctx) => ({
      key: await ctx.run(increment, null),
      executionId: ctx.executionId,
    }));
    const results = await Promise.all(Array.from({ length: 10 }, () => engine.execute(wf, null)));
    for (const r of results) expect(r.key).toBe(`${r.executionId}:0`);
    const [counter] = await queryRows<{ value: number }>(
      database.db,
      sql`select value from test_counters where name = 'locked'`,
    );
    expect(counter!.value).toBe(10);
  });
});

describe("ctx.modules", () => {
  it("are asked for on first read, once per attempt, and run in the step's transaction (ambient)", async () => {
    let built = 0;
    // The engine knows no module: a stand-in container that counts how often it is asked for.
    const modules = () => ({ container: ++built });
    const seen: Array<{ same: boolean; tx: boolean }> = [];
    const inTx = step("modules-in-tx", {
      invoke: async (_: null, ctx) => {
        seen.push({ same: ctx.modules === ctx.modules, tx: inTransaction() });
        return { output: null };
      },
    });
    const untouched = step("modules-unread", { invoke: async () => ({ output: null }) });
    const outside = step("modules-outside", {
      transactional: false,
      invoke: async (_: null, ctx) => {
        seen.push({ same: ctx.modules === ctx.modules, tx: inTransaction() });
        return { output: null };
      },
    });
    const wf = workflow("modules-binding", async (_: null, ctx) => {
      await ctx.run(inTx, null);
      await ctx.run(untouched, null);
      await ctx.run(outside, null);
      return null;
    });
    await newEngine({ modules }).execute(wf, null);
    expect(seen).toEqual([
      { same: true, tx: true },
      { same: true, tx: false },
    ]);
    expect(built).toBe(2);
    await expect(
      newEngine().execute(
        workflow("modules-missing", (_: null, ctx) => ctx.run(inTx, null)),
        null,
      ),
    ).rejects.toMatchObject({ type: "unexpected_state" });
  });
});

describe("idempotency", () => {
  it("returns a finished execution's stored result (or error) without running anything", async () => {
    let runs = 0;
    const counted = step("counted", { invoke: async (input: string) => ({ output: `${input}#${++runs}` }) });
    const wf = workflow("idem", async (input: string, ctx) => ctx.run(counted, input));
    const engine = newEngine();
    expect(await engine.execute(wf, "x", { idempotencyKey: "cart_1" })).toBe("x#1");
    expect(await engine.execute(wf, "x", { idempotencyKey: "cart_1" })).toBe("x#1");
    expect(await newEngine().execute(wf, "x", { idempotencyKey: "cart_1" })).toBe("x#1");
    expect(runs).toBe(1);
    const list = await engine.list({ transaction_id: ["cart_1"] }, { limit: 10, offset: 0 });
    expect(list.count).toBe(1);

    const refusing = workflow("idem-fail", async (_: string, ctx) =>
      ctx.run(effect("nope", { fatal: () => true }), { run: "idem-fail" }),
    );
    const first = await engine.execute(refusing, "x", { idempotencyKey: "k" }).catch((e: unknown) => e);
    const second = await engine.execute(refusing, "x", { idempotencyKey: "k" }).catch((e: unknown) => e);
    expect(first).toMatchObject({ type: "invalid_data", message: "nope refuses idem-fail" });
    expect(second).toBeInstanceOf(KasseError);
    expect(second).toMatchObject({ type: "invalid_data", message: "nope refuses idem-fail" });
  });

  it("freshAfterFailure: a failed or compensated attempt does not answer for the key; a succeeded one does", async () => {
    let calls = 0;
    const flaky = step("fresh-flaky", {
      invoke: async (input: string) => {
        calls++;
        if (calls <= 2) throw errors.invalidData(`declined ${calls}`);
        return { output: `${input}#${calls}` };
      },
    });
    const wf = workflow("fresh-after-failure", async (input: string, ctx) => ctx.run(flaky, input));
    const engine = newEngine();
    const options = { idempotencyKey: "cart_fresh", freshAfterFailure: true };
    await expect(engine.execute(wf, "x", options)).rejects.toMatchObject({
      type: "invalid_data",
      message: "declined 1",
    });
    await expect(engine.execute(wf, "x", options)).rejects.toMatchObject({
      type: "invalid_data",
      message: "declined 2",
    });
    expect(await engine.execute(wf, "x", options)).toBe("x#3");
    // Once one succeeded, it answers for the key: nothing runs again.
    expect(await newEngine().execute(wf, "x", options)).toBe("x#3");
    expect(calls).toBe(3);
    const list = await engine.list({ transaction_id: ["cart_fresh"] }, { limit: 10, offset: 0, order: "created_at" });
    expect(list.items.map((e) => [e.idempotency_key, e.state])).toEqual([
      ["cart_fresh:0", "failed"],
      ["cart_fresh:1", "failed"],
      ["cart_fresh:2", "succeeded"],
    ]);
  });

  it("runs 50 concurrent executes with one key once, and all get the same result", async () => {
    let runs = 0;
    const slowOnce = step("slow-once", {
      invoke: async (_: null, ctx) => {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 100));
        await ambient.execute(
          sql`insert into test_effects (execution_id, step, run) values (${ctx.executionId}, 'slow-once', 'concurrent')`,
        );
        return { output: { order: `order_${ctx.executionId}` } };
      },
    });
    const wf = workflow("concurrent", async (_: null, ctx) => ctx.run(slowOnce, null));
    // Two engines (as two API processes) sharing the database.
    const engines = [newEngine(), newEngine()];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => engines[i % 2]!.execute(wf, null, { idempotencyKey: "cart_concurrent" })),
    );
    expect(runs).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(await effectsOf(database.db, "concurrent")).toEqual(["slow-once"]);
  });

  it("answers conflict when the running execution outlasts the wait", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const blocked = step("blocked", {
      invoke: async (_: null) => (await gate, { output: "done" }),
      transactional: false,
    });
    const wf = workflow("waits", async (_: null, ctx) => ctx.run(blocked, null));
    const first = newEngine().execute(wf, null, { idempotencyKey: "w" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const error = await newEngine({ waitTimeoutMs: 100 })
      .execute(wf, null, { idempotencyKey: "w" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ type: "conflict", status: 409 });
    release();
    expect(await first).toBe("done");
  });
});

describe("replay and divergence", () => {
  /** Journals an execution as a process would leave it when killed after `names` succeeded. */
  async function crashedExecution(id: string, workflowId: string, input: unknown, names: string[]) {
    const past = new Date(Date.now() - 60_000);
    await database.db.insert(workflowExecutions).values({
      id,
      workflow_id: workflowId,
      transaction_id: id,
      state: "running",
      input,
      attempt: 1,
      lease_owner: "dead-process",
      lease_expires_at: past,
    });
    for (const [index, name] of names.entries()) {
      await database.db.insert(workflowStepRuns).values({
        execution_id: id,
        index,
        name,
        state: "succeeded",
        attempts: 1,
        output: { step: name, attempt: 1 },
        compensate_input: { run: "replay" },
        started_at: past,
        finished_at: past,
      });
    }
  }

  it("resumes a crashed execution by replay: journaled steps are not run again", async () => {
    let aRuns = 0;
    const a = step("a", { invoke: async (_: { run: string }) => ({ output: { step: "a", attempt: ++aRuns } }) });
    const wf = workflow("replayed", async (input: { run: string }, ctx) => [
      await ctx.run(a, input),
      await ctx.run(effect("b"), input),
    ]);
    await crashedExecution("wfx_replay_1", "replayed", { run: "replay" }, ["a"]);
    const engine = newEngine({ workflows: [wf] });
    expect(await engine.recover()).toBeGreaterThanOrEqual(1); // no scheduler: resumes inline
    const detail = await engine.retrieve("wfx_replay_1");
    expect(detail).toMatchObject({
      state: "succeeded",
      attempt: 2,
      result: [
        { step: "a", attempt: 1 },
        { step: "b", attempt: 1 },
      ],
    });
    expect(aRuns).toBe(0);
    await expect(engine.resume("wfx_replay_1")).resolves.toEqual(detail.result);
  });

  it("a warmed recovery sweep resuming a crashed execution assembles no SQL text", async () => {
    // The sweep runs every few seconds in every worker, and each resume reads and writes the
    // journal: every statement of it is built once.
    const BUILD_BUDGET = 0;
    const noop = (name: string) => step(name, { invoke: async (input: { run: string }) => ({ output: input.run }) });
    const wf = workflow("swept", async (input: { run: string }, ctx) => [
      await ctx.run(noop("a"), input),
      await ctx.run(noop("b"), input),
    ]);
    const engine = newEngine({ workflows: [wf] });
    await crashedExecution("wfx_swept_1", "swept", { run: "swept" }, ["a"]);
    expect(await engine.recover()).toBeGreaterThanOrEqual(1);
    await crashedExecution("wfx_swept_2", "swept", { run: "swept" }, ["a"]);
    const built = await database.statements.builds(() => engine.recover());
    expect(await engine.retrieve("wfx_swept_2")).toMatchObject({ state: "succeeded", attempt: 2 });
    expect(built, built.join("\n")).toHaveLength(BUILD_BUDGET);
  });

  it("reports a workflow that runs a different step at a journaled index", async () => {
    const wf = workflow("diverged", async (input: { run: string }, ctx) => ctx.run(effect("renamed"), input));
    await crashedExecution("wfx_diverged_1", "diverged", { run: "div" }, ["original"]);
    const engine = newEngine({ workflows: [wf] });
    const error = await engine.resume("wfx_diverged_1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowDivergenceError);
    expect((error as Error).message).toContain("step 0 is 'original' in the journal but the code ran 'renamed'");
    const detail = await engine.retrieve("wfx_diverged_1");
    expect(detail.state).toBe("failed");
    expect(detail.error).toMatchObject({
      type: "unexpected_state",
      retryable: false,
      details: { index: 0, journaled: "original", ran: "renamed" },
    });
    expect(await effectsOf(database.db, "div")).toEqual([]);
  });

  it("reports a workflow that stops before steps its journal has", async () => {
    const wf = workflow("shorter", async (input: { run: string }, ctx) => ctx.run(effect("a"), input));
    await crashedExecution("wfx_shorter_1", "shorter", { run: "short" }, ["a", "b"]);
    const error = await newEngine({ workflows: [wf] })
      .resume("wfx_shorter_1")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkflowDivergenceError);
    expect((error as Error).message).toContain("journal has step 1 ('b')");
  });

  it("does not resume an execution whose lease is alive", async () => {
    const wf = workflow("leased", async () => 1);
    const until = new Date(Date.now() + 60_000);
    await database.db.insert(workflowExecutions).values({
      id: "wfx_leased",
      workflow_id: "leased",
      transaction_id: "wfx_leased",
      state: "running",
      input: null,
      attempt: 1,
      lease_owner: "alive",
      lease_expires_at: until,
    });
    await expect(newEngine({ workflows: [wf] }).resume("wfx_leased")).rejects.toMatchObject({ type: "conflict" });
    await expect(newEngine().resume("wfx_missing")).rejects.toMatchObject({ type: "not_found" });
  });
});

describe("background compensation", () => {
  it("retries a compensation failing 3 times until it succeeds", async () => {
    const scheduler = createInProcessScheduler();
    const stubborn = effect("stubborn", { compensateFailTimes: () => 3 });
    const single = { ...stubborn, retry: { attempts: 1, backoffMs: 1, maxBackoffMs: 1 } };
    const wf = workflow("bg-compensation", async (input: { run: string }, ctx) => {
      await ctx.run(single, input);
      await ctx.run(effect("fails", { fatal: () => true }), input);
    });
    const engine = newEngine({
      scheduler,
      workflows: [wf],
      compensationRetry: { attempts: 10, backoffMs: 20, maxBackoffMs: 50 },
    });
    const consumer = await scheduler.consume({
      resume: async (id) => void (await engine.resume(id).catch(() => {})),
      maintenance: [],
    });
    const error = await engine.execute(wf, { run: "bg" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ type: "invalid_data", message: "fails refuses bg" });
    const [row] = (await engine.list({ workflow_id: ["bg-compensation"] }, { limit: 1, offset: 0 })).items;
    expect(row!.state).toBe("compensation_failed");
    expect(row!.next_retry_at).toBeInstanceOf(Date);
    expect(await effectsOf(database.db, "bg")).toEqual(["stubborn"]);
    await waitFor(async () => (await engine.retrieve(row!.id)).state === "compensated");
    const detail = await engine.retrieve(row!.id);
    expect(detail.attempt).toBe(4);
    expect(detail.error).toMatchObject({ type: "invalid_data" }); // the original error is kept
    expect(detail.steps[0]).toMatchObject({ state: "compensated", compensation_attempts: 4 });
    expect(await effectsOf(database.db, "bg")).toEqual([]);
    await consumer.close();
    await scheduler.close();
  });

  it("dead-letters a compensation that never succeeds; an admin retry re-arms it", async () => {
    let healed = false;
    const hopeless = step("hopeless", {
      invoke: async (_: null) => ({ output: 1 }),
      compensate: async () => {
        if (!healed) throw new Error("still broken");
      },
      retry: { attempts: 1 },
    });
    const wf = workflow("dead-letter", async (_: null, ctx) => {
      await ctx.run(hopeless, null);
      throw errors.invalidData("stop");
    });
    const engine = newEngine({ workflows: [wf], compensationRetry: { attempts: 2, backoffMs: 1, maxBackoffMs: 1 } });
    await expect(engine.execute(wf, null)).rejects.toMatchObject({ message: "stop" });
    const [row] = (await engine.list({ workflow_id: ["dead-letter"] }, { limit: 1, offset: 0 })).items;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await engine.recover(); // no scheduler: the due retry runs inline, fails, and is the last one
    const dead = await engine.retrieve(row!.id);
    expect(dead).toMatchObject({ state: "compensation_failed", next_retry_at: null, attempt: 2 });
    expect(dead.dead_lettered_at).toBeInstanceOf(Date);
    expect(dead.steps[0]).toMatchObject({
      state: "compensation_failed",
      compensation_attempts: 2,
      error: { message: "still broken" },
    });
    expect(await engine.recover()).toBe(0); // dead letters are not swept

    healed = true;
    await engine.retry(row!.id);
    await waitFor(async () => (await engine.retrieve(row!.id)).state === "compensated");
    await expect(engine.retry(row!.id)).rejects.toMatchObject({ type: "conflict" });
  });
});

describe("admin retry", () => {
  it("re-runs a failed execution from its failed step, keeping the steps that succeeded", async () => {
    let broken = true;
    let firstRuns = 0;
    const first = step("retry-first", { invoke: async (_: null) => ({ output: ++firstRuns }) });
    const second = step("retry-second", {
      invoke: async (_: null) => {
        if (broken) throw errors.invalidData("configuration missing");
        return { output: "fixed" };
      },
    });
    const wf = workflow("admin-retry", async (_: null, ctx) => [
      await ctx.run(first, null),
      await ctx.run(second, null),
    ]);
    const engine = newEngine({ workflows: [wf] });
    await expect(engine.execute(wf, null, { idempotencyKey: "retry-me" })).rejects.toMatchObject({
      type: "invalid_data",
    });
    const id = (await engine.list({ workflow_id: ["admin-retry"] }, { limit: 1, offset: 0 })).items[0]!.id;
    expect((await engine.retrieve(id)).state).toBe("compensated");
    await expect(engine.retry(id)).rejects.toMatchObject({ type: "conflict" }); // compensated is final

    // A failure with nothing to undo ends `failed`, which an admin may retry once the cause is fixed.
    const lone = workflow("admin-retry-lone", async (_: null, ctx) => ctx.run(second, null));
    const lonely = newEngine({ workflows: [lone] });
    await expect(lonely.execute(lone, null, { idempotencyKey: "lone" })).rejects.toMatchObject({
      type: "invalid_data",
    });
    const loneId = (await lonely.list({ workflow_id: ["admin-retry-lone"] }, { limit: 1, offset: 0 })).items[0]!.id;
    expect((await lonely.retrieve(loneId)).state).toBe("failed");
    broken = false;
    const rearmed = await lonely.retry(loneId); // no scheduler: resumed inline
    expect(rearmed.state).toBe("running");
    await waitFor(async () => (await lonely.retrieve(loneId)).state === "succeeded");
    expect((await lonely.retrieve(loneId)).steps.map((s) => [s.name, s.state, s.attempts])).toEqual([
      ["retry-second", "succeeded", 1],
    ]);
    expect(await lonely.execute(lone, null, { idempotencyKey: "lone" })).toBe("fixed");
    expect(firstRuns).toBe(1);
  });

  it("re-queues a stuck running execution, but not one whose lease is alive", async () => {
    const wf = workflow("stuck-running", async (_: null, ctx) =>
      ctx.run(step("stuck-step", { invoke: async (_: null) => ({ output: "ok" }) }), null),
    );
    const engine = newEngine({ workflows: [wf] });
    await database.db.insert(workflowExecutions).values({
      id: "wfx_stuck",
      workflow_id: "stuck-running",
      transaction_id: "wfx_stuck",
      state: "running",
      input: null,
      attempt: 1,
      lease_owner: "gone",
      lease_expires_at: new Date(Date.now() - 1000),
    });
    await engine.retry("wfx_stuck");
    await waitFor(async () => (await engine.retrieve("wfx_stuck")).state === "succeeded");
    await database.db.insert(workflowExecutions).values({
      id: "wfx_alive",
      workflow_id: "stuck-running",
      transaction_id: "wfx_alive",
      state: "running",
      input: null,
      attempt: 1,
      lease_owner: "alive",
      lease_expires_at: new Date(Date.now() + 60_000),
    });
    await expect(engine.retry("wfx_alive")).rejects.toMatchObject({ type: "conflict" });
    await expect(engine.retry("wfx_nope")).rejects.toMatchObject({ type: "not_found" });
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
