import { and, Param, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { currentHandle, db } from "./ambient";
import type { Db } from "./types";
import { arrayLiteral } from "./list";

/** A drizzle query builder (select, insert, update, delete): what a statement's `build` returns. */
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

/**
 * Asks `builder` to prepare itself on a stand-in session, which keeps what it was given: the text,
 * parameters and row mapping drizzle builds, without running anything.
 */
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
  // Unnamed: whether PostgreSQL keeps it prepared per connection is decided in one place for every
  // statement, built once or not (`preparingRepeated` in connect.ts: a text sent a second time).
  builder.prepare(undefined as unknown as string);
  return template;
}

/**
 * A statement's values as its `build` sees them: each key a placeholder. For one call's values, a
 * key left undefined (or left out) is undefined here (a column left out: its default, or unchanged)
 * and a null one is null (SQL null); the statement is built once per such shape. Typed as both a
 * piece of SQL (a column's value, a condition's operand) and a placeholder (what `.limit()` takes).
 */
export type Placeholders<V> = { readonly [K in keyof V]-?: SQL & Placeholder };

/**
 * A statement built once (per shape of its values) and run on the current handle (the transaction
 * in progress, else the database) with each call's values: drizzle assembles its text, parameters
 * and row mapping on first use only, where a builder assembles them on every call. `build` writes it
 * with the drizzle builder on `db`, a placeholder `v.key` wherever a value goes (a column's value
 * goes through the column's encoder: JSON, timestamps); {@link inList} takes one for a list.
 * A column with `$defaultFn` or `$onUpdate` that a write leaves out gets the value computed at the
 * first build: give it (`updated_at: v.updated_at`). A statement whose text varies with the request
 * (filters, sort order) is written with `db` directly. Everything but the placeholders is fixed at
 * the first build: a value computed per call (an id, a time) is a placeholder too.
 * @example
 * const byId = statement((v: Placeholders<{ id: string }>) => db.select().from(cart).where(eq(cart.id, v.id)));
 * const [row] = await byId({ id });
 */
export function statement<R>(build: () => Preparable<R>): () => Promise<R>;
export function statement<V extends Record<string, unknown>, R>(
  build: (v: Placeholders<V>) => Preparable<R>,
): (values: V) => Promise<R>;
export function statement<V extends Record<string, unknown>, R>(
  build: (v: Placeholders<V>) => Preparable<R>,
): (values?: V) => Promise<R> {
  const run = builtStatement<V, R>((v) => build(v));
  return (values = {} as V) => run(currentHandle(), values);
}

/**
 * The first row of what `run` answers, or undefined: a query that reads or writes at most one row,
 * declared where its queries object names it.
 * @example
 * export const channelQueries = {
 *   defaultChannel: first(statement(() => db.select().from(salesChannel).where(isDefault).limit(1))),
 * };
 */
export function first<A extends unknown[], R>(
  run: (...args: A) => Promise<R[]>,
): (...args: A) => Promise<R | undefined> {
  return async (...args) => (await run(...args))[0];
}

/**
 * A {@link statement} run on the handle it is given, whose `build` gets that handle too (the db
 * package's own helpers and the deprecated forms).
 */
export function builtStatement<V extends Record<string, unknown>, R>(
  build: (v: Placeholders<V>, handle: Db) => Preparable<R>,
): (handle: Db, values: V) => Promise<R> {
  // Most statements have one shape; a write with optional columns a few. Matched key by key, so a
  // call allocates nothing to find its template.
  const shapes: Shape[] = [];
  return (handle, values) => {
    let shape: Shape | undefined;
    for (let i = 0; i < shapes.length && !shape; i++) if (matches(shapes[i]!, values)) shape = shapes[i];
    if (!shape) {
      const v: Record<string, unknown> = {};
      for (const key in values)
        v[key] = values[key] === undefined ? undefined : values[key] === null ? null : sql.placeholder(key);
      shape = { ...shapeOf(values), template: templateOf(build(v as Placeholders<V>, handle)) };
      shapes.push(shape);
    }
    const session = (handle as unknown as { session: Session }).session;
    const query = session.prepareQuery(...shape.template.args) as PreparedQuery<R>;
    if (shape.template.joinsNotNullableMap !== undefined)
      query.joinsNotNullableMap = shape.template.joinsNotNullableMap;
    return query.execute(values);
  };
}

/**
 * Which keys a call gives, in order, and of each whether it is undefined (0), null (1) or a value
 * (2): a key left out of `values` makes a shape of its own too, since a text built with it as a
 * placeholder would find no value for it.
 */
interface Shape {
  keys: string[];
  kinds: number[];
  template: Template;
}

const kindOf = (value: unknown): number => (value === undefined ? 0 : value === null ? 1 : 2);

function shapeOf(values: Record<string, unknown>): Pick<Shape, "keys" | "kinds"> {
  const keys: string[] = [];
  const kinds: number[] = [];
  for (const key in values) {
    keys.push(key);
    kinds.push(kindOf(values[key]));
  }
  return { keys, kinds };
}

function matches(shape: Shape, values: Record<string, unknown>): boolean {
  let i = 0;
  for (const key in values) {
    if (shape.keys[i] !== key || shape.kinds[i] !== kindOf(values[key])) return false;
    i++;
  }
  return i === shape.keys.length;
}

/** Sends a list placeholder's value (an array of strings) as the text of a text[] literal. */
const listEncoder = { mapToDriverValue: (values: readonly string[]) => arrayLiteral(values) };

/**
 * `column = any($1::text[])`: membership in a list sent as ONE parameter, so the statement's text
 * is the same whatever the list's length (drizzle's `inArray` writes `in ($1, …, $n)`: a text per
 * length). `values` is a list of strings, or a {@link statement}'s placeholder given one. An empty
 * list matches nothing.
 * @example
 * const linesOf = statement((v: Placeholders<{ ids: string[] }>) => db.select().from(line).where(inList(line.cart_id, v.ids)));
 */
export function inList(column: AnyPgColumn | SQL, values: readonly string[] | SQL): SQL {
  if (!Array.isArray(values)) return sql`${column} = any(${new Param(values, listEncoder)}::text[])`;
  if (values.length === 0) return sql`false`;
  // Sent as the text of a text[] literal, not as a JS array: a driver then serializes a plain string
  // (postgres.js learns array types per connection after connecting; PGlite has its own rules).
  return sql`${column} = any(${arrayLiteral(values as readonly string[])}::text[])`;
}

/**
 * A list's filters that name values of a column, as conditions: for each key of `columns` whose
 * filter is a non-empty list, the column is one of its values ({@link inList}), those of the keys in
 * `lowerCase` in lower case; an absent or empty filter adds none.
 * @example
 * const conditions = inFilters(filters, { id: region.id, currency_code: region.currency_code }, ["currency_code"]);
 */
export function inFilters<F extends object>(
  filters: F,
  columns: { [K in keyof F]?: F[K] extends readonly string[] | undefined ? AnyPgColumn | SQL : never },
  lowerCase: ReadonlyArray<keyof F> = [],
): SQL[] {
  const out: SQL[] = [];
  for (const [key, column] of Object.entries(columns) as Array<[keyof F, AnyPgColumn | SQL]>) {
    const values = filters[key] as readonly string[] | undefined;
    if (values?.length) out.push(inList(column, lowerCase.includes(key) ? values.map((v) => v.toLowerCase()) : values));
  }
  return out;
}

/**
 * The rows of `table` whose `column` is one of the values a call gives, matching `where` (the live
 * ones, say), in `order`: a page's relation read in one statement at any number of parents, built once.
 * @example
 * const providersOf = rowsOf(regionPaymentProvider, regionPaymentProvider.region_id, {
 *   order: [asc(regionPaymentProvider.provider_id)],
 * });
 * const providers = await providersOf(regions.map((r) => r.id));
 */
export function rowsOf<T extends PgTable>(
  table: T,
  column: AnyPgColumn,
  options: { where?: SQL; order?: Array<AnyPgColumn | SQL> } = {},
): (values: readonly string[]) => Promise<Array<T["$inferSelect"]>> {
  const read = statement((v: Placeholders<{ values: readonly string[] }>) =>
    db
      .select()
      .from(table as PgTable)
      .where(and(inList(column, v.values), options.where))
      .orderBy(...(options.order ?? [])),
  );
  return async (values) => (await read({ values })) as Array<T["$inferSelect"]>;
}
