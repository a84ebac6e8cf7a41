import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing";
import { createPublishableKeyCache, resolveSalesChannels } from "./publishable-key";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      // A route with the store group's hook that shows what it resolved.
      extraRoutes: async (app) => {
        await app.register(async (probe) => {
          probe.addHook("onRequest", resolveSalesChannels(probe.publishableKeys));
          probe.get("/store-probe", async (request) => ({
            sales_channel_ids: request.salesChannelIds,
            publishable_key_id: request.publishableKeyId,
          }));
        });
      },
    },
  );
});
afterAll(() => t.close());

const probe = (key?: string) =>
  t.app.inject({
    method: "GET",
    url: "/store-probe",
    headers: key === undefined ? {} : { "x-publishable-api-key": key },
  });

async function publishableKey(channelIds: string[]) {
  const key = (await t.admin.post("/admin/api-keys", { title: "Storefront", type: "publishable" })).json().api_key;
  if (channelIds.length) await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: channelIds });
  return key as { id: string; token: string };
}

describe("x-publishable-api-key on store routes", () => {
  it("without the header uses the default sales channel", async () => {
    const res = await probe();
    expect(res.statusCode).toBe(200);
    const defaultChannel = await t.app.modules.salesChannel.getOrCreateDefault();
    expect(res.json()).toEqual({ sales_channel_ids: [defaultChannel.id], publishable_key_id: null });
  });

  it("a valid key sets its sales channels", async () => {
    const web = (await t.admin.post("/admin/sales-channels", { name: "Web" })).json().sales_channel;
    const app = (await t.admin.post("/admin/sales-channels", { name: "App" })).json().sales_channel;
    const key = await publishableKey([web.id, app.id]);
    const res = await probe(key.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().publishable_key_id).toBe(key.id);
    expect([...res.json().sales_channel_ids].sort()).toEqual([web.id, app.id].sort());
    // A key without channels is valid and selects none.
    const empty = await publishableKey([]);
    expect((await probe(empty.token)).json()).toEqual({ sales_channel_ids: [], publishable_key_id: empty.id });
  });

  it("a missing, unknown, secret or revoked key answers 400 invalid_data", async () => {
    const secret = (await t.admin.post("/admin/api-keys", { title: "S", type: "secret" })).json().api_key;
    for (const header of ["", "pk_unknown", secret.token]) {
      const res = await probe(header);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    await t.admin.post(`/admin/api-keys/${secret.id}/revoke`);

    const key = await publishableKey([]);
    expect((await probe(key.token)).statusCode).toBe(200);
    await t.admin.post(`/admin/api-keys/${key.id}/revoke`);
    const revoked = await probe(key.token);
    expect(revoked.statusCode).toBe(400);
    expect(revoked.json().type).toBe("invalid_data");
  });

  it("channel changes apply at once on this process", async () => {
    const channel = (await t.admin.post("/admin/sales-channels", { name: "Later" })).json().sales_channel;
    const key = await publishableKey([]);
    expect((await probe(key.token)).json().sales_channel_ids).toEqual([]);
    await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: [channel.id] });
    expect((await probe(key.token)).json().sales_channel_ids).toEqual([channel.id]);
  });

  it("leaves out disabled channels, at once on this process: a key's, and the default one without a key", async () => {
    const on = (await t.admin.post("/admin/sales-channels", { name: "On" })).json().sales_channel;
    const off = (await t.admin.post("/admin/sales-channels", { name: "Off" })).json().sales_channel;
    const key = await publishableKey([on.id, off.id]);
    expect([...(await probe(key.token)).json().sales_channel_ids].sort()).toEqual([on.id, off.id].sort());
    await t.admin.post(`/admin/sales-channels/${off.id}`, { is_disabled: true });
    expect((await probe(key.token)).json()).toEqual({ sales_channel_ids: [on.id], publishable_key_id: key.id });
    await t.admin.delete(`/admin/sales-channels/${on.id}`);
    expect((await probe(key.token)).json().sales_channel_ids).toEqual([]);

    const defaultChannel = await t.app.modules.salesChannel.getOrCreateDefault();
    await t.admin.post(`/admin/sales-channels/${defaultChannel.id}`, { is_disabled: true });
    expect((await probe()).json()).toEqual({ sales_channel_ids: [], publishable_key_id: null });
    await t.admin.post(`/admin/sales-channels/${defaultChannel.id}`, { is_disabled: false });
    expect((await probe()).json().sales_channel_ids).toEqual([defaultChannel.id]);
  });

  it("does not touch routes outside /store", async () => {
    expect(
      (await t.app.inject({ method: "GET", url: "/health", headers: { "x-publishable-api-key": "pk_unknown" } }))
        .statusCode,
    ).toBe(200);
  });
});

describe("publishable key cache", () => {
  it("keeps a resolved key for its TTL only: a revocation elsewhere takes effect within it", async () => {
    const keys = t.app.modules.apiKey;
    const cache = createPublishableKeyCache(keys, t.app.modules.salesChannel, 200);
    const key = await keys.create({ title: "Cached", type: "publishable" }, "user_1");
    expect(await cache.resolve(key.token)).toEqual({ id: key.id, sales_channel_ids: [] });
    await keys.revoke(key.id, "user_1");
    expect(await cache.resolve(key.token)).toEqual({ id: key.id, sales_channel_ids: [] });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await cache.resolve(key.token)).toBeNull();
    // Unknown tokens are not cached: a key created after a miss works at once.
    expect(await cache.resolve("pk_later")).toBeNull();
  });
});
