import { describe, expect, it } from "vitest";
import { computeTotals, type LineTotals, type TotalsLineInput, type TotalsShippingInput } from "./totals";

const item = (over: Partial<TotalsLineInput> = {}): TotalsLineInput => ({
  unit_price: 1000,
  quantity: 1,
  is_tax_inclusive: false,
  tax_rates: [],
  discounts: [],
  ...over,
});
const ship = (over: Partial<TotalsShippingInput> = {}): TotalsShippingInput => ({
  amount: 500,
  is_tax_inclusive: false,
  tax_rates: [],
  discounts: [],
  ...over,
});

function expectLineIdentity(line: LineTotals): void {
  expect(line.total).toBe(line.subtotal - line.discount_total + line.tax_total);
  expect(line.discount_total).toBeLessThanOrEqual(line.subtotal);
  for (const value of Object.values(line)) {
    expect(Number.isSafeInteger(value)).toBe(true);
    expect(value).toBeGreaterThanOrEqual(0);
  }
}

describe("computeTotals: lines", () => {
  it("tax-exclusive without tax or discount: everything is unit_price × quantity", () => {
    const { items } = computeTotals({ items: [item({ unit_price: 1250, quantity: 3 })], shipping_methods: [] });
    expect(items[0]).toEqual({ subtotal: 3750, discount_total: 0, tax_total: 0, total: 3750, original_total: 3750 });
  });

  it("tax-exclusive with tax: tax on top, rounded once per line", () => {
    // 3 × 333 = 999; 19 % of 999 = 189.81 → 190 (per line, not 3 × 63.27 → 189)
    const { items } = computeTotals({
      items: [item({ unit_price: 333, quantity: 3, tax_rates: [19] })],
      shipping_methods: [],
    });
    expect(items[0]).toEqual({ subtotal: 999, discount_total: 0, tax_total: 190, total: 1189, original_total: 1189 });
  });

  it("tax-exclusive with a discount: tax on the discounted amount", () => {
    const { items } = computeTotals({
      items: [item({ unit_price: 1000, quantity: 2, tax_rates: [10], discounts: [300, 200] })],
      shipping_methods: [],
    });
    expect(items[0]).toEqual({
      subtotal: 2000,
      discount_total: 500,
      tax_total: 150,
      total: 1650,
      original_total: 2200,
    });
  });

  it("a discount never takes a line below zero", () => {
    const { items } = computeTotals({
      items: [item({ unit_price: 400, tax_rates: [20], discounts: [1000] })],
      shipping_methods: [],
    });
    expect(items[0]).toEqual({ subtotal: 400, discount_total: 400, tax_total: 0, total: 0, original_total: 480 });
  });

  it("tax-inclusive: the total is the sticker price, the tax is contained in it", () => {
    // 1190 incl. 19 %: tax = 1190 × 19 / 119 = 190, net 1000
    const { items } = computeTotals({
      items: [item({ unit_price: 1190, is_tax_inclusive: true, tax_rates: [19] })],
      shipping_methods: [],
    });
    expect(items[0]).toEqual({ subtotal: 1000, discount_total: 0, tax_total: 190, total: 1190, original_total: 1190 });
  });

  it("tax-inclusive with a discount: the discount is tax-inclusive, discount_total is without its tax", () => {
    // gross 2 × 1190 = 2380, discount 238 → total 2142; tax in 2142 = 342; net 1800; subtotal 2000 → discount_total 200
    const { items } = computeTotals({
      items: [item({ unit_price: 1190, quantity: 2, is_tax_inclusive: true, tax_rates: [19], discounts: [238] })],
      shipping_methods: [],
    });
    expect(items[0]).toEqual({
      subtotal: 2000,
      discount_total: 200,
      tax_total: 342,
      total: 2142,
      original_total: 2380,
    });
    expectLineIdentity(items[0]!);
  });

  it("tax-inclusive rounding is half up per line", () => {
    // 999 incl. 7.5 %: 999 × 7.5 / 107.5 = 69.697… → 70; net 929
    const { items } = computeTotals({
      items: [item({ unit_price: 999, is_tax_inclusive: true, tax_rates: [7.5] })],
      shipping_methods: [],
    });
    expect(items[0]).toEqual({ subtotal: 929, discount_total: 0, tax_total: 70, total: 999, original_total: 999 });
    // exactly half: 10 × 5 % = 0.5 → 1
    expect(
      computeTotals({ items: [item({ unit_price: 10, tax_rates: [5] })], shipping_methods: [] }).items[0]!.tax_total,
    ).toBe(1);
    // just under half: 9 × 5 % = 0.45 → 0
    expect(
      computeTotals({ items: [item({ unit_price: 9, tax_rates: [5] })], shipping_methods: [] }).items[0]!.tax_total,
    ).toBe(0);
  });

  it("several tax lines add their rates; fractional rates stay exact", () => {
    const { items } = computeTotals({
      items: [item({ unit_price: 10000, tax_rates: [5, 9.975] })],
      shipping_methods: [],
    });
    expect(items[0]!.tax_total).toBe(1498); // 14.975 % of 10000 = 1497.5 → 1498
  });

  it("holds total = subtotal − discount_total + tax_total for many combinations", () => {
    for (const is_tax_inclusive of [false, true]) {
      for (const unit_price of [0, 1, 7, 99, 1190, 123457]) {
        for (const quantity of [1, 3, 17]) {
          for (const rate of [0, 5, 7.7, 19, 25]) {
            for (const discount of [0, 1, 50, 999, 10_000_000]) {
              const { items } = computeTotals({
                items: [item({ unit_price, quantity, is_tax_inclusive, tax_rates: [rate], discounts: [discount] })],
                shipping_methods: [],
              });
              expectLineIdentity(items[0]!);
              if (is_tax_inclusive) expect(items[0]!.total).toBe(Math.max(0, unit_price * quantity - discount));
            }
          }
        }
      }
    }
  });

  it("rejects non-integer, negative and unsafe amounts", () => {
    expect(() => computeTotals({ items: [item({ unit_price: 10.5 })], shipping_methods: [] })).toThrow(RangeError);
    expect(() => computeTotals({ items: [item({ unit_price: -1 })], shipping_methods: [] })).toThrow(RangeError);
    expect(() => computeTotals({ items: [item({ discounts: [-5] })], shipping_methods: [] })).toThrow(RangeError);
    expect(() => computeTotals({ items: [item({ tax_rates: [-1] })], shipping_methods: [] })).toThrow(RangeError);
    expect(() => computeTotals({ items: [], shipping_methods: [ship({ amount: 0.1 })] })).toThrow(RangeError);
  });
});

describe("computeTotals: cart", () => {
  it("an empty cart is all zero", () => {
    const { cart } = computeTotals({ items: [], shipping_methods: [] });
    expect(Object.values(cart).every((v) => v === 0)).toBe(true);
  });

  it("sums items and shipping: subtotal is items only, total everything", () => {
    const { items, shipping_methods, cart } = computeTotals({
      items: [
        item({ unit_price: 1000, quantity: 2, tax_rates: [10], discounts: [200] }),
        item({ unit_price: 1190, is_tax_inclusive: true, tax_rates: [19] }),
      ],
      shipping_methods: [
        ship({ amount: 800, tax_rates: [10], discounts: [800] }),
        ship({ amount: 595, is_tax_inclusive: true, tax_rates: [19] }),
      ],
    });
    expect(items).toEqual([
      { subtotal: 2000, discount_total: 200, tax_total: 180, total: 1980, original_total: 2200 },
      { subtotal: 1000, discount_total: 0, tax_total: 190, total: 1190, original_total: 1190 },
    ]);
    expect(shipping_methods).toEqual([
      { subtotal: 800, discount_total: 800, tax_total: 0, total: 0, original_total: 880 },
      { subtotal: 500, discount_total: 0, tax_total: 95, total: 595, original_total: 595 },
    ]);
    expect(cart).toEqual({
      item_subtotal: 3000,
      item_discount_total: 200,
      item_tax_total: 370,
      item_total: 3170,
      shipping_subtotal: 1300,
      shipping_discount_total: 800,
      shipping_tax_total: 95,
      shipping_total: 595,
      subtotal: 3000,
      discount_total: 1000,
      tax_total: 465,
      total: 3765,
      original_total: 4865,
    });
    expect(cart.total).toBe(cart.subtotal + cart.shipping_subtotal - cart.discount_total + cart.tax_total);
    expect(cart.total).toBe(cart.item_total + cart.shipping_total);
  });

  it("shipping without tax or discount: shipping_total is the amount", () => {
    const { cart } = computeTotals({ items: [item({ unit_price: 2500 })], shipping_methods: [ship({ amount: 1000 })] });
    expect(cart).toMatchObject({
      subtotal: 2500,
      shipping_subtotal: 1000,
      shipping_total: 1000,
      tax_total: 0,
      discount_total: 0,
      total: 3500,
    });
  });
});

describe("computeTotals: the exact integer range", () => {
  const huge = 10 ** 13;
  const refused = { type: "invalid_data", status: 400, message: expect.stringMatching(/largest amount/) };

  it("refuses a line, a tax or a cart total past 2^53 - 1 (400), never a rounded total", () => {
    expect(() => computeTotals({ items: [item({ unit_price: huge, quantity: 1000 })], shipping_methods: [] })).toThrow(
      expect.objectContaining(refused),
    );
    // Each line fits; their sum does not.
    const lines = Array.from({ length: 1000 }, () => item({ unit_price: huge, quantity: 1 }));
    expect(() => computeTotals({ items: lines, shipping_methods: [] })).toThrow(expect.objectContaining(refused));
    // The line fits, its tax on top does not.
    expect(() =>
      computeTotals({ items: [item({ unit_price: huge, quantity: 900, tax_rates: [25] })], shipping_methods: [] }),
    ).toThrow(expect.objectContaining(refused));
  });

  it("stays exact up to the limit", () => {
    const { cart } = computeTotals({
      items: [item({ unit_price: huge, quantity: 900 })],
      shipping_methods: [ship({ amount: 7_000_000_000_000 })],
    });
    expect(cart.total).toBe(9_007_000_000_000_000);
    expect(Number.isSafeInteger(cart.total)).toBe(true);
  });
});
