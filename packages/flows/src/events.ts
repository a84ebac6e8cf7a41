import { transaction, type Db } from "@kasse/db";
import { eventsReleased } from "@kasse/modules/event";

/**
 * A single-transaction write that records events (`recordEvent(tx, …)`): runs `fn` in one
 * transaction, then wakes this process's event dispatcher once it committed.
 * @example
 * await withEvents(db, async (tx) => { await products.update(id, input, tx); await recordEvent(tx, "product.updated", { id }); });
 */
export async function withEvents<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  const result = await transaction(db, fn);
  eventsReleased();
  return result;
}
