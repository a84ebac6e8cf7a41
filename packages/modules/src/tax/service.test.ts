import { describe, expect, it } from "vitest";
import { useTestDatabase } from "@kasse/db/testing";
import { createTaxService } from "./index";

useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const taxes = createTaxService();
const page = { limit: 50, offset: 0 };

describe("tax service", () => {
  it("answers a region with its rates, provinces and parent; an address's rates come from its province, then its country", async () => {
    const country = await taxes.create({ country_code: "CA", default_tax_rate: { rate: 5, code: "GST", name: "GST" } });
    const province = await taxes.create({
      country_code: "ca",
      province_code: "QC",
      default_tax_rate: { rate: 9.975, code: "QST", name: "QST" },
    });
    expect(province).toMatchObject({ parent_id: country.id, province_code: "qc", provider_id: "tp_system" });
    expect(province.parent).toMatchObject({ id: country.id, tax_rates: [{ code: "GST" }] });
    const again = await taxes.retrieve(country.id);
    expect(again.children.map((c) => [c.province_code, c.tax_rates.map((r) => r.code)])).toEqual([["qc", ["QST"]]]);
    expect(again.parent).toBeNull();
    const { items, count } = await taxes.list({ country_code: ["CA"] }, page);
    expect(count).toBe(2);
    expect(items.map((r) => r.province_code).sort()).toEqual(["qc", null].sort());
    expect((await taxes.rateFor("CA", "QC"))?.code).toBe("QST");
    expect((await taxes.rateFor("CA", "ON"))?.code).toBe("GST");
    expect(await taxes.rateFor("ZZ")).toBeNull();
    await expect(taxes.create({ country_code: "ca" })).rejects.toMatchObject({ type: "invalid_data" });
  });

  it("replaces an override's rules, refuses a duplicate rule, removes one, and deletes a region with its provinces and rates", async () => {
    const region = await taxes.create({
      country_code: "nl",
      default_tax_rate: { rate: 21, code: "NL21", name: "BTW" },
    });
    const province = await taxes.create({ country_code: "nl", province_code: "nh" });
    const override = await taxes.createRate({
      tax_region_id: region.id,
      rate: 9,
      code: "NL9",
      name: "Low",
      rules: [{ reference: "product", reference_id: "prod_a" }],
    });
    expect(override.rules.map((r) => r.reference_id)).toEqual(["prod_a"]);
    const replaced = await taxes.updateRate(override.id, {
      name: "Reduced",
      rules: [
        { reference: "product", reference_id: "prod_b" },
        { reference: "product_type", reference_id: "ptyp_a" },
      ],
    });
    expect(replaced.name).toBe("Reduced");
    expect(replaced.rules.map((r) => r.reference_id).sort()).toEqual(["prod_b", "ptyp_a"]);
    const overrides = (await taxes.ratesFor("nl"))[0]!.overrides;
    expect(overrides.map((o) => o.targets.map((t) => t.id).sort())).toEqual([["prod_b", "ptyp_a"]]);
    await expect(
      taxes.addRateRule(override.id, { reference: "product", reference_id: "prod_b" }),
    ).rejects.toMatchObject({ type: "conflict" });
    const kept = await taxes.deleteRateRule(override.id, replaced.rules.find((r) => r.reference === "product")!.id);
    expect(kept.rules.map((r) => r.reference_id)).toEqual(["ptyp_a"]);
    await expect(taxes.deleteRateRule(override.id, "txrule_missing")).rejects.toMatchObject({ type: "not_found" });
    const { items } = await taxes.listRates({ tax_region_id: [region.id] }, page);
    expect(items.map((r) => r.code).sort()).toEqual(["NL21", "NL9"]);

    await taxes.delete(region.id);
    await expect(taxes.retrieve(region.id)).rejects.toMatchObject({ type: "not_found" });
    await expect(taxes.retrieve(province.id)).rejects.toMatchObject({ type: "not_found" });
    await expect(taxes.retrieveRate(override.id)).rejects.toMatchObject({ type: "not_found" });
    expect(await taxes.ratesFor("nl")).toEqual([]);
  });
});
