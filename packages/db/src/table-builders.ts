// The vocabulary a module's schema.ts declares its tables with, so schema files import nothing from
// drizzle: the pg-core builders the modules use, and a named helper for each piece of SQL a table
// declaration needs (partial-index conditions, checks, generated columns, search expressions).
import { sql, type SQL } from "drizzle-orm";
import { check, index, type AnyPgColumn } from "drizzle-orm/pg-core";

export {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The condition of a partial index, as the schema writes it (`.where(indexWhere("status = 'pending'"))`):
 * constant SQL text of the declaration, never a value.
 */
export const indexWhere = (condition: string): SQL => sql.raw(condition);

/** A CHECK constraint that keeps `column` at 0 or above. */
export const nonNegative = (name: string, column: AnyPgColumn) => check(name, sql`${column} >= 0`);

/** A CHECK constraint that keeps `column` above 0. */
export const positive = (name: string, column: AnyPgColumn) => check(name, sql`${column} > 0`);

/**
 * The expression of a stored generated column over columns of its own row
 * (`.generatedAlwaysAs(rowExpression("stocked_quantity - reserved_quantity"))`): constant SQL text.
 */
export const rowExpression = (expression: string): SQL => sql.raw(expression);

/**
 * The text a `q` filter searches: the given text columns joined by spaces (a missing one as ''),
 * qualified by `table` when a query joins it. A trigram index over the unqualified expression
 * ({@link trigramIndex}) serves `ilike` on the same expression.
 */
export const searchText = (columns: readonly string[], table?: string): SQL => {
  const column = (name: string) =>
    table ? sql`${sql.identifier(table)}.${sql.identifier(name)}` : sql.identifier(name);
  return sql`(${sql.join(
    columns.map((name) => sql`coalesce(${column(name)}, '')`),
    sql` || ' ' || `,
  )})`;
};

/** A gin trigram index (`gin_trgm_ops`) over an expression, for `ilike` search on it. */
export const trigramIndex = (name: string, expression: SQL) =>
  index(name).using("gin", sql`${expression} gin_trgm_ops`);

/** `lower(column)`: the expression of an index that compares a column case-insensitively. */
export const lowerCase = (column: AnyPgColumn): SQL => sql`lower(${column})`;
