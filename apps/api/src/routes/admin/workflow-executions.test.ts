import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { errors } from "@kasse/core";
import { createBullMqScheduler, step, workflow } from "@kasse/workflows";
import { openRedis } from "@kasse/runtime";
import { createTestApp, type TestApp } from "../../testing";
import { expectInvalidData } from "../../testing/invalid";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let healed = false;
const reserve = step("test-reserve", {
  invoke: async (input: { qty: number }) => ({ output: { reserved: input.qty } }),
});
const fragile = step("test-fragile", {
  invoke: async (_: null) => ({ output: "made" }),
  compensate: async () => {
    if (!healed) throw new Error("undo is broken");
  },
  retry: { attempts: 1 },
});
const ok = workflow("test-ok", async (input: { qty: number }, ctx) => ctx.run(reserve, input));
const refused = workflow("test-refused", async (input: { qty: number }, ctx) => {
  await ctx.run(reserve, input);
  throw errors.invalidData("Not enough stock");
});
const stuck = workflow("test-stuck", async (_: null, ctx) => {
  await ctx.run(fragile, null);
  throw errors.invalidData("stop");
});

describe("admin workflow executions", () => {
  let okId: string;
  let stuckId: string;

  beforeAll(async () => {
    const engine = t.app.infra.engine;
    await engine.execute(ok, { qty: 2 }, { idempotencyKey: "cart_a" });
    await expect(engine.execute(refused, { qty: 1 })).rejects.toMatchObject({ type: "invalid_data" });
    await expect(engine.execute(stuck, null)).rejects.toMatchObject({ message: "stop" });
    const list = (await t.admin.get("/admin/workflow-executions?limit=50")).json().workflow_executions as Array<{
      id: string;
      workflow_id: string;
    }>;
    okId = list.find((e) => e.workflow_id === "test-ok")!.id;
    stuckId = list.find((e) => e.workflow_id === "test-stuck")!.id;
  });

  it("lists executions with filters and paging", async () => {
    const all = await t.admin.get("/admin/workflow-executions");
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ count: 3, offset: 0, limit: 15 });
    const byState = (await t.admin.get("/admin/workflow-executions?state[]=compensated&state[]=succeeded")).json();
    expect(
      byState.workflow_executions.map((e: { workflow_id: string; state: string }) => [e.workflow_id, e.state]).sort(),
    ).toEqual([
      ["test-ok", "succeeded"],
      ["test-refused", "compensated"],
    ]);
    // Medusa's states, as its dashboard's filter sends them, select the Kasse states they cover.
    const byMedusaState = (
      await t.admin.get("/medusa/admin/workflows-executions?state[]=done&state[]=reverted")
    ).json();
    expect(byMedusaState.workflow_executions.map((e: { workflow_id: string }) => e.workflow_id).sort()).toEqual([
      "test-ok",
      "test-refused",
    ]);
    expect((await t.admin.get("/admin/workflow-executions?state=not_started")).json()).toMatchObject({
      count: 0,
      workflow_executions: [],
    });
    expect((await t.admin.get("/admin/workflow-executions?state=failed")).json().count).toBe(0);
    const byTransaction = (await t.admin.get("/admin/workflow-executions?transaction_id=cart_a")).json();
    expect(byTransaction.count).toBe(1);
    expect(byTransaction.workflow_executions[0]).toMatchObject({
      id: okId,
      workflow_id: "test-ok",
      idempotency_key: "cart_a",
      state: "succeeded",
      result: { reserved: 2 },
    });
    expect(byTransaction.workflow_executions[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const page = (await t.admin.get("/admin/workflow-executions?workflow_id=test-stuck&fields=id,state")).json();
    expect(page.workflow_executions).toEqual([{ id: stuckId, state: "compensation_failed" }]);
    expect((await t.admin.get("/admin/workflow-executions?limit=1&offset=1")).json().workflow_executions).toHaveLength(
      1,
    );
    expect((await t.admin.get("/admin/workflow-executions?created_at[lt]=2000-01-01T00:00:00Z")).json().count).toBe(0);
  });

  it("shows one execution with its ordered step journal", async () => {
    const res = await t.admin.get(`/admin/workflow-executions/${stuckId}`);
    expect(res.statusCode).toBe(200);
    const execution = res.json().workflow_execution;
    expect(execution).toMatchObject({
      id: stuckId,
      workflow_id: "test-stuck",
      state: "compensation_failed",
      error: { type: "invalid_data", message: "stop" },
    });
    expect(execution.steps).toEqual([
      expect.objectContaining({
        index: 0,
        name: "test-fragile",
        state: "compensation_failed",
        attempts: 1,
        compensation_attempts: 1,
        output: "made",
        error: expect.objectContaining({ message: "undo is broken" }),
      }),
    ]);
    expect(execution.steps[0].started_at).toMatch(/^\d{4}-/);
    // Medusa's presentation of it: the undo failed.
    expect(execution.execution.state).toBe("failed");
    expect(execution.execution.steps["_root.test-fragile"].compensate).toEqual({
      state: "failed",
      status: "permanent_failure",
    });
    expect(execution.context.errors).toEqual([
      {
        action: "test-fragile",
        handlerType: "compensate",
        error: expect.objectContaining({ message: "undo is broken" }),
      },
    ]);
  });

  it("re-queues a failed compensation; the worker then finishes it", async () => {
    healed = true;
    // Retried before a worker consumes: the engine's own compensation retry (due a second after the
    // failure) is queued too, and a worker that took it first would hold or finish the execution,
    // and the admin retry would rightly be refused with 409.
    const res = await t.admin.post(`/admin/workflow-executions/${stuckId}/retry`);
    expect(res.statusCode).toBe(200);
    expect(res.json().workflow_execution).toMatchObject({ id: stuckId, dead_lettered_at: null });
    const consumer = await t.app.infra.scheduler.consume({
      resume: async (id) => void (await t.app.infra.engine.resume(id).catch(() => {})),
      maintenance: [],
    });
    const deadline = Date.now() + 10_000;
    while (
      (await t.admin.get(`/admin/workflow-executions/${stuckId}`)).json().workflow_execution.state !== "compensated"
    ) {
      if (Date.now() > deadline) throw new Error("retry did not finish");
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await consumer.close();
  });

  it("presents Medusa's `execution` and `context` (its dashboard's steps and progress), in both dialects", async () => {
    for (const base of ["/admin/workflow-executions", "/medusa/admin/workflows-executions"]) {
      const list = (await t.admin.get(`${base}?workflow_id[]=test-ok&workflow_id[]=test-refused`)).json();
      const byWorkflow = Object.fromEntries(
        list.workflow_executions.map((e: { workflow_id: string }) => [e.workflow_id, e]),
      );
      // The contract's state stays; Medusa's is inside `execution`.
      expect(byWorkflow["test-ok"]).toMatchObject({ state: "succeeded", execution: { state: "done" } });
      expect(byWorkflow["test-ok"].execution.steps).toEqual({
        "_root.test-reserve": {
          id: "_root.test-reserve",
          invoke: { state: "done", status: "ok" },
          compensate: { state: "not_started", status: "idle" },
          definition: {},
          depth: 1,
          startedAt: expect.any(Number),
        },
      });
      expect(byWorkflow["test-refused"]).toMatchObject({
        state: "compensated",
        execution: {
          state: "reverted",
          steps: {
            "_root.test-reserve": { invoke: { state: "done" }, compensate: { state: "reverted", status: "ok" } },
          },
        },
      });
      // A list carries no outputs: `context` is the detail's.
      expect(byWorkflow["test-ok"].context).toBeUndefined();

      const ok = (await t.admin.get(`${base}/${okId}`)).json().workflow_execution;
      expect(ok).toMatchObject({
        state: "succeeded",
        steps: [expect.objectContaining({ name: "test-reserve", state: "succeeded" })],
        execution: { state: "done", steps: { "_root.test-reserve": { invoke: { state: "done", status: "ok" } } } },
        context: {
          data: { payload: { qty: 2 }, invoke: { "test-reserve": { output: { output: { reserved: 2 } } } } },
          errors: [],
        },
      });
    }
    // The page's steps are one read: a longer page sends no more statements.
    const statements = async (limit: number) =>
      (await t.database.statements.record(() => t.admin.get(`/admin/workflow-executions?limit=${limit}`))).length;
    expect(await statements(3)).toBe(await statements(1));
  });

  it("rejects bad input with 4xx {type, message}", async () => {
    await expectInvalidData(
      t.admin,
      "/admin/workflow-executions?",
      "state=bogus",
      "limit=-1",
      "nope=1",
      "order=secret",
      "created_at[gte]=yesterday",
    );
    const missing = await t.admin.get("/admin/workflow-executions/wfx_missing");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      type: "not_found",
      message: "Workflow execution with id: wfx_missing was not found",
    });
    expect((await t.admin.post("/admin/workflow-executions/wfx_missing/retry")).statusCode).toBe(404);
    const done = await t.admin.post(`/admin/workflow-executions/${okId}/retry`);
    expect(done.statusCode).toBe(409);
    expect(done.json().type).toBe("conflict");
    const body = await t.admin.post(`/admin/workflow-executions/${okId}/retry`, { force: true });
    expect(body.statusCode).toBe(400);
    expect((await t.admin.get(`/admin/workflow-executions/${okId}`)).json().workflow_execution.state).toBe("succeeded");
  });

  it("requires an admin: 401 without credentials, 403 for a customer", async () => {
    expect((await t.app.inject({ method: "GET", url: "/admin/workflow-executions" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "POST", url: `/admin/workflow-executions/${stuckId}/retry` })).statusCode,
    ).toBe(401);
    const res = await t.store.get("/admin/workflow-executions", await t.customerHeaders("cus_1"));
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe("not_allowed");
    // No BullMQ here (in-process scheduler): no bull-board either.
    expect((await t.admin.get("/admin/queues")).statusCode).toBe(404);
  });
});

describe("bull-board", () => {
  it("is mounted at /admin/queues behind admin auth when the engine uses BullMQ", async () => {
    const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: null });
    const scheduler = createBullMqScheduler({
      connection: redis,
      prefix: `kasse-test-${randomBytes(4).toString("hex")}`,
    });
    const app = await createTestApp({}, { redis, scheduler });
    try {
      expect((await app.app.inject({ method: "GET", url: "/admin/queues" })).statusCode).toBe(401);
      expect((await app.app.inject({ method: "GET", url: "/admin/queues/api/queues" })).statusCode).toBe(401);
      const headers = await app.adminHeaders();
      const page = await app.app.inject({ method: "GET", url: "/admin/queues", headers });
      expect(page.statusCode).toBe(200);
      expect(page.headers["content-type"]).toContain("text/html");
      const api = await app.app.inject({ method: "GET", url: "/admin/queues/api/queues", headers });
      expect(api.statusCode).toBe(200);
      expect(api.json().queues.map((q: { name: string }) => q.name)).toEqual(["workflows"]);
    } finally {
      await app.close();
      await scheduler.close();
      await redis.quit();
    }
  });

  it("answers 503 at once, saying why, while Redis is away", async () => {
    const away = await openRedis("redis://127.0.0.1:1", { info: () => {}, warn: () => {}, error: () => {} });
    const scheduler = createBullMqScheduler({
      connection: away.client,
      prefix: `kasse-test-${randomBytes(4).toString("hex")}`,
    });
    const app = await createTestApp({}, { redis: away.client, scheduler });
    try {
      const headers = await app.adminHeaders();
      const started = Date.now();
      const api = await app.app.inject({ method: "GET", url: "/admin/queues/api/queues", headers });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(api.statusCode).toBe(503);
      expect(api.json()).toMatchObject({
        type: "unavailable",
        message: expect.stringMatching(/Redis: .*; retry later$/),
      });
    } finally {
      await app.close();
      await scheduler.close();
      await away.close();
    }
  });
});
