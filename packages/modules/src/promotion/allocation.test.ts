import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allocate, percentOf } from "./allocation";

describe("percentOf: half up, once", () => {
  it.each([
    [1000, 10, 100],
    [999, 10, 100], // 99.9
    [994, 10, 99], // 99.4
    [5, 10, 1], // 0.5 rounds up
    [4, 10, 0], // 0.4 rounds down
    [15, 10, 2], // 1.5
    [100, 12.5, 13], // 12.5
    [100, 33.333333, 33],
    [3, 50, 2], // 1.5
    [1, 100, 1],
    [0, 50, 0],
    [123_456_789_012, 100, 123_456_789_012],
    [9_007_199_254_740, 99.999999, 9_007_199_164_668], // large amounts stay exact (BigInt)
  ])("%i × %f%% = %i", (amount, percent, expected) => {
    expect(percentOf(amount, percent)).toBe(expected);
  });

  it("never exceeds the amount for percentages up to 100", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 1, max: 100_000_000 }),
        (amount, p) => percentOf(amount, p / 1_000_000) <= amount,
      ),
    );
  });
});

describe("allocate: largest remainder", () => {
  it("splits evenly with the leftover to the earliest equal remainders", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(2, [1, 1, 1])).toEqual([1, 1, 0]);
  });

  it("follows the proportions and gives the leftover to the largest remainders", () => {
    // 1000 over 300/200/500: exact 300/200/500
    expect(allocate(1000, [300, 200, 500])).toEqual([300, 200, 500]);
    // 10 over 1/2/4: exact 1.43, 2.86, 5.71 → floors 1, 2, 5, leftover 2 to .86 and .71
    expect(allocate(10, [1, 2, 4])).toEqual([1, 3, 6]);
  });

  it("gives zero weights nothing and handles a zero total or zero weights", () => {
    expect(allocate(7, [0, 5, 0, 2])).toEqual([0, 5, 0, 2]);
    expect(allocate(0, [3, 4])).toEqual([0, 0]);
    expect(allocate(5, [0, 0])).toEqual([0, 0]);
  });

  it("always sums exactly and never gives a part more than its weight (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1e9 }), { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (weights, share) => {
          const sum = weights.reduce((a, b) => a + b, 0);
          const total = Math.floor(sum * share);
          const parts = allocate(total, weights);
          if (sum === 0) return parts.every((p) => p === 0);
          return parts.reduce((a, b) => a + b, 0) === total && parts.every((p, i) => p >= 0 && p <= weights[i]!);
        },
      ),
    );
  });
});
