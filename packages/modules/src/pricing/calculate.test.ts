import { describe, expect, it } from "vitest";
import { calculatePrice, listApplies, type CandidateList, type CandidatePrice } from "./calculate";

const now = new Date("2026-06-01T12:00:00Z");
const base = (id: string, amount: number, extra: Partial<CandidatePrice> = {}): CandidatePrice => ({
  id,
  amount,
  currency_code: "usd",
  min_quantity: null,
  max_quantity: null,
  region_id: null,
  price_list_id: null,
  ...extra,
});
const list = (id: string, type: CandidateList["type"], extra: Partial<CandidateList> = {}): CandidateList => ({
  id,
  type,
  status: "active",
  starts_at: null,
  ends_at: null,
  rules: {},
  ...extra,
});
const lists = (...items: CandidateList[]) => new Map(items.map((l) => [l.id, l]));
const ctx = { currency_code: "usd", now };

describe("calculatePrice", () => {
  it("returns null when nothing applies", () => {
    expect(calculatePrice([], lists(), ctx)).toBeNull();
    expect(calculatePrice([base("p1", 100, { currency_code: "eur" })], lists(), ctx)).toBeNull();
  });

  it("picks the base price in the context currency (case-insensitive) with the full output shape", () => {
    const result = calculatePrice([base("p1", 100, { currency_code: "eur" }), base("p2", 200)], lists(), {
      ...ctx,
      currency_code: "USD",
    });
    expect(result).toEqual({
      id: "p2",
      calculated_amount: 200,
      original_amount: 200,
      currency_code: "usd",
      is_calculated_price_tax_inclusive: false,
      is_original_price_tax_inclusive: false,
      calculated_price: {
        id: "p2",
        price_list_id: null,
        price_list_type: null,
        min_quantity: null,
        max_quantity: null,
      },
      original_price: { id: "p2", price_list_id: null, price_list_type: null, min_quantity: null, max_quantity: null },
    });
  });

  it("carries the tax-inclusive flag of the context", () => {
    const result = calculatePrice([base("p1", 100)], lists(), { ...ctx, is_tax_inclusive: true });
    expect(result?.is_calculated_price_tax_inclusive).toBe(true);
    expect(result?.is_original_price_tax_inclusive).toBe(true);
  });

  describe("region rule", () => {
    const prices = [base("generic", 100), base("eu", 90, { region_id: "reg_eu" })];
    it("prefers the region's price in that region, even when dearer", () => {
      expect(calculatePrice(prices, lists(), { ...ctx, region_id: "reg_eu" })?.id).toBe("eu");
      expect(
        calculatePrice([base("generic", 100), base("eu", 120, { region_id: "reg_eu" })], lists(), {
          ...ctx,
          region_id: "reg_eu",
        })?.calculated_amount,
      ).toBe(120);
    });
    it("ignores a region price without a region or in another region", () => {
      expect(calculatePrice(prices, lists(), ctx)?.id).toBe("generic");
      expect(calculatePrice(prices, lists(), { ...ctx, region_id: "reg_us" })?.id).toBe("generic");
      expect(calculatePrice([base("eu", 90, { region_id: "reg_eu" })], lists(), ctx)).toBeNull();
    });
  });

  describe("quantity tiers", () => {
    const prices = [
      base("one", 100),
      base("ten", 80, { min_quantity: 10, max_quantity: 49 }),
      base("fifty", 60, { min_quantity: 50 }),
    ];
    it.each([
      [1, "one"],
      [9, "one"],
      [10, "ten"],
      [49, "ten"],
      [50, "fifty"],
      [1000, "fifty"],
    ])("quantity %i takes %s (bounds inclusive)", (quantity, id) => {
      expect(calculatePrice(prices, lists(), { ...ctx, quantity })?.id).toBe(id);
    });
    it("defaults to quantity 1", () => {
      expect(calculatePrice([base("ten", 80, { min_quantity: 10 })], lists(), ctx)).toBeNull();
    });
    it("respects a max-only tier", () => {
      expect(calculatePrice([base("small", 50, { max_quantity: 2 })], lists(), { ...ctx, quantity: 3 })).toBeNull();
      expect(calculatePrice([base("small", 50, { max_quantity: 2 })], lists(), { ...ctx, quantity: 2 })?.id).toBe(
        "small",
      );
    });
  });

  describe("sale lists", () => {
    it("apply only when lower than the base price", () => {
      const sale = lists(list("pl_sale", "sale"));
      const lower = calculatePrice([base("b", 100), base("s", 80, { price_list_id: "pl_sale" })], sale, ctx)!;
      expect(lower).toMatchObject({
        calculated_amount: 80,
        original_amount: 100,
        calculated_price: { id: "s", price_list_id: "pl_sale", price_list_type: "sale" },
        original_price: { id: "b" },
      });
      const higher = calculatePrice([base("b", 100), base("s", 120, { price_list_id: "pl_sale" })], sale, ctx)!;
      expect(higher).toMatchObject({
        calculated_amount: 100,
        original_amount: 100,
        calculated_price: { id: "b", price_list_type: null },
      });
      const equal = calculatePrice([base("b", 100), base("s", 100, { price_list_id: "pl_sale" })], sale, ctx)!;
      expect(equal.calculated_price.id).toBe("b");
    });
    it("take the lowest of several sale prices", () => {
      const result = calculatePrice(
        [base("b", 100), base("s1", 90, { price_list_id: "l1" }), base("s2", 70, { price_list_id: "l2" })],
        lists(list("l1", "sale"), list("l2", "sale")),
        ctx,
      );
      expect(result?.calculated_price.id).toBe("s2");
    });
    it("price a variant that has no base price", () => {
      const result = calculatePrice([base("s", 70, { price_list_id: "l1" })], lists(list("l1", "sale")), ctx);
      expect(result).toMatchObject({ calculated_amount: 70, original_amount: 70 });
    });
  });

  describe("override lists", () => {
    it("replace the base price even when dearer", () => {
      const result = calculatePrice(
        [base("b", 100), base("o", 130, { price_list_id: "lo" })],
        lists(list("lo", "override")),
        ctx,
      )!;
      expect(result).toMatchObject({
        calculated_amount: 130,
        original_amount: 130,
        calculated_price: { price_list_type: "override" },
        original_price: { id: "o" },
      });
    });
    it("are still undercut by a lower sale price", () => {
      const result = calculatePrice(
        [base("b", 100), base("o", 90, { price_list_id: "lo" }), base("s", 80, { price_list_id: "ls" })],
        lists(list("lo", "override"), list("ls", "sale")),
        ctx,
      )!;
      expect(result).toMatchObject({
        calculated_amount: 80,
        original_amount: 90,
        calculated_price: { id: "s" },
        original_price: { id: "o" },
      });
    });
    it("choose the most specific override, then the cheapest, then the smallest id", () => {
      const l = lists(list("l1", "override"), list("l2", "override", { rules: { region_id: ["reg_eu"] } }));
      const regional = calculatePrice(
        [base("a", 50, { price_list_id: "l1" }), base("b", 70, { price_list_id: "l2" })],
        l,
        { ...ctx, region_id: "reg_eu" },
      );
      expect(regional?.id).toBe("b");
      const cheap = calculatePrice(
        [base("a", 50, { price_list_id: "l1" }), base("b", 40, { price_list_id: "l1" })],
        l,
        ctx,
      );
      expect(cheap?.id).toBe("b");
      const tie = calculatePrice(
        [base("z", 50, { price_list_id: "l1" }), base("y", 50, { price_list_id: "l1" })],
        l,
        ctx,
      );
      expect(tie?.id).toBe("y");
    });
  });

  it("resolves ties deterministically whatever the input order", () => {
    const prices = [base("p_b", 100), base("p_a", 100), base("p_c", 100)];
    const first = calculatePrice(prices, lists(), ctx)?.id;
    expect(first).toBe("p_a");
    expect(calculatePrice([...prices].reverse(), lists(), ctx)?.id).toBe("p_a");
  });

  it("ignores list prices whose list is unknown, inactive or out of its dates", () => {
    const prices = [base("b", 100), base("s", 50, { price_list_id: "l" })];
    expect(calculatePrice(prices, lists(), ctx)?.id).toBe("b");
    expect(calculatePrice(prices, lists(list("l", "sale", { status: "draft" })), ctx)?.id).toBe("b");
    expect(calculatePrice(prices, lists(list("l", "sale", { starts_at: new Date("2026-07-01") })), ctx)?.id).toBe("b");
    expect(calculatePrice(prices, lists(list("l", "sale", { ends_at: new Date("2026-05-01") })), ctx)?.id).toBe("b");
    expect(
      calculatePrice(
        prices,
        lists(list("l", "sale", { starts_at: new Date("2026-05-01"), ends_at: new Date("2026-07-01") })),
        ctx,
      )?.id,
    ).toBe("s");
  });
});

describe("listApplies", () => {
  const at = { now };
  it("needs active status and now within [starts_at, ends_at)", () => {
    expect(listApplies(list("l", "sale"), at)).toBe(true);
    expect(listApplies(list("l", "sale", { status: "draft" }), at)).toBe(false);
    expect(listApplies(list("l", "sale", { starts_at: now }), at)).toBe(true);
    expect(listApplies(list("l", "sale", { ends_at: now }), at)).toBe(false);
  });
  it("matches customer groups by intersection and regions by membership", () => {
    const vip = list("l", "override", { rules: { customer_group_id: ["cg_vip", "cg_staff"] } });
    expect(listApplies(vip, at)).toBe(false);
    expect(listApplies(vip, { ...at, customer_group_ids: ["cg_other"] })).toBe(false);
    expect(listApplies(vip, { ...at, customer_group_ids: ["cg_other", "cg_staff"] })).toBe(true);
    const eu = list("l", "sale", { rules: { region_id: ["reg_eu"] } });
    expect(listApplies(eu, { ...at, region_id: "reg_eu" })).toBe(true);
    expect(listApplies(eu, { ...at, region_id: "reg_us" })).toBe(false);
    expect(listApplies(eu, at)).toBe(false);
  });
  it("requires every rule to match", () => {
    const both = list("l", "sale", { rules: { region_id: ["reg_eu"], customer_group_id: ["cg_vip"] } });
    expect(listApplies(both, { ...at, region_id: "reg_eu" })).toBe(false);
    expect(listApplies(both, { ...at, customer_group_ids: ["cg_vip"] })).toBe(false);
    expect(listApplies(both, { ...at, region_id: "reg_eu", customer_group_ids: ["cg_vip"] })).toBe(true);
  });
  it("never matches a rule on an attribute it does not know", () => {
    expect(listApplies(list("l", "sale", { rules: { channel: ["x"] } }), at)).toBe(false);
  });
});
