import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

describe("admin stock locations", () => {
  it("creates with an address, retrieves, updates, lists and soft-deletes", async () => {
    const created = await t.admin.post("/admin/stock-locations", {
      name: "Berlin",
      address: { address_1: "Hauptstr. 1", city: "Berlin", country_code: "DE", postal_code: "10115" },
    });
    expect(created.statusCode).toBe(200);
    const location = created.json().stock_location;
    expect(location.id).toMatch(/^sloc_/);
    expect(location).toMatchObject({
      name: "Berlin",
      sales_channels: [],
      address: { address_1: "Hauptstr. 1", city: "Berlin", country_code: "de", postal_code: "10115", address_2: null },
    });
    expect(location.address_id).toBe(location.address.id);
    expect(typeof location.created_at).toBe("string");

    const updated = await t.admin.post(`/admin/stock-locations/${location.id}`, {
      name: "Berlin Mitte",
      address: { address_1: "Friedrichstr. 2", country_code: "de" },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().stock_location).toMatchObject({
      name: "Berlin Mitte",
      address: { address_1: "Friedrichstr. 2", city: null },
    });

    const noAddress = await t.admin.post(`/admin/stock-locations/${location.id}`, { address: null });
    expect(noAddress.json().stock_location).toMatchObject({ address_id: null, address: null });

    await t.admin.post("/admin/stock-locations", { name: "Hamburg" });
    const list = await t.admin.get("/admin/stock-locations?q=mitte");
    expect(list.json()).toMatchObject({ count: 1, limit: 15, offset: 0 });
    expect(list.json().stock_locations[0].id).toBe(location.id);
    const named = await t.admin.get("/admin/stock-locations?fields=name&order=name");
    expect(named.json().stock_locations.map((l: { name: string }) => l.name)).toEqual(["Berlin Mitte", "Hamburg"]);
    expect(Object.keys(named.json().stock_locations[0]).sort()).toEqual(["id", "name"]);

    expect((await t.admin.delete(`/admin/stock-locations/${location.id}`)).json()).toEqual({
      id: location.id,
      object: "stock_location",
      deleted: true,
    });
    expect((await t.admin.get(`/admin/stock-locations/${location.id}`)).statusCode).toBe(404);
    expect((await t.admin.delete(`/admin/stock-locations/${location.id}`)).statusCode).toBe(404);
  });

  it("links and unlinks sales channels, and lists locations by channel", async () => {
    const web = (await t.admin.post("/admin/sales-channels", { name: "Web" })).json().sales_channel;
    const shop = (await t.admin.post("/admin/sales-channels", { name: "Shop" })).json().sales_channel;
    const location = (await t.admin.post("/admin/stock-locations", { name: "Warehouse" })).json().stock_location;

    const linked = await t.admin.post(`/admin/stock-locations/${location.id}/sales-channels`, {
      add: [web.id, shop.id, web.id],
    });
    expect(linked.statusCode).toBe(200);
    expect(
      linked
        .json()
        .stock_location.sales_channels.map((c: { id: string }) => c.id)
        .sort(),
    ).toEqual([web.id, shop.id].sort());
    expect(linked.json().stock_location.sales_channels[0]).toHaveProperty("name");
    // Linking again is a no-op.
    expect(
      (await t.admin.post(`/admin/stock-locations/${location.id}/sales-channels`, { add: [web.id] })).json()
        .stock_location.sales_channels,
    ).toHaveLength(2);

    expect(
      (await t.admin.get(`/admin/stock-locations?sales_channel_id=${shop.id}`))
        .json()
        .stock_locations.map((l: { id: string }) => l.id),
    ).toEqual([location.id]);
    expect(await t.app.modules.stockLocation.locationIdsForSalesChannels([web.id])).toEqual([location.id]);

    const removed = await t.admin.post(`/admin/stock-locations/${location.id}/sales-channels`, { remove: [shop.id] });
    expect(removed.json().stock_location.sales_channels.map((c: { id: string }) => c.id)).toEqual([web.id]);
    expect((await t.admin.get(`/admin/stock-locations?sales_channel_id[]=${shop.id}`)).json().count).toBe(0);
    expect(await t.app.modules.stockLocation.locationIdsForSalesChannels([shop.id])).toEqual([]);

    const unknown = await t.admin.post(`/admin/stock-locations/${location.id}/sales-channels`, { add: ["sc_missing"] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().type).toBe("not_found");
    expect(
      (await t.admin.get(`/admin/stock-locations/${location.id}`)).json().stock_location.sales_channels,
    ).toHaveLength(1);

    await t.admin.delete(`/admin/stock-locations/${location.id}`);
    expect(await t.app.modules.stockLocation.locationIdsForSalesChannels([web.id])).toEqual([]);
  });

  it("answers the dashboard's fulfillment_sets (none before a set is created) and fulfillment_providers when asked", async () => {
    const location = (await t.admin.post("/admin/stock-locations", { name: "Sets" })).json().stock_location;
    const fields =
      "name,*sales_channels,*address,*fulfillment_sets,*fulfillment_sets.service_zones,*fulfillment_sets.service_zones.shipping_options,*fulfillment_sets.service_zones.shipping_options.shipping_profile";
    const list = await t.admin.get(`/admin/stock-locations?id=${location.id}&fields=${encodeURIComponent(fields)}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().stock_locations).toEqual([
      { id: location.id, name: "Sets", sales_channels: [], address: null, fulfillment_sets: [] },
    ]);
    const one = await t.admin.get(
      `/admin/stock-locations/${location.id}?fields=name,*fulfillment_sets.service_zones.geo_zones,*fulfillment_providers`,
    );
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().stock_location).toEqual({
      id: location.id,
      name: "Sets",
      fulfillment_sets: [],
      fulfillment_providers: expect.arrayContaining([{ id: "manual_manual", is_enabled: true }]),
    });
    // Not asked, not answered.
    const plain = (await t.admin.get(`/admin/stock-locations/${location.id}`)).json().stock_location;
    expect(plain).not.toHaveProperty("fulfillment_sets");
    expect(plain).not.toHaveProperty("fulfillment_providers");
  });

  it("turns fulfillment providers on and off per location, in both dialects, refusing unknown ids", async () => {
    const location = (await t.admin.post("/admin/stock-locations", { name: "Providers" })).json().stock_location;
    const other = (await t.admin.post("/admin/stock-locations", { name: "Untouched" })).json().stock_location;
    const providersOf = async (id: string) =>
      (await t.admin.get(`/admin/stock-locations/${id}?fields=id,*fulfillment_providers`)).json().stock_location
        .fulfillment_providers as Array<{ id: string; is_enabled: boolean }>;
    const all = await providersOf(location.id);
    expect(all.map((p) => p.id)).toEqual(expect.arrayContaining(["manual_manual", "ful_test"]));

    const off = await t.admin.post(`/admin/stock-locations/${location.id}/fulfillment-providers`, {
      remove: ["ful_test"],
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().stock_location).toMatchObject({ id: location.id, name: "Providers" });
    expect(off.json().stock_location.fulfillment_providers).toEqual(all.filter((p) => p.id !== "ful_test"));
    expect(await providersOf(location.id)).toEqual(all.filter((p) => p.id !== "ful_test"));
    expect(await providersOf(other.id)).toEqual(all);
    // Twice is the same; the list page says the same.
    expect(
      (await t.admin.post(`/admin/stock-locations/${location.id}/fulfillment-providers`, { remove: ["ful_test"] }))
        .statusCode,
    ).toBe(200);
    const listed = (
      await t.admin.get(`/admin/stock-locations?id=${location.id}&id=${other.id}&fields=id,*fulfillment_providers`)
    ).json().stock_locations as Array<{ id: string; fulfillment_providers: unknown[] }>;
    expect(listed.find((l) => l.id === location.id)!.fulfillment_providers).toHaveLength(all.length - 1);
    expect(listed.find((l) => l.id === other.id)!.fulfillment_providers).toHaveLength(all.length);

    // Medusa's dashboard sends both lists through its dialect.
    const medusa = await t.admin.post(`/medusa/admin/stock-locations/${location.id}/fulfillment-providers`, {
      add: ["ful_test"],
      remove: ["manual_manual"],
    });
    expect(medusa.statusCode, medusa.body).toBe(200);
    expect(medusa.json().stock_location.fulfillment_providers).toEqual(all.filter((p) => p.id !== "manual_manual"));

    const before = await providersOf(location.id);
    for (const [body, message] of [
      [{ add: ["fp_nope"] }, "Fulfillment providers with ids: fp_nope were not found"],
      [{ remove: ["manual_manual", "fp_gone"] }, "Fulfillment providers with ids: fp_gone were not found"],
      [{ add: ["ful_test"], remove: ["ful_test"] }, "Fulfillment providers ful_test: both added and removed"],
    ] as const) {
      const res = await t.admin.post(`/admin/stock-locations/${location.id}/fulfillment-providers`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ type: "invalid_data", message });
    }
    for (const body of [{ add: "manual_manual" }, { add: [5] }, { remove: [""] }, { add: [], extra: 1 }]) {
      const res = await t.admin.post(`/medusa/admin/stock-locations/${location.id}/fulfillment-providers`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect(await providersOf(location.id)).toEqual(before);
    const missing = await t.admin.post("/admin/stock-locations/sloc_missing/fulfillment-providers", {
      add: ["manual_manual"],
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      type: "not_found",
      message: "Stock location with id: sloc_missing was not found",
    });
  });

  it("rejects bad input with 400 invalid_data and nothing written", async () => {
    const before = (await t.admin.get("/admin/stock-locations")).json().count;
    for (const body of [
      {},
      { name: "" },
      { name: 5 },
      { name: "x", unknown: 1 },
      { name: "x", address: { city: "Berlin" } },
      { name: "x", address: { address_1: "a", country_code: "DEU" } },
      { name: "x", address: { address_1: "a", country_code: "de", extra: 1 } },
    ]) {
      const res = await t.admin.post("/admin/stock-locations", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get("/admin/stock-locations")).json().count).toBe(before);
    const location = (await t.admin.post("/admin/stock-locations", { name: "Keep" })).json().stock_location;
    expect((await t.admin.post(`/admin/stock-locations/${location.id}`, { name: "" })).statusCode).toBe(400);
    expect(
      (await t.admin.post(`/admin/stock-locations/${location.id}/sales-channels`, { add: "sc_1" })).statusCode,
    ).toBe(400);
    expect((await t.admin.get(`/admin/stock-locations/${location.id}`)).json().stock_location.name).toBe("Keep");
    expect((await t.admin.get("/admin/stock-locations?order=nope")).json().type).toBe("invalid_data");
  });

  it("answers unknown ids with 404 and requires an admin", async () => {
    expect((await t.admin.post("/admin/stock-locations/sloc_missing", { name: "x" })).statusCode).toBe(404);
    expect((await t.admin.post("/admin/stock-locations/sloc_missing/sales-channels", { add: [] })).json().type).toBe(
      "not_found",
    );
    expect((await t.app.inject({ method: "GET", url: "/admin/stock-locations" })).statusCode).toBe(401);
    const customer = await t.customerHeaders("cus_1");
    expect(
      (await t.app.inject({ method: "POST", url: "/admin/stock-locations", headers: customer, payload: { name: "x" } }))
        .statusCode,
    ).toBe(403);
  });
});
