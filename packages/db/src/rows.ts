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

/** A row as {@link readRows} reads it: its timestamps as text, to the microsecond, so it survives JSON. */
export type RowSnapshot<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};

/**
 * Reads rows to put them back later with {@link restoreRows} (a saga step's undo, journaled as
 * JSON): every column, timestamps as text so none loses its microseconds; `lock` reads them FOR UPDATE.
 * @example
 * const before = await readRows(tx, price, eq(price.variant_id, id));
 */
export async function readRows<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  options: { lock?: boolean } = {},
): Promise<Array<RowSnapshot<T["$inferSelect"]>>> {
  const selection = Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => [
      key,
      column.dataType === "date" ? sql<string>`${column}::text` : column,
    ]),
  );
  const query = db
    .select(selection)
    .from(table as PgTable)
    .where(where);
  return (await (options.lock ? query.for("update") : query)) as Array<RowSnapshot<T["$inferSelect"]>>;
}

/**
 * Writes rows back as {@link readRows} read them, to undo a write: a row whose primary key `id`
 * exists is overwritten (every column, `deleted_at` included), a missing one inserted; a link table
 * without `id` gets the missing rows. Generated columns are left to the database.
 * @example
 * await restoreRows(tx, price, before);
 */
export async function restoreRows(db: Db, table: PgTable, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(getTableColumns(table)).filter(([, column]) => !column.generated);
  const values = rows.map((row) =>
    Object.fromEntries(
      columns.map(([key, column]) => {
        const value = row[key];
        const timestamp = column.dataType === "date" && typeof value === "string";
        return [key, timestamp ? sql`${value}::${sql.raw(column.getSQLType())}` : value];
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
