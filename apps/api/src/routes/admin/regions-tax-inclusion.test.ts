import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { queryRows } from "@kasse/db";
import { useTestApp, withFailure } from "../../testing";

// Medusa's region form sends `is_tax_inclusive` with the region: Kasse keeps it as the region's
// price preference (pricing), so create and update are sagas over region and pricing.
const t = useTestApp();

const preferenceOf = async (regionId: string) =>
  (await t.admin.get(`/admin/price-preferences?attribute=region_id&value[]=${regionId}`)).json().price_preferences;

describe("regions with is_tax_inclusive (Medusa's region form)", () => {
  it("creates the region and its price preference; an update changes it", async () => {
    const res = await t.admin.post("/admin/regions", {
      name: "Nordics",
      currency_code: "sek",
      countries: ["se"],
      payment_providers: ["pp_system_default"],
      automatic_taxes: true,
      is_tax_inclusive: true,
    });
    expect(res.statusCode).toBe(200);
    const region = res.json().region;
    expect(region).toMatchObject({ name: "Nordics", currency_code: "sek", automatic_taxes: true });
    expect(region).not.toHaveProperty("is_tax_inclusive");
    expect(await preferenceOf(region.id)).toEqual([
      expect.objectContaining({ attribute: "region_id", value: region.id, is_tax_inclusive: true }),
    ]);

    const updated = await t.admin.post(`/admin/regions/${region.id}`, { name: "Norden", is_tax_inclusive: false });
    expect(updated.json().region.name).toBe("Norden");
    expect(await preferenceOf(region.id)).toEqual([expect.objectContaining({ is_tax_inclusive: false })]);
    // Without the flag, an update leaves the preference alone.
    await t.admin.post(`/admin/regions/${region.id}`, { name: "Nordics" });
    expect(await preferenceOf(region.id)).toEqual([expect.objectContaining({ is_tax_inclusive: false })]);

    const executions = await queryRows<{ workflow_id: string; state: string }>(
      t.database.db,
      sql`select workflow_id, state from workflow_executions where workflow_id in ('create-region', 'update-region') order by created_at`,
    );
    expect(executions).toEqual([
      { workflow_id: "create-region", state: "succeeded" },
      { workflow_id: "update-region", state: "succeeded" },
      { workflow_id: "update-region", state: "succeeded" },
    ]);
  });

  it("a failing preference write leaves no region behind, and an update's failure puts the region back", async () => {
    const body = { name: "Iceland", currency_code: "isk", countries: ["is"], is_tax_inclusive: true };
    const failed = await withFailure(t.database.db, "price_preference", "INSERT", "true", () =>
      t.admin.post("/admin/regions", body),
    );
    expect(failed.statusCode).toBe(500);
    expect((await t.admin.get("/admin/regions?q=Iceland")).json().count).toBe(0);
    // The country was freed by the compensation: the same region can be created at once.
    const created = await t.admin.post("/admin/regions", body);
    expect(created.statusCode).toBe(200);
    const id = created.json().region.id;

    const failedUpdate = await withFailure(t.database.db, "price_preference", "UPDATE", "true", () =>
      t.admin.post(`/admin/regions/${id}`, { name: "Ísland", countries: ["is", "fo"], is_tax_inclusive: false }),
    );
    expect(failedUpdate.statusCode).toBe(500);
    const region = (await t.admin.get(`/admin/regions/${id}`)).json().region;
    expect(region.name).toBe("Iceland");
    expect(region.countries.map((c: { iso_2: string }) => c.iso_2)).toEqual(["is"]);
    expect(await preferenceOf(id)).toEqual([expect.objectContaining({ is_tax_inclusive: true })]);
  });

  it("refuses a non-boolean is_tax_inclusive with 400", async () => {
    const res = await t.admin.post("/admin/regions", { name: "X", currency_code: "usd", is_tax_inclusive: "yes" });
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe("invalid_data");
  });
});
