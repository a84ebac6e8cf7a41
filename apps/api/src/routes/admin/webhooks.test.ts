import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { queryRows } from "@kasse/db";
import { createEventDispatcher, recordEvent } from "@kasse/modules/event";
import { webhook as webhookTable } from "@kasse/modules/event/tables";
import { createTestApp, startWebhookReceiver, type TestApp, type WebhookReceiver } from "../../testing";

let t: TestApp;
let strict: TestApp;
let admin: Record<string, string>;
let hooks: WebhookReceiver;
let receiver = "";

beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
  strict = await createTestApp();
  admin = await t.adminHeaders();
  hooks = await startWebhookReceiver({ status: 204 });
  receiver = hooks.url;
});
afterAll(async () => {
  await hooks.close();
  await Promise.all([t.close(), strict.close()]);
});

const post = (url: string, payload?: unknown, app = t, headers = admin) =>
  app.app.inject({ method: "POST", url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const get = (url: string, app = t, headers = admin) => app.app.inject({ method: "GET", url, headers });

describe("admin webhooks", () => {
  it("creates an endpoint showing its secret once, lists, updates, rotates the secret and deletes", async () => {
    const created = await post("/admin/webhooks", {
      url: receiver,
      events: ["order.placed", "order.canceled"],
      description: "ERP",
    });
    expect(created.statusCode, created.body).toBe(200);
    const hook = created.json().webhook;
    expect(hook).toMatchObject({
      url: receiver,
      events: ["order.placed", "order.canceled"],
      description: "ERP",
      enabled: true,
      failing_since: null,
      disabled_reason: null,
    });
    expect(hook.id).toMatch(/^wh_/);
    expect(hook.secret).toMatch(/^whsec_/);
    expect(Object.keys(hook).sort()).toEqual([
      "created_at",
      "description",
      "disabled_reason",
      "enabled",
      "events",
      "failing_since",
      "id",
      "secret",
      "updated_at",
      "url",
    ]);

    const one = (await get(`/admin/webhooks/${hook.id}`)).json().webhook;
    expect(one).not.toHaveProperty("secret");
    expect(one.id).toBe(hook.id);
    const list = await get("/admin/webhooks?limit=10");
    expect(list.json()).toMatchObject({ count: 1, limit: 10, offset: 0 });
    expect(list.body).not.toContain(hook.secret);
    expect(Object.keys((await get("/admin/webhooks?fields=url")).json().webhooks[0]).sort()).toEqual(["id", "url"]);

    const updated = await post(`/admin/webhooks/${hook.id}`, { events: ["*"], enabled: false });
    expect(updated.json().webhook).toMatchObject({ events: ["*"], enabled: false });
    expect((await get("/admin/webhooks?enabled=false")).json().count).toBe(1);

    const rotated = await post(`/admin/webhooks/${hook.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().webhook.secret).toMatch(/^whsec_/);
    expect(rotated.json().webhook.secret).not.toBe(hook.secret);

    // The secret is stored sealed: neither secret appears in any column as it is.
    const [stored] = await queryRows<{ row: string }>(
      t.database.db,
      sql`select w::text as row from webhook w where id = ${hook.id}`,
    );
    expect(stored!.row).not.toContain(hook.secret.slice(6));
    expect(stored!.row).not.toContain(rotated.json().webhook.secret.slice(6));

    const deleted = await t.admin.delete(`/admin/webhooks/${hook.id}`);
    expect(deleted.json()).toEqual({ id: hook.id, object: "webhook", deleted: true });
    expect((await get(`/admin/webhooks/${hook.id}`)).statusCode).toBe(404);
  });

  it("rejects bad input with 400 invalid_data, unknown ids with 404, anonymous callers with 401, and writes nothing", async () => {
    const before = (await t.database.db.select().from(webhookTable)).length;
    for (const body of [
      {},
      { url: receiver },
      { events: ["*"] },
      { url: 5, events: ["*"] },
      { url: receiver, events: "order.placed" },
      { url: receiver, events: [] },
      { url: receiver, events: ["order.exploded"] },
      { url: receiver, events: ["*"], secret: "mine" },
      { url: "ftp://example.com/x", events: ["*"] },
      { url: "x".repeat(5000), events: ["*"] },
    ]) {
      const res = await post("/admin/webhooks", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    // Without WEBHOOK_ALLOW_PRIVATE, loopback, private and link-local endpoints are refused.
    const strictAdmin = await strict.adminHeaders();
    for (const url of [
      receiver,
      "http://localhost:9/x",
      "http://169.254.169.254/latest/meta-data",
      "http://10.0.0.1/x",
      "http://[::1]/x",
    ]) {
      const res = await post("/admin/webhooks", { url, events: ["*"] }, strict, strictAdmin);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toMatch(/loopback|this machine/);
    }
    expect(
      (await post("/admin/webhooks", { url: "https://hooks.example.com/kasse", events: ["*"] }, strict, strictAdmin))
        .statusCode,
    ).toBe(200);
    expect((await t.database.db.select().from(webhookTable)).length).toBe(before);

    for (const [method, url] of [
      ["GET", "/admin/webhooks/wh_missing"],
      ["POST", "/admin/webhooks/wh_missing"],
      ["DELETE", "/admin/webhooks/wh_missing"],
      ["POST", "/admin/webhooks/wh_missing/rotate-secret"],
      ["GET", "/admin/webhooks/wh_missing/deliveries"],
      ["POST", "/admin/webhooks/wh_missing/deliveries/whd_missing/redeliver"],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: admin, ...(method === "POST" ? { payload: {} } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().type).toBe("not_found");
    }
    expect((await t.app.inject({ method: "GET", url: "/admin/webhooks" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "POST", url: "/admin/webhooks", payload: { url: receiver, events: ["*"] } }))
        .statusCode,
    ).toBe(401);
    expect((await post("/admin/webhooks/wh_x/rotate-secret", { extra: 1 })).statusCode).toBe(400);
  });

  it("lists each delivery attempt and redelivers one with the same webhook-id, signed with the current secret", async () => {
    const { webhook } = (await post("/admin/webhooks", { url: receiver, events: ["product.created"] })).json();
    const dispatcher = createEventDispatcher({ webhooks: t.app.modules.webhooks, subscribers: [] });
    await recordEvent("product.created", { id: "prod_hook" });
    hooks.received.length = 0;
    await dispatcher.run();
    expect(hooks.received).toHaveLength(1);
    const deliveries = await get(`/admin/webhooks/${webhook.id}/deliveries`);
    expect(deliveries.statusCode).toBe(200);
    expect(deliveries.json()).toMatchObject({ count: 1, offset: 0, limit: 15 });
    const [first] = deliveries.json().deliveries;
    expect(first).toMatchObject({
      attempt: 1,
      status: "succeeded",
      status_code: 204,
      error: null,
      next_retry_at: null,
      event_name: "product.created",
      webhook_id: webhook.id,
    });
    expect(first.event_id).toMatch(/^evt_/);
    expect(typeof first.duration_ms).toBe("number");
    expect((await get(`/admin/webhooks/${webhook.id}/deliveries?status=failed`)).json().count).toBe(0);
    expect((await get(`/admin/webhooks/${webhook.id}/deliveries?status=lost`)).statusCode).toBe(400);

    const rotated = (await post(`/admin/webhooks/${webhook.id}/rotate-secret`)).json().webhook;
    const again = await post(`/admin/webhooks/${webhook.id}/deliveries/${first.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().delivery).toMatchObject({ attempt: 2, status: "scheduled", event_id: first.event_id });
    await dispatcher.run();
    expect(hooks.received).toHaveLength(2);
    expect(hooks.received[1]!.headers["webhook-id"]).toBe(hooks.received[0]!.headers["webhook-id"]);
    expect(hooks.received[1]!.body).toBe(hooks.received[0]!.body);
    const message = new Webhook(rotated.secret).verify(hooks.received[1]!.body, {
      "webhook-id": String(hooks.received[1]!.headers["webhook-id"]),
      "webhook-timestamp": String(hooks.received[1]!.headers["webhook-timestamp"]),
      "webhook-signature": String(hooks.received[1]!.headers["webhook-signature"]),
    });
    expect(message).toMatchObject({ id: first.event_id, type: "product.created", data: { id: "prod_hook" } });
    // Someone else's delivery id is not found under this endpoint.
    const other = (await post("/admin/webhooks", { url: receiver, events: ["*"] })).json().webhook;
    expect((await post(`/admin/webhooks/${other.id}/deliveries/${first.id}/redeliver`)).statusCode).toBe(404);
    await dispatcher.close();
  });
});
