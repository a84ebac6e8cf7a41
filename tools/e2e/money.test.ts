import { describe, expect, it } from "vitest";
import { normalizeBasePath } from "./config";
import { formatMinor, formatShown, minorToDecimal, showsAmount } from "./money";

describe("minor units on screen", () => {
  it("converts exactly for 0, 2 and 3 decimal digits", () => {
    expect(minorToDecimal(5900, 2)).toBe("59.00");
    expect(minorToDecimal(1999, 2)).toBe("19.99");
    expect(minorToDecimal(5, 2)).toBe("0.05");
    expect(minorToDecimal(-5, 2)).toBe("-0.05");
    expect(minorToDecimal(1500, 0)).toBe("1500");
    expect(minorToDecimal(12345, 3)).toBe("12.345");
    expect(() => minorToDecimal(59.5, 2)).toThrow(/not an integer/);
  });

  it("knows what the storefront shows for each base path: major units from /medusa, the raw minor number from the root", () => {
    expect(formatShown(5900, "usd", 2, "/medusa")).toBe("$59.00");
    expect(formatShown(5900, "usd", 2, "")).toBe("$5,900.00");
    expect(formatShown(1500, "jpy", 0, "")).toBe("¥1,500");
    expect(() => formatShown(1.5, "usd", 2, "")).toThrow(/not an integer/);
  });

  it("formats as the storefront's convertToLocale does", () => {
    expect(formatMinor(590000, "usd", 2)).toBe("$5,900.00");
    expect(formatMinor(1500, "jpy", 0)).toBe("¥1,500");
    expect(formatMinor(12345, "kwd", 3)).toBe("KWD 12.345");
    expect(formatMinor(700, "eur", 2)).toBe("€7.00");
  });

  it("finds an amount only as a whole amount", () => {
    expect(showsAmount("Total $59.00", "$59.00")).toBe(true);
    expect(showsAmount("- $59.00", "$59.00")).toBe(true);
    expect(showsAmount("$5,900.00", "$59.00")).toBe(false);
    expect(showsAmount("$159.00", "$59.00")).toBe(false);
    expect(showsAmount("$59.001", "$59.00")).toBe(false);
  });
});

describe("KASSE_E2E_BASE_PATH", () => {
  it("takes a path or the root and refuses anything else", () => {
    expect(normalizeBasePath("/medusa/")).toBe("/medusa");
    expect(normalizeBasePath("/")).toBe("");
    expect(normalizeBasePath("")).toBe("");
    expect(() => normalizeBasePath("medusa")).toThrow(/KASSE_E2E_BASE_PATH/);
  });
});
