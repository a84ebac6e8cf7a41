import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { publishEventReleases } from "@kasse/runtime";
import { createWebhookService, eventsReleased, recordEvent } from "@kasse/modules/event";
import { workerEvents } from "./fixtures/events-options";
import { spawnEventsWorker } from "./fixtures/spawn-events-worker";
import { startWebhookReceiver, type WebhookReceiver } from "@kasse/api/testing";
import { closeTestRedis } from "./fixtures/redis";

// In services mode the API process releases events and a dedicated worker sends them. The worker
// here polls only every 60 s, so a delivery within seconds can only come from the API process's
// announcement over Redis. Needs PostgreSQL (two processes) and Redis.

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const POLL_MS = 60_000;
const prefix = `kasse-wake-${randomBytes(4).toString("hex")}`;

let database: TestDatabase;
let redis: Redis;
let receiver: WebhookReceiver;
let proc: ChildProcess | undefined;

beforeAll(async () => {
  if (!onPostgres()) return;
  database = await createTestDatabase();
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  if (!onPostgres()) return;
  proc?.kill("SIGKILL");
  await receiver.close();
  await closeTestRedis(redis, prefix);
  await database.close();
});

describe.skipIf(!onPostgres())("a dedicated worker hears of released events over Redis", () => {
  it("delivers an event released by another process long before its next poll", async () => {
    await createWebhookService({ secret: workerEvents.secret, allowPrivate: true }).create({
      url: receiver.url,
      events: ["order.placed"],
    });
    proc = await spawnEventsWorker({ databaseUrl: database.url!, redisUrl: REDIS_URL, prefix, pollMs: POLL_MS });

    // The worker's first rounds (at start) are over before anything is committed.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // This process plays the API: it commits an event and announces the release.
    const stop = publishEventReleases(redis, prefix);
    try {
      const committed = Date.now();
      await recordEvent("order.placed", {
        id: "order_wake",
        display_id: 1,
        cart_id: null,
        customer_id: null,
        email: "wake@example.com",
        currency_code: "eur",
        total: 990,
        item_count: 1,
      });
      eventsReleased();
      await receiver.waitFor(1, 10_000);
      const { received } = receiver;
      expect(received).toHaveLength(1);
      expect(JSON.parse(received[0]!.body)).toMatchObject({ type: "order.placed", data: { id: "order_wake" } });
      expect(received[0]!.at - committed).toBeLessThan(POLL_MS / 6);
    } finally {
      stop();
    }
  }, 40_000);
});
