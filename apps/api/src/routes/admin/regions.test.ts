import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

describe("admin regions", () => {
  let eu: { id: string };

  it("creates a region with countries and default payment provider", async () => {
    const res = await t.admin.post("/admin/regions", {
      name: "Europe",
      currency_code: "EUR",
      countries: ["DE", "fr"],
      metadata: { a: 1 },
    });
    expect(res.statusCode).toBe(200);
    eu = res.json().region;
    expect(eu).toMatchObject({
      name: "Europe",
      currency_code: "eur",
      automatic_taxes: true,
      metadata: { a: 1 },
      payment_providers: [{ id: "pp_system_default", is_enabled: true }],
      countries: [
        { iso_2: "de", iso_3: "deu", num_code: "276", name: "GERMANY", display_name: "Germany", region_id: eu.id },
        { iso_2: "fr", iso_3: "fra", num_code: "250", name: "FRANCE", display_name: "France", region_id: eu.id },
      ],
    });
    expect(eu.id).toMatch(/^reg_/);
    expect(Object.keys(eu)).toEqual(expect.arrayContaining(["created_at", "updated_at"]));
  });

  it("keeps each country in one region", async () => {
    const res = await t.admin.post("/admin/regions", { name: "Germany only", currency_code: "eur", countries: ["de"] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: "invalid_data",
      message: "Countries with codes: de are already assigned to a region",
    });
    const unknown = await t.admin.post("/admin/regions", { name: "Nowhere", currency_code: "eur", countries: ["zz"] });
    expect(unknown.statusCode).toBe(400);
    expect((await t.admin.get("/admin/regions")).json().count).toBe(1);
  });

  it("updates name, countries and providers; freed countries can be reused", async () => {
    const res = await t.admin.post(`/admin/regions/${eu.id}`, {
      name: "EU",
      countries: ["fr", "it"],
      payment_providers: ["pp_test", "pp_system_default"],
    });
    expect(res.statusCode).toBe(200);
    const region = res.json().region;
    expect(region.name).toBe("EU");
    expect(region.countries.map((c: { iso_2: string }) => c.iso_2)).toEqual(["fr", "it"]);
    expect(region.payment_providers.map((p: { id: string }) => p.id)).toEqual(["pp_system_default", "pp_test"]);
    const de = await t.admin.post("/admin/regions", { name: "DE", currency_code: "eur", countries: ["de"] });
    expect(de.statusCode).toBe(200);
    expect((await t.admin.post(`/admin/regions/${eu.id}`, { countries: ["de"] })).statusCode).toBe(400);
  });

  it("lists with filters, paging, order and fields", async () => {
    await t.admin.post("/admin/regions", {
      name: "US",
      currency_code: "usd",
      countries: ["us"],
      automatic_taxes: false,
    });
    const list = (await t.admin.get("/admin/regions?order=name&limit=2")).json();
    expect(list).toMatchObject({ count: 3, limit: 2, offset: 0 });
    expect(list.regions.map((r: { name: string }) => r.name)).toEqual(["DE", "EU"]);
    expect(
      (await t.admin.get("/admin/regions?currency_code=usd")).json().regions.map((r: { name: string }) => r.name),
    ).toEqual(["US"]);
    expect((await t.admin.get("/admin/regions?q=us")).json().regions.map((r: { name: string }) => r.name)).toEqual([
      "US",
    ]);
    const fields = (await t.admin.get("/admin/regions?fields=name,countries.iso_2&currency_code[]=usd")).json()
      .regions[0];
    expect(fields).toEqual({ id: expect.any(String), name: "US", countries: [{ iso_2: "us" }] });
    expect((await t.admin.get("/admin/regions?offset=10")).json().regions).toEqual([]);
  });

  it("rejects bad input with 400 and writes nothing", async () => {
    const before = (await t.admin.get("/admin/regions")).json().count;
    for (const body of [
      {},
      { name: "x" },
      { name: "x", currency_code: "xyz" },
      { name: "x", currency_code: 5 },
      { name: "x", currency_code: "usd", countries: "us" },
      { name: "x", currency_code: "usd", extra: 1 },
    ]) {
      const res = await t.admin.post("/admin/regions", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.post(`/admin/regions/${eu.id}`, { currency_code: "xyz" })).statusCode).toBe(400);
    expect((await t.admin.get("/admin/regions")).json().count).toBe(before);
    expect((await t.admin.get(`/admin/regions/${eu.id}`)).json().region.currency_code).toBe("eur");
  });

  it("soft-deletes and frees the countries", async () => {
    const res = await t.admin.delete(`/admin/regions/${eu.id}`);
    expect(res.json()).toEqual({ id: eu.id, object: "region", deleted: true });
    expect((await t.admin.get(`/admin/regions/${eu.id}`)).statusCode).toBe(404);
    expect((await t.admin.delete(`/admin/regions/${eu.id}`)).statusCode).toBe(404);
    expect(
      (await t.admin.post("/admin/regions", { name: "FR", currency_code: "eur", countries: ["fr"] })).statusCode,
    ).toBe(200);
  });

  it("requires an admin", async () => {
    expect((await t.app.inject({ method: "GET", url: "/admin/regions" })).statusCode).toBe(401);
  });
});

describe("regions and price preferences read whole (Medusa's price grids ask limit=9999)", () => {
  it("accepts a limit up to 10,000 on these two small lists and refuses more", async () => {
    for (const path of ["/admin/regions", "/admin/price-preferences"]) {
      const whole = await t.admin.get(`${path}?limit=9999`);
      expect(whole.statusCode).toBe(200);
      expect(whole.json().limit).toBe(9999);
      expect((await t.admin.get(`${path}?limit=10001`)).statusCode).toBe(400);
    }
    expect((await t.admin.get("/admin/customers?limit=9999")).statusCode).toBe(400);
  });
});
