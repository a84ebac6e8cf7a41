import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { useTestDatabase } from "./testing";
import { queryRows, readRows, restoreRows } from "./rows";

// A saga step reads the rows it will replace (readRows), the journal keeps them as JSON, and its
// compensation writes them back (restoreRows): the round trip must give back the same rows.

const stock = pgTable("rows_test_stock", {
  id: text("id").primaryKey(),
  stocked: integer("stocked").notNull(),
  reserved: integer("reserved").notNull(),
  available: integer("available")
    .notNull()
    .generatedAlwaysAs(sql`stocked - reserved`),
  created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  deleted_at: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
});
const link = pgTable("rows_test_link", { a: text("a").notNull(), b: text("b").notNull() }, (t) => [
  primaryKey({ columns: [t.a, t.b] }),
]);

const database = useTestDatabase();
beforeAll(async () => {
  await database.db.execute(
    sql`create table rows_test_stock (id text primary key, stocked integer not null, reserved integer not null, available integer not null generated always as (stocked - reserved) stored, created_at timestamptz not null, deleted_at timestamptz)`,
  );
  await database.db.execute(sql`create table rows_test_link (a text not null, b text not null, primary key (a, b))`);
  await database.db.execute(
    sql`insert into rows_test_stock (id, stocked, reserved, created_at) values ('s1', 10, 3, '2026-01-02 03:04:05.123456+00'), ('s2', 5, 0, '2026-01-02 03:04:05.654321+00')`,
  );
  await database.db.insert(link).values([
    { a: "x", b: "1" },
    { a: "x", b: "2" },
  ]);
});

const microseconds = () =>
  queryRows<{ id: string; stocked: number; available: number; at: string; deleted: boolean }>(
    database.db,
    sql`select id, stocked, available, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') as at, deleted_at is not null as deleted from rows_test_stock order by id`,
  );

describe("readRows and restoreRows", () => {
  it("put rows back as they were, through JSON, to the microsecond, overwriting and re-inserting", async () => {
    const before = await microseconds();
    const read = JSON.parse(JSON.stringify(await readRows(database.db, stock, undefined)));
    await database.db.update(stock).set({ stocked: 99, deleted_at: new Date() }).where(eq(stock.id, "s1"));
    await database.db.delete(stock).where(eq(stock.id, "s2"));
    await restoreRows(database.db, stock, read);
    expect(await microseconds()).toEqual(before);
    expect(before.map((r) => r.at)).toEqual(["2026-01-02 03:04:05.123456", "2026-01-02 03:04:05.654321"]);
    expect(before[0]).toMatchObject({ stocked: 10, available: 7, deleted: false });
  });

  it("give a link table back its missing rows", async () => {
    const read = await readRows(database.db, link, eq(link.a, "x"));
    await database.db.delete(link).where(eq(link.b, "1"));
    await restoreRows(database.db, link, read);
    expect(await database.db.select().from(link).orderBy(link.b)).toEqual([
      { a: "x", b: "1" },
      { a: "x", b: "2" },
    ]);
  });
});
