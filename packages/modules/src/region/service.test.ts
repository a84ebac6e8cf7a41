import { describe, expect, it } from "vitest";
import { transaction } from "@kasse/db";
import { useTestDatabase } from "@kasse/db/testing";
import { eq } from "drizzle-orm";
import { createRegionService } from "./service";
import { regionCountry, regionPaymentProvider } from "./schema";

const database = useTestDatabase();

describe("region currencyOf", () => {
  it("answers the region's currency in one prepared statement, in and out of a transaction; unknown and deleted regions are not found", async () => {
    const regions = createRegionService();
    const eu = await regions.create({ name: "Europe", currency_code: "EUR", countries: ["de"] });
    const gone = await regions.create({ name: "Gone", currency_code: "usd" });
    await regions.delete(gone.id);

    const statements = await database.statements.record(async () =>
      expect(await regions.currencyOf(eu.id)).toBe("eur"),
    );
    expect(statements).toHaveLength(1);
    // Prepared once: the second call sends the same statement.
    expect(await database.statements.record(() => regions.currencyOf(eu.id))).toEqual(statements);
    expect(await transaction(() => regions.currencyOf(eu.id))).toBe("eur");
    await expect(regions.currencyOf(gone.id)).rejects.toMatchObject({
      type: "not_found",
      message: `Region with id: ${gone.id} was not found`,
    });
    await expect(regions.currencyOf("reg_unknown")).rejects.toMatchObject({ type: "not_found" });
  });
});

describe("region delete", () => {
  it("frees the region's countries and drops its payment providers, in one transaction", async () => {
    const regions = createRegionService();
    const nordics = await regions.create({ name: "Nordics", currency_code: "sek", countries: ["se", "no"] });
    await regions.delete(nordics.id);
    const db = database.db;
    expect(await db.select().from(regionCountry).where(eq(regionCountry.region_id, nordics.id))).toEqual([]);
    expect(
      await db.select().from(regionPaymentProvider).where(eq(regionPaymentProvider.region_id, nordics.id)),
    ).toEqual([]);
    expect((await regions.create({ name: "Sweden", currency_code: "sek", countries: ["se"] })).countries).toHaveLength(
      1,
    );
  });
});
