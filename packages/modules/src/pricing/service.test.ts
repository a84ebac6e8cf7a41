import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { countQueries, useTestDatabase } from "@kasse/db/testing";
import { createPriceListService, createPricePreferenceService, createPricingService } from "./index";

const database = useTestDatabase();
// Built once, like the composition root builds them: no handle; each call runs on the current one.
const pricing = createPricingService();
const lists = createPriceListService();
const preferences = createPricePreferenceService();

describe("variant base prices", () => {
  it("replaces a variant's base prices and lists them in the admin shape", async () => {
    await pricing.setVariantPrices("var_a", [{ currency_code: "usd", amount: 1000 }]);
    const prices = await pricing.setVariantPrices("var_a", [
      { currency_code: "EUR", amount: 900, rules: { region_id: "reg_eu" } },
      { currency_code: "usd", amount: 800, min_quantity: 10, max_quantity: null },
    ]);
    expect(prices).toHaveLength(2);
    const listed = await pricing.listVariantPrices(["var_a", "var_none"]);
    expect(listed.get("var_none")).toEqual([]);
    expect(listed.get("var_a")).toEqual([
      expect.objectContaining({
        variant_id: "var_a",
        currency_code: "eur",
        amount: 900,
        rules: { region_id: "reg_eu" },
        price_list_id: null,
        min_quantity: null,
      }),
      expect.objectContaining({ currency_code: "usd", amount: 800, rules: {}, min_quantity: 10, max_quantity: null }),
    ]);
    expect(listed.get("var_a")![0]!.id).toMatch(/^price_/);
  });

  it("rejects unknown currencies, negative or fractional amounts and inverted tiers, writing nothing", async () => {
    await pricing.setVariantPrices("var_b", [{ currency_code: "usd", amount: 500 }]);
    const bad = [
      [{ currency_code: "zzz", amount: 1 }],
      [{ currency_code: "usd", amount: -1 }],
      [{ currency_code: "usd", amount: 1.5 }],
      [{ currency_code: "usd", amount: 1, min_quantity: 5, max_quantity: 2 }],
      [{ currency_code: "us", amount: 1 }],
    ];
    for (const prices of bad)
      await expect(pricing.setVariantPrices("var_b", prices)).rejects.toMatchObject({ type: "invalid_data" });
    expect((await pricing.listVariantPrices(["var_b"])).get("var_b")!.map((p) => p.amount)).toEqual([500]);
  });

  it("deletes every price of the given variants", async () => {
    await pricing.setVariantPrices("var_c", [{ currency_code: "usd", amount: 1 }]);
    await pricing.deleteVariantPrices(["var_c"]);
    expect((await pricing.listVariantPrices(["var_c"])).get("var_c")).toEqual([]);
  });
});

describe("calculatePrices", () => {
  it("requires a currency", async () => {
    await expect(pricing.calculatePrices(["var_a"], {})).rejects.toMatchObject({ type: "invalid_data" });
  });

  it("applies active lists, customer groups, regions and tax preferences", async () => {
    await pricing.setVariantPrices("var_d", [{ currency_code: "usd", amount: 1000 }]);
    await pricing.setVariantPrices("var_e", [{ currency_code: "usd", amount: 2000 }]);
    const sale = await lists.create({
      title: "Sale",
      type: "sale",
      status: "draft",
      prices: [{ variant_id: "var_d", currency_code: "usd", amount: 700 }],
    });
    expect((await pricing.calculatePrices(["var_d"], { currency_code: "usd" })).get("var_d")?.calculated_amount).toBe(
      1000,
    );
    await lists.update(sale.id, { status: "active" });
    expect((await pricing.calculatePrices(["var_d"], { currency_code: "usd" })).get("var_d")).toMatchObject({
      calculated_amount: 700,
      original_amount: 1000,
      calculated_price: { price_list_id: sale.id, price_list_type: "sale" },
    });

    await lists.create({
      title: "VIP",
      type: "override",
      status: "active",
      rules: { customer_group_id: ["cg_vip"] },
      prices: [{ variant_id: "var_e", currency_code: "usd", amount: 1500 }],
    });
    expect((await pricing.calculatePrices(["var_e"], { currency_code: "usd" })).get("var_e")?.calculated_amount).toBe(
      2000,
    );
    expect(
      (await pricing.calculatePrices(["var_e"], { currency_code: "usd", customer_group_ids: ["cg_vip"] })).get("var_e"),
    ).toMatchObject({ calculated_amount: 1500, original_amount: 1500 });

    await preferences.create({ attribute: "currency_code", value: "USD", is_tax_inclusive: true });
    expect(
      (await pricing.calculatePrices(["var_e"], { currency_code: "usd" })).get("var_e")
        ?.is_calculated_price_tax_inclusive,
    ).toBe(true);
    await preferences.create({ attribute: "region_id", value: "reg_us", is_tax_inclusive: false });
    expect(
      (await pricing.calculatePrices(["var_e"], { currency_code: "usd", region_id: "reg_us" })).get("var_e")
        ?.is_calculated_price_tax_inclusive,
    ).toBe(false);
    await expect(preferences.create({ attribute: "currency_code", value: "usd" })).rejects.toMatchObject({
      type: "conflict",
    });
  });

  it("tells until when the prices hold: the next start or end of an active list pricing the variants", async () => {
    await pricing.setVariantPrices("var_t", [{ currency_code: "usd", amount: 1000 }]);
    expect((await pricing.priceVariants(["var_t"], { currency_code: "usd" })).valid_until).toBeNull();
    const [starts, ends] = [new Date(Date.now() + 60_000), new Date(Date.now() + 120_000)];
    await lists.create({
      title: "Later",
      type: "sale",
      status: "active",
      starts_at: starts.toISOString(),
      ends_at: ends.toISOString(),
      prices: [{ variant_id: "var_t", currency_code: "usd", amount: 800 }],
    });
    // Not in effect yet (the base price holds), until it starts.
    const later = await pricing.priceVariants(["var_t"], { currency_code: "usd" });
    expect(later.prices.get("var_t")?.calculated_amount).toBe(1000);
    expect(later.valid_until?.getTime()).toBe(starts.getTime());
    // A draft list, or one pricing other variants only, changes nothing by itself.
    await lists.create({
      title: "Draft",
      type: "sale",
      status: "draft",
      starts_at: new Date(Date.now() + 30_000).toISOString(),
      prices: [{ variant_id: "var_t", currency_code: "usd", amount: 700 }],
    });
    expect((await pricing.priceVariants(["var_t"], { currency_code: "usd" })).valid_until?.getTime()).toBe(
      starts.getTime(),
    );
  });

  it("costs the same number of queries for 1 or 100 variants", async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `var_bulk_${i}`);
    await database.db.execute(sql`select 1`);
    for (const id of ids.slice(0, 5)) await pricing.setVariantPrices(id, [{ currency_code: "usd", amount: 100 }]);
    let priced: Map<string, unknown> | undefined;
    const one = await countQueries(database.db, () =>
      pricing.calculatePrices(ids.slice(0, 1), { currency_code: "usd", region_id: "reg_x" }),
    );
    const many = await countQueries(database.db, async () => {
      priced = await pricing.calculatePrices(ids, { currency_code: "usd", region_id: "reg_x" });
    });
    expect(priced?.size).toBe(5);
    expect(one).toBe(2);
    expect(many).toBe(2);
  });
});
