import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { lookup } from "node:dns/promises";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { errors } from "@kasse/core";
import { transaction } from "@kasse/db";
import { createTestDatabase, onPostgres, type TestDatabase } from "@kasse/db/testing";
import { createEngine, step, workflow } from "@kasse/workflows";
import {
  catalogEntries,
  createEventDispatcher,
  createEventService,
  createWebhookService,
  DEFAULT_RETRY_SCHEDULE,
  eventOutbox,
  eventProblems,
  eventsReleased,
  isPrivateAddress,
  recordEvent,
  type EventDispatcherOptions,
  type EventRow,
} from "./index";
import { event, webhook } from "./schema";
import { createModules } from "../modules";

let database: TestDatabase;
const secret = "event-test-secret";
const events = createEventService();

/** A local receiver: records every request; `answer` decides the status of the next one. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}
let server: Server;
let base = "";
const received: Received[] = [];
let answer: (n: number) => number = () => 200;

beforeAll(async () => {
  database = await createTestDatabase();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body, at: Date.now() });
      const status = answer(received.length);
      if (status === 302) res.writeHead(302, { location: "http://example.com/" });
      else res.writeHead(status);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await database.close();
});

const reset = async () => {
  received.length = 0;
  answer = () => 200;
  await database.db.delete(webhook);
};

/** A dispatcher over `hooks` whose one subscriber, `name`, handles every event with `handle`. */
const subscribedDispatcher = (
  hooks: EventDispatcherOptions["webhooks"],
  name: string,
  handle: () => Promise<void>,
  retries: Pick<EventDispatcherOptions, "retrySchedule" | "jitter">,
) => createEventDispatcher({ webhooks: hooks, subscribers: [{ name, events: ["*"], handle }], ...retries });

/** A clean start for a delivery test (no webhooks; no events either with `clearEvents`) and the webhook service that may call this machine. */
const freshHooks = async (options: { clearEvents?: boolean } = {}) => {
  await reset();
  if (options.clearEvents) await database.db.delete(event);
  return createWebhookService({ secret, allowPrivate: true });
};

describe("the event outbox", () => {
  it("a workflow's events are released when it succeeds; a compensated one releases none but its compensation's", async () => {
    const engine = createEngine({ events: eventOutbox, db: database.db, modules: () => createModules() });
    const create = step("test-create-product", {
      invoke: async (input: { id: string }, ctx) => {
        await ctx.emit("product.created", { id: input.id });
        return { output: input.id };
      },
      compensate: async (id, ctx) => ctx.emit("product.deleted", { id }),
    });
    const fail = step("test-fail", {
      invoke: async (input: { fail: boolean }) => {
        if (input.fail) throw errors.invalidData("declined");
        return { output: null };
      },
    });
    const wf = workflow("test-emit", async (input: { id: string; fail: boolean }, ctx) => {
      await ctx.run(create, { id: input.id });
      await ctx.run(fail, { fail: input.fail });
      return input.id;
    });
    await expect(engine.execute(wf, { id: "prod_failed", fail: true })).rejects.toMatchObject({ type: "invalid_data" });
    await engine.execute(wf, { id: "prod_ok", fail: false });
    const claimed = await events.claim(50, 1_000);
    const seen = claimed.map((e) => `${e.name}:${String(e.data.id)}`);
    expect(seen).toContain("product.created:prod_ok");
    expect(seen).toContain("product.deleted:prod_failed");
    expect(seen).not.toContain("product.created:prod_failed");
    // The unreleased event of the compensated execution is purged, never delivered.
    expect(await events.purgeDiscarded()).toBe(1);
    // Retention: a dispatched event past it goes; a recent one stays.
    const old = claimed.find((e) => e.name === "product.created")!;
    await database.db
      .update(event)
      .set({ dispatched_at: new Date(Date.now() - 31 * 86_400_000) })
      .where(eq(event.id, old.id));
    const recent = claimed.find((e) => e.name === "product.deleted")!;
    await database.db.update(event).set({ dispatched_at: new Date() }).where(eq(event.id, recent.id));
    expect(await events.purgeDelivered(30)).toBe(1);
    await database.db.update(event).set({ dispatched_at: null }).where(eq(event.id, recent.id));
    await recordEvent("product.created", { id: "prod_ok" });
    const all = await database.db.select().from(event);
    expect(all.map((e) => `${e.name}:${String(e.data.id)}`).sort()).toEqual([
      "product.created:prod_ok",
      "product.deleted:prod_failed",
    ]);
    for (const row of all) {
      expect(row.id).toMatch(/^evt_/);
      expect(row.version).toBe(1);
      expect(eventProblems(row.name, row.data)).toEqual([]);
    }
    await database.db.delete(event);
  });

  it("says how long the oldest event still to be delivered has waited, leaving out those a compensated execution left", async () => {
    expect(await events.oldestWaitingAge()).toBe(0);
    const engine = createEngine({ events: eventOutbox, db: database.db, modules: () => createModules() });
    const emit = step("test-age-emit", {
      invoke: async (_input: null, ctx) => {
        await ctx.emit("product.created", { id: "prod_age" });
        return { output: null };
      },
    });
    const decline = step("test-age-decline", {
      invoke: async () => {
        throw errors.invalidData("declined");
      },
    });
    const wf = workflow("test-age", async (_input: null, ctx) => {
      await ctx.run(emit, null);
      await ctx.run(decline, null);
    });
    await expect(engine.execute(wf, null)).rejects.toMatchObject({ type: "invalid_data" });
    // Never delivered, however old: only the purge removes it.
    await database.db.update(event).set({ created_at: new Date(Date.now() - 3_600_000) });
    expect(await events.oldestWaitingAge()).toBe(0);
    await recordEvent("product.deleted", { id: "prod_age" });
    await database.db
      .update(event)
      .set({ created_at: new Date(Date.now() - 120_000) })
      .where(eq(event.name, "product.deleted"));
    const age = await events.oldestWaitingAge();
    expect(age).toBeGreaterThanOrEqual(120);
    expect(age).toBeLessThan(180);
    await events.markDispatched((await database.db.select().from(event)).map((e) => e.id));
    expect(await events.oldestWaitingAge()).toBe(0);
    await database.db.delete(event);
  });

  it("refuses a payload that does not match the catalog, and an unknown name", async () => {
    await expect(recordEvent("order.canceled", { id: 1 } as never)).rejects.toMatchObject({
      type: "unexpected_state",
    });
    await expect(recordEvent("order.canceled", { id: "order_1", whole_order: {} } as never)).rejects.toMatchObject({
      type: "unexpected_state",
    });
    expect(eventProblems("order.exploded", {})).toEqual(["'order.exploded' is not in the event catalog"]);
    expect(await database.db.select().from(event)).toHaveLength(0);
  });
});

describe("webhooks", () => {
  it("validates endpoints: no private, loopback or link-local address unless allowed, known event names only", async () => {
    await reset();
    const strict = createWebhookService({ secret });
    for (const url of [
      "http://127.0.0.1:9/x",
      "http://localhost/x",
      "http://[::1]/x",
      "http://169.254.169.254/latest",
      "http://10.1.2.3/",
      "http://192.168.0.1/",
      "http://[::ffff:127.0.0.1]/",
      "ftp://example.com/",
      "http://u:p@example.com/",
      "not a url",
    ]) {
      await expect(strict.create({ url, events: ["*"] }), url).rejects.toMatchObject({ type: "invalid_data" });
    }
    await expect(strict.create({ url: "https://example.com/hooks", events: ["order.exploded"] })).rejects.toMatchObject(
      { type: "invalid_data" },
    );
    expect(await database.db.select().from(webhook)).toHaveLength(0);
    const created = await strict.create({ url: "https://example.com/hooks", events: ["order.placed", "order.placed"] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created.events).toEqual(["order.placed"]);
    expect(Object.keys(await strict.retrieve(created.id))).not.toContain("secret");
    // Stored sealed, never as it is.
    const [row] = await database.db.select().from(webhook).where(eq(webhook.id, created.id));
    expect(row!.secret).not.toContain(created.secret.slice(6));
    expect(strict.openSecret(row!)).toBe(created.secret);
    expect(isPrivateAddress("8.8.8.8")).toBe(false);
    expect(isPrivateAddress("100.64.1.1")).toBe(true);
  });

  it("delivers a signed Standard Webhooks message that verifies, after subscribers ran; a retry keeps the webhook-id", async () => {
    const hooks = await freshHooks();
    const { secret: whsec, id } = await hooks.create({
      url: `${base}/hook`,
      events: ["order.placed"],
      description: "shop",
    });
    await hooks.create({ url: `${base}/other`, events: ["order.canceled"] });
    const handled: EventRow[] = [];
    const outcomes: string[] = [];
    const dispatcher = createEventDispatcher({
      webhooks: hooks,
      subscribers: [{ name: "test", events: ["order.placed"], handle: async (e) => void handled.push(e) }],
      retrySchedule: [600, 600, 600],
      jitter: 0,
      onDelivery: (outcome) => outcomes.push(outcome),
    });
    answer = (n) => (n <= 2 ? 500 : 200);
    const data = {
      id: "order_1",
      display_id: 1,
      cart_id: "cart_1",
      customer_id: null,
      email: "a@example.com",
      currency_code: "eur",
      total: 1250,
      item_count: 2,
    };
    await recordEvent("order.placed", data);
    await dispatcher.run();
    expect(handled.map((e) => e.name)).toEqual(["order.placed"]);
    expect(received).toHaveLength(1);
    // The 500 is retried on the schedule until the receiver recovers.
    for (let i = 0; i < 100 && received.length < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await dispatcher.run();
    }
    expect(received).toHaveLength(3);
    expect(outcomes).toEqual(["failed", "failed", "succeeded"]);
    expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(590);
    expect(received[2]!.at - received[1]!.at).toBeGreaterThanOrEqual(590);
    const ids = new Set(received.map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const verifier = new Webhook(whsec);
    for (const r of received) {
      const payload = verifier.verify(r.body, {
        "webhook-id": String(r.headers["webhook-id"]),
        "webhook-timestamp": String(r.headers["webhook-timestamp"]),
        "webhook-signature": String(r.headers["webhook-signature"]),
      });
      expect(payload).toEqual({
        id: handled[0]!.id,
        type: "order.placed",
        timestamp: handled[0]!.created_at.toISOString(),
        data,
      });
    }
    expect(received[0]!.headers["content-type"]).toBe("application/json");
    // The delivery log: each attempt with its status, duration, error and next retry.
    const log = await hooks.listDeliveries(id, {}, { limit: 10, offset: 0 });
    expect(log.count).toBe(3);
    const [third, second, first] = log.items;
    expect(first).toMatchObject({
      attempt: 1,
      status: "failed",
      status_code: 500,
      error: "HTTP 500",
      event_id: handled[0]!.id,
      event_name: "order.placed",
    });
    expect(first!.next_retry_at).toBeInstanceOf(Date);
    expect(second).toMatchObject({ attempt: 2, status: "failed", status_code: 500 });
    expect(third).toMatchObject({
      attempt: 3,
      status: "succeeded",
      status_code: 200,
      error: null,
      next_retry_at: null,
    });
    expect(third!.duration_ms).toBeGreaterThanOrEqual(0);
    // Back to healthy: the failure record is cleared. A redelivery sends the same message again.
    expect((await hooks.retrieve(id)).failing_since).toBeNull();
    const again = await hooks.redeliver(id, first!.id);
    expect(again).toMatchObject({ attempt: 4, status: "scheduled", event_id: handled[0]!.id });
    await dispatcher.run();
    expect(received).toHaveLength(4);
    expect(received[3]!.headers["webhook-id"]).toBe(handled[0]!.id);
    // The subscriber is not run again for a delivered event, nor is anything sent twice.
    await dispatcher.run();
    expect(handled).toHaveLength(1);
    expect(received).toHaveLength(4);
    await dispatcher.close();
  });

  it("a release announced inside a transaction sends nothing before it commits, and nothing of one rolled back", async () => {
    const hooks = await freshHooks({ clearEvents: true });
    await hooks.create({ url: `${base}/hook`, events: ["customer.updated"] });
    const handled: string[] = [];
    const dispatcher = createEventDispatcher({
      webhooks: hooks,
      subscribers: [{ name: "test", events: ["*"], handle: async (e) => void handled.push(String(e.data.id)) }],
    });
    // Both announce the release from inside the write's transaction, as a write joined by its
    // caller's does. On PostgreSQL a whole round runs meanwhile (PGlite's one connection is the
    // transaction's: its round waits for the end).
    await transaction(async () => {
      await recordEvent("customer.updated", { id: "cus_committed", fields: ["first_name"] });
      eventsReleased();
      if (onPostgres()) await dispatcher.run();
      expect(received).toHaveLength(0);
    });
    await transaction(async () => {
      await recordEvent("customer.updated", { id: "cus_rolled_back", fields: ["first_name"] });
      eventsReleased();
      if (onPostgres()) await dispatcher.run();
      throw errors.invalidData("declined");
    }).catch(() => undefined);
    await dispatcher.run();
    expect(handled).toEqual(["cus_committed"]);
    expect(received.map((r) => JSON.parse(r.body).data.id)).toEqual(["cus_committed"]);
    expect((await database.db.select().from(event)).map((e) => e.data.id)).toEqual(["cus_committed"]);
    await dispatcher.close();
    await database.db.delete(event);
  });

  it("a failing subscriber keeps the event for another dispatch; webhooks get it once", async () => {
    const hooks = await freshHooks();
    await hooks.create({ url: `${base}/hook`, events: ["*"] });
    let calls = 0;
    const flaky = async () => {
      if (++calls === 1) throw new Error("mail server down");
    };
    const dispatcher = subscribedDispatcher(hooks, "flaky", flaky, { retrySchedule: [1_000], jitter: 0 });
    await recordEvent("customer.updated", { id: "cus_1", fields: ["first_name"] });
    await dispatcher.run();
    const [waiting] = await database.db.select().from(event).where(eq(event.name, "customer.updated"));
    expect(waiting).toMatchObject({ dispatched_at: null, attempts: 1 });
    expect(waiting!.last_error).toContain("mail server down");
    await new Promise((resolve) => setTimeout(resolve, 1_050));
    await dispatcher.run();
    const [done] = await database.db.select().from(event).where(eq(event.name, "customer.updated"));
    expect(done!.dispatched_at).toBeInstanceOf(Date);
    expect(calls).toBe(2);
    expect(received).toHaveLength(1);
    await dispatcher.close();
  });

  it("a subscriber still failing after the whole retry schedule: the event is dispatched with its error", async () => {
    const hooks = await freshHooks({ clearEvents: true });
    const broken = async () => {
      throw new Error("template missing");
    };
    const dispatcher = subscribedDispatcher(hooks, "broken", broken, { retrySchedule: [] });
    await recordEvent("customer.updated", { id: "cus_2", fields: ["last_name"] });
    await dispatcher.run();
    const [given] = await database.db.select().from(event).where(eq(event.name, "customer.updated"));
    expect(given).toMatchObject({ attempts: 1, next_attempt_at: null, last_error: "broken: template missing" });
    expect(given!.dispatched_at).toBeInstanceOf(Date);
    await dispatcher.close();
  });

  it("does not follow redirects, refuses a host resolving to a private address at delivery, and disables an endpoint failing too long", async () => {
    await reset();
    const permissive = createWebhookService({ secret, allowPrivate: true });
    const strict = createWebhookService({ secret });
    answer = () => 302;
    const redirected = await permissive.create({ url: `${base}/moved`, events: ["*"] });
    const dispatcher = createEventDispatcher({
      webhooks: permissive,
      subscribers: [],
      retrySchedule: [60_000],
      disableAfterMs: 60 * 60_000,
    });
    await recordEvent("cart.created", { id: "cart_1", currency_code: "eur", customer_id: null });
    await dispatcher.run();
    expect(received).toHaveLength(1);
    const [moved] = (await permissive.listDeliveries(redirected.id, {}, { limit: 5, offset: 0 })).items.filter(
      (d) => d.attempt === 1,
    );
    expect(moved).toMatchObject({ status: "failed", status_code: 302 });
    expect(moved!.error).toContain("redirects are not followed");
    expect((await permissive.retrieve(redirected.id)).enabled).toBe(true);
    await dispatcher.close();

    // A name that resolves to this machine passes the URL check but not the delivery's.
    const host = hostname();
    const resolved = await lookup(host).catch(() => undefined);
    if (resolved && isPrivateAddress(resolved.address)) {
      await database.db.delete(webhook);
      const port = new URL(base).port;
      const sneaky = await strict.create({ url: `http://${host}:${port}/hook`, events: ["*"] });
      const guarded = createEventDispatcher({
        webhooks: strict,
        subscribers: [],
        retrySchedule: [60_000],
        disableAfterMs: 0,
      });
      await recordEvent("cart.updated", { id: "cart_1" });
      await guarded.run();
      expect(received).toHaveLength(1);
      const log = (await strict.listDeliveries(sneaky.id, {}, { limit: 5, offset: 0 })).items;
      const refused = log.find((d) => d.attempt === 1);
      expect(refused).toMatchObject({ status: "failed", status_code: null });
      expect(refused!.error).toContain("private address");
      // Failing for longer than allowed (0 here): disabled, and the admin sees why.
      const disabled = await strict.retrieve(sneaky.id);
      expect(disabled.enabled).toBe(false);
      expect(disabled.disabled_reason).toContain("every delivery has failed since");
      expect(disabled.disabled_reason).toContain("private address");
      await expect(strict.redeliver(sneaky.id, refused!.id)).rejects.toMatchObject({ type: "not_allowed" });
      // Re-enabled by the admin: the failure record is cleared and its pending retry goes out again.
      expect(await strict.update(sneaky.id, { enabled: true })).toMatchObject({
        enabled: true,
        disabled_reason: null,
        failing_since: null,
      });
      await guarded.close();
    }
  });
});

describe("the catalog", () => {
  it("is listed in docs/events.md with every payload field, and the default retry schedule with it", () => {
    const section = readFileSync(fileURLToPath(new URL("../../../../docs/events.md", import.meta.url)), "utf8");
    expect(section.length).toBeGreaterThan(1000);
    for (const entry of catalogEntries()) {
      const row = section.split("\n").find((line) => line.startsWith(`| \`${entry.name}\` |`));
      expect(row, entry.name).toBeDefined();
      for (const field of Object.keys(entry.data.properties))
        expect(row, `${entry.name}.${field}`).toContain(`\`${field}\``);
    }
    expect(DEFAULT_RETRY_SCHEDULE).toBe("5s,5m,30m,2h,5h,10h,10h");
    expect(section).toContain("5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h");
  });
});
