import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeAdjustments, type EngineCart, type EnginePromotion, type EngineRule } from "./compute-adjustments";

const NOW = new Date("2026-06-15T12:00:00Z");

type MethodInput = Partial<EnginePromotion["application_method"]>;
/** A promotion: 10% off every item unless told otherwise. */
function promo(
  id: string,
  method: MethodInput = {},
  extra: Partial<Omit<EnginePromotion, "application_method">> = {},
): EnginePromotion {
  return {
    id,
    code: id.toUpperCase(),
    type: "standard",
    status: "active",
    rules: [],
    campaign: null,
    ...extra,
    application_method: {
      type: "percentage",
      target_type: "items",
      allocation: "each",
      value: 10,
      currency_code: null,
      max_quantity: null,
      apply_to_quantity: null,
      buy_rules_min_quantity: null,
      target_rules: [],
      buy_rules: [],
      ...method,
    },
  };
}

const rule = (attribute: string, operator: EngineRule["operator"], ...values: string[]): EngineRule => ({
  attribute,
  operator,
  values,
});

/** Shirt 2 × 1000, mug 1 × 500, poster 3 × 333; shipping 800 (standard) + 200 (gift wrap). */
const cart: EngineCart = {
  currency_code: "eur",
  region_id: "reg_eu",
  customer_group_ids: ["cgrp_vip", "cgrp_staff"],
  items: [
    {
      id: "li_shirt",
      product_id: "prod_shirt",
      quantity: 2,
      unit_price: 1000,
      product_category_ids: ["pcat_apparel"],
      product_collection_id: "pcol_summer",
      product_tag_ids: ["ptag_cotton"],
    },
    {
      id: "li_mug",
      product_id: "prod_mug",
      quantity: 1,
      unit_price: 500,
      product_category_ids: ["pcat_home"],
      product_collection_id: null,
      product_tag_ids: [],
    },
    {
      id: "li_poster",
      product_id: "prod_poster",
      quantity: 3,
      unit_price: 333,
      product_category_ids: ["pcat_home", "pcat_art"],
      product_tag_ids: ["ptag_paper"],
    },
  ],
  shipping_methods: [
    { id: "sm_std", amount: 800, shipping_option_id: "so_standard" },
    { id: "sm_wrap", amount: 200, shipping_option_id: "so_wrap" },
  ],
};
// subtotal = 2000 + 500 + 999 = 3499

const run = (promotions: EnginePromotion[], c: EngineCart = cart, now = NOW) => computeAdjustments(c, promotions, now);
const byItem = (result: ReturnType<typeof run>) =>
  Object.fromEntries(result.item_adjustments.map((a) => [a.item_id, a.amount]));
const byShipping = (result: ReturnType<typeof run>) =>
  Object.fromEntries(result.shipping_method_adjustments.map((a) => [a.shipping_method_id, a.amount]));
const applies = (rules: EngineRule[], c: EngineCart = cart) => run([promo("p", {}, { rules })], c).applied.length === 1;

describe("rule operators", () => {
  it("eq / ne on a single-valued attribute", () => {
    expect(applies([rule("region_id", "eq", "reg_eu")])).toBe(true);
    expect(applies([rule("region_id", "eq", "reg_us")])).toBe(false);
    expect(applies([rule("region_id", "ne", "reg_us")])).toBe(true);
    expect(applies([rule("region_id", "ne", "reg_eu")])).toBe(false);
  });

  it("in holds when the value is one of the listed ones", () => {
    expect(applies([rule("currency_code", "in", "usd", "eur")])).toBe(true);
    expect(applies([rule("currency_code", "in", "usd", "gbp")])).toBe(false);
  });

  it("gt / gte / lt / lte compare integers at the boundary", () => {
    expect(applies([rule("subtotal", "gt", "3498")])).toBe(true);
    expect(applies([rule("subtotal", "gt", "3499")])).toBe(false);
    expect(applies([rule("subtotal", "gte", "3499")])).toBe(true);
    expect(applies([rule("subtotal", "gte", "3500")])).toBe(false);
    expect(applies([rule("subtotal", "lt", "3500")])).toBe(true);
    expect(applies([rule("subtotal", "lt", "3499")])).toBe(false);
    expect(applies([rule("subtotal", "lte", "3499")])).toBe(true);
    expect(applies([rule("subtotal", "lte", "3498")])).toBe(false);
  });

  it("eq and in on numeric attributes compare numbers, not text", () => {
    expect(applies([rule("quantity", "eq", "6")])).toBe(true);
    expect(applies([rule("quantity", "eq", "06")])).toBe(true);
    expect(applies([rule("quantity", "in", "5", "6")])).toBe(true);
    expect(applies([rule("quantity", "ne", "6")])).toBe(false);
  });

  it("multi-valued attributes: eq/in match any value, ne means none equals", () => {
    expect(applies([rule("customer_group_id", "eq", "cgrp_vip")])).toBe(true);
    expect(applies([rule("customer_group_id", "in", "cgrp_x", "cgrp_staff")])).toBe(true);
    expect(applies([rule("customer_group_id", "ne", "cgrp_vip")])).toBe(false);
    expect(applies([rule("customer_group_id", "ne", "cgrp_other")])).toBe(true);
  });

  it("an absent value never equals and is always unequal", () => {
    const guest: EngineCart = { ...cart, region_id: null, customer_group_ids: [] };
    expect(applies([rule("region_id", "eq", "reg_eu")], guest)).toBe(false);
    expect(applies([rule("region_id", "ne", "reg_eu")], guest)).toBe(true);
    expect(applies([rule("customer_group_id", "in", "cgrp_vip")], guest)).toBe(false);
  });

  it("ordering operators on a non-numeric attribute never hold", () => {
    expect(applies([rule("region_id", "gt", "a")])).toBe(false);
  });

  it("every rule must hold", () => {
    expect(applies([rule("region_id", "eq", "reg_eu"), rule("subtotal", "gte", "3000")])).toBe(true);
    expect(applies([rule("region_id", "eq", "reg_eu"), rule("subtotal", "gte", "4000")])).toBe(false);
    expect(run([promo("p", {}, { rules: [rule("subtotal", "gte", "4000")] })]).skipped).toEqual([
      { promotion_id: "p", code: "P", reason: "rules_not_met" },
    ]);
  });

  it("unknown attributes never hold", () => {
    expect(applies([rule("test.test", "eq", "x")])).toBe(false);
  });
});

describe("rule attributes", () => {
  it("cart-level attributes: customer_group_id, region_id, currency_code, subtotal", () => {
    expect(applies([rule("customer_group_id", "eq", "cgrp_staff")])).toBe(true);
    expect(applies([rule("region_id", "eq", "reg_eu")])).toBe(true);
    expect(applies([rule("currency_code", "eq", "eur")])).toBe(true);
    expect(applies([rule("subtotal", "eq", "3499")])).toBe(true);
    expect(applies([rule("subtotal", "eq", "100")], { ...cart, subtotal: 100 })).toBe(true); // the cart's own subtotal wins
  });

  it("product attributes on the promotion mean 'the cart contains'", () => {
    expect(applies([rule("product_id", "eq", "prod_mug")])).toBe(true);
    expect(applies([rule("product_id", "eq", "prod_none")])).toBe(false);
    expect(applies([rule("product_id", "ne", "prod_mug")])).toBe(false);
    expect(applies([rule("product_category_id", "eq", "pcat_art")])).toBe(true);
    expect(applies([rule("product_collection_id", "eq", "pcol_summer")])).toBe(true);
    expect(applies([rule("product_tag_id", "in", "ptag_paper")])).toBe(true);
    expect(applies([rule("shipping_option_id", "eq", "so_wrap")])).toBe(true);
  });

  it("item_total and quantity on the promotion are the cart's totals", () => {
    expect(applies([rule("item_total", "eq", "3499")])).toBe(true);
    expect(applies([rule("quantity", "gte", "6")])).toBe(true);
    expect(applies([rule("quantity", "gt", "6")])).toBe(false);
  });

  it("target rules pick lines by their own product, category, collection, tag, total and quantity", () => {
    const target = (...rules: EngineRule[]) => Object.keys(byItem(run([promo("p", { target_rules: rules })]))).sort();
    expect(target(rule("product_id", "eq", "prod_shirt"))).toEqual(["li_shirt"]);
    expect(target(rule("product_id", "ne", "prod_shirt"))).toEqual(["li_mug", "li_poster"]);
    expect(target(rule("product_category_id", "eq", "pcat_home"))).toEqual(["li_mug", "li_poster"]);
    expect(target(rule("product_collection_id", "eq", "pcol_summer"))).toEqual(["li_shirt"]);
    expect(target(rule("product_tag_id", "in", "ptag_cotton", "ptag_paper"))).toEqual(["li_poster", "li_shirt"]);
    expect(target(rule("item_total", "gte", "999"))).toEqual(["li_poster", "li_shirt"]);
    expect(target(rule("quantity", "lte", "2"))).toEqual(["li_mug", "li_shirt"]);
    expect(target(rule("quantity", "lt", "2"))).toEqual(["li_mug"]);
    expect(target(rule("item_total", "gt", "2000"))).toEqual([]);
  });

  it("accepts Medusa's dotted attribute names", () => {
    expect(applies([rule("customer.groups.id", "in", "cgrp_vip")])).toBe(true);
    expect(applies([rule("region.id", "eq", "reg_eu")])).toBe(true);
    expect(
      Object.keys(byItem(run([promo("p", { target_rules: [rule("items.product.id", "eq", "prod_mug")] })]))),
    ).toEqual(["li_mug"]);
    expect(
      Object.keys(byItem(run([promo("p", { target_rules: [rule("items.product.categories.id", "eq", "pcat_art")] })]))),
    ).toEqual(["li_poster"]);
  });
});

describe("target types and allocation", () => {
  it("items + percentage + each: per line on its amount, half up", () => {
    // 10% of 2000 = 200; of 500 = 50; of 999 = 99.9 → 100
    expect(byItem(run([promo("p")]))).toEqual({ li_shirt: 200, li_mug: 50, li_poster: 100 });
  });

  it("each honours max_quantity per line", () => {
    // 1 unit each: 10% of 1000, 500, 333 (33.3 → 33)
    expect(byItem(run([promo("p", { max_quantity: 1 })]))).toEqual({ li_shirt: 100, li_mug: 50, li_poster: 33 });
    // 2 units of poster: 666 → 66.6 → 67
    expect(
      byItem(run([promo("p", { max_quantity: 2, target_rules: [rule("product_id", "eq", "prod_poster")] })])),
    ).toEqual({ li_poster: 67 });
  });

  it("items + fixed + each: value per unit up to max_quantity, never more than the line", () => {
    const fixed = (value: number, max: number | null) =>
      byItem(run([promo("p", { type: "fixed", value, currency_code: "eur", max_quantity: max })]));
    expect(fixed(100, null)).toEqual({ li_shirt: 200, li_mug: 100, li_poster: 300 });
    expect(fixed(100, 1)).toEqual({ li_shirt: 100, li_mug: 100, li_poster: 100 });
    expect(fixed(400, null)).toEqual({ li_shirt: 800, li_mug: 400, li_poster: 999 }); // poster capped at 3 × 333
    expect(fixed(5000, 1)).toEqual({ li_shirt: 1000, li_mug: 500, li_poster: 333 }); // one unit's worth at most
  });

  it("items + fixed + across: the value split by line totals, parts summing exactly", () => {
    const result = run([promo("p", { type: "fixed", allocation: "across", value: 1000, currency_code: "eur" })]);
    // 1000 over 2000/500/999 (Σ 3499): 571.59, 142.89, 285.51 → 571, 142, 285 + 2 leftover → .89 and .59
    expect(byItem(result)).toEqual({ li_shirt: 572, li_mug: 143, li_poster: 285 });
    expect(result.applied).toEqual([{ promotion_id: "p", code: "P", campaign_id: null, amount: 1000 }]);
  });

  it("fixed + across never gives more than the targets are worth", () => {
    const result = run([promo("p", { type: "fixed", allocation: "across", value: 10_000, currency_code: "eur" })]);
    expect(byItem(result)).toEqual({ li_shirt: 2000, li_mug: 500, li_poster: 999 });
  });

  it("items + percentage + across: one rounded total, split by largest remainder", () => {
    // 15% of 3499 = 524.85 → 525; split 2000/500/999: 299.91, 74.98, 149.91 → 299, 74, 149 + 3
    const result = run([promo("p", { allocation: "across", value: 15 })]);
    expect(byItem(result)).toEqual({ li_shirt: 300, li_mug: 75, li_poster: 150 });
    expect(result.applied[0]!.amount).toBe(525);
  });

  it("order target: one amount across all lines, whatever the allocation says", () => {
    const result = run([
      promo("p", { target_type: "order", type: "fixed", value: 100, allocation: "each", currency_code: "eur" }),
    ]);
    expect(Object.values(byItem(result)).reduce((a, b) => a + b, 0)).toBe(100);
    expect(byItem(result)).toEqual({ li_shirt: 57, li_mug: 14, li_poster: 29 });
    expect(result.shipping_method_adjustments).toEqual([]);
  });

  it("order target with a percentage", () => {
    const result = run([promo("p", { target_type: "order", allocation: "across", value: 50 })]);
    // 50% of 3499 = 1749.5 → 1750
    expect(result.applied[0]!.amount).toBe(1750);
    expect(byItem(result)).toEqual({ li_shirt: 1000, li_mug: 250, li_poster: 500 });
  });

  it("shipping_methods target: percentage each, fixed across, target rules", () => {
    expect(byShipping(run([promo("p", { target_type: "shipping_methods", value: 25 })]))).toEqual({
      sm_std: 200,
      sm_wrap: 50,
    });
    expect(
      byShipping(
        run([
          promo("p", {
            target_type: "shipping_methods",
            type: "fixed",
            value: 500,
            allocation: "across",
            currency_code: "eur",
          }),
        ]),
      ),
    ).toEqual({ sm_std: 400, sm_wrap: 100 });
    expect(
      byShipping(
        run([
          promo("p", {
            target_type: "shipping_methods",
            type: "fixed",
            value: 500,
            currency_code: "eur",
            target_rules: [rule("shipping_option_id", "eq", "so_wrap")],
          }),
        ]),
      ),
    ).toEqual({ sm_wrap: 200 });
    expect(run([promo("p", { target_type: "shipping_methods" })]).item_adjustments).toEqual([]);
  });

  it("free_shipping zeroes the targeted shipping methods", () => {
    expect(byShipping(run([promo("p", { type: "free_shipping", target_type: "shipping_methods", value: 0 })]))).toEqual(
      { sm_std: 800, sm_wrap: 200 },
    );
    expect(
      byShipping(
        run([
          promo("p", {
            type: "free_shipping",
            target_type: "shipping_methods",
            value: 0,
            target_rules: [rule("shipping_option_id", "in", "so_standard")],
          }),
        ]),
      ),
    ).toEqual({ sm_std: 800 });
  });

  it("no targets: skipped, nothing written", () => {
    const noShipping = run([promo("p", { type: "free_shipping", target_type: "shipping_methods" })], {
      ...cart,
      shipping_methods: [],
    });
    expect(noShipping.skipped).toEqual([{ promotion_id: "p", code: "P", reason: "no_targets" }]);
    expect(noShipping.applied).toEqual([]);
    const noMatch = run([promo("p", { target_rules: [rule("product_id", "eq", "prod_none")] })]);
    expect(noMatch.skipped[0]!.reason).toBe("no_targets");
  });

  it("non-discountable lines are never discounted", () => {
    const c: EngineCart = {
      ...cart,
      items: cart.items.map((i) => (i.id === "li_mug" ? { ...i, is_discountable: false } : i)),
    };
    expect(
      byItem(
        run(
          [promo("p", { target_type: "order", type: "fixed", value: 300, allocation: "across", currency_code: "eur" })],
          c,
        ),
      ),
    ).toEqual({ li_shirt: 200, li_poster: 100 });
  });

  it("a fixed amount in another currency does not apply", () => {
    expect(run([promo("p", { type: "fixed", value: 100, currency_code: "usd" })]).skipped[0]!.reason).toBe(
      "currency_mismatch",
    );
  });

  it("a 100% percentage discounts exactly the line", () => {
    expect(byItem(run([promo("p", { value: 100 })]))).toEqual({ li_shirt: 2000, li_mug: 500, li_poster: 999 });
  });
});

describe("stacking", () => {
  it("later promotions see what earlier ones left, and nothing goes below zero", () => {
    const result = run([
      promo("half", { value: 50 }),
      promo("fixed", { type: "fixed", value: 900, currency_code: "eur" }),
    ]);
    const total = (id: string) =>
      result.item_adjustments.filter((a) => a.item_id === id).reduce((a, b) => a + b.amount, 0);
    // shirt: 1000 off, then min(1000 left, 1800) = 1000; mug: 250 then 250; poster 500 (499.5 → 500) then 499
    expect(total("li_shirt")).toBe(2000);
    expect(total("li_mug")).toBe(500);
    expect(total("li_poster")).toBe(999);
  });

  it("a promotion with nothing left to discount is skipped", () => {
    const result = run([promo("all", { value: 100 }), promo("more")]);
    expect(result.applied.map((a) => a.promotion_id)).toEqual(["all"]);
    expect(result.skipped).toEqual([{ promotion_id: "more", code: "MORE", reason: "no_targets" }]);
  });

  it("the same promotion given twice applies once", () => {
    expect(run([promo("p"), promo("p")]).applied).toHaveLength(1);
  });

  it("every adjustment carries its promotion and code", () => {
    expect(run([promo("p", { target_rules: [rule("product_id", "eq", "prod_mug")] })]).item_adjustments).toEqual([
      { item_id: "li_mug", promotion_id: "p", code: "P", amount: 50 },
    ]);
  });

  it("never discounts more than the cart, for random carts and promotions (property)", () => {
    const item = fc.record({
      quantity: fc.integer({ min: 1, max: 20 }),
      unit_price: fc.integer({ min: 0, max: 100_000 }),
    });
    const method = fc.record({
      type: fc.constantFrom("percentage" as const, "fixed" as const),
      allocation: fc.constantFrom("each" as const, "across" as const),
      target_type: fc.constantFrom("items" as const, "order" as const),
      value: fc.integer({ min: 1, max: 100 }),
      max_quantity: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 8 }),
        fc.array(method, { minLength: 1, maxLength: 4 }),
        (items, methods) => {
          const c: EngineCart = { currency_code: "eur", items: items.map((i, n) => ({ id: `li_${n}`, ...i })) };
          const result = computeAdjustments(
            c,
            methods.map((m, n) => promo(`p${n}`, { ...m, currency_code: "eur" })),
            NOW,
          );
          for (const line of c.items) {
            const off = result.item_adjustments.filter((a) => a.item_id === line.id).reduce((a, b) => a + b.amount, 0);
            if (off > line.unit_price * line.quantity) return false;
          }
          return result.item_adjustments.every((a) => Number.isInteger(a.amount) && a.amount > 0);
        },
      ),
    );
  });
});

describe("buyget", () => {
  const shirts = rule("product_id", "eq", "prod_shirt");
  const mugs = rule("product_id", "eq", "prod_mug");
  const buyget = (method: MethodInput) =>
    promo(
      "bg",
      {
        value: 100,
        max_quantity: null,
        buy_rules: [shirts],
        target_rules: [shirts],
        buy_rules_min_quantity: 2,
        apply_to_quantity: 1,
        ...method,
      },
      { type: "buyget" },
    );
  const withShirts = (quantity: number): EngineCart => ({
    ...cart,
    items: cart.items.map((i) => (i.id === "li_shirt" ? { ...i, quantity } : i)),
  });

  it("buy 2 shirts get 1 free: needs a third shirt", () => {
    expect(byItem(run([buyget({})], withShirts(3)))).toEqual({ li_shirt: 1000 });
    expect(run([buyget({})], withShirts(2)).skipped[0]!.reason).toBe("no_targets");
    expect(run([buyget({})], withShirts(1)).skipped[0]!.reason).toBe("rules_not_met");
  });

  it("applies once per cart, apply_to_quantity units", () => {
    expect(byItem(run([buyget({})], withShirts(6)))).toEqual({ li_shirt: 1000 });
    expect(byItem(run([buyget({ apply_to_quantity: 2 })], withShirts(6)))).toEqual({ li_shirt: 2000 });
    expect(byItem(run([buyget({ apply_to_quantity: 5 })], withShirts(4)))).toEqual({ li_shirt: 2000 }); // only 2 left after buying 2
  });

  it("buy X get Y at a percentage", () => {
    expect(byItem(run([buyget({ target_rules: [mugs], value: 50, buy_rules_min_quantity: 2 })]))).toEqual({
      li_mug: 250,
    });
  });

  it("a fixed amount per discounted unit", () => {
    expect(byItem(run([buyget({ type: "fixed", value: 300, currency_code: "eur", target_rules: [mugs] })]))).toEqual({
      li_mug: 300,
    });
    expect(byItem(run([buyget({ type: "fixed", value: 3000, currency_code: "eur", target_rules: [mugs] })]))).toEqual({
      li_mug: 500,
    });
  });

  it("the cheapest target units are discounted; bought units come from non-targets first, then the dearest", () => {
    const home = rule("product_category_id", "eq", "pcat_home"); // mug 500 × 1, poster 333 × 3
    // Buy 1 shirt, get 2 home items at 100%: the two cheapest units are posters.
    expect(byItem(run([buyget({ buy_rules_min_quantity: 1, apply_to_quantity: 2, target_rules: [home] })]))).toEqual({
      li_poster: 666,
    });
    // Buy any 2 home items, get 3 home items free: the mug and one poster are "bought", two posters free.
    const anyHome = buyget({
      buy_rules: [home],
      target_rules: [home],
      buy_rules_min_quantity: 2,
      apply_to_quantity: 3,
    });
    expect(byItem(run([anyHome]))).toEqual({ li_poster: 666 });
  });

  it("buy rules can combine with promotion rules", () => {
    expect(
      run([{ ...buyget({}), rules: [rule("customer_group_id", "eq", "cgrp_nobody")] }], withShirts(3)).skipped[0]!
        .reason,
    ).toBe("rules_not_met");
  });

  it("rounds a percentage on the discounted units half up", () => {
    // 1 poster at 50%: 166.5 → 167
    expect(
      byItem(
        run([
          buyget({ buy_rules_min_quantity: 1, target_rules: [rule("product_id", "eq", "prod_poster")], value: 50 }),
        ]),
      ),
    ).toEqual({ li_poster: 167 });
  });
});

describe("campaign dates, status and budget", () => {
  const campaign = (over: Partial<NonNullable<EnginePromotion["campaign"]>> = {}): EnginePromotion["campaign"] => ({
    id: "camp",
    starts_at: null,
    ends_at: null,
    budget: null,
    ...over,
  });
  const reason = (p: EnginePromotion, now = NOW) => run([p], cart, now).skipped[0]?.reason ?? "applied";

  it("only active promotions apply", () => {
    expect(reason(promo("p", {}, { status: "draft" }))).toBe("inactive");
    expect(reason(promo("p", {}, { status: "inactive" }))).toBe("inactive");
    expect(reason(promo("p", {}, { status: "active" }))).toBe("applied");
  });

  it("respects the campaign window, bounds included", () => {
    const window = campaign({ starts_at: new Date("2026-06-01T00:00:00Z"), ends_at: new Date("2026-06-30T00:00:00Z") });
    const p = promo("p", {}, { campaign: window });
    expect(reason(p)).toBe("applied");
    expect(reason(p, new Date("2026-05-31T23:59:59Z"))).toBe("not_started");
    expect(reason(p, new Date("2026-06-01T00:00:00Z"))).toBe("applied");
    expect(reason(p, new Date("2026-06-30T00:00:00Z"))).toBe("applied");
    expect(reason(p, new Date("2026-06-30T00:00:01Z"))).toBe("expired");
  });

  it("a usage budget used up stops the promotion; one left still applies", () => {
    expect(
      reason(
        promo("p", {}, { campaign: campaign({ budget: { type: "usage", limit: 10, used: 10, currency_code: null } }) }),
      ),
    ).toBe("budget_exhausted");
    expect(
      reason(
        promo("p", {}, { campaign: campaign({ budget: { type: "usage", limit: 10, used: 9, currency_code: null } }) }),
      ),
    ).toBe("applied");
    expect(
      reason(
        promo(
          "p",
          {},
          { campaign: campaign({ budget: { type: "usage", limit: null, used: 99, currency_code: null } }) },
        ),
      ),
    ).toBe("applied");
  });

  it("a spend budget: the promotion applies only if its whole discount fits what is left", () => {
    // 10% each = 350 in all
    const spend = (limit: number, used: number) =>
      reason(promo("p", {}, { campaign: campaign({ budget: { type: "spend", limit, used, currency_code: "eur" } }) }));
    expect(spend(1000, 650)).toBe("applied");
    expect(spend(1000, 651)).toBe("budget_exceeded");
    expect(spend(1000, 1000)).toBe("budget_exhausted");
  });

  it("two promotions of one campaign share its spend budget within the cart", () => {
    const shared = campaign({ budget: { type: "spend", limit: 600, used: 0, currency_code: "eur" } });
    const result = run([promo("a", {}, { campaign: shared }), promo("b", {}, { campaign: shared })]);
    expect(result.applied.map((a) => [a.promotion_id, a.amount, a.campaign_id])).toEqual([["a", 350, "camp"]]);
    expect(result.skipped).toEqual([{ promotion_id: "b", code: "B", reason: "budget_exceeded" }]);
  });

  it("a spend budget in another currency does not apply", () => {
    expect(
      reason(
        promo(
          "p",
          {},
          { campaign: campaign({ budget: { type: "spend", limit: 1000, used: 0, currency_code: "usd" } }) },
        ),
      ),
    ).toBe("currency_mismatch");
  });
});
