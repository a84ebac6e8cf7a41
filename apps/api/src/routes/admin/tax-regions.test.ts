import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { expectInvalidData } from "../../testing/invalid";

const t = useTestApp({}, { adminId: "user_tax" });

describe("admin tax regions", () => {
  it("creates country and province regions with default rates, and finds the rate for an address", async () => {
    const us = await t.admin.post("/admin/tax-regions", {
      country_code: "US",
      default_tax_rate: { rate: 5, code: "US", name: "US default" },
    });
    expect(us.statusCode).toBe(200);
    const country = us.json().tax_region;
    expect(country).toMatchObject({
      country_code: "us",
      province_code: null,
      parent_id: null,
      created_by: "user_tax",
      tax_rates: [{ rate: 5, code: "US", name: "US default", is_default: true }],
    });
    const ca = await t.admin.post("/admin/tax-regions", {
      country_code: "us",
      province_code: "US-CA",
      default_tax_rate: { rate: 7.25, code: "CA", name: "California" },
    });
    expect(ca.statusCode).toBe(200);
    expect(ca.json().tax_region).toMatchObject({ province_code: "us-ca", parent_id: country.id });
    // Medusa's tax region page reads a country's provinces (`children`) and a province's `parent`.
    const withChildren = (await t.admin.get(`/admin/tax-regions/${country.id}`)).json().tax_region;
    expect(withChildren).toMatchObject({
      parent: null,
      children: [{ id: ca.json().tax_region.id, province_code: "us-ca", tax_rates: [{ code: "CA", rate: 7.25 }] }],
    });
    expect(ca.json().tax_region).toMatchObject({
      parent: { id: country.id, country_code: "us", tax_rates: [{ code: "US" }] },
      children: [],
    });

    expect(await t.app.modules.tax.rateFor("us", "us-ca")).toMatchObject({ rate: 7.25, code: "CA" });
    expect(await t.app.modules.tax.rateFor("US", "us-ny")).toMatchObject({ rate: 5, code: "US" });
    expect(await t.app.modules.tax.rateFor("de")).toBeNull();

    const list = (await t.admin.get("/admin/tax-regions?country_code=us&order=created_at")).json();
    expect(list).toMatchObject({ count: 2, offset: 0, limit: 15 });
    expect((await t.admin.get("/admin/tax-regions?parent_id=" + country.id)).json().tax_regions).toHaveLength(1);
    expect((await t.admin.get(`/admin/tax-regions/${country.id}?fields=country_code`)).json().tax_region).toEqual({
      id: country.id,
      country_code: "us",
    });
  });

  it("lists the one tax provider, which Medusa's tax region form picks; a region may name it and no other", async () => {
    const providers = (await t.admin.get("/admin/tax-providers")).json();
    expect(providers).toEqual({
      tax_providers: [{ id: "tp_system", is_enabled: true }],
      count: 1,
      offset: 0,
      limit: 15,
    });
    expect((await t.admin.get("/admin/tax-providers?is_enabled=false")).json().count).toBe(0);
    expect((await t.admin.get("/admin/tax-providers?order=-created_at")).statusCode).toBe(400);

    const it = await t.admin.post("/admin/tax-regions", {
      country_code: "it",
      default_tax_rate: { rate: 22, code: "IT-IVA", name: "IVA" },
      provider_id: "tp_system",
    });
    expect(it.statusCode).toBe(200);
    expect(it.json().tax_region).toMatchObject({ country_code: "it", provider_id: "tp_system" });
    const other = await t.admin.post("/admin/tax-regions", { country_code: "es", provider_id: "tp_avalara" });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({
      type: "invalid_data",
      message: "Tax provider tp_avalara is not available; Kasse computes taxes with tp_system",
    });
    expect((await t.admin.get("/admin/tax-regions?country_code=es")).json().count).toBe(0);
    expect((await t.admin.delete(`/admin/tax-regions/${it.json().tax_region.id}`)).statusCode).toBe(200);
  });

  it("rejects duplicates, orphan provinces and bad input", async () => {
    const dup = await t.admin.post("/admin/tax-regions", { country_code: "us" });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().type).toBe("invalid_data");
    expect((await t.admin.post("/admin/tax-regions", { country_code: "fr", province_code: "fr-75" })).statusCode).toBe(
      400,
    );
    for (const body of [
      {},
      { country_code: "usa" },
      { country_code: "de", default_tax_rate: { rate: -1, code: "x", name: "x" } },
      { country_code: "de", default_tax_rate: { rate: 5 } },
      { country_code: "de", nope: 1 },
    ]) {
      const res = await t.admin.post("/admin/tax-regions", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get("/admin/tax-regions?country_code=de")).json().count).toBe(0);
  });

  it("deletes a region with its provinces", async () => {
    const [country] = (await t.admin.get("/admin/tax-regions?country_code=us"))
      .json()
      .tax_regions.filter((r: { province_code: string | null }) => r.province_code === null);
    const res = await t.admin.delete(`/admin/tax-regions/${country.id}`);
    expect(res.json()).toEqual({ id: country.id, object: "tax_region", deleted: true });
    expect((await t.admin.get("/admin/tax-regions")).json().count).toBe(0);
    expect(await t.app.modules.tax.rateFor("us", "us-ca")).toBeNull();
    expect((await t.admin.get(`/admin/tax-regions/${country.id}`)).statusCode).toBe(404);
  });
});

describe("admin tax rates", () => {
  it("lists the rates of every region with filters, and retrieves one", async () => {
    const de = (
      await t.admin.post("/admin/tax-regions", {
        country_code: "de",
        default_tax_rate: { rate: 19, code: "DE-VAT", name: "Umsatzsteuer" },
      })
    ).json().tax_region;
    const fr = (
      await t.admin.post("/admin/tax-regions", {
        country_code: "fr",
        default_tax_rate: { rate: 20, code: "FR-TVA", name: "TVA" },
      })
    ).json().tax_region;
    const rate = de.tax_rates[0];
    const byRegion = await t.admin.get(
      `/admin/tax-rates?tax_region_id[]=${de.id}&tax_region_id[]=${fr.id}&order=-rate`,
    );
    expect(byRegion.statusCode).toBe(200);
    expect(byRegion.json()).toMatchObject({
      count: 2,
      tax_rates: [
        { code: "FR-TVA", rate: 20 },
        { code: "DE-VAT", rate: 19, tax_region_id: de.id, is_default: true },
      ],
    });
    expect((await t.admin.get("/admin/tax-rates?q=umsatz&fields=code")).json()).toEqual({
      tax_rates: [{ id: rate.id, code: "DE-VAT" }],
      count: 1,
      offset: 0,
      limit: 15,
    });
    expect((await t.admin.get("/admin/tax-rates?code=FR-TVA&is_default=true")).json().count).toBe(1);
    expect((await t.admin.get(`/admin/tax-rates/${rate.id}`)).json().tax_rate).toMatchObject({
      id: rate.id,
      name: "Umsatzsteuer",
      rate: 19,
    });
    expect((await t.admin.get("/admin/tax-rates/txr_missing")).statusCode).toBe(404);
    await expectInvalidData(t.admin, "/admin/tax-rates?", "order=secret", "is_default=maybe", "limit=-1", "unknown=1");
  });
});
