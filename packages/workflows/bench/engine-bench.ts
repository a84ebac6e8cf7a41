// Engine overhead: executions/s of a 3-step no-op workflow on PostgreSQL, and database round
// trips per step. Usage: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx packages/workflows/bench/engine-bench.ts [executions]
import { createTestDatabase } from "@kasse/db/testing";
import { createEngine, step, workflow } from "../src";

const total = Number(process.argv[2] ?? 2000);
if (!process.env.DATABASE_URL) throw new Error("Set DATABASE_URL: the benchmark measures PostgreSQL");

const noop = (name: string) => step(name, { invoke: async (input: number) => ({ output: input }) });
const [a, b, c] = [noop("a"), noop("b"), noop("c")];
const threeSteps = workflow("bench-3-noop", async (input: number, ctx) => {
  const x = await ctx.run(a, input);
  const y = await ctx.run(b, x);
  return ctx.run(c, y);
});

// A fresh, migrated database of its own, opened as the server opens one; it logs every statement.
const database = await createTestDatabase({ poolSize: 20 });
const engine = createEngine({ db: database.db });
const out = (line: string) => process.stdout.write(`${line}\n`);

try {
  for (let i = 0; i < 50; i++) await engine.execute(threeSteps, i); // warm up

  const perExecution = await database.statements.count(() => engine.execute(threeSteps, 0));

  for (const concurrency of [1, 8, 32]) {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          next++;
          await engine.execute(threeSteps, next);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    out(
      `concurrency ${String(concurrency).padStart(2)}: ${Math.round(total / seconds)} executions/s (${((seconds * 1000) / total).toFixed(2)} ms per execution)`,
    );
  }
  out(
    `statements per execution: ${perExecution} (insert execution + 3 × journal upsert + final state; each step's begin and commit are not statements the log sees) = ${(perExecution / 3).toFixed(2)} per step`,
  );
} finally {
  await database.close();
}
