import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { connect } from "./connect";
import { db, onDatabase, transaction } from "./ambient";

describe.runIf(process.env.DATABASE_URL)("the PostgreSQL pool's usage", () => {
  it("counts statements until they answer and transactions until they end; what exceeds the pool waits", async () => {
    const database = await connect({ url: process.env.DATABASE_URL, poolSize: 2, countPoolUsage: true });
    try {
      const usage = () => database.poolUsage!();
      expect(usage()).toEqual({ size: 2, inUse: 0, waiting: 0 });
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const open = onDatabase(database.db, () =>
        transaction(async () => {
          await db.execute(sql`select 1`);
          await held;
        }),
      );
      // Promise.all sends them (a drizzle query is sent when it is awaited).
      const sleeping = Promise.all([1, 2, 3].map(() => database.db.execute(sql`select pg_sleep(0.3)`)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      // One transaction and three statements on a pool of two.
      expect(usage()).toEqual({ size: 2, inUse: 2, waiting: 2 });
      await sleeping;
      expect(usage()).toEqual({ size: 2, inUse: 1, waiting: 0 });
      release();
      await open;
      expect(usage()).toEqual({ size: 2, inUse: 0, waiting: 0 });
      // A failed statement is counted out too.
      await expect(database.db.execute(sql`select 1/0`)).rejects.toThrow();
      expect(usage()).toEqual({ size: 2, inUse: 0, waiting: 0 });
    } finally {
      await database.close();
    }
  });

  it("is not counted unless asked (it costs every statement a callback)", async () => {
    const database = await connect({ url: process.env.DATABASE_URL, poolSize: 2 });
    try {
      expect(database.poolUsage).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});
