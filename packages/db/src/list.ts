import {
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { errors } from "@kasse/core";
import { db } from "./ambient";

/** Page size when a list request names none, and the largest one accepted. */
export const DEFAULT_LIMIT = 15;
export const MAX_LIMIT = 1000;
/**
 * The deepest page a list serves. PostgreSQL reads and discards every row before the offset, so
 * one request's cost grows with it; a million rows (1,000 pages of the largest size) keeps every
 * page reachable a person would browse, and a deeper read filters instead (`created_at[gte]=`).
 */
export const MAX_OFFSET = 1_000_000;

/** Paging as every list takes it. */
export interface Paging {
  limit: number;
  offset: number;
}

/** What most list requests filter by: some ids, and a text to search for (`q`). */
export interface ListFilters {
  id?: string[];
  q?: string;
}

/** A range filter: `created_at[gte]=…` (or Medusa's `created_at[$gte]=…`), parsed. */
export type RangeFilter<T = string> = Partial<Record<"gt" | "gte" | "lt" | "lte" | "eq" | "ne", T> & { in: T[] }>;

const OPERATORS = ["gt", "gte", "lt", "lte", "eq", "ne", "in"] as const;

/**
 * Normalizes a range object (`$gte` and `gte` alike) into {@link RangeFilter}; a plain
 * value means `eq`. Unknown operators are rejected.
 */
export function normalizeRange<T>(value: unknown, convert: (raw: unknown) => T): RangeFilter<T> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { eq: convert(value) };
  const out: RangeFilter<T> = {};
  for (const [rawKey, raw] of Object.entries(value)) {
    const key = rawKey.startsWith("$") ? rawKey.slice(1) : rawKey;
    if (!(OPERATORS as readonly string[]).includes(key)) throw errors.invalidData(`Unknown range operator '${rawKey}'`);
    if (key === "in") out.in = (Array.isArray(raw) ? raw : [raw]).map(convert);
    else out[key as Exclude<(typeof OPERATORS)[number], "in">] = convert(raw);
  }
  return out;
}

/** A timestamp from a query value; a malformed one is `invalid_data`. */
export function toDate(raw: unknown): Date {
  const date = new Date(String(raw));
  if (typeof raw !== "string" || Number.isNaN(date.getTime()))
    throw errors.invalidData(`'${String(raw)}' is not a valid timestamp`);
  return date;
}

/** SQL conditions for a range filter on one column. */
export function rangeConditions<T>(column: AnyPgColumn | SQLWrapper, range: RangeFilter<T> | undefined): SQL[] {
  if (!range) return [];
  const conditions: SQL[] = [];
  if (range.gt !== undefined) conditions.push(gt(column, range.gt));
  if (range.gte !== undefined) conditions.push(gte(column, range.gte));
  if (range.lt !== undefined) conditions.push(lt(column, range.lt));
  if (range.lte !== undefined) conditions.push(lte(column, range.lte));
  if (range.eq !== undefined) conditions.push(eq(column, range.eq));
  if (range.ne !== undefined) conditions.push(ne(column, range.ne));
  if (range.in !== undefined) conditions.push(range.in.length ? inArray(column, range.in) : sql`false`);
  return conditions;
}

/**
 * `order=-created_at,title` into drizzle ORDER BY terms over the allowed columns; an
 * unknown field is `invalid_data`. The id is appended as a tie-breaker so pages are stable.
 * @example
 * db.select().from(product).orderBy(...orderBy(query.order, { created_at: product.created_at, title: product.title }, product.id))
 */
export function orderBy(
  order: string | undefined,
  columns: Record<string, AnyPgColumn>,
  tieBreaker: AnyPgColumn,
  fallback = "created_at",
): SQL[] {
  const terms: SQL[] = [];
  const spec = order?.trim() || fallback;
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const descending = part.startsWith("-");
    const name = descending || part.startsWith("+") ? part.slice(1) : part;
    const column = columns[name];
    if (!column) throw errors.invalidData(`Cannot order by '${name}'`);
    terms.push(descending ? desc(column) : asc(column));
  }
  terms.push(asc(tieBreaker));
  return terms;
}

/** `{"a","b\"c"}`: every element quoted, `"` and `\` escaped. */
export const arrayLiteral = (values: readonly string[]): string =>
  `{${values.map((v) => `"${v.replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;

/**
 * One page of a list, on the current handle: the rows of `table` matching `where` in `order` (from
 * {@link orderBy}), `limit` and `offset` applied, and how many rows match in all, in one statement
 * (two for a page past the end or `limit` 0).
 * @example
 * const { items, count } = await listPage(salesChannel, and(...conditions), orderBy(page.order, columns, salesChannel.id), page);
 */
export async function listPage<T extends PgTable>(
  table: T,
  where: SQL | undefined,
  order: SQL[],
  page: Paging,
): Promise<{ items: T["$inferSelect"][]; count: number }> {
  const from = table as PgTable;
  // One statement: `count(*) over ()` counts every matching row before limit and offset apply.
  const rows = (await db
    .select({ row: from, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(from)
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset(page.offset)) as Array<{ row: T["$inferSelect"]; total: number }>;
  const items = rows.map((r) => r.row);
  if (rows.length > 0 || (page.offset === 0 && page.limit > 0)) return { items, count: rows[0]?.total ?? 0 };
  // A page past the end (or of no rows: `limit=0` asks for the count alone) has no row to carry the total.
  const [total] = await db.select({ count: count() }).from(from).where(where);
  return { items, count: total?.count ?? 0 };
}

/**
 * A page of rows as the API shows them: `view` takes the whole page at once, so the relations it
 * loads are one query per page, not per row.
 * @example
 * list: (filters: RegionFilters, page: ListPaging) => viewPage(q.list(filters, page), withRelations),
 */
export async function viewPage<R, V>(
  page: Promise<{ items: R[]; count: number }>,
  view: (rows: R[]) => V[] | Promise<V[]>,
): Promise<{ items: V[]; count: number }> {
  const { items, count } = await page;
  return { items: await view(items), count };
}

/**
 * The `ILIKE` pattern matching `text` anywhere in a value, with `%`, `_` and a backslash in it taken
 * literally (a search for `50%` finds "50%", not everything starting with 50).
 * @example
 * if (filters.q) conditions.push(ilike(salesChannel.name, likePattern(filters.q)));
 */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A free-text search `q` as conditions: none without `q`, else one that matches when any of
 * `columns` contains it (case-insensitive, {@link likePattern}).
 * @example
 * conditions.push(...textSearch(filters.q, [salesChannel.name, salesChannel.description]));
 */
export function textSearch(q: string | undefined, columns: AnyPgColumn[]): SQL[] {
  if (!q) return [];
  const pattern = likePattern(q);
  return [or(...columns.map((column) => ilike(column, pattern)))!];
}
