import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { currentHandle } from "./ambient";
import { builtStatement, type Placeholders } from "./statement";
import type { Db } from "./types";

type Options = { returning?: boolean; onConflictDoNothing?: boolean };

/**
 * An insert of any number of rows of `table`, built once, on the current handle: `insert into t
 * (…) select … from jsonb_to_recordset($rows)`, the rows sent as one JSON value, where a plain
 * multi-row insert has a statement text per number of rows. It stores what that insert stores: JSON
 * carries each value as the column's encoder does (text, numbers, booleans, JSON; a null is SQL null,
 * a JSON column's too), and a column a row leaves out gets its default (the schema's value, its SQL
 * such as the timestamps' `now()`, or null). A row may not give a column whose default is SQL.
 * `returning`: the rows inserted; `onConflictDoNothing`: rows that conflict with a stored one are
 * skipped, as drizzle's method of that name does.
 * @example
 * const insertLines = insertRows<LineRow[]>(line, { returning: true });
 * const rows = await insertLines(lines.map((l) => ({ ...l, id: generateId("line") })));
 */
export function insertRows<R = unknown>(
  table: PgTable,
  options: Options = {},
): (rows: ReadonlyArray<Record<string, unknown>>) => Promise<R> {
  const insert = rowsInsert<R>(table, options);
  return (rows) => insert(currentHandle(), rows);
}

/** {@link insertRows} on the handle it is given. */
export function rowsInsert<R = unknown>(
  table: PgTable,
  options: Options = {},
): (handle: Db, rows: ReadonlyArray<Record<string, unknown>>) => Promise<R> {
  // The columns drizzle's insert lists, in its order (generated ones are left to the database).
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(
    ([, column]) => !(column as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert(),
  );
  // Values drizzle computes per insert (`$defaultFn`, `$onUpdate`) have no place in a statement built once.
  for (const [key, column] of columns)
    if (column.defaultFn || (!column.default && column.onUpdateFn))
      throw new Error(`insertRows: ${key} has a default computed per insert`);
  const sqlDefault = (column: PgColumn) => is(column.default, SQL);
  const fromJson = columns.filter(([, column]) => !sqlDefault(column));
  const insert = builtStatement((v: Placeholders<{ rows: string }>, handle) => {
    const values = columns.map(([, column]) =>
      sqlDefault(column) ? (column.default as SQL) : sql`v.${sql.identifier(column.name)}`,
    );
    const types = fromJson.map(([, column]) => sql.raw(`"${column.name}" ${column.getSQLType()}`));
    const inserted = handle
      .insert(table)
      .select(
        sql`select ${sql.join(values, sql`, `)} from jsonb_to_recordset(${v.rows}::text::jsonb) as v(${sql.join(types, sql`, `)})`,
      );
    const query = options.onConflictDoNothing ? inserted.onConflictDoNothing() : inserted;
    return (options.returning ? query.returning() : query) as unknown as PromiseLike<R> & {
      prepare(name: string): unknown;
    };
  });
  return (handle, rows) => {
    const json = rows.map((row) => {
      for (const [key, column] of columns)
        if (sqlDefault(column) && row[key] !== undefined)
          throw new Error(`insertRows: ${key} takes its default (SQL) and cannot be given`);
      return Object.fromEntries(
        fromJson.flatMap(([key, column]) => {
          const value = row[key] === undefined ? column.default : row[key];
          return value === undefined ? [] : [[column.name, value]];
        }),
      );
    });
    return insert(handle, { rows: JSON.stringify(json) });
  };
}
