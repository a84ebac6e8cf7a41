import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "./testing";
import { CATALOG_TABLES, catalogVersionReader } from "./catalog-version";
import { queryRows } from "./rows";
import { transaction } from "./ambient";

let database: TestDatabase;
let version: () => Promise<string>;
beforeAll(async () => {
  database = await createTestDatabase();
  version = catalogVersionReader(database.db);
});
afterAll(() => database.close());

const insertCurrency = (code: string) =>
  sql`insert into currency (code, symbol, symbol_native, name, decimal_digits) values (${code}, ${code}, ${code}, ${code}, 2) on conflict do nothing`;

describe("catalog version", () => {
  it("is bumped by a trigger on exactly the catalog tables", async () => {
    const rows = await queryRows<{ table: string }>(
      database.db,
      sql`select tgrelid::regclass::text as table from pg_trigger where tgname like '%\_catalog\_version' and not tgisinternal`,
    );
    expect(rows.map((r) => r.table).sort()).toEqual([...CATALOG_TABLES].sort());
  });

  it("moves once per writing transaction, and not for one rolled back", async () => {
    const before = Number(await version());
    await transaction(database.db, async (tx) => {
      await tx.execute(insertCurrency("xaa"));
      await tx.execute(insertCurrency("xab"));
    });
    expect(Number(await version())).toBe(before + 1);
    await transaction(database.db, async (tx) => {
      await tx.execute(insertCurrency("xac"));
      throw new Error("rolled back");
    }).catch(() => undefined);
    expect(Number(await version())).toBe(before + 1);
    await database.db.execute(sql`delete from currency where code in ('xaa', 'xab')`);
    expect(Number(await version())).toBe(before + 2);
  });
});
