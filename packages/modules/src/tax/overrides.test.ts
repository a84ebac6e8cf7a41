import { describe, expect, it } from "vitest";
import { applicable, type ApplicableTaxRate, type RegionRates } from "./overrides";

const rate = (code: string, value: number): ApplicableTaxRate => ({
  id: `txr_${code}`,
  tax_region_id: "txreg",
  rate: value,
  code,
  name: code,
});
const codes = (rates: ApplicableTaxRate[]) => rates.map((r) => r.code);

const country: RegionRates = {
  default: rate("FR", 20),
  overrides: [
    { rate: rate("BOOKS", 5.5), targets: [{ reference: "product_type", id: "ptyp_books" }] },
    { rate: rate("NOVEL", 2.1), targets: [{ reference: "product", id: "prod_novel" }] },
    { rate: rate("MEDS", 2.1), targets: [{ reference: "product", id: "prod_pill" }] },
    { rate: rate("MEDS-LOCAL", 1), targets: [{ reference: "product", id: "prod_pill" }] },
    { rate: rate("SHIP", 10), targets: [{ reference: "shipping_option", id: "so_post" }] },
  ],
};

describe("applicable tax rates", () => {
  it("takes the overrides naming the product, else its type, else the default", () => {
    expect(codes(applicable([country], { product_id: "prod_novel", product_type_id: "ptyp_books" }))).toEqual([
      "NOVEL",
    ]);
    expect(codes(applicable([country], { product_id: "prod_other", product_type_id: "ptyp_books" }))).toEqual([
      "BOOKS",
    ]);
    expect(codes(applicable([country], { product_id: "prod_other", product_type_id: null }))).toEqual(["FR"]);
    // Several overrides naming the product: a tax line each.
    expect(codes(applicable([country], { product_id: "prod_pill" }))).toEqual(["MEDS", "MEDS-LOCAL"]);
  });

  it("a shipping method matches its option only; a line never matches an option's override", () => {
    expect(codes(applicable([country], { shipping_option_id: "so_post" }))).toEqual(["SHIP"]);
    expect(codes(applicable([country], { shipping_option_id: "so_other" }))).toEqual(["FR"]);
    expect(codes(applicable([country], { product_id: "so_post" }))).toEqual(["FR"]);
  });

  it("looks at the province's region first, then the country's; its default before the country's", () => {
    const province: RegionRates = {
      default: rate("CORSICA", 13),
      overrides: [{ rate: rate("CORSICA-BOOKS", 2.1), targets: [{ reference: "product_type", id: "ptyp_books" }] }],
    };
    expect(codes(applicable([province, country], { product_id: "prod_x", product_type_id: "ptyp_books" }))).toEqual([
      "CORSICA-BOOKS",
    ]);
    // The province has no override for the novel: the country's product override applies.
    expect(codes(applicable([province, country], { product_id: "prod_novel" }))).toEqual(["NOVEL"]);
    expect(codes(applicable([province, country], { product_id: "prod_x" }))).toEqual(["CORSICA"]);
    expect(codes(applicable([{ default: null, overrides: [] }, country], { product_id: "prod_x" }))).toEqual(["FR"]);
    expect(applicable([], { product_id: "prod_x" })).toEqual([]);
  });
});
