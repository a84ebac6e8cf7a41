import { beforeAll, describe, expect, it } from "vitest";
import { and, eq, ilike, sql } from "drizzle-orm";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { inList } from "./statement";
import { useTestDatabase } from "./testing";
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  likePattern,
  listPage,
  normalizeRange,
  orderBy,
  rangeConditions,
  toDate,
} from "./list";

const item = pgTable("list_test_item", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  rank: integer("rank").notNull(),
  created_at: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
});
const columns = { title: item.title, rank: item.rank, created_at: item.created_at };

const database = useTestDatabase();
beforeAll(async () => {
  await database.db.execute(
    sql`create table list_test_item (id text primary key, title text not null, rank integer not null, created_at timestamptz not null)`,
  );
  await database.db.insert(item).values([
    { id: "i3", title: "b", rank: 1, created_at: new Date("2026-01-03T00:00:00Z") },
    { id: "i1", title: "a", rank: 2, created_at: new Date("2026-01-01T00:00:00Z") },
    { id: "i2", title: "b", rank: 3, created_at: new Date("2026-01-02T00:00:00Z") },
  ]);
});

const ids = async (order: string | undefined) =>
  (
    await database.db
      .select({ id: item.id })
      .from(item)
      .orderBy(...orderBy(order, columns, item.id))
  ).map((r) => r.id);

describe("paging constants", () => {
  it("defaults to 15 and accepts at most 1000", () => {
    expect(DEFAULT_LIMIT).toBe(15);
    expect(MAX_LIMIT).toBe(1000);
  });
});

describe("orderBy", () => {
  it("orders by created_at ascending by default, id breaking ties", async () => {
    expect(await ids(undefined)).toEqual(["i1", "i2", "i3"]);
    expect(await ids("  ")).toEqual(["i1", "i2", "i3"]);
  });

  it("reads -field as descending and +field or field as ascending, several at once", async () => {
    expect(await ids("-created_at")).toEqual(["i3", "i2", "i1"]);
    expect(await ids("+rank")).toEqual(["i3", "i1", "i2"]);
    expect(await ids("-title,rank")).toEqual(["i3", "i2", "i1"]);
    // Equal titles: the id tie-breaker keeps the page order stable.
    expect(await ids("title")).toEqual(["i1", "i2", "i3"]);
  });

  it("rejects a column not offered with invalid_data", () => {
    expect(() => orderBy("password", columns, item.id)).toThrow(
      expect.objectContaining({ type: "invalid_data", message: "Cannot order by 'password'" }),
    );
    expect(() => orderBy("-id;drop", columns, item.id)).toThrow(expect.objectContaining({ type: "invalid_data" }));
  });
});

describe("normalizeRange", () => {
  it("accepts operators with and without $", () => {
    expect(normalizeRange({ gte: "2026-01-01", $lt: "2026-02-01" }, String)).toEqual({
      gte: "2026-01-01",
      lt: "2026-02-01",
    });
    expect(normalizeRange({ $gt: "1", $lte: "5", $eq: "3", $ne: "4" }, Number)).toEqual({
      gt: 1,
      lte: 5,
      eq: 3,
      ne: 4,
    });
  });

  it("reads `in` as a list, a single value too", () => {
    expect(normalizeRange({ in: ["1", "2"] }, Number)).toEqual({ in: [1, 2] });
    expect(normalizeRange({ $in: "1" }, Number)).toEqual({ in: [1] });
  });

  it("treats a plain value as eq", () => {
    expect(normalizeRange("2026-01-01T00:00:00Z", toDate)).toEqual({ eq: new Date("2026-01-01T00:00:00Z") });
  });

  it("rejects unknown operators and malformed timestamps with invalid_data", () => {
    expect(() => normalizeRange({ $like: "x" }, String)).toThrow(
      expect.objectContaining({ type: "invalid_data", message: "Unknown range operator '$like'" }),
    );
    expect(() => normalizeRange({ gte: "yesterday" }, toDate)).toThrow(
      expect.objectContaining({ type: "invalid_data" }),
    );
    expect(() => toDate(["2026-01-01"])).toThrow(expect.objectContaining({ type: "invalid_data" }));
  });
});

describe("rangeConditions", () => {
  const where = async (range: Parameters<typeof normalizeRange>[0]) =>
    (
      await database.db
        .select({ id: item.id })
        .from(item)
        .where(and(...rangeConditions(item.created_at, normalizeRange(range, toDate))))
        .orderBy(item.id)
    ).map((r) => r.id);

  it("filters on a column with every operator", async () => {
    expect(await where({ gte: "2026-01-02T00:00:00Z" })).toEqual(["i2", "i3"]);
    expect(await where({ $gt: "2026-01-02T00:00:00Z" })).toEqual(["i3"]);
    expect(await where({ lt: "2026-01-02T00:00:00Z" })).toEqual(["i1"]);
    expect(await where({ $lte: "2026-01-02T00:00:00Z", gt: "2026-01-01T00:00:00Z" })).toEqual(["i2"]);
    expect(await where({ ne: "2026-01-02T00:00:00Z" })).toEqual(["i1", "i3"]);
    expect(await where("2026-01-03T00:00:00Z")).toEqual(["i3"]);
    expect(await where({ in: ["2026-01-01T00:00:00Z", "2026-01-03T00:00:00Z"] })).toEqual(["i1", "i3"]);
    expect(await where({ in: [] })).toEqual([]);
    expect(rangeConditions(item.rank, undefined)).toEqual([]);
  });
});

describe("listPage", () => {
  it("answers one page in the order asked and the count of every matching row", async () => {
    const page = await listPage(item, eq(item.title, "b"), orderBy("-rank", columns, item.id), {
      limit: 1,
      offset: 0,
    });
    expect(page).toEqual({ items: [expect.objectContaining({ id: "i2", title: "b", rank: 3 })], count: 2 });
    expect(
      await listPage(item, undefined, orderBy(undefined, columns, item.id), { limit: 5, offset: 2 }),
    ).toMatchObject({ items: [{ id: "i3" }], count: 3 });
    expect(await listPage(item, eq(item.title, "none"), [], { limit: 5, offset: 0 })).toEqual({
      items: [],
      count: 0,
    });
  });

  it("counts every matching row on a page past the end and with limit 0, and answers a page in one statement", async () => {
    const all = orderBy(undefined, columns, item.id);
    expect(await listPage(item, undefined, all, { limit: 5, offset: 10 })).toEqual({
      items: [],
      count: 3,
    });
    // limit=0 asks for the count alone.
    expect(await listPage(item, undefined, all, { limit: 0, offset: 0 })).toEqual({
      items: [],
      count: 3,
    });
    const statements = await database.statements.record(() => listPage(item, undefined, all, { limit: 2, offset: 1 }));
    expect(statements).toHaveLength(1);
  });
});

describe("inList", () => {
  const matching = async (values: string[]) =>
    (await database.db.select({ id: item.id }).from(item).where(inList(item.id, values)).orderBy(item.id)).map(
      (r) => r.id,
    );

  it("matches the listed values, none for an empty list", async () => {
    expect(await matching(["i1", "i3", "nope"])).toEqual(["i1", "i3"]);
    expect(await matching([])).toEqual([]);
  });

  it("sends one statement text whatever the list's length", async () => {
    const one = await database.statements.record(() => matching(["i1"]));
    const three = await database.statements.record(() => matching(["i1", "i2", "i3"]));
    expect(three).toEqual(one);
  });

  it("takes values with quotes, backslashes, commas and braces literally", async () => {
    const odd = ['q"uote', "back\\slash", "com,ma", "{brace}", "NULL", " spaced "];
    await database.db
      .insert(item)
      .values(
        odd.map((id, rank) => ({ id, title: "odd", rank: 100 + rank, created_at: new Date("2026-02-01T00:00:00Z") })),
      );
    expect(await matching(odd)).toEqual([...odd].sort());
    await database.db.delete(item).where(eq(item.title, "odd"));
  });
});

describe("likePattern", () => {
  it("matches the text anywhere, its %, _ and backslash literally", async () => {
    expect(likePattern("a%b_c\\")).toBe("%a\\%b\\_c\\\\%");
    const titles = async (q: string) =>
      (
        await database.db
          .select({ title: sql<string>`t` })
          .from(sql`(values ('50%'), ('500'), ('a_b'), ('axb')) as v(t)`)
          .where(ilike(sql`t`, likePattern(q)))
      )
        .map((r) => r.title)
        .sort();
    expect(await titles("50%")).toEqual(["50%"]);
    expect(await titles("a_b")).toEqual(["a_b"]);
    expect(await titles("5")).toEqual(["50%", "500"]);
  });
});
