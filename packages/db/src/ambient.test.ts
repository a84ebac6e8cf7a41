import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { asc, eq, sql } from "drizzle-orm";
import { jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { db, inTransaction, lockKeys, onDatabase, readSnapshot, transaction } from "./ambient";
import { insertRows } from "./rows-insert";
import { inList, statement, type Placeholders } from "./statement";
import { joinTestDatabase, onPostgres, useTestDatabase, type TestDatabase } from "./testing";

const note = pgTable("ambient_test_note", {
  id: text("id").primaryKey(),
  body: text("body").notNull(),
  tag: text("tag"),
  data: jsonb("data"),
});

const database = useTestDatabase();
beforeAll(async () => {
  await database.db.execute(
    sql`create table ambient_test_note (id text primary key, body text not null, tag text, data jsonb)`,
  );
});
beforeEach(async () => {
  await database.db.delete(note);
});

const bodies = async () => (await db.select().from(note).orderBy(asc(note.id))).map((n) => n.body);
const insertNote = statement((v: Placeholders<{ id: string; body: string; tag?: string | null; data?: unknown }>) =>
  db.insert(note).values(v).returning(),
);
const byIds = statement((v: Placeholders<{ ids: string[] }>) =>
  db.select().from(note).where(inList(note.id, v.ids)).orderBy(asc(note.id)),
);

describe("transaction", () => {
  it("commits everything `fn` wrote together, or nothing when it throws", async () => {
    await transaction(async () => {
      await insertNote({ id: "a", body: "one" });
      await db.insert(note).values({ id: "b", body: "two" });
    });
    await expect(
      transaction(async () => {
        await insertNote({ id: "c", body: "three" });
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await bodies()).toEqual(["one", "two"]);
  });

  it("joins the transaction in progress: an inner failure rolls back the whole of it", async () => {
    await expect(
      transaction(async () => {
        await insertNote({ id: "a", body: "outer" });
        await transaction(async () => {
          expect(inTransaction()).toBe(true);
          await insertNote({ id: "b", body: "inner" });
        });
        throw new Error("outer fails");
      }),
    ).rejects.toThrow("outer fails");
    expect(await bodies()).toEqual([]);
  });

  it("runs in a savepoint when asked: its failure rolls back its own writes alone", async () => {
    await transaction(async () => {
      await insertNote({ id: "a", body: "kept" });
      await transaction(
        async () => {
          await insertNote({ id: "b", body: "undone" });
          throw new Error("inner fails");
        },
        { savepoint: true },
      ).catch(() => {});
    });
    expect(await bodies()).toEqual(["kept"]);
  });

  it("keeps parallel transactions apart: each sees its own", async () => {
    await Promise.all(
      ["a", "b", "c"].map((id) =>
        transaction(async () => {
          await insertNote({ id, body: id });
          const seen = await db.select().from(note).where(eq(note.id, id));
          expect(seen).toHaveLength(1);
        }),
      ),
    );
    expect(await bodies()).toEqual(["a", "b", "c"]);
  });

  it("carries the transaction again once every scope has closed (the store is off in between)", async () => {
    await transaction(async () => void (await insertNote({ id: "a", body: "first" })));
    expect(inTransaction()).toBe(false);
    await expect(
      transaction(async () => {
        await Promise.resolve();
        expect(inTransaction()).toBe(true);
        await insertNote({ id: "b", body: "second" });
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await bodies()).toEqual(["first"]);
  });

  it("takes advisory locks in the transaction in progress", async () => {
    await transaction(async () => {
      await lockKeys(["b", "a", "b"]);
      const result = (await db.execute(
        sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`,
      )) as unknown as Array<{ n: number }> | { rows: Array<{ n: number }> };
      expect((Array.isArray(result) ? result : result.rows)[0]?.n).toBe(2);
    });
  });
});

describe("statement", () => {
  it("is built once per shape of its values: undefined leaves a column out, null is SQL null", async () => {
    const insertNote = statement((v: Placeholders<{ id: string; body: string; tag?: string | null; data?: unknown }>) =>
      db.insert(note).values(v),
    );
    const builds = await database.statements.builds(async () => {
      await insertNote({ id: "a", body: "x", tag: "t", data: { n: 1 } });
      await insertNote({ id: "b", body: "y", tag: "u", data: [1, 2] });
      await insertNote({ id: "c", body: "z", tag: null });
      await insertNote({ id: "d", body: "w", tag: null });
      // Keys left out of the values, after calls that gave them: a shape of their own.
      await insertNote({ id: "e", body: "v" });
    });
    expect(builds).toHaveLength(3);
    const rows = await db.select().from(note).orderBy(asc(note.id));
    expect(rows.map((r) => [r.tag, r.data])).toEqual([
      ["t", { n: 1 }],
      ["u", [1, 2]],
      [null, null],
      [null, null],
      [null, null],
    ]);
  });

  it("runs on the handle of each call: the database, a transaction, the database again", async () => {
    await insertNote({ id: "a", body: "before" });
    await expect(
      transaction(async () => {
        await insertNote({ id: "b", body: "undone" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await transaction(async () => void (await insertNote({ id: "c", body: "kept" })));
    // The same keys in another order: a shape of its own, with its values in their places.
    await insertNote({ body: "after", id: "d" });
    expect(await bodies()).toEqual(["before", "kept", "after"]);
  });

  it("sends a list placeholder as one parameter: one text at any length, none matched by an empty list", async () => {
    await db.insert(note).values([
      { id: "a", body: "1" },
      { id: "b", body: "2" },
      { id: 'q"\\', body: "3" },
    ]);
    const texts = await database.statements.record(async () => {
      expect((await byIds({ ids: ["a"] })).map((n) => n.body)).toEqual(["1"]);
      expect((await byIds({ ids: ["a", "b", 'q"\\'] })).map((n) => n.body)).toEqual(["1", "2", "3"]);
      expect(await byIds({ ids: [] })).toEqual([]);
    });
    expect(new Set(texts).size).toBe(1);
  });
});

describe("insertRows", () => {
  it("inserts any number of rows with one statement text, in the transaction in progress", async () => {
    const insert = insertRows<Array<{ id: string }>>(note, { returning: true });
    const texts = await database.statements.record(async () => {
      await transaction(async () => {
        expect(await insert([{ id: "a", body: "1", data: { n: 1 } }])).toHaveLength(1);
        expect(
          await insert([
            { id: "b", body: "2", tag: "t" },
            { id: "c", body: "3" },
          ]),
        ).toHaveLength(2);
      });
      await expect(
        transaction(async () => {
          await insert([{ id: "d", body: "4" }]);
          throw new Error("undo");
        }),
      ).rejects.toThrow("undo");
    });
    expect(new Set(texts.filter((t) => t.startsWith("insert"))).size).toBe(1);
    expect(await bodies()).toEqual(["1", "2", "3"]);
  });
});

describe("onDatabase", () => {
  let second: TestDatabase;
  beforeAll(async () => {
    second = await joinTestDatabase(database);
  });

  it("runs queries and transactions on another handle, as a second process would", async () => {
    const texts = await second.statements.record(() =>
      onDatabase(second.db, () => transaction(async () => void (await insertNote({ id: "a", body: "second" })))),
    );
    if (onPostgres()) expect(texts.some((t) => t.includes("ambient_test_note"))).toBe(true);
    expect(await bodies()).toEqual(["second"]);
  });

  it("starts outside the transaction in progress", async () => {
    await transaction(async () => {
      await insertNote({ id: "a", body: "outer" });
      await onDatabase(database.db, async () => expect(inTransaction()).toBe(false));
    });
  });
});

describe("readSnapshot", () => {
  it("reads one snapshot and refuses writes", async () => {
    await insertNote({ id: "a", body: "one" });
    expect(await readSnapshot(() => bodies())).toEqual(["one"]);
    await expect(readSnapshot(() => insertNote({ id: "b", body: "two" }))).rejects.toThrow();
  });
});
