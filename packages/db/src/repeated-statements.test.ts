import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { connect } from "./connect";
import { repeatedTexts } from "./repeated-statements";
import { queryRows } from "./rows";
import { db, onDatabase, transaction } from "./ambient";

describe("repeatedTexts", () => {
  it("prepares a text from its second use, and no more texts than the bound", () => {
    const isRepeated = repeatedTexts(2);
    expect(isRepeated("a")).toBe(false);
    expect(isRepeated("a")).toBe(true);
    expect(isRepeated("a")).toBe(true);
    expect([isRepeated("b"), isRepeated("b")]).toEqual([false, true]);
    // The bound is reached: a third text stays unnamed however often it is sent.
    expect([isRepeated("c"), isRepeated("c"), isRepeated("c")]).toEqual([false, false, false]);
    expect(isRepeated("b")).toBe(true);
  });
});

describe.runIf(process.env.DATABASE_URL)("statements sent again (PostgreSQL)", () => {
  it("are prepared on the connection, in transactions too; a statement sent once is not", async () => {
    const database = await connect({ url: process.env.DATABASE_URL, poolSize: 1 });
    const prepared = async () =>
      (await queryRows<{ statement: string }>(database.db, sql`select statement from pg_prepared_statements`)).map(
        (r) => r.statement,
      );
    try {
      const once = sql`select ${1}::int + 41 as answer_once`;
      const twice = sql`select ${1}::int + 41 as answer_twice`;
      const inTransaction = sql`select ${2}::int * 21 as answer_in_transaction`;
      await queryRows(database.db, once);
      for (let i = 0; i < 2; i++) expect(await queryRows(database.db, twice)).toEqual([{ answer_twice: 42 }]);
      await onDatabase(database.db, () =>
        transaction(async () => {
          for (let i = 0; i < 2; i++)
            expect(await queryRows(db, inTransaction)).toEqual([{ answer_in_transaction: 42 }]);
        }),
      );
      const statements = await prepared();
      expect(statements.some((s) => s.includes("answer_twice"))).toBe(true);
      expect(statements.some((s) => s.includes("answer_in_transaction"))).toBe(true);
      expect(statements.some((s) => s.includes("answer_once"))).toBe(false);
    } finally {
      await database.close();
    }
  });
});
