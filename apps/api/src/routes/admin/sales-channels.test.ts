import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();
let admin: Record<string, string>;
beforeAll(async () => {
  admin = await t.adminHeaders();
});

describe("admin sales channels", () => {
  it("creates, retrieves, updates, lists and soft-deletes", async () => {
    const created = await t.admin.post("/admin/sales-channels", { name: "Web", description: "Online" });
    expect(created.statusCode).toBe(200);
    const channel = created.json().sales_channel;
    expect(channel).toMatchObject({ name: "Web", description: "Online", is_disabled: false });
    expect(channel.id).toMatch(/^sc_/);

    expect((await t.admin.get(`/admin/sales-channels/${channel.id}`)).json().sales_channel.name).toBe("Web");
    const updated = await t.admin.post(`/admin/sales-channels/${channel.id}`, { is_disabled: true });
    expect(updated.json().sales_channel.is_disabled).toBe(true);

    await t.admin.post("/admin/sales-channels", { name: "Retail" });
    const list = await t.admin.get("/admin/sales-channels?q=web&limit=1");
    expect(list.json()).toMatchObject({ count: 1, limit: 1, offset: 0 });
    expect(list.json().sales_channels[0].id).toBe(channel.id);

    const fields = await t.admin.get(`/admin/sales-channels?fields=name&order=-name`);
    expect(fields.json().sales_channels.map((c: { name: string }) => c.name)).toEqual(["Web", "Retail"]);
    expect(Object.keys(fields.json().sales_channels[0]).sort()).toEqual(["id", "name"]);

    const deleted = await t.admin.delete(`/admin/sales-channels/${channel.id}`);
    expect(deleted.json()).toEqual({ id: channel.id, object: "sales_channel", deleted: true });
    expect((await t.admin.get(`/admin/sales-channels/${channel.id}`)).statusCode).toBe(404);
  });

  it("lists the channels of a publishable key and of a stock location (Medusa's publishable_key_id, location_id)", async () => {
    const channel = async (name: string) =>
      (await t.admin.post("/admin/sales-channels", { name })).json().sales_channel.id as string;
    const [web, app, shop] = [await channel("Key web"), await channel("Key app"), await channel("Shop floor")];
    const key = (await t.admin.post("/admin/api-keys", { title: "Storefront", type: "publishable" })).json().api_key;
    await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: [web, app] });
    const location = (await t.admin.post("/admin/stock-locations", { name: "Depot" })).json().stock_location;
    await t.admin.post(`/admin/stock-locations/${location.id}/sales-channels`, { add: [app, shop] });
    const ids = async (query: string) =>
      ((await t.admin.get(`/admin/sales-channels?${query}`)).json().sales_channels as Array<{ id: string }>)
        .map((c) => c.id)
        .sort();

    expect(await ids(`publishable_key_id=${key.id}`)).toEqual([web, app].sort());
    expect(await ids(`location_id[]=${location.id}`)).toEqual([app, shop].sort());
    expect(await ids(`publishable_key_id=${key.id}&location_id=${location.id}`)).toEqual([app]);
    expect(await ids(`publishable_key_id=${key.id}&id=${shop}`)).toEqual([]);
    const none = await t.admin.get("/admin/sales-channels?publishable_key_id=apk_unknown");
    expect(none.json()).toMatchObject({ sales_channels: [], count: 0 });
  });

  it("rejects bad input with 400 invalid_data and nothing written", async () => {
    const before = (await t.admin.get("/admin/sales-channels")).json().count;
    for (const body of [{}, { name: 5 }, { name: "" }, { name: "x", unknown: 1 }]) {
      const res = await t.admin.post("/admin/sales-channels", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    const malformed = await t.app.inject({
      method: "POST",
      url: "/admin/sales-channels",
      headers: { ...admin, "content-type": "application/json" },
      payload: "{bad",
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ type: "invalid_data", message: "Malformed JSON in request body" });
    expect((await t.admin.get("/admin/sales-channels")).json().count).toBe(before);
    expect((await t.admin.get("/admin/sales-channels?limit=1001")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/sales-channels?order=nope")).json().type).toBe("invalid_data");
  });

  it("answers unknown ids with 404 not_found", async () => {
    const res = await t.admin.post("/admin/sales-channels/sc_missing", { name: "x" });
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe("not_found");
  });

  it("requires an admin: 401 without credentials, 403 for a customer", async () => {
    expect((await t.app.inject({ method: "GET", url: "/admin/sales-channels" })).statusCode).toBe(401);
    const customer = await t.customerHeaders("cus_1");
    const res = await t.app.inject({ method: "GET", url: "/admin/sales-channels", headers: customer });
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe("not_allowed");
  });
});
