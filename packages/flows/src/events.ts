import { transaction } from "@kasse/db";
import { eventsReleased } from "@kasse/modules/event";

/**
 * A single-transaction write that records events (`recordEvent(…)` in `fn`): runs `fn` in a
 * transaction (or the one in progress: then its events wait for that one's commit), then wakes
 * this process's event dispatchers, which send what committed.
 * @example
 * await writeWithEvents(async () => { await m.order.complete(id); await recordEvent("order.completed", { id }); });
 */
export async function writeWithEvents<T>(fn: () => Promise<T>): Promise<T> {
  const result = await transaction(fn);
  eventsReleased();
  return result;
}
