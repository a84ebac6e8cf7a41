import { sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
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
