import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { migrate } from "../migrate";
import type { Database, Db } from "../types";
import { createTestDatabase } from "./database";

/** A test database whose every statement is recorded, to prove reads cost a constant number of queries. */
export interface CountingDatabase extends Database {
  /** SQL text of every statement run so far, in order. */
  queries: string[];
  /** Runs `fn` and returns how many statements it ran. */
  count(fn: () => Promise<unknown>): Promise<number>;
}

/**
 * A fresh migrated test database (PostgreSQL when `DATABASE_URL` is set, else PGlite) whose
 * drizzle handle logs every query it sends.
 * @example
 * const database = await createCountingDatabase();
 * const n = await database.count(() => products.list({}, { limit: 50, offset: 0 }));
 */
export async function createCountingDatabase(): Promise<CountingDatabase> {
  const queries: string[] = [];
  const logger = { logQuery: (query: string) => void queries.push(query) };
  const count = async (fn: () => Promise<unknown>) => {
    const before = queries.length;
    await fn();
    return queries.length - before;
  };
  const base = process.env.DATABASE_URL ? await createTestDatabase() : undefined;
  if (base) {
    const client = postgres(base.url!, { max: 10, onnotice: () => {} });
    const db = drizzlePostgres(client, { logger }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      queries,
      count,
      ping: base.ping,
      close: async () => {
        await client.end({ timeout: 5 });
        await base.close();
      },
    };
  }
  const client = new PGlite({ extensions: { pg_trgm } });
  const db = drizzlePglite(client, { logger }) as unknown as Db;
  const database: Database = { db, kind: "pglite", ping: async () => undefined, close: () => client.close() };
  await migrate(database);
  queries.length = 0;
  return { ...database, queries, count };
}

/**
 * Runs `fn` and counts the statements prepared on `db`'s own session: the reads a request makes
 * outside transactions. Use it on an app's existing handle; {@link createCountingDatabase} counts
 * everything on a database of its own.
 * @example
 * const n = await countQueries(app.infra.database.db, () => app.inject({ method: "GET", url: "/store/products" }));
 */
export async function countQueries(db: Db, fn: () => Promise<unknown>): Promise<number> {
  const session = (db as unknown as { session: Record<string, unknown> }).session;
  const original = session.prepareQuery as (...args: unknown[]) => unknown;
  let queries = 0;
  session.prepareQuery = function (this: unknown, ...args: unknown[]) {
    queries++;
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    session.prepareQuery = original;
  }
  return queries;
}
