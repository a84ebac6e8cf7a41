import type { Modules } from "@kasse/modules";
import { recordEvent } from "@kasse/modules/event";
import type { OrderActor } from "@kasse/modules/order";
import { writeWithEvents } from "./events";

/**
 * Completes an order (Medusa's `POST /admin/orders/{id}/complete`): `status` → `completed`,
 * refused once canceled; with its `order.completed` event, in one transaction (one module: no saga).
 */
export function completeOrder(modules: Modules, orderId: string, actor?: OrderActor): Promise<void> {
  return writeWithEvents(async () => {
    const { order } = await modules.order.complete(orderId, actor);
    await recordEvent("order.completed", { id: order.id });
  });
}

/**
 * Archives an order (Medusa's `POST /admin/orders/{id}/archive`): only a completed, canceled or
 * draft order; `status` → `archived`, after which no workflow changes it. One transaction.
 */
export async function archiveOrder(modules: Modules, orderId: string, actor?: OrderActor): Promise<void> {
  await modules.order.archive(orderId, actor);
}
