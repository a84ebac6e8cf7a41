import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Redis } from "ioredis";
import { onPostgres } from "@kasse/db/testing";
import { payment, paymentWebhookEvent } from "@kasse/modules/payment/tables";
import { createBullMqScheduler, type Scheduler } from "@kasse/workflows";
import {
  checkoutReadyCart,
  checkoutStore,
  createTestApp,
  eventsOf,
  orderCounts,
  payIntent,
  webhookTarget,
  type TestApp,
} from "@kasse/api/testing";
import { startStripeFake, type StripeFake } from "@kasse/modules/payment/testing";
import { startWorker, type RunningWorker } from "../src";
import { closeTestRedis } from "./fixtures/redis";
import { spawnUntilReady } from "./fixtures/spawn-events-worker";

// A worker process is killed (SIGKILL) while it processes a Stripe webhook: inside the checkout the
// webhook joined, waiting for Stripe's answer to the authorization's read. A worker started after it
// takes the executions over once their leases expire: the order exists once, authorized once.
// Needs PostgreSQL (two processes) and Redis (BullMQ).

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `kasse-stripe-${randomBytes(4).toString("hex")}`;
const child = fileURLToPath(new URL("./fixtures/stripe-child.ts", import.meta.url));

let fake: StripeFake;
let redis: Redis;
let scheduler: Scheduler;
let t: TestApp;
let proc: ChildProcess | undefined;
let worker: RunningWorker | undefined;

beforeAll(async () => {
  if (!onPostgres()) return;
  fake = await startStripeFake();
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  scheduler = createBullMqScheduler({ connection: redis, prefix });
  t = await createTestApp(
    { STRIPE_API_KEY: fake.apiKey, STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_URL: fake.url },
    { scheduler },
  );
});
afterAll(async () => {
  if (!onPostgres()) return;
  proc?.kill("SIGKILL");
  await worker?.close();
  await t.close();
  await scheduler.close();
  await closeTestRedis(redis, prefix);
  await fake.close();
});

/** Starts the Stripe worker process; resolves once it is ready. */
const spawnStripeWorker = (): Promise<ChildProcess> =>
  spawnUntilReady(child, [t.database.url!, REDIS_URL, prefix, fake.url, fake.apiKey, fake.webhookSecret]);

describe.skipIf(!onPostgres())("the worker killed while it processes a Stripe webhook", () => {
  it("after a restart the order exists once, authorized once", async () => {
    const store = await checkoutStore(t, {
      region: { name: "Europe", currency_code: "eur", countries: ["de"], payment_providers: ["pp_stripe_stripe"] },
      variants: [{ title: "M", size: "M", stock: 10, prices: [{ currency_code: "eur", amount: 2_000 }] }],
    });
    const cart = await checkoutReadyCart(t, {
      region_id: store.regionId,
      option_id: store.optionId,
      variant_id: store.variantIds[0]!,
      provider: "pp_stripe_stripe",
    });
    const intentId: string = cart.payment_collection.payment_sessions[0].data.id;
    await payIntent(fake, intentId);
    proc = await spawnStripeWorker();

    // The authorization's read of the intent never answers: the worker is inside the checkout.
    fake.fail("payment_intents.retrieve", { mode: "hang", times: 1 });
    const [event] = eventsOf(fake, intentId, "payment_intent.amount_capturable_updated");
    const [delivery] = await fake.sendEvents(webhookTarget(t), [event!]);
    expect(delivery!.status).toBe(200);
    await vi.waitFor(
      () =>
        expect(fake.requests.some((r) => r.operation === "payment_intents.retrieve" && r.status === "hang")).toBe(true),
      { timeout: 60_000, interval: 20 },
    );
    const running = proc;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
    proc = undefined;
    expect((await orderCounts(t, [cart.id])).get(cart.id)).toBe(0);

    worker = await startWorker({ config: t.config, infra: t.app.infra, recoveryEveryMs: 500 });
    await vi.waitFor(
      async () => {
        const [row] = await t.database.db
          .select()
          .from(paymentWebhookEvent)
          .where(eq(paymentWebhookEvent.event_id, event!.id));
        expect(row!.processed_at).not.toBeNull();
      },
      { timeout: 60_000, interval: 200 },
    );
    expect((await orderCounts(t, [cart.id])).get(cart.id)).toBe(1);
    const payments = await t.database.db
      .select()
      .from(payment)
      .where(eq(payment.payment_collection_id, cart.payment_collection.id));
    expect(payments).toHaveLength(1);
    expect(fake.counts(intentId)).toMatchObject({ authorizations: 1, captures: 0, cancels: 0 });
    expect(fake.intent(intentId).status).toBe("requires_capture");
  }, 180_000);
});
