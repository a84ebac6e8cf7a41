import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

describe("admin price preferences", () => {
  it("creates, lists, updates and deletes; one per attribute and value", async () => {
    const res = await t.admin.post("/admin/price-preferences", {
      attribute: "currency_code",
      value: "EUR",
      is_tax_inclusive: true,
    });
    expect(res.statusCode).toBe(200);
    const pref = res.json().price_preference;
    expect(pref).toMatchObject({ attribute: "currency_code", value: "eur", is_tax_inclusive: true });
    expect(pref.id).toMatch(/^prpref_/);

    const dup = await t.admin.post("/admin/price-preferences", { attribute: "currency_code", value: "eur" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().type).toBe("conflict");

    await t.admin.post("/admin/price-preferences", { attribute: "region_id", value: "reg_1" });
    const list = (await t.admin.get("/admin/price-preferences?attribute=region_id")).json();
    expect(list).toMatchObject({ count: 1, offset: 0, limit: 15 });
    expect(list.price_preferences[0]).toMatchObject({ value: "reg_1", is_tax_inclusive: false });
    expect(
      (await t.admin.get("/admin/price-preferences?limit=1&order=-created_at")).json().price_preferences[0].value,
    ).toBe("reg_1");

    const updated = await t.admin.post(`/admin/price-preferences/${pref.id}`, { is_tax_inclusive: false });
    expect(updated.json().price_preference.is_tax_inclusive).toBe(false);
    expect((await t.admin.get(`/admin/price-preferences/${pref.id}`)).json().price_preference.is_tax_inclusive).toBe(
      false,
    );

    const deleted = await t.admin.delete(`/admin/price-preferences/${pref.id}`);
    expect(deleted.json()).toEqual({ id: pref.id, object: "price_preference", deleted: true });
    expect((await t.admin.get(`/admin/price-preferences/${pref.id}`)).statusCode).toBe(404);
    // Deleted preferences free their (attribute, value).
    expect(
      (await t.admin.post("/admin/price-preferences", { attribute: "currency_code", value: "eur" })).statusCode,
    ).toBe(200);
  });

  it("rejects bad input", async () => {
    for (const body of [
      {},
      { attribute: "country", value: "x" },
      { attribute: "region_id" },
      { attribute: "region_id", value: "" },
      { attribute: "region_id", value: "r", is_tax_inclusive: "yes" },
      { attribute: "region_id", value: "r", x: 1 },
    ]) {
      const res = await t.admin.post("/admin/price-preferences", body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.post("/admin/price-preferences/prpref_missing", { is_tax_inclusive: true })).statusCode).toBe(
      404,
    );
  });
});
