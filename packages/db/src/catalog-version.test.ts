import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "./testing";
import { CART_TABLES, CATALOG_TABLES, catalogVersionReader, currentCartVersion } from "./catalog-version";
import { queryRows } from "./rows";
import { db, onDatabase, transaction } from "./ambient";

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

  it("bumps the cart version on the catalog tables and the other tables a cart is computed from", async () => {
    const rows = await queryRows<{ table: string }>(
      database.db,
      sql`select tgrelid::regclass::text as table from pg_trigger where tgname like '%\_cart\_version' and not tgisinternal`,
    );
    expect(rows.map((r) => r.table).sort()).toEqual([...CART_TABLES].sort());
    const cartVersion = async () =>
      (await database.db.select({ v: currentCartVersion() }).from(sql`(select 1) as one`))[0]!.v;
    const [catalog, cart] = [Number(await version()), await cartVersion()];
    await database.db.execute(insertCurrency("xad"));
    expect([Number(await version()), await cartVersion()]).toEqual([catalog + 1, cart + 1]);
    await database.db.execute(sql`insert into customer_group (id, name) values ('cusgroup_cv', 'cv')`);
    expect([Number(await version()), await cartVersion()]).toEqual([catalog + 1, cart + 2]);
    // A campaign budget's use moves with every order: it bumps nothing; its terms do.
    await database.db.execute(
      sql`insert into promotion_campaign (id, name, campaign_identifier) values ('procamp_cv', 'cv', 'cv')`,
    );
    await database.db.execute(
      sql`insert into promotion_campaign_budget (id, campaign_id, type, "limit") values ('probudg_cv', 'procamp_cv', 'usage', 5)`,
    );
    const before = await cartVersion();
    await database.db.execute(sql`update promotion_campaign_budget set used = used + 1 where id = 'probudg_cv'`);
    expect(await cartVersion()).toBe(before);
    await database.db.execute(sql`update promotion_campaign_budget set "limit" = 4 where id = 'probudg_cv'`);
    expect(await cartVersion()).toBe(before + 1);
  });

  it("moves once per writing transaction, and not for one rolled back", async () => {
    const before = Number(await version());
    const inTransaction = (fn: () => Promise<void>) => onDatabase(database.db, () => transaction(fn));
    await inTransaction(async () => {
      await db.execute(insertCurrency("xaa"));
      await db.execute(insertCurrency("xab"));
    });
    expect(Number(await version())).toBe(before + 1);
    await inTransaction(async () => {
      await db.execute(insertCurrency("xac"));
      throw new Error("rolled back");
    }).catch(() => undefined);
    expect(Number(await version())).toBe(before + 1);
    await database.db.execute(sql`delete from currency where code in ('xaa', 'xab')`);
    expect(Number(await version())).toBe(before + 2);
  });
});
