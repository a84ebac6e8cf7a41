import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Redis } from "ioredis";
import { createBullMqScheduler, type Scheduler } from "@kasse/workflows";
import { createTestApp, paymentMoves, placeTestOrder, withFailure, type TestApp } from "@kasse/api/testing";
import { startWorker, type RunningWorker } from "../src";
import { closeTestRedis } from "./fixtures/redis";

// An order's capture or refund whose last step (storing the re-derived payment status) fails after
// the provider moved the money: the API answers 500, the execution is left compensation_failed, and
// the worker, over BullMQ on real Redis, retries the compensation until the status is right.
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `kasse-test-${randomBytes(4).toString("hex")}`;

let t: TestApp;
let redis: Redis;
let scheduler: Scheduler;
let worker: RunningWorker;
beforeAll(async () => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  scheduler = createBullMqScheduler({ connection: redis, prefix });
  t = await createTestApp({}, { scheduler, adminId: "user_recovery" });
  worker = await startWorker({ config: t.config, infra: t.app.infra });
});
afterAll(async () => {
  await worker.close();
  await t.close();
  await scheduler.close();
  await closeTestRedis(redis, prefix);
});

const order = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;

describe("the last payment status step of capture and refund fails", () => {
  for (const c of paymentMoves) {
    it(`${c.kind}: the money moved stays moved and the worker brings the status to ${c.status}`, async () => {
      const placed = await placeTestOrder(t.app);
      await c.before(t.admin, placed.payment_id);
      const settled = (await order(placed.order.id)).payment_status;
      const res = await withFailure(t.database.db, "order", "UPDATE", `NEW.payment_status = '${c.status}'`, () =>
        t.admin.post(`/admin/payments/${placed.payment_id}/${c.kind}`, c.body),
      );
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ type: "unknown_error", message: "An unknown error occurred." });
      // A capture or refund cannot be undone: the amounts show it at once; the stored status lags.
      expect(await order(placed.order.id)).toMatchObject({ payment_status: settled, ...c.moved });
      const failed = (
        await t.admin.get(`/admin/workflow-executions?workflow_id=${c.kind}-payment&state=compensation_failed`)
      ).json().workflow_executions;
      expect(failed).toHaveLength(1);

      // The fault is gone: the worker's compensation retry re-derives the status from the payments.
      await vi.waitFor(
        async () => expect(await order(placed.order.id)).toMatchObject({ payment_status: c.status, ...c.moved }),
        { timeout: 20_000, interval: 200 },
      );
      // The status is written inside the compensation; the execution is marked compensated just after it.
      await vi.waitFor(
        async () => {
          const execution = (await t.admin.get(`/admin/workflow-executions/${failed[0].id}`)).json().workflow_execution;
          expect(execution.state).toBe("compensated");
        },
        { timeout: 10_000, interval: 100 },
      );
      // Nothing was moved twice.
      const collection = (await order(placed.order.id)).payment_collections[0];
      expect(collection.payments[0][c.kind === "capture" ? "captures" : "refunds"]).toHaveLength(1);
    });
  }
});
