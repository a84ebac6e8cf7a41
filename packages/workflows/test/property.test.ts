import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { sql } from "drizzle-orm";
import { errors } from "@kasse/core";
import { db as ambient, queryRows } from "@kasse/db";
import { onPostgres, useTestDatabase } from "@kasse/db/testing";
import { createEngine, step, workflow, type Step } from "../src";
import { createEffectsTable, effectsOf } from "./fixtures/effects";

const database = useTestDatabase();
beforeAll(async () => {
  await createEffectsTable(database.db);
});

/** How one generated step behaves. */
interface StepPlan {
  /** Transient failures before it succeeds (more than its 3 attempts means it fails). */
  transient: number;
  /** Fails at once with a non-retryable error. */
  fatal: boolean;
  /** Transient compensation failures (fewer than its 3 attempts, so compensation ends). */
  compensationFailures: number;
  /** An outside (non-transactional) step. */
  outside: boolean;
  /** Runs in parallel with the previous step (ctx.all). */
  parallel: boolean;
}

const planArb = fc.record({
  transient: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 2 }) },
    { weight: 1, arbitrary: fc.constant(3) },
  ),
  fatal: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  compensationFailures: fc.integer({ min: 0, max: 2 }),
  outside: fc.boolean(),
  parallel: fc.boolean(),
});

let counter = 0;

/** A step that records its effect as a row, per the plan. */
function planned(name: string, plan: StepPlan): Step<string, string, string> {
  let failures = 0;
  let compensationFailures = 0;
  const fail = () => {
    if (plan.fatal) throw errors.invalidData(`${name} refused`);
    if (failures < plan.transient) {
      failures++;
      throw new Error(`${name} transient ${failures}`);
    }
  };
  const undo = () => {
    if (compensationFailures < plan.compensationFailures) {
      compensationFailures++;
      throw new Error(`${name} compensation transient ${compensationFailures}`);
    }
  };
  const retry = { attempts: 3, backoffMs: 1, maxBackoffMs: 2 };
  if (plan.outside) {
    return step(name, {
      transactional: false,
      invoke: async (run: string, ctx) => {
        fail();
        await ambient.execute(
          sql`insert into test_effects (execution_id, step, run) values (${ctx.executionId}, ${name}, ${run})`,
        );
        return { output: name, compensateInput: run };
      },
      compensate: async (run) => {
        undo();
        await ambient.execute(sql`delete from test_effects where run = ${run} and step = ${name}`);
      },
      retry,
    });
  }
  return step(name, {
    invoke: async (run: string, ctx) => {
      await ambient.execute(
        sql`insert into test_effects (execution_id, step, run) values (${ctx.executionId}, ${name}, ${run})`,
      );
      fail(); // after the write: a failed attempt's write must roll back with it
      return { output: name, compensateInput: run };
    },
    compensate: async (run) => {
      await ambient.execute(sql`delete from test_effects where run = ${run} and step = ${name}`);
      undo();
    },
    retry,
  });
}

describe("property: all effects or none", () => {
  it("leaves exactly a successful run's effects, or none, for random workflows of 1-8 steps", async () => {
    const engine = createEngine({ db: database.db });
    await fc.assert(
      fc.asyncProperty(fc.array(planArb, { minLength: 1, maxLength: 8 }), async (plans) => {
        const run = `prop-${++counter}`;
        const steps = plans.map((plan, i) => planned(`s${i}`, plan));
        // Consecutive steps flagged `parallel` run together in one ctx.all group.
        const groups: number[][] = [];
        plans.forEach((plan, i) =>
          plan.parallel && groups.length > 0 ? groups[groups.length - 1]!.push(i) : groups.push([i]),
        );
        const wf = workflow(`prop-${counter}`, async (input: string, ctx) => {
          const out: string[] = [];
          for (const group of groups) out.push(...(await ctx.all(group.map((i) => ctx.run(steps[i]!, input)))));
          return out;
        });
        const fails = plans.some((p) => p.fatal || p.transient >= 3);
        const outcome = await engine.execute(wf, run).then(
          (result) => ({ ok: true as const, result }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        const effects = await effectsOf(database.db, run);
        if (fails) {
          expect(outcome.ok).toBe(false);
          expect(effects).toEqual([]);
        } else {
          expect(outcome).toEqual({ ok: true, result: plans.map((_, i) => `s${i}`) });
          expect(effects).toEqual(plans.map((_, i) => `s${i}`).sort());
        }
        const [execution] = await queryRows<{ state: string }>(
          database.db,
          sql`select state from workflow_executions where workflow_id = ${`prop-${counter}`}`,
        );
        if (fails) expect(["failed", "compensated"]).toContain(execution?.state);
        else expect(execution?.state).toBe("succeeded");
      }),
      { numRuns: onPostgres() ? 40 : 20 },
    );
  }, 120_000);
});
