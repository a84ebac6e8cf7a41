import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@kasse/db/testing";
import { createEngine, executorLockKey, workflowExecutions } from "../src";
import { createEffectsTable, effect, effectsOf, sequence } from "./fixtures/effects";

// A process restarted under its executor identity takes over at once what its predecessor held
// (whatever the lease), and nothing held under another identity.

const database = useTestDatabase();
beforeAll(async () => {
  await createEffectsTable(database.db);
});

const wf = sequence("resumed-own", [effect("a"), effect("b")]);

/** An execution as a killed process leaves it: running, its lease still valid for a minute. */
async function heldBy(id: string, owner: string, run: string) {
  await database.db.insert(workflowExecutions).values({
    id,
    workflow_id: wf.name,
    transaction_id: id,
    state: "running",
    input: { run },
    attempt: 1,
    lease_owner: owner,
    lease_expires_at: new Date(Date.now() + 60_000),
  });
}

async function settled(engine: ReturnType<typeof createEngine>, id: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const row = await engine.retrieve(id);
    if (row.state !== "running" || Date.now() > deadline) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("resumeOwn", () => {
  it("takes over its previous incarnation's executions at once, and no other executor's", async () => {
    await heldBy("wfx_own_1", "shop-1:api#0a1b2c3d", "own-1");
    await heldBy("wfx_slot_1", "shop-1:api-1#0a1b2c3d", "slot-1");
    await heldBy("wfx_other_1", "shop-2:api#0a1b2c3d", "other-1");
    const engine = createEngine({ db: database.db, executor: "shop-1:api", workflows: [wf] });
    expect(engine.owner).toMatch(/^shop-1:api#[0-9a-f]{8}$/);

    expect(await engine.resumeOwn()).toBe(1);
    expect(await settled(engine, "wfx_own_1")).toMatchObject({ state: "succeeded", attempt: 2, lease_owner: null });
    expect(await effectsOf(database.db, "own-1")).toEqual(["a", "b"]);
    // Another slot of the same host, and another host, keep theirs until their leases expire.
    for (const [id, owner] of [
      ["wfx_slot_1", "shop-1:api-1#0a1b2c3d"],
      ["wfx_other_1", "shop-2:api#0a1b2c3d"],
    ] as const)
      expect(await engine.retrieve(id)).toMatchObject({ state: "running", attempt: 1, lease_owner: owner });
    expect(await engine.resumeOwn()).toBe(0);
  });

  it("takes nothing over without an executor identity (a one-off command)", async () => {
    await heldBy("wfx_own_2", "shop-3:api#0a1b2c3d", "own-2");
    const engine = createEngine({ db: database.db, workflows: [wf] });
    expect(await engine.resumeOwn()).toBe(0);
    expect(await engine.retrieve("wfx_own_2")).toMatchObject({ state: "running", lease_owner: "shop-3:api#0a1b2c3d" });
  });

  it("lets the recovery sweep take at once the executions of an identity whose lock is gone, lease or not", async () => {
    await heldBy("wfx_dead_1", "shop-4:api#0a1b2c3d", "dead-1");
    await heldBy("wfx_live_1", "shop-5:api#0a1b2c3d", "live-1");
    await heldBy("wfx_plain_1", "shop-6:123:0a1b2c3d", "plain-1");
    const live = await database.holdLock!(executorLockKey("shop-5:api"));
    try {
      const engine = createEngine({ db: database.db, workflows: [wf] });
      await engine.recover(); // also the earlier tests' executions of identities nobody holds
      expect(await settled(engine, "wfx_dead_1")).toMatchObject({ state: "succeeded" });
      // A live identity's, and a one-off process's (no identity: only its lease counts), stay.
      expect(await engine.retrieve("wfx_live_1")).toMatchObject({ state: "running", attempt: 1 });
      expect(await engine.retrieve("wfx_plain_1")).toMatchObject({ state: "running", attempt: 1 });
    } finally {
      await live?.release();
    }
  });
});
