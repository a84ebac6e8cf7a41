import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

describe("admin store", () => {
  it("answers the one store, created on first read with the default sales channel", async () => {
    const res = await t.admin.get("/admin/stores");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 1, offset: 0, limit: 15 });
    const [store] = body.stores;
    expect(store).toMatchObject({
      id: expect.stringMatching(/^store_/),
      name: "Kasse Store",
      default_region_id: null,
      default_location_id: null,
      metadata: null,
    });
    const channels = (await t.admin.get("/admin/sales-channels")).json().sales_channels;
    expect(store.default_sales_channel_id).toBe(channels.find((c: { is_default: boolean }) => c.is_default).id);
    // A second read finds the same store.
    expect((await t.admin.get("/admin/stores")).json().stores.map((s: { id: string }) => s.id)).toEqual([store.id]);
    expect((await t.admin.get(`/admin/stores/${store.id}?fields=id,name`)).json()).toEqual({
      store: { id: store.id, name: "Kasse Store" },
    });
  });

  it("updates the name, the supported currencies (one default) and the defaults, and answers each currency", async () => {
    const { stores } = (await t.admin.get("/admin/stores")).json();
    const id = stores[0].id;
    const region = (await t.admin.post("/admin/regions", { name: "Europe", currency_code: "eur" })).json().region;
    const res = await t.admin.post(`/admin/stores/${id}`, {
      name: "Ana's Shop",
      default_region_id: region.id,
      supported_currencies: [
        { currency_code: "EUR", is_default: true, is_tax_inclusive: true },
        { currency_code: "usd", is_default: false },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const store = res.json().store;
    expect(store).toMatchObject({ id, name: "Ana's Shop", default_region_id: region.id });
    expect(store.supported_currencies).toEqual([
      expect.objectContaining({
        currency_code: "eur",
        is_default: true,
        store_id: id,
        currency: expect.objectContaining({ code: "eur", symbol: "€" }),
      }),
      expect.objectContaining({
        currency_code: "usd",
        is_default: false,
        currency: expect.objectContaining({ code: "usd" }),
      }),
    ]);
    // is_tax_inclusive became the currency's price preference.
    const prefs = (await t.admin.get("/admin/price-preferences?attribute=currency_code&value[]=eur")).json()
      .price_preferences;
    expect(prefs).toEqual([
      expect.objectContaining({ attribute: "currency_code", value: "eur", is_tax_inclusive: true }),
    ]);

    // The dashboard sends back what it read (ids, the currency object) with a new default.
    const echoed = store.supported_currencies.map((c: { currency_code: string }) => ({
      ...c,
      is_default: c.currency_code === "usd",
    }));
    const again = await t.admin.post(`/admin/stores/${id}`, { supported_currencies: echoed });
    expect(again.statusCode, again.body).toBe(200);
    expect(
      again
        .json()
        .store.supported_currencies.map((c: { currency_code: string; is_default: boolean }) => [
          c.currency_code,
          c.is_default,
        ]),
    ).toEqual([
      ["eur", false],
      ["usd", true],
    ]);
    // Removing a currency.
    const removed = await t.admin.post(`/admin/stores/${id}`, {
      supported_currencies: [{ currency_code: "usd", is_default: true }],
    });
    expect(removed.json().store.supported_currencies.map((c: { currency_code: string }) => c.currency_code)).toEqual([
      "usd",
    ]);
    expect((await t.admin.get(`/admin/stores/${id}`)).json().store.name).toBe("Ana's Shop");
  });

  it("refuses bad updates with 4xx and writes nothing", async () => {
    const id = (await t.admin.get("/admin/stores")).json().stores[0].id;
    const before = (await t.admin.get(`/admin/stores/${id}`)).json().store;
    const cases: Array<[unknown, number, string]> = [
      [{ supported_currencies: [{ currency_code: "xyz", is_default: true }] }, 400, "invalid_data"],
      [
        {
          supported_currencies: [
            { currency_code: "eur", is_default: true },
            { currency_code: "usd", is_default: true },
          ],
        },
        400,
        "invalid_data",
      ],
      [{ supported_currencies: [{ currency_code: "eur" }] }, 400, "invalid_data"],
      [
        { supported_currencies: [{ currency_code: "eur", is_default: true }, { currency_code: "EUR" }] },
        400,
        "invalid_data",
      ],
      [{ name: "" }, 400, "invalid_data"],
      [{ name: 5 }, 400, "invalid_data"],
      [{ unknown: 1 }, 400, "invalid_data"],
      [{ default_region_id: "reg_missing" }, 404, "not_found"],
      [{ default_location_id: "sloc_missing" }, 404, "not_found"],
      [{ default_sales_channel_id: "sc_missing" }, 404, "not_found"],
    ];
    for (const [payload, status, type] of cases) {
      const res = await t.admin.post(`/admin/stores/${id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().type).toBe(type);
    }
    const badFields = await t.admin.post(`/admin/stores/${id}?fields=na%20me`, { name: "Renamed" });
    expect(badFields.statusCode).toBe(400);
    expect((await t.admin.get(`/admin/stores/${id}`)).json().store).toEqual(before);
    expect((await t.admin.post("/admin/stores/store_missing", { name: "x" })).statusCode).toBe(404);
    expect((await t.admin.get("/admin/stores/store_missing")).statusCode).toBe(404);
    expect((await t.admin.get("/admin/stores?limit=-1")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/stores?unknown=1")).statusCode).toBe(400);
    expect((await t.store.get("/admin/stores")).statusCode).toBe(401);
    expect((await t.store.get("/admin/stores", await t.customerHeaders("cus_1"))).statusCode).toBe(403);
  });
});
