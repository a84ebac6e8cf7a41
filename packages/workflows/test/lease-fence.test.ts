import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { createEngine } from "../src";
import { createEffectsTable, effectsOf } from "./fixtures/effects";
import { fenceWorkflow } from "./fixtures/fence-workflow";

// A real process is paused (SIGSTOP) inside a step, its effect written and its transaction open,
// for longer than its lease; another process takes the execution over and ends it (the step fails
// there: the execution fails). Continued (SIGCONT), the paused process must commit nothing: its
// step's journal row is fenced on the lease, so the effect written in the same transaction rolls
// back, and it answers with the outcome the taker reached. PostgreSQL only (a child process).
const child = fileURLToPath(new URL("./fixtures/fence-child.ts", import.meta.url));
const root = fileURLToPath(new URL("../../..", import.meta.url));

let database: TestDatabase;
beforeAll(async () => {
  if (!onPostgres()) return;
  database = await createTestDatabase();
  await createEffectsTable(database.db);
});
afterAll(() => database?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!onPostgres())("a process paused past its lease", () => {
  it("loses the execution to another process and commits no step effect when it continues", async () => {
    const run = `fence-${Date.now()}`;
    const proc = spawn(process.execPath, ["--import", "tsx", child, database.url!, run], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    proc.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
    const executionId = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the child never reached its step: ${err}`)), 30_000);
      let paused = false;
      proc.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const inside = /INSIDE (\S+)\n/.exec(out);
        if (!inside || paused) return;
        paused = true;
        clearTimeout(timer);
        proc.kill("SIGSTOP");
        resolve(inside[1]!);
      });
    });
    try {
      // Paused with its step's effect written, uncommitted. Past its lease, another process takes over.
      await sleep(1_500);
      const taker = createEngine({
        db: database.db,
        leaseMs: 1_000,
        owner: "taker",
        workflows: [fenceWorkflow("taker")],
      });
      await expect(taker.resume(executionId)).rejects.toMatchObject({ type: "invalid_data" });
      expect(await taker.retrieve(executionId)).toMatchObject({ state: "failed", lease_owner: null });
    } finally {
      proc.kill("SIGCONT");
    }
    expect(await exited, err).toBe(0);
    // It noticed: its call answers with the taker's outcome, not its own step's success.
    expect(out).toMatch(/OUTCOME invalid_data\n/);
    // Its effect rolled back with its fenced journal write; the journal keeps the taker's failure.
    expect(await effectsOf(database.db, run)).toEqual([]);
    const steps = await queryRows<{ state: string }>(
      database.db,
      sql`select state from workflow_step_runs where execution_id = ${executionId}`,
    );
    expect(steps).toEqual([{ state: "failed" }]);
  }, 60_000);
});
