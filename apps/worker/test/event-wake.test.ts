import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { publishEventReleases } from "@kasse/runtime";
import { createWebhookService, eventsReleased, recordEvent } from "@kasse/modules/event";
import { workerEvents } from "./fixtures/events-options";

// In services mode the API process releases events and a dedicated worker sends them. The worker
// here polls only every 60 s, so a delivery within seconds can only come from the API process's
// announcement over Redis. Needs PostgreSQL (two processes) and Redis.

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const POLL_MS = 60_000;
const prefix = `kasse-wake-${randomBytes(4).toString("hex")}`;
const root = fileURLToPath(new URL("../../..", import.meta.url));
const child = fileURLToPath(new URL("./fixtures/events-child.ts", import.meta.url));

let database: TestDatabase;
let redis: Redis;
let server: Server;
let proc: ChildProcess | undefined;
let url = "";
const received: Array<{ at: number; body: string }> = [];
let onRequest: () => void = () => {};

beforeAll(async () => {
  if (!onPostgres()) return;
  database = await createTestDatabase();
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ at: Date.now(), body });
      res.writeHead(200).end();
      onRequest();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`;
});
afterAll(async () => {
  if (!onPostgres()) return;
  proc?.kill("SIGKILL");
  await new Promise((resolve) => server.close(resolve));
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await database.close();
});

describe.skipIf(!onPostgres())("a dedicated worker hears of released events over Redis", () => {
  it("delivers an event released by another process long before its next poll", async () => {
    await createWebhookService(database.db, { secret: workerEvents.secret, allowPrivate: true }).create({
      url,
      events: ["order.placed"],
    });
    proc = spawn(process.execPath, ["--import", "tsx", child, database.url!, REDIS_URL, prefix, String(POLL_MS)], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    proc.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker did not start: ${stderr}`)), 20_000);
      proc!.stdout!.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("READY")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });

    // The worker's first rounds (at start) are over before anything is committed.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    // This process plays the API: it commits an event and announces the release.
    const stop = publishEventReleases(redis);
    try {
      const delivered = new Promise<void>((resolve) => (onRequest = resolve));
      const committed = Date.now();
      await recordEvent(database.db, "order.placed", {
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
      await Promise.race([
        delivered,
        new Promise((_, reject) => setTimeout(() => reject(new Error("not delivered within 10 s")), 10_000)),
      ]);
      expect(received).toHaveLength(1);
      expect(JSON.parse(received[0]!.body)).toMatchObject({ type: "order.placed", data: { id: "order_wake" } });
      expect(received[0]!.at - committed).toBeLessThan(POLL_MS / 6);
    } finally {
      stop();
    }
  }, 40_000);
});
