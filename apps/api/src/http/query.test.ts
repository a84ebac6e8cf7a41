import { describe, expect, it } from "vitest";
import { parseQueryString, toArray } from "./query";

describe("parseQueryString", () => {
  it("combines repeated keys into an array", () => {
    expect(parseQueryString("a=1&a=2")).toEqual({ a: ["1", "2"] });
    expect(parseQueryString("a=1")).toEqual({ a: "1" });
  });

  it("reads bracket and indexed arrays", () => {
    expect(parseQueryString("a[]=1&a[]=2")).toEqual({ a: ["1", "2"] });
    expect(parseQueryString("code[0]=eur&code[1]=usd")).toEqual({ code: ["eur", "usd"] });
    expect(parseQueryString("code[1]=usd&code[0]=eur")).toEqual({ code: ["eur", "usd"] });
  });

  it("reads range objects with and without Medusa's $", () => {
    expect(parseQueryString("created_at[gte]=2026-01-01&created_at[lt]=2026-02-01")).toEqual({
      created_at: { gte: "2026-01-01", lt: "2026-02-01" },
    });
    expect(parseQueryString("created_at[$gte]=2026-01-01")).toEqual({ created_at: { $gte: "2026-01-01" } });
    expect(parseQueryString("customers[id]=cus_1")).toEqual({ customers: { id: "cus_1" } });
  });

  it("decodes values and keeps commas inside one value", () => {
    expect(parseQueryString("fields=*%2Cvariants.sku&q=blue%20shirt")).toEqual({
      fields: "*,variants.sku",
      q: "blue shirt",
    });
    expect(parseQueryString("fields=id,title")).toEqual({ fields: "id,title" });
    expect(parseQueryString("")).toEqual({});
  });
});

describe("toArray", () => {
  it("wraps one value and keeps arrays and undefined", () => {
    expect(toArray("a")).toEqual(["a"]);
    expect(toArray(["a", "b"])).toEqual(["a", "b"]);
    expect(toArray(undefined)).toBeUndefined();
  });
});
