import { getTableColumns, SQL, sql, type Placeholder } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { arrayLiteral } from "./list";
import type { Db } from "./types";

/** A drizzle query builder (select, insert, update, delete): what `build` returns. */
interface Preparable<R> extends PromiseLike<R> {
  prepare(name: string): unknown;
}

/** What a builder handed its session to prepare: the SQL text, its parameters, how rows map. */
interface Template {
  args: unknown[];
  joinsNotNullableMap: unknown;
}

interface PreparedQuery<R> {
  joinsNotNullableMap?: unknown;
  execute(values: Record<string, unknown>): Promise<R>;
}

interface Session {
  prepareQuery(...args: unknown[]): PreparedQuery<unknown>;
}

/** Asks `builder` to prepare itself on a stand-in session, which keeps what it was given. */
function templateOf(builder: Preparable<unknown>): Template {
  const template: Template = { args: [], joinsNotNullableMap: undefined };
  const stub = {
    setToken: () => stub,
    set joinsNotNullableMap(value: unknown) {
      template.joinsNotNullableMap = value;
    },
  };
  const session: Session = {
    prepareQuery: (...args: unknown[]) => {
      template.args = args;
      return stub as unknown as PreparedQuery<unknown>;
    },
  };
  (builder as unknown as { session: Session }).session = session;
  // Named: postgres.js then keeps the parsed statement per connection (by its text) and PostgreSQL
  // skips parsing and planning it again; the name itself is not used (PGlite ignores it too).
  builder.prepare("built_once");
  return template;
}

/**
 * A query whose SQL is built once, on first use, and run on any handle (the pool or a
 * transaction) with new values for its `$` placeholders (`param("id")`): drizzle builds the text,
 * the parameter list and the row mapping once instead of on every call, and the statement is a
 * prepared one on each connection (parsed and planned once there). The statement and its
 * answer are exactly the builder's (`for update`, `returning`, column mapping); the values of a
 * placeholder are sent as given, so use placeholders for text and integer values (ids, codes).
 * @example
 * const byId = builtOnce((db) => db.select().from(cart).where(eq(cart.id, param("id"))));
 * const [row] = await byId(tx, { id });
 */
export function builtOnce<R, V extends Record<string, unknown>>(
  build: (db: Db) => Preparable<R>,
): (db: Db, values: V) => Promise<R> {
  let template: Template | undefined;
  return (db, values) => {
    template ??= templateOf(build(db));
    const session = (db as unknown as { session: Session }).session;
    const query = session.prepareQuery(...template.args) as PreparedQuery<R>;
    if (template.joinsNotNullableMap !== undefined) query.joinsNotNullableMap = template.joinsNotNullableMap;
    return query.execute(values);
  };
}

/** The placeholder `name` of a {@link builtOnce} query. */
export const param = (name: string): Placeholder<string> => sql.placeholder(name);

/**
 * `column = any($name::text[])`: {@link inList} in a {@link builtOnce} query (one statement text at
 * any number of values); the placeholder's value is {@link idList}`(values)`.
 * @example
 * const itemsOf = builtOnce((db) => db.select().from(item).where(inParam(item.order_id, "ids")));
 * const rows = await itemsOf(db, { ids: idList(orderIds) });
 */
export const inParam = (column: AnyPgColumn, name: string): SQL =>
  sql`${column} = any(${sql.placeholder(name)}::text[])`;

/** The value of an {@link inParam} placeholder: `values` as the text of a text[] literal. */
export const idList = (values: readonly string[]): string => arrayLiteral(values);

/**
 * The placeholder `key` as a column's value in a {@link builtOnce} query. Drizzle wraps it with the
 * column's encoder like any value (JSON, timestamps), in updates too, whose types leave placeholders out.
 */
export const slot = (key: string): SQL => sql.placeholder(key) as unknown as SQL;

/**
 * A {@link builtOnce} statement per shape of its values: which of the `optional` keys are given
 * and which of those are null. `build` puts `value(key)` where a column takes one: undefined
 * (the column is left out: its default, or unchanged), the SQL null (a placeholder's value goes
 * through its column's encoder, which makes JSON `null` of it or fails on a timestamp), or the
 * placeholder `key`; `given(key)` tells whether the key has a value (null included).
 * @example
 * const insertNote = builtPerShape(["metadata"], (db, value) =>
 *   db.insert(note).values({ id: slot("id"), metadata: value("metadata") }),
 * );
 */
export function builtPerShape<R, V extends Record<string, unknown>>(
  optional: ReadonlyArray<keyof V & string>,
  build: (db: Db, value: (key: string) => SQL | null | undefined, given: (key: string) => boolean) => Preparable<R>,
): (db: Db, values: V) => Promise<R> {
  const statements = new Map<string, (db: Db, values: V) => Promise<R>>();
  return (db, values) => {
    const shape = optional.map((key) => (values[key] === undefined ? "-" : values[key] === null ? "0" : "1")).join("");
    let statement = statements.get(shape);
    if (!statement) {
      const given = (key: string) => values[key] !== undefined;
      const value = (key: string) => (values[key] === undefined ? undefined : values[key] === null ? null : slot(key));
      statement = builtOnce<R, V>((inner) => build(inner, value, given));
      statements.set(shape, statement);
    }
    return statement(db, values);
  };
}

/**
 * A {@link builtPerShape} write of one row of `table` as the caller gives it: `build` gets the row
 * with each column as `value(key)` (undefined when not given: its default in an insert, unchanged
 * in an update), for `.values(row)` or `.set(row)`. Each shape's statement is the one drizzle
 * builds for such a row, so what is stored is the same. In an update, name the placeholders of
 * the where clause apart from the columns (`param("where_id")`), or they are set too, and give
 * `updated_at`: drizzle fills a column left out that has `$onUpdate` (or `$defaultFn`, in an
 * insert) when it builds, which is only once here. Values are sent as placeholders: no SQL ones.
 * @example
 * const insertNote = builtRowWrite(note, (db, row) => db.insert(note).values(row).returning());
 * const [created] = await insertNote(db, { id: generateId("note"), text, metadata: null });
 */
export function builtRowWrite<R, V extends Record<string, unknown> = Record<string, unknown>>(
  table: PgTable,
  // The row's type is the table's, which this signature does not spell: `never` fits `.values` and `.set`.
  build: (db: Db, row: never) => Preparable<R>,
): (db: Db, values: V) => Promise<R> {
  const keys = Object.keys(getTableColumns(table));
  return builtPerShape<R, V>(keys, (db, value) =>
    build(db, Object.fromEntries(keys.map((key) => [key, value(key)])) as never),
  );
}

/**
 * {@link insertRows} on the handle it is given.
 * @deprecated The form of modules not yet converted ([16]): write `insertRows(table, options)`.
 */
export { rowsInsert as builtRowsInsert } from "./rows-insert";
