import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { errors } from "@kasse/core";
import { db } from "./ambient";
import { listPage, orderBy, type Paging } from "./list";
import { builtStatement, inList, type Placeholders } from "./statement";
import { isUniqueViolation } from "./pg-error";
import type { Db } from "./types";

/** A table made by `entityTable`: a text `id` and the timestamps, `deleted_at` for soft delete. */
type EntityTable = PgTable & {
  id: AnyPgColumn;
  created_at: AnyPgColumn;
  updated_at: AnyPgColumn;
  deleted_at: AnyPgColumn;
};

/** A list request's paging and `order` (e.g. `-created_at,name`). */
export type ListPaging = Paging & { order?: string };

/**
 * The reads and writes every entity table serves alike, on the current handle: one live (not
 * soft-deleted) row by id or `not_found` ("<noun> with id: <id> was not found"), a page of live rows
 * matching `conditions` in the requested order (`created_at`, `updated_at` and the `sortable`
 * columns; the id breaks ties), an insert, a partial update of a live row, and a soft delete. An insert
 * or update given a `conflict` message answers a unique violation with `conflict` (that message).
 * @example
 * const channels = liveRecords(salesChannel, "Sales channel", { name: salesChannel.name });
 * const { items, count } = await channels.list([eq(salesChannel.is_disabled, false)], page);
 */
export function liveRecords<T extends EntityTable>(table: T, noun: string, sortable: Record<string, AnyPgColumn> = {}) {
  type Row = T["$inferSelect"];
  const from = table as PgTable;
  const live = isNull(table.deleted_at);
  const byId = (id: string) => and(eq(table.id, id), live);
  const columns = { created_at: table.created_at, updated_at: table.updated_at, ...sortable };
  const notFound = (id: string) => errors.notFound(`${noun} with id: ${id} was not found`);
  const conflictOn =
    (message: string | undefined) =>
    (error: unknown): never => {
      if (message !== undefined && isUniqueViolation(error)) throw errors.conflict(message);
      throw error;
    };
  const reads = readsOf(table);
  const retrieve = async (id: string): Promise<Row> => {
    const [row] = await reads.byId(db, { id });
    if (!row) throw notFound(id);
    return row as Row;
  };
  const list = async (conditions: Array<SQL | undefined>, page: ListPaging): Promise<{ items: Row[]; count: number }> =>
    listPage(table, and(live, ...conditions), orderBy(page.order, columns, table.id), page);
  return {
    /** `deleted_at is null`, for the queries a module writes itself. */
    live,
    notFound,
    /** The live row `id`, or undefined. */
    async find(id: string): Promise<Row | undefined> {
      const [row] = await reads.byId(db, { id });
      return row as Row | undefined;
    },
    /** The live row `id`; `not_found` when there is none. */
    retrieve,
    /** The live row `id`, locked for the rest of the transaction (writes to it serialize); `not_found` when there is none. */
    async lock(id: string): Promise<Row> {
      const [row] = await reads.lockById(db, { id });
      if (!row) throw notFound(id);
      return row as Row;
    },
    /** One page of the live rows matching every one of `conditions`, and how many match in all. */
    list,
    /**
     * {@link list} over a list request's filters, which `conditions` turns into conditions.
     * @example
     * export const salesChannelQueries = { ...channels, list: channels.listBy(conditions) };
     */
    listBy:
      <F>(conditions: (filters: F) => Array<SQL | undefined>) =>
      (filters: F, page: ListPaging): Promise<{ items: Row[]; count: number }> =>
        list(conditions(filters), page),
    /** Inserts the row `values` (its `id` included) and answers it; with `conflict`, a unique violation is `conflict`. */
    async insert(values: T["$inferInsert"], conflict?: string): Promise<Row> {
      const [row] = await db
        .insert(from)
        .values(values as PgTable["$inferInsert"])
        .returning()
        .catch(conflictOn(conflict));
      return row as Row;
    },
    /**
     * Sets `values` on the live row `id` and answers it (as it is, when `values` is empty); `not_found` when
     * there is none; with `conflict`, a unique violation is `conflict`.
     */
    async update(id: string, values: Partial<T["$inferInsert"]>, conflict?: string): Promise<Row> {
      if (Object.keys(values).length === 0) return retrieve(id);
      const [row] = await db
        .update(from)
        .set(values as Record<string, unknown>)
        .where(byId(id))
        .returning()
        .catch(conflictOn(conflict));
      if (!row) throw notFound(id);
      return row as Row;
    },
    /** Marks the live row `id` deleted, so every read above stops seeing it; `not_found` when there is none. */
    async softDelete(id: string): Promise<void> {
      const deleted = await db
        .update(from)
        .set({ deleted_at: new Date() } as Record<string, unknown>)
        .where(byId(id))
        .returning({ id: table.id });
      if (deleted.length === 0) throw notFound(id);
    },
    /** The ids among `ids` that are live rows; callers reject the others. */
    async existing(ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .select({ id: table.id })
        .from(from)
        .where(and(inList(table.id, ids), live));
      return new Set(rows.map((r) => r.id as string));
    },
    /** Whether the table has a live row: reads at most one id, where a list would count them all. */
    async any(): Promise<boolean> {
      return (await db.select({ id: table.id }).from(from).where(live).limit(1)).length > 0;
    },
  };
}

/** What {@link liveRecords} gives for a table. */
export type LiveRecords<T extends EntityTable> = ReturnType<typeof liveRecords<T>>;

/** A table's live row by id, and the same locked: each statement built once per table, not per call. */
function readsOf(table: EntityTable) {
  let reads = readsByTable.get(table);
  if (!reads) {
    const byId = (v: Placeholders<{ id: string }>) => and(eq(table.id, v.id), isNull(table.deleted_at));
    reads = {
      byId: builtStatement((v: Placeholders<{ id: string }>, db) => db.select().from(table).where(byId(v))),
      lockById: builtStatement((v: Placeholders<{ id: string }>, db) =>
        db.select().from(table).where(byId(v)).for("update"),
      ),
    };
    readsByTable.set(table, reads);
  }
  return reads;
}

const readsByTable = new WeakMap<
  PgTable,
  Record<"byId" | "lockById", (db: Db, values: { id: string }) => Promise<unknown[]>>
>();

/**
 * `rows` grouped by `key`, each group in the rows' order. `value` is what a group keeps of a row
 * (the row itself by default); `keys` each get an entry, empty when no row has them.
 * @example
 * const variantsByProduct = groupBy(variants, (v) => v.product_id);
 */
export function groupBy<T, K, V = T>(
  rows: Iterable<T>,
  key: (row: T) => K,
  options: { value?: (row: T) => V; keys?: Iterable<K> } = {},
): Map<K, V[]> {
  const value = options.value ?? ((row: T) => row as unknown as V);
  const out = new Map<K, V[]>();
  for (const k of options.keys ?? []) out.set(k, []);
  for (const row of rows) {
    const group = out.get(key(row));
    if (group) group.push(value(row));
    else out.set(key(row), [value(row)]);
  }
  return out;
}
