import { beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { boolean, integer, jsonb, text } from "drizzle-orm/pg-core";
import { entityTable, metadata, money, timestamptz } from "./columns";
import { rowsInsert } from "./rows-insert";
import { builtStatement, type Placeholders } from "./statement";
import { queryRows } from "./rows";
import { useTestDatabase } from "./testing";
import type { Db } from "./types";

// The writes built once (insertRows' JSON rows, a statement's placeholders) store what drizzle's plain
// insert and update store: the same rows go into two tables alike, one each way, in one transaction
// (so `now()` is the same in both). They run on the handle given (`rowsInsert`, `builtStatement`): the
// forms `insertRows` and `statement` take the current one.
const columns = {
  name: text("name").notNull(),
  note: text("note"),
  quantity: integer("quantity").notNull().default(1),
  flag: boolean("flag").notNull().default(true),
  amount: money("amount").notNull().default(0),
  data: jsonb("data").$type<unknown>().notNull().default({}),
  seen_at: timestamptz("seen_at"),
  metadata: metadata(),
};
const plain = entityTable("built_once_test_plain", columns);
const built = entityTable("built_once_test_built", columns);
type Row = typeof plain.$inferInsert;

const database = useTestDatabase();
beforeAll(async () => {
  for (const name of ["built_once_test_plain", "built_once_test_built"])
    await database.db.execute(
      sql.raw(`create table ${name} (id text primary key, name text not null, note text,
        quantity integer not null default 1, flag boolean not null default true, amount bigint not null default 0,
        data jsonb not null default '{}'::jsonb, seen_at timestamptz, metadata jsonb,
        created_at timestamptz not null default now(), updated_at timestamptz not null default now(), deleted_at timestamptz)`),
    );
});

const ROWS: Row[] = [
  {
    id: "r1",
    name: "every column",
    note: "n",
    quantity: 3,
    flag: false,
    amount: 1999,
    data: { list: [1, null, "x"], nested: { a: true } },
    seen_at: new Date("2026-01-02T03:04:05.678Z"),
    metadata: { k: "v" },
  },
  { id: "r2", name: "defaults" },
  { id: "r3", name: "nulls", note: null, seen_at: null, metadata: null },
  { id: "r4", name: "JSON scalars", data: "text", metadata: { empty: {} } },
  { id: "r5", name: "JSON array", data: [], quantity: 0, flag: true },
];

/** Both tables' rows as JSON, and whether each JSON column holds SQL null (the type null) or JSON `null` ("null"). */
async function bothTables(db: Db) {
  const read = (table: string) =>
    queryRows<{ row: unknown }>(
      db,
      sql.raw(
        `select to_jsonb(t) || jsonb_build_object('data type', jsonb_typeof(data), 'metadata type', jsonb_typeof(metadata)) as row
         from ${table} t order by id`,
      ),
    );
  return { plain: await read("built_once_test_plain"), built: await read("built_once_test_built") };
}

describe("writes built once", () => {
  it("insertRows stores and answers what a multi-row insert does, at any number of rows", async () => {
    const insertRows = rowsInsert<Array<typeof built.$inferSelect>>(built, { returning: true });
    await database.db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      for (const rows of [ROWS.slice(0, 1), ROWS.slice(1)]) {
        const answered = await t.insert(plain).values(rows).returning();
        expect(await insertRows(t, rows)).toEqual(answered);
      }
      const { plain: expected, built: actual } = await bothTables(t);
      expect(actual).toEqual(expected);
      await t.execute(sql`delete from built_once_test_plain`);
      await t.execute(sql`delete from built_once_test_built`);
    });
  });

  it("insertRows with onConflictDoNothing skips the rows a plain insert's onConflictDoNothing skips", async () => {
    const insertRows = rowsInsert<Array<typeof built.$inferSelect>>(built, {
      returning: true,
      onConflictDoNothing: true,
    });
    await database.db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const rows = [ROWS[0]!, ROWS[1]!];
      await t.insert(plain).values(ROWS[0]!);
      await t.insert(built).values(ROWS[0]!);
      const answered = await t.insert(plain).values(rows).onConflictDoNothing().returning();
      expect(await insertRows(t, rows)).toEqual(answered);
      expect(answered.map((r) => r.id)).toEqual(["r2"]);
      const { plain: expected, built: actual } = await bothTables(t);
      expect(actual).toEqual(expected);
      await t.execute(sql`delete from built_once_test_plain`);
      await t.execute(sql`delete from built_once_test_built`);
    });
  });

  it("a statement stores and answers what a one-row insert and an update do", async () => {
    const insertRow = builtStatement((v: Placeholders<Row>, db) => db.insert(built).values(v).returning());
    const updateRow = builtStatement((v: Placeholders<Partial<Row> & { where_id: string }>, db) => {
      const { where_id, ...set } = v;
      return db.update(built).set(set).where(eq(built.id, where_id)).returning();
    });
    const updated_at = new Date("2026-02-03T04:05:06.789Z");
    const changes: Array<Partial<Row>> = [
      { note: "changed", data: { b: 2 }, updated_at },
      { note: null, metadata: null, seen_at: null, updated_at },
      { seen_at: new Date("2026-03-04T05:06:07.890Z"), quantity: 7, updated_at },
    ];
    await database.db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      for (const row of ROWS) expect(await insertRow(t, row)).toEqual(await t.insert(plain).values(row).returning());
      for (const [i, change] of changes.entries()) {
        const id = ROWS[i]!.id!;
        const answered = await t.update(plain).set(change).where(eq(plain.id, id)).returning();
        expect(await updateRow(t, { ...change, where_id: id })).toEqual(answered);
      }
      const { plain: expected, built: actual } = await bothTables(t);
      expect(actual).toEqual(expected);
    });
  });
});
