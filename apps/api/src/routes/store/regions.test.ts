import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();
let eu: { id: string };
beforeAll(async () => {
  eu = await t.app.modules.region.create({ name: "Europe", currency_code: "eur", countries: ["de", "fr"] });
  await t.app.modules.region.create({ name: "US", currency_code: "usd", countries: ["us"] });
});

describe("store regions", () => {
  it("lists and retrieves regions publicly", async () => {
    const list = (await t.store.get("/store/regions?order=name")).json();
    expect(list).toMatchObject({ count: 2, offset: 0, limit: 1000 });
    expect(list.regions[0]).toMatchObject({
      id: eu.id,
      name: "Europe",
      currency_code: "eur",
      countries: [{ iso_2: "de" }, { iso_2: "fr" }],
      payment_providers: [{ id: "pp_system_default", is_enabled: true }],
    });
    expect(
      (await t.store.get("/store/regions?currency_code=usd")).json().regions.map((r: { name: string }) => r.name),
    ).toEqual(["US"]);
    expect((await t.store.get("/store/regions?limit=1&offset=1&order=name&fields=name")).json().regions).toEqual([
      { id: expect.any(String), name: "US" },
    ]);
    expect(
      (await t.store.get(`/store/regions/${eu.id}`))
        .json()
        .region.countries.map((c: { display_name: string }) => c.display_name),
    ).toEqual(["Germany", "France"]);
  });

  it("lists every region when no limit is sent (a storefront maps each country to its region from it)", async () => {
    const countries = [
      "at",
      "be",
      "ch",
      "cz",
      "dk",
      "es",
      "fi",
      "gb",
      "ie",
      "it",
      "nl",
      "no",
      "pl",
      "pt",
      "se",
      "ca",
      "mx",
      "br",
    ];
    for (const [i, country] of countries.entries())
      await t.app.modules.region.create({ name: `R${i}`, currency_code: "eur", countries: [country] });
    const list = (await t.store.get("/store/regions")).json();
    expect(list.count).toBe(20);
    expect(list.regions).toHaveLength(20);
    expect(
      list.regions.flatMap((r: { countries: Array<{ iso_2: string }> }) => r.countries.map((c) => c.iso_2)),
    ).toEqual(expect.arrayContaining([...countries, "us", "de"]));
    expect((await t.store.get("/store/regions?limit=5")).json().regions).toHaveLength(5);
  });

  it("answers unknown ids and bad input with 4xx", async () => {
    expect((await t.store.get("/store/regions/reg_missing")).statusCode).toBe(404);
    expect((await t.store.get("/store/regions?limit=x")).statusCode).toBe(400);
    expect((await t.store.get("/store/regions?limit=1001")).statusCode).toBe(400);
    expect((await t.store.get("/store/regions?foo=1")).json().type).toBe("invalid_data");
  });
});
