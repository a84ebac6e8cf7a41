import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@kasse/db/testing";
import { createEngine, type EngineObserver } from "../src";
import { createEffectsTable, effect, sequence } from "./fixtures/effects";

const database = useTestDatabase();
beforeAll(async () => {
  await createEffectsTable(database.db);
});

/** An engine whose observer writes down what it hears, one line per call. */
function observedEngine() {
  const heard: string[] = [];
  const observer: EngineObserver = {
    started: (workflow) => heard.push(`started ${workflow}`),
    running: (workflow, change) => heard.push(`running ${workflow} ${change}`),
    finished: (workflow, outcome) => heard.push(`finished ${workflow} ${outcome}`),
    stepRetried: (workflow, step) => heard.push(`retried ${workflow} ${step}`),
  };
  return { heard, engine: createEngine({ db: database.db, leaseMs: 2_000, observer }) };
}

describe("the engine's observer", () => {
  it("hears an execution start, run, retry its steps and succeed", async () => {
    const { heard, engine } = observedEngine();
    await engine.execute(sequence("observed", [effect("a"), effect("flaky", { failTimes: () => 2 })]), { run: "o-1" });
    expect(heard).toEqual([
      "started observed",
      "running observed 1",
      "retried observed flaky",
      "retried observed flaky",
      "finished observed succeeded",
      "running observed -1",
    ]);
    // A second call with the same key joins the first: nothing new starts.
    const again = sequence("observed-key", [effect("a")]);
    await engine.execute(again, { run: "o-2" }, { idempotencyKey: "o-2" });
    heard.length = 0;
    await engine.execute(again, { run: "o-2" }, { idempotencyKey: "o-2" });
    expect(heard).toEqual([]);
  });

  it("hears how a failure ends: compensated, failed with nothing to undo, or compensation_failed", async () => {
    const { heard, engine } = observedEngine();
    const refuse = () => true;
    await expect(
      engine.execute(sequence("undone", [effect("a"), effect("refused", { fatal: refuse })]), { run: "o-3" }),
    ).rejects.toThrow("refused refuses o-3");
    await expect(
      engine.execute(sequence("refused", [effect("refused", { fatal: refuse })]), { run: "o-4" }),
    ).rejects.toThrow();
    await expect(
      engine.execute(
        sequence("stuck", [effect("sticky", { compensateFailTimes: () => 99 }), effect("refused", { fatal: refuse })]),
        { run: "o-5" },
      ),
    ).rejects.toThrow();
    expect(heard.filter((line) => line.startsWith("finished"))).toEqual([
      "finished undone compensated",
      "finished refused failed",
      "finished stuck compensation_failed",
    ]);
    expect(heard.filter((line) => line.startsWith("running")).length).toBe(6);
    // Enqueued executions start where they are recorded.
    heard.length = 0;
    await engine.enqueue(sequence("queued", [effect("a")]), { run: "o-6" });
    expect(heard[0]).toBe("started queued");
  });
});
