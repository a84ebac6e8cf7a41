import type { SQL } from "drizzle-orm";
import type { Db } from "./types";

/**
 * Runs raw SQL and returns its rows on either driver (postgres.js answers an array,
 * PGlite an object with `rows`).
 */
export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
