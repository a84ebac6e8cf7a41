import { and, eq, getTableColumns, inArray } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./types";

/**
 * Unlinks `remove` from one owner and links `add` to it, in a link table (rows pairing two ids):
 * one delete and one insert at most, removals first; linking an id already linked is a no-op.
 * `owner` names the owner's column and id, `linked` the column of the ids linked to it.
 * @example
 * await updateLinks(tx, apiKeySalesChannel, { api_key_id: id }, "sales_channel_id", { add, remove });
 */
export async function updateLinks<T extends PgTable>(
  db: Db,
  table: T,
  owner: Partial<T["$inferInsert"]>,
  linked: keyof T["$inferInsert"] & string,
  change: { add: string[]; remove: string[] },
): Promise<void> {
  const columns = getTableColumns(table);
  const [[ownerKey, ownerId]] = Object.entries(owner) as [[string, string]];
  if (change.remove.length)
    await db.delete(table).where(and(eq(columns[ownerKey]!, ownerId), inArray(columns[linked]!, change.remove)));
  if (change.add.length)
    await db
      .insert(table)
      .values(change.add.map((id) => ({ ...owner, [linked]: id }) as T["$inferInsert"]))
      .onConflictDoNothing();
}
