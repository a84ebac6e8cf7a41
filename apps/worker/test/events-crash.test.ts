import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { Webhook } from "standardwebhooks";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { createBullMqScheduler } from "@kasse/workflows";
import { createWorkflowRuntime } from "@kasse/runtime";
import { createWebhookService, recordEvent } from "@kasse/modules/event";
import { startWorker, type RunningWorker } from "../src";
import { workerEvents } from "./fixtures/events-options";
import { spawnEventsWorker } from "./fixtures/spawn-events-worker";
import { startWebhookReceiver, type WebhookReceiver } from "@kasse/api/testing";
import { closeTestRedis } from "./fixtures/redis";

// A worker is killed (SIGKILL) after the event committed and while it delivers it: the receiver got
// the request but the worker never learned the answer. Another worker takes the delivery over once
// the dead one's claim expires, and the receiver gets the same message again: same webhook-id,
// same body, a valid signature. Needs PostgreSQL (two processes) and Redis (BullMQ).

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `kasse-events-${randomBytes(4).toString("hex")}`;

let database: TestDatabase;
let redis: Redis;
/** Holds the first request open (never answered): the first delivery, whose worker dies. */
let receiver: WebhookReceiver;

beforeAll(async () => {
  if (!onPostgres()) return;
  database = await createTestDatabase();
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  receiver = await startWebhookReceiver({ hold: (n) => n === 1 });
});
afterAll(async () => {
  if (!onPostgres()) return;
  await receiver.close();
  await closeTestRedis(redis, prefix);
  await database.close();
});

describe.skipIf(!onPostgres())("a worker killed between the commit and the delivery", () => {
  it("after a restart the event is delivered, with the same webhook-id", async () => {
    const { secret } = await createWebhookService({
      secret: workerEvents.secret,
      allowPrivate: true,
    }).create({ url: receiver.url, events: ["order.placed"] });
    let proc: ChildProcess | undefined = await spawnEventsWorker({
      databaseUrl: database.url!,
      redisUrl: REDIS_URL,
      prefix,
    });
    // Committed; the worker picks it up and is killed while the receiver holds its request.
    await recordEvent("order.placed", {
      id: "order_crash",
      display_id: 7,
      cart_id: null,
      customer_id: null,
      email: "crash@example.com",
      currency_code: "eur",
      total: 990,
      item_count: 1,
    });
    await receiver.waitFor(1, 15_000);
    proc.kill("SIGKILL");
    await new Promise((resolve) => proc!.once("exit", resolve));
    proc = undefined;

    const infra = {
      database,
      redis,
      ...createWorkflowRuntime(database, { scheduler: createBullMqScheduler({ connection: redis, prefix }) }),
    };
    let worker: RunningWorker | undefined;
    try {
      worker = await startWorker({
        config: { workerConcurrency: 2, shutdownTimeoutMs: 1_000 },
        infra,
        events: workerEvents,
      });
      await receiver.waitFor(2, 15_000);
    } finally {
      await worker?.close();
      await infra.scheduler.close();
    }
    const [first, second] = receiver.received;
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(second!.body).toBe(first!.body);
    const verifier = new Webhook(secret);
    const message = verifier.verify(second!.body, {
      "webhook-id": String(second!.headers["webhook-id"]),
      "webhook-timestamp": String(second!.headers["webhook-timestamp"]),
      "webhook-signature": String(second!.headers["webhook-signature"]),
    });
    expect(message).toMatchObject({ type: "order.placed", data: { id: "order_crash" } });
    expect((message as { id: string }).id).toBe(first!.headers["webhook-id"]);
    // Taken over after the dead worker's claim expired (request timeout 2 s + lease 0.5 s), not before.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2_000);
  }, 60_000);
});
