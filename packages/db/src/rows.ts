import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
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

/**
 * Writes rows back as they were read, to undo a write (a saga step's compensation): rows that went
 * through the journal's JSON get their dates back, a row whose primary key `id` exists is
 * overwritten (every column, `deleted_at` included), a missing one inserted; a link table without
 * `id` gets the missing rows. Generated columns are left to the database.
 * @example
 * await restoreRows(tx, price, snapshot.rows);
 */
export async function restoreRows(db: Db, table: PgTable, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table)).filter(([, column]) => !column.generated);
  const values = rows.map((row) =>
    Object.fromEntries(
      columns.map(([key, column]) => {
        const value = row[key];
        return [key, column.dataType === "date" && typeof value === "string" ? new Date(value) : value];
      }),
    ),
  );
  const id = (table as unknown as Record<string, unknown>).id as AnyPgColumn | undefined;
  const insert = db.insert(table).values(values);
  if (!id) {
    await insert.onConflictDoNothing();
    return;
  }
  const set = Object.fromEntries(
    columns.filter(([key]) => key !== "id").map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]),
  );
  await insert.onConflictDoUpdate({ target: id, set });
}
