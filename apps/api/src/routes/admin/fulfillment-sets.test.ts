import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

// What Medusa's dashboard asks of a location (routes/locations/location-detail/constants.ts, location-list/constants.ts).
const DETAIL_FIELDS =
  "name,metadata,*sales_channels,*address,fulfillment_sets.type,fulfillment_sets.name,*fulfillment_sets.service_zones.geo_zones,*fulfillment_sets.service_zones,*fulfillment_sets.service_zones.shipping_options,*fulfillment_sets.service_zones.shipping_options.rules,*fulfillment_sets.service_zones.shipping_options.shipping_profile,*fulfillment_providers";
const LIST_FIELDS =
  "name,*sales_channels,*address,*fulfillment_sets,*fulfillment_sets.service_zones,*fulfillment_sets.service_zones.shipping_options,*fulfillment_sets.service_zones.shipping_options.shipping_profile";

const medusa = (path: string) => `/medusa${path}`;

/** A location with a shipping set and a zone of the given countries, made through the admin API. */
async function shippingZone(name: string, countries: string[]) {
  const location = (await t.admin.post("/admin/stock-locations", { name })).json().stock_location;
  const withSet = await t.admin.post(`/admin/stock-locations/${location.id}/fulfillment-sets`, {
    name: `${name} shipping`,
    type: "shipping",
  });
  expect(withSet.statusCode, withSet.body).toBe(200);
  const set = withSet.json().stock_location.fulfillment_sets[0];
  const zoned = await t.admin.post(`/admin/fulfillment-sets/${set.id}/service-zones`, {
    name: `${name} zone`,
    geo_zones: countries.map((country_code) => ({ country_code, type: "country" })),
  });
  expect(zoned.statusCode, zoned.body).toBe(200);
  return { location, set, zone: zoned.json().fulfillment_set.service_zones[0] };
}

describe("admin fulfillment sets, service zones and geo zones", () => {
  it("sets up shipping from a location as the dashboard's forms post it (Medusa's dialect)", async () => {
    const region = await t.app.modules.region.create({ name: "Europe", currency_code: "eur", countries: ["de", "fr"] });
    const location = (await t.admin.post(medusa("/admin/stock-locations"), { name: "Berlin" })).json().stock_location;

    // Location page, "Enable shipping": `${location.name} ${type}`.
    const enabled = await t.admin.post(medusa(`/admin/stock-locations/${location.id}/fulfillment-sets`), {
      name: "Berlin shipping",
      type: "shipping",
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const [set] = enabled.json().stock_location.fulfillment_sets;
    expect(set).toMatchObject({
      id: expect.stringMatching(/^fuset_/),
      name: "Berlin shipping",
      type: "shipping",
      stock_location_id: location.id,
      service_zones: [],
    });
    await t.admin.post(medusa(`/admin/stock-locations/${location.id}/fulfillment-sets`), {
      name: "Berlin pick up",
      type: "pickup",
    });

    // Create service zone: the countries picked, as country geo zones with their iso_2.
    const zoned = await t.admin.post(medusa(`/admin/fulfillment-sets/${set.id}/service-zones`), {
      name: "Europe",
      geo_zones: [
        { country_code: "de", type: "country" },
        { country_code: "FR", type: "country" },
      ],
    });
    expect(zoned.statusCode, zoned.body).toBe(200);
    const zone = zoned.json().fulfillment_set.service_zones[0];
    expect(zone).toMatchObject({ id: expect.stringMatching(/^serzo_/), name: "Europe", fulfillment_set_id: set.id });
    expect(zone.geo_zones.map((g: { type: string; country_code: string }) => [g.type, g.country_code])).toEqual([
      ["country", "de"],
      ["country", "fr"],
    ]);

    // Create shipping option in the zone: prices by currency and by region, in major units.
    const providers = (await t.admin.get(medusa("/admin/fulfillment-providers/manual_manual/options"))).json();
    const profile = (
      await t.admin.post(medusa("/admin/shipping-profiles"), { name: "Default", type: "default" })
    ).json().shipping_profile;
    const created = await t.admin.post(medusa("/admin/shipping-options"), {
      name: "DHL Standard",
      price_type: "flat",
      service_zone_id: zone.id,
      shipping_profile_id: profile.id,
      provider_id: "manual_manual",
      prices: [
        { currency_code: "eur", amount: 12.5 },
        { region_id: region.id, amount: 9.99 },
      ],
      data: providers.fulfillment_options[0],
      rules: [
        { value: "false", attribute: "is_return", operator: "eq" },
        { value: "true", attribute: "enabled_in_store", operator: "eq" },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    const option = created.json().shipping_option;
    // It ships from the zone's location; the contract path stores minor units.
    expect(option).toMatchObject({ service_zone_id: zone.id, stock_location_id: location.id });
    const stored = (await t.admin.get(`/admin/shipping-options/${option.id}`)).json().shipping_option;
    expect(stored.prices.map((p: { amount: number }) => p.amount)).toEqual([1250, 999]);

    // The location page's tree, in one answer.
    const detail = await t.admin.get(
      medusa(`/admin/stock-locations/${location.id}?fields=${encodeURIComponent(DETAIL_FIELDS)}`),
    );
    expect(detail.statusCode, detail.body).toBe(200);
    const sets = detail.json().stock_location.fulfillment_sets;
    expect(sets.map((s: { type: string }) => s.type)).toEqual(["shipping", "pickup"]);
    expect(sets[1].service_zones).toEqual([]);
    const shown = sets[0].service_zones[0];
    expect(shown.geo_zones).toHaveLength(2);
    expect(shown.shipping_options).toHaveLength(1);
    expect(shown.shipping_options[0]).toMatchObject({
      id: option.id,
      name: "DHL Standard",
      rules: [
        { attribute: "is_return", value: "false" },
        { attribute: "enabled_in_store", value: "true" },
      ],
      shipping_profile: { id: profile.id, name: "Default" },
    });
    expect(shown.shipping_options[0].prices.map((p: { amount: number }) => p.amount)).toEqual([12.5, 9.99]);
    expect(detail.json().stock_location.fulfillment_providers).toEqual(
      expect.arrayContaining([{ id: "manual_manual", is_enabled: true }]),
    );

    // The location list: sets, zones and options, without the geo zones it did not ask for.
    const list = await t.admin.get(
      medusa(`/admin/stock-locations?id=${location.id}&fields=${encodeURIComponent(LIST_FIELDS)}`),
    );
    expect(list.statusCode, list.body).toBe(200);
    const listed = list.json().stock_locations[0].fulfillment_sets[0].service_zones[0];
    expect(listed).not.toHaveProperty("geo_zones");
    expect(listed.shipping_options[0]).toMatchObject({ id: option.id, shipping_profile: { name: "Default" } });

    // Shipping options by zone and by location, with the zone's set (order detail reads its type).
    for (const filter of [`service_zone_id=${zone.id}`, `stock_location_id=${location.id}`]) {
      const found = await t.admin.get(
        `/admin/shipping-options?${filter}&fields=id,+service_zone.fulfillment_set.type,+service_zone.fulfillment_set.location`,
      );
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().shipping_options).toEqual([
        {
          id: option.id,
          service_zone: {
            id: zone.id,
            fulfillment_set: { id: set.id, type: "shipping", location: { id: location.id, name: "Berlin" } },
          },
        },
      ]);
    }
    expect((await t.admin.get(`/admin/shipping-options?service_zone_id=serzo_none`)).json().count).toBe(0);

    // Manage areas: the list replaces the zone's geo zones (Germany kept, France removed, Austria added).
    const areas = await t.admin.post(medusa(`/admin/fulfillment-sets/${set.id}/service-zones/${zone.id}`), {
      geo_zones: [
        { country_code: "de", type: "country" },
        { country_code: "at", type: "country" },
      ],
    });
    expect(areas.statusCode, areas.body).toBe(200);
    // Without ids every geo zone is new, as Medusa replaces them; one named by id is updated in place.
    const areaZones = areas.json().fulfillment_set.service_zones[0].geo_zones;
    expect(areaZones.map((g: { country_code: string }) => g.country_code)).toEqual(["at", "de"]);
    expect(areaZones.some((g: { id: string }) => g.id === zone.geo_zones[0].id)).toBe(false);
    const kept = areaZones.find((g: { country_code: string }) => g.country_code === "de");
    const renamed = await t.admin.post(`/admin/fulfillment-sets/${set.id}/service-zones/${zone.id}`, {
      name: "DACH",
      geo_zones: [
        { id: kept.id, country_code: "de", type: "province", province_code: "BE" },
        { country_code: "at", type: "country" },
      ],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const one = await t.admin.get(`/admin/fulfillment-sets/${set.id}/service-zones/${zone.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().service_zone).toMatchObject({ id: zone.id, name: "DACH", fulfillment_set_id: set.id });
    expect(
      one
        .json()
        .service_zone.geo_zones.map((g: { id: string; type: string; country_code: string }) => [
          g.id === kept.id,
          g.type,
          g.country_code,
        ]),
    ).toEqual([
      [true, "province", "de"],
      [false, "country", "at"],
    ]);

    // Delete the zone: its options go with it; the answer carries the set.
    const removed = await t.admin.delete(`/admin/fulfillment-sets/${set.id}/service-zones/${zone.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({
      id: zone.id,
      object: "service_zone",
      deleted: true,
      parent: { id: set.id, service_zones: [] },
    });
    expect((await t.admin.get(`/admin/shipping-options/${option.id}`)).statusCode).toBe(404);
    expect((await t.admin.get(`/admin/fulfillment-sets/${set.id}/service-zones/${zone.id}`)).statusCode).toBe(404);

    // Disable shipping: the set goes.
    expect((await t.admin.delete(medusa(`/admin/fulfillment-sets/${set.id}`))).json()).toEqual({
      id: set.id,
      object: "fulfillment_set",
      deleted: true,
    });
    const after = await t.admin.get(`/admin/stock-locations/${location.id}?fields=fulfillment_sets.type`);
    expect(after.json().stock_location.fulfillment_sets).toEqual([{ id: expect.any(String), type: "pickup" }]);
    expect((await t.admin.delete(`/admin/fulfillment-sets/${set.id}`)).statusCode).toBe(404);
  });

  it("rejects bad input with 4xx {type, message} and writes nothing", async () => {
    const { location, set, zone } = await shippingZone("Hamburg", ["de"]);
    const other = await shippingZone("Munich", ["de"]);
    const snapshot = async () =>
      (
        await t.admin.get(
          `/admin/stock-locations?fields=${encodeURIComponent("fulfillment_sets.name,*fulfillment_sets.service_zones.geo_zones")}`,
        )
      ).json();
    const before = await snapshot();
    type Case = [string, string, unknown, number, string];
    // A new zone of the set refused as invalid for its geo zones.
    const invalidZone = (geo_zones: unknown): Case => [
      "POST",
      `/admin/fulfillment-sets/${set.id}/service-zones`,
      { name: "Z", geo_zones },
      400,
      "invalid_data",
    ];
    const cases: Case[] = [
      ["POST", "/admin/stock-locations/sloc_none/fulfillment-sets", { name: "X", type: "shipping" }, 404, "not_found"],
      [
        "POST",
        `/admin/stock-locations/${location.id}/fulfillment-sets`,
        { name: 5, type: "shipping" },
        400,
        "invalid_data",
      ],
      ["POST", `/admin/stock-locations/${location.id}/fulfillment-sets`, { name: "No type" }, 400, "invalid_data"],
      [
        "POST",
        `/admin/stock-locations/${location.id}/fulfillment-sets`,
        { name: "X", type: "shipping", extra: 1 },
        400,
        "invalid_data",
      ],
      [
        "POST",
        `/admin/stock-locations/${location.id}/fulfillment-sets`,
        { name: "Munich shipping", type: "shipping" },
        409,
        "conflict",
      ],
      ["POST", "/admin/fulfillment-sets/fuset_none/service-zones", { name: "Z", geo_zones: [] }, 404, "not_found"],
      [
        "POST",
        `/admin/fulfillment-sets/${set.id}/service-zones`,
        { name: "Munich zone", geo_zones: [] },
        409,
        "conflict",
      ],
      invalidZone([{ type: "country" }]),
      invalidZone([{ type: "planet", country_code: "de" }]),
      invalidZone([{ type: "province", country_code: "de" }]),
      invalidZone([{ type: "zip", country_code: "de", province_code: "HH", city: "Hamburg" }]),
      invalidZone([{ type: "country", country_code: "deu" }]),
      invalidZone("de"),
      ["POST", `/admin/fulfillment-sets/${set.id}/service-zones/serzo_none`, { name: "Y" }, 404, "not_found"],
      ["POST", `/admin/fulfillment-sets/${set.id}/service-zones/${other.zone.id}`, { name: "Y" }, 404, "not_found"],
      ["POST", `/admin/fulfillment-sets/${set.id}/service-zones/${zone.id}`, { name: "Munich zone" }, 409, "conflict"],
      [
        "POST",
        `/admin/fulfillment-sets/${set.id}/service-zones/${zone.id}`,
        { geo_zones: [{ id: other.zone.geo_zones[0].id, type: "country", country_code: "fr" }] },
        400,
        "invalid_data",
      ],
      [
        "POST",
        `/admin/fulfillment-sets/${set.id}/service-zones/${zone.id}`,
        { geo_zones: [{ type: "city", country_code: "fr", province_code: "IDF" }] },
        400,
        "invalid_data",
      ],
      ["GET", `/admin/fulfillment-sets/${other.set.id}/service-zones/${zone.id}`, undefined, 404, "not_found"],
      ["DELETE", `/admin/fulfillment-sets/${set.id}/service-zones/${other.zone.id}`, undefined, 404, "not_found"],
      ["DELETE", "/admin/fulfillment-sets/fuset_none", undefined, 404, "not_found"],
      [
        "POST",
        "/admin/shipping-options",
        { name: "S", service_zone_id: "serzo_none", prices: [{ currency_code: "eur", amount: 500 }] },
        400,
        "invalid_data",
      ],
      [
        "POST",
        "/admin/shipping-options",
        {
          name: "S",
          service_zone_id: zone.id,
          stock_location_id: other.location.id,
          prices: [{ currency_code: "eur", amount: 500 }],
        },
        400,
        "invalid_data",
      ],
    ];
    for (const [method, url, payload, status, type] of cases) {
      const res = await t.app.inject({
        method: method as "GET" | "POST" | "DELETE",
        url,
        headers: await t.adminHeaders(),
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ type, message: expect.any(String) });
    }
    expect(await snapshot()).toEqual(before);
    expect((await t.admin.get("/admin/shipping-options?service_zone_id=" + zone.id)).json().count).toBe(0);
  });

  it("deleting a location deletes its fulfillment sets, zones and shipping options", async () => {
    const { location, set, zone } = await shippingZone("Cologne", ["de"]);
    const option = (
      await t.admin.post("/admin/shipping-options", {
        name: "Courier",
        service_zone_id: zone.id,
        prices: [{ currency_code: "eur", amount: 700 }],
      })
    ).json().shipping_option;
    expect((await t.admin.delete(`/admin/stock-locations/${location.id}`)).statusCode).toBe(200);
    expect((await t.admin.delete(`/admin/fulfillment-sets/${set.id}`)).statusCode).toBe(404);
    expect((await t.admin.get(`/admin/shipping-options/${option.id}`)).statusCode).toBe(404);
    // A set's name is free again once its location is gone.
    const again = (await t.admin.post("/admin/stock-locations", { name: "Cologne" })).json().stock_location;
    const set2 = await t.admin.post(`/admin/stock-locations/${again.id}/fulfillment-sets`, {
      name: "Cologne shipping",
      type: "shipping",
    });
    expect(set2.statusCode, set2.body).toBe(200);
    // An unknown location is 404 and deletes nothing.
    expect((await t.admin.delete("/admin/stock-locations/sloc_none")).statusCode).toBe(404);
  });
});
