import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { createBullMqScheduler } from "@kasse/workflows";
import { createNotificationService } from "@kasse/modules/notification";
import { startTestSmtpServer, waitForMail, type TestSmtpServer } from "@kasse/modules/notification/testing";
import { createWorkflowRuntime, loadConfig, type Infrastructure } from "@kasse/runtime";
import { startWorker } from "../src";
import { killAtMarker } from "./fixtures/kill-at-marker";
import { closeTestRedis } from "./fixtures/redis";

// A process dies in the middle of delivering a password-reset email (SIGKILL inside the provider's
// send): its execution is left running, with a lease nobody renews. The worker, configured like
// any worker (JWT_SECRET, SMTP_URL, its one engine), takes it over once the lease expires and
// delivers the message, its sealed token opened with the shared server secret.
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `kasse-test-${randomBytes(4).toString("hex")}`;
const child = fileURLToPath(new URL("./fixtures/notification-child.ts", import.meta.url));
const SECRET = "worker-notification-secret-0123456789";

let database: TestDatabase;
let redis: Redis;
let smtp: TestSmtpServer;
let infra: Infrastructure;
beforeAll(async () => {
  database = await createTestDatabase();
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await infra?.scheduler.close();
  await closeTestRedis(redis, prefix);
  await smtp.close();
  await database.close();
});

/** Runs the dying process until it is inside the provider's send, kills it there; the message id. */
function deliveryKilledMidway(to: string, token: string): Promise<string> {
  return killAtMarker([child, database.url!, SECRET, to, token], "SENDING");
}

describe("a notification delivery whose process died", () => {
  it.skipIf(!onPostgres())("is resumed and delivered by the worker once its lease expires", async () => {
    const token = `reset_${randomBytes(12).toString("hex")}`;
    const id = await deliveryKilledMidway("crashed@example.com", token);
    const notifications = createNotificationService({ secret: SECRET, providers: [] });
    expect(await notifications.retrieve(id)).toMatchObject({ status: "pending" });

    const config = loadConfig({
      DATABASE_URL: database.url!,
      REDIS_URL,
      JWT_SECRET: SECRET,
      SMTP_URL: smtp.url,
      LOG_LEVEL: "silent",
    });
    infra = {
      database,
      redis,
      ...createWorkflowRuntime(database, {
        scheduler: createBullMqScheduler({ connection: redis, prefix }),
        modules: { secret: config.jwt.secret, smtpUrl: config.env.SMTP_URL },
      }),
    };
    const [execution] = (await infra.engine.list({ workflow_id: ["send-notification"] }, { limit: 10, offset: 0 }))
      .items;
    expect(execution).toMatchObject({
      state: "running",
      idempotency_key: `notification:${id}`,
      lease_owner: "notification-child",
    });

    const worker = await startWorker({ config, infra, recoveryEveryMs: 250 });
    try {
      // The lease (1 s) expires, the recovery sweep (250 ms) queues it, the worker delivers it.
      for (let i = 0; i < 200 && (await notifications.retrieve(id)).status === "pending"; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await waitForMail(smtp, "crashed@example.com")).raw).toContain(token);
      expect(await notifications.retrieve(id)).toMatchObject({
        status: "success",
        provider_id: "smtp",
        data: { token: "[redacted]" },
      });
      // The notification's status commits inside the step; the execution's end is the journal's next
      // write, a moment later.
      let done = await infra.engine.retrieve(execution!.id);
      for (let i = 0; i < 200 && done.state === "running"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        done = await infra.engine.retrieve(execution!.id);
      }
      expect(done).toMatchObject({ state: "succeeded", result: { id, status: "success" } });
      expect(done.steps).toMatchObject([{ name: "deliver-notification", state: "succeeded", attempts: 2 }]);
      expect(smtp.mails.filter((m) => m.to.includes("crashed@example.com"))).toHaveLength(1);
    } finally {
      await worker.close();
    }
  });
});
