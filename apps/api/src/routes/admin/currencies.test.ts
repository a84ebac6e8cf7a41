import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

describe("admin currencies", () => {
  it("lists every seeded ISO 4217 currency, paged", async () => {
    const first = await t.admin.get("/admin/currencies");
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ offset: 0, limit: 15 });
    expect(body.count).toBeGreaterThanOrEqual(150);
    expect(body.currencies).toHaveLength(15);
    expect(body.currencies[0].code).toBe("aed"); // ordered by code by default
    const last = (await t.admin.get(`/admin/currencies?offset=${body.count - 1}&limit=5`)).json();
    expect(last.currencies).toHaveLength(1);
    expect((await t.admin.get(`/admin/currencies?offset=${body.count}`)).json().currencies).toEqual([]);
  });

  it("shapes a currency like Medusa and filters by code and q", async () => {
    const usd = (await t.admin.get("/admin/currencies/USD")).json().currency;
    expect(usd).toMatchObject({
      code: "usd",
      symbol: "$",
      symbol_native: "$",
      name: "US Dollar",
      decimal_digits: 2,
      is_default: false,
    });
    expect((await t.admin.get("/admin/currencies/jpy")).json().currency.decimal_digits).toBe(0);
    expect((await t.admin.get("/admin/currencies/eur")).json().currency.symbol).toBe("€");
    const some = (await t.admin.get("/admin/currencies?code[]=eur&code[]=DKK&fields=code,name")).json();
    expect(some.currencies).toEqual([
      { code: "dkk", name: "Danish Krone" },
      { code: "eur", name: "Euro" },
    ]);
    expect(
      (await t.admin.get("/admin/currencies?q=krone")).json().currencies.map((c: { code: string }) => c.code),
    ).toEqual(expect.arrayContaining(["dkk", "nok"]));
  });

  it("marks exactly one currency as default", async () => {
    const res = await t.admin.post("/admin/currencies/eur", { is_default: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().currency).toMatchObject({ code: "eur", is_default: true });
    await t.admin.post("/admin/currencies/usd", { is_default: true });
    const defaults = (await t.admin.get("/admin/currencies?is_default=true")).json();
    expect(defaults.currencies.map((c: { code: string }) => c.code)).toEqual(["usd"]);
    await t.admin.post("/admin/currencies/usd", { is_default: false });
    expect((await t.admin.get("/admin/currencies?is_default=true")).json().count).toBe(0);
  });

  it("rejects bad input and unknown codes", async () => {
    expect((await t.admin.get("/admin/currencies/xxx")).statusCode).toBe(404);
    expect((await t.admin.get("/admin/currencies/xxx")).json().type).toBe("not_found");
    expect((await t.admin.post("/admin/currencies/xxx", { is_default: true })).statusCode).toBe(404);
    for (const body of [{ is_default: "yes" }, { code: "eur" }]) {
      const res = await t.admin.post("/admin/currencies/eur", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get("/admin/currencies/toolong")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/currencies?order=nope")).json().type).toBe("invalid_data");
    expect((await t.admin.get("/admin/currencies?limit=-1")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/currencies/eur")).json().currency.is_default).toBe(false);
  });

  it("requires an admin", async () => {
    expect((await t.store.get("/admin/currencies")).statusCode).toBe(401);
    const res = await t.customer("cus_1").get("/admin/currencies");
    expect(res.statusCode).toBe(403);
  });
});
