import { describe, expect, it } from "vitest";
import { always, parseFields, project, wants } from "./fields";

const product = {
  id: "prod_1",
  title: "Shirt",
  handle: "shirt",
  description: "Cotton",
  created_at: new Date("2026-01-01T00:00:00.000Z"),
  collection: { id: "pcol_1", title: "Summer", handle: "summer" },
  variants: [
    {
      id: "var_1",
      sku: "S-1",
      title: "S",
      prices: [{ id: "price_1", amount: 1000, currency_code: "eur" }],
      inventory_quantity: 4,
    },
    { id: "var_2", sku: "S-2", title: "M", prices: [], inventory_quantity: 0 },
  ],
};

describe("parseFields + project", () => {
  it("keeps the full default shape without fields, with an empty value and with *", () => {
    for (const raw of [undefined, "", "  ", "*"]) expect(project(product, parseFields(raw))).toEqual(product);
  });

  it("replace mode: bare names keep only those fields, plus id", () => {
    expect(project(product, parseFields("title,handle"))).toEqual({ id: "prod_1", title: "Shirt", handle: "shirt" });
    expect(project([product], parseFields("title"))).toEqual([{ id: "prod_1", title: "Shirt" }]);
  });

  it("dotted paths select inside relations, on every item of an array", () => {
    expect(project(product, parseFields("title,variants.sku"))).toEqual({
      id: "prod_1",
      title: "Shirt",
      variants: [
        { id: "var_1", sku: "S-1" },
        { id: "var_2", sku: "S-2" },
      ],
    });
    expect(project(product, parseFields("variants.prices.amount"))).toEqual({
      id: "prod_1",
      variants: [
        { id: "var_1", prices: [{ id: "price_1", amount: 1000 }] },
        { id: "var_2", prices: [] },
      ],
    });
  });

  it("`*,variants.inventory_quantity` keeps all defaults and asks for the extra", () => {
    const selection = parseFields("*,variants.inventory_quantity");
    expect(wants(selection, "variants.inventory_quantity")).toBe(true);
    expect(wants(selection, "variants")).toBe(true);
    expect(wants(selection, "variants.calculated_price")).toBe(false);
    expect(project(product, selection)).toEqual(product);
    expect(wants(parseFields("*"), "variants.inventory_quantity")).toBe(false);
  });

  it("`+field` adds to the defaults, `-field` removes from them", () => {
    const plus = parseFields("+variants.inventory_quantity");
    expect(wants(plus, "variants.inventory_quantity")).toBe(true);
    expect(project(product, plus)).toEqual(product);

    const minus = project(product, parseFields("-description,-variants.prices"));
    expect(minus).not.toHaveProperty("description");
    expect(minus.title).toBe("Shirt");
    expect(minus.variants[0]).toEqual({ id: "var_1", sku: "S-1", title: "S", inventory_quantity: 4 });
  });

  it("`*relation` (Medusa) and a bare relation name keep the relation whole", () => {
    expect(project(product, parseFields("title,*collection"))).toEqual({
      id: "prod_1",
      title: "Shirt",
      collection: product.collection,
    });
    expect(project(product, parseFields("collection"))).toEqual({ id: "prod_1", collection: product.collection });
    expect(project(product, parseFields("variants.*"))).toEqual({ id: "prod_1", variants: product.variants });
  });

  it("`-relation` with a path inside it keeps only that path (Medusa's `variants.id,-variants`)", () => {
    expect(project(product, parseFields("id,title,variants.id,-variants"))).toEqual({
      id: "prod_1",
      title: "Shirt",
      variants: [{ id: "var_1" }, { id: "var_2" }],
    });
    expect(project(product, parseFields("id,-variants"))).toEqual({ id: "prod_1" });
  });

  it("`always` keeps keys a selection left out, unless it removed them", () => {
    expect(project(product, always(parseFields("title"), "handle"))).toEqual({
      id: "prod_1",
      title: "Shirt",
      handle: "shirt",
    });
    expect(project(product, always(parseFields("title,-handle"), "handle"))).toEqual({ id: "prod_1", title: "Shirt" });
    expect(project(product, always(parseFields(undefined), "handle"))).toEqual(product);
  });

  it("keeps dates and nulls as they are and ignores fields the value lacks", () => {
    const value = { id: "x", created_at: product.created_at, deleted_at: null };
    expect(project(value, parseFields("created_at,deleted_at,missing"))).toEqual(value);
  });

  it("rejects malformed field names with invalid_data", () => {
    for (const raw of ["title;drop", "variants..sku", "+", "a b", "1abc"]) {
      expect(() => parseFields(raw), raw).toThrow(expect.objectContaining({ type: "invalid_data", status: 400 }));
    }
  });
});
