import { transaction } from "@kasse/db";
import type { Modules } from "@kasse/modules";
import { eventsReleased } from "@kasse/modules/event";

/**
 * A single-transaction write that records events (`recordEvent(…)`): runs `fn` in one
 * transaction with the modules bound to it, then wakes this process's event dispatcher once it committed.
 * @example
 * await withEvents(m, async (t) => { await t.product.update(id, input); await recordEvent("product.updated", { id }); });
 */
export async function withEvents<T>(m: Modules, fn: (t: Modules) => Promise<T>): Promise<T> {
  const result = await transaction(m.db, (tx) => fn(m.bindTo(tx)));
  eventsReleased();
  return result;
}
