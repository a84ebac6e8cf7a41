import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();
let us: string;
let eu: string;
beforeAll(async () => {
  us = (await t.app.modules.region.create({ name: "US", currency_code: "usd", countries: ["us"] })).id;
  eu = (await t.app.modules.region.create({ name: "EU", currency_code: "eur", countries: ["de"] })).id;
});

describe("admin shipping profiles", () => {
  it("creates, lists, refuses duplicates and deletes", async () => {
    const created = await t.admin.post("/admin/shipping-profiles", { name: "Heavy", type: "custom" });
    expect(created.statusCode).toBe(200);
    const profile = created.json().shipping_profile;
    expect(profile).toMatchObject({ name: "Heavy", type: "custom" });
    expect((await t.admin.post("/admin/shipping-profiles", { name: "Heavy", type: "custom" })).statusCode).toBe(409);
    expect((await t.admin.get("/admin/shipping-profiles?type=custom")).json()).toMatchObject({ count: 1 });
    expect((await t.admin.delete(`/admin/shipping-profiles/${profile.id}`)).json()).toEqual({
      id: profile.id,
      object: "shipping_profile",
      deleted: true,
    });
    expect((await t.admin.get(`/admin/shipping-profiles/${profile.id}`)).statusCode).toBe(404);
  });

  it("rejects bad input", async () => {
    for (const body of [{}, { name: "x" }, { name: 1, type: "default" }, { name: "x", type: "default", extra: true }]) {
      const res = await t.admin.post("/admin/shipping-profiles", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
  });
});

describe("admin shipping options", () => {
  it("creates an option in the default profile with currency and region prices", async () => {
    const res = await t.admin.post("/admin/shipping-options", {
      name: "Standard",
      prices: [
        { currency_code: "USD", amount: 800 },
        { region_id: us, amount: 500 },
      ],
      type: { label: "Standard", code: "standard" },
    });
    expect(res.statusCode).toBe(200);
    const option = res.json().shipping_option;
    expect(option).toMatchObject({
      name: "Standard",
      price_type: "flat",
      provider_id: "manual_manual",
      type: { label: "Standard", code: "standard" },
    });
    expect(option.prices).toEqual([
      expect.objectContaining({ currency_code: "usd", region_id: null, amount: 800 }),
      expect.objectContaining({ currency_code: null, region_id: us, amount: 500 }),
    ]);
    const profile = (await t.admin.get(`/admin/shipping-profiles/${option.shipping_profile_id}`)).json()
      .shipping_profile;
    expect(profile.type).toBe("default");

    const updated = await t.admin.post(`/admin/shipping-options/${option.id}`, {
      name: "Express",
      prices: [{ currency_code: "usd", amount: 1500 }],
    });
    expect(updated.json().shipping_option).toMatchObject({
      name: "Express",
      prices: [expect.objectContaining({ amount: 1500 })],
    });

    const list = await t.admin.get("/admin/shipping-options?q=expr");
    expect(list.json()).toMatchObject({ count: 1, shipping_options: [expect.objectContaining({ id: option.id })] });

    expect((await t.admin.delete(`/admin/shipping-options/${option.id}`)).json().deleted).toBe(true);
    expect((await t.admin.get(`/admin/shipping-options/${option.id}`)).statusCode).toBe(404);
  });

  it("offers a cart only the options priced in its region or currency", async () => {
    const usd = (
      await t.admin.post("/admin/shipping-options", {
        name: "US only",
        region_id: us,
        prices: [{ currency_code: "usd", amount: 700 }],
      })
    ).json().shipping_option;
    const anywhere = (
      await t.admin.post("/admin/shipping-options", {
        name: "Anywhere",
        prices: [
          { currency_code: "eur", amount: 900 },
          { region_id: us, amount: 300 },
        ],
      })
    ).json().shipping_option;
    await t.admin.post("/admin/shipping-options", {
      name: "Hidden",
      prices: [{ currency_code: "usd", amount: 1 }],
      rules: [{ attribute: "enabled_in_store", operator: "eq", value: "false" }],
    });
    const options = await t.app.modules.fulfillment.optionsForContext({ region_id: us, currency_code: "usd" });
    expect(options.map((o) => [o.id, o.amount])).toEqual([
      [usd.id, 700],
      [anywhere.id, 300],
    ]);
    const inEu = await t.app.modules.fulfillment.optionsForContext({ region_id: eu, currency_code: "eur" });
    expect(inEu.map((o) => [o.id, o.amount])).toEqual([[anywhere.id, 900]]);
  });

  it("rejects bad input and unknown ids, writing nothing", async () => {
    const before = (await t.admin.get("/admin/shipping-options")).json().count;
    const bad = [
      {},
      { name: "x", prices: [] },
      { name: "x", prices: [{ currency_code: "usd", amount: -1 }] },
      { name: "x", prices: [{ currency_code: "usd", amount: 1.5 }] },
      { name: "x", prices: [{ amount: 1 }] },
      {
        name: "x",
        prices: [
          { currency_code: "usd", amount: 1 },
          { currency_code: "USD", amount: 2 },
        ],
      },
      { name: "x", prices: [{ currency_code: "usd", amount: 1 }], shipping_profile_id: "sp_missing" },
      { name: "x", prices: [{ currency_code: "usd", amount: 1 }], price_type: "calculated" },
      { name: "x", prices: [{ region_id: "reg_missing", amount: 1 }] },
      { name: "x", region_id: "reg_missing", prices: [{ currency_code: "usd", amount: 1 }] },
    ];
    for (const body of bad) {
      const res = await t.admin.post("/admin/shipping-options", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get("/admin/shipping-options")).json().count).toBe(before);
    expect((await t.admin.post("/admin/shipping-options/so_missing", { name: "y" })).statusCode).toBe(404);
    expect((await t.admin.delete("/admin/shipping-options/so_missing")).statusCode).toBe(404);
  });

  it("leaves an option unchanged when an update's prices are bad", async () => {
    const option = (
      await t.admin.post("/admin/shipping-options", { name: "Keep", prices: [{ currency_code: "usd", amount: 100 }] })
    ).json().shipping_option;
    const res = await t.admin.post(`/admin/shipping-options/${option.id}`, {
      name: "Changed",
      prices: [
        { currency_code: "usd", amount: 1 },
        { currency_code: "usd", amount: 2 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect((await t.admin.get(`/admin/shipping-options/${option.id}`)).json().shipping_option).toMatchObject({
      name: "Keep",
      prices: [expect.objectContaining({ amount: 100 })],
    });
  });
});

describe("admin shipping options: where an option ships from, Medusa's way", () => {
  it("answers service_zone.fulfillment_set.location as the option's stock location, null without one", async () => {
    const location = await t.app.modules.stockLocation.create({ name: "Berlin warehouse" });
    const from = (
      await t.admin.post("/admin/shipping-options", {
        name: "From Berlin",
        stock_location_id: location.id,
        prices: [{ currency_code: "eur", amount: 500 }],
      })
    ).json().shipping_option;
    const nowhere = (
      await t.admin.post("/admin/shipping-options", {
        name: "Anywhere",
        prices: [{ currency_code: "eur", amount: 700 }],
      })
    ).json().shipping_option;
    const one = await t.admin.get(
      `/admin/shipping-options/${from.id}?fields=+service_zone.fulfillment_set.location.id`,
    );
    expect(one.json().shipping_option.service_zone).toEqual({ fulfillment_set: { location: { id: location.id } } });
    const list = (
      await t.admin.get(
        `/admin/shipping-options?id[]=${from.id}&id[]=${nowhere.id}&fields=id,*service_zone.fulfillment_set.location`,
      )
    ).json().shipping_options;
    expect(list.find((o: { id: string }) => o.id === nowhere.id).service_zone).toBeNull();
    expect(list.find((o: { id: string }) => o.id === from.id).service_zone.fulfillment_set).toEqual({
      location: { id: location.id, name: "Berlin warehouse" },
    });
    expect((await t.admin.get(`/admin/shipping-options/${from.id}`)).json().shipping_option).not.toHaveProperty(
      "service_zone",
    );
  });
});
