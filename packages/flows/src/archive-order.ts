import { workflow } from "@kasse/workflows";
import { archiveOrderStep, type OrderActor } from "@kasse/modules/order";

/**
 * Archives an order (Medusa's `POST /admin/orders/{id}/archive`): only a completed, canceled or
 * draft order; `status` → `archived`, after which no workflow changes it.
 */
export const archiveOrderWorkflow = workflow("archive-order", async (input: { order_id: string; actor?: OrderActor | null }, ctx) => {
  return ctx.run(archiveOrderStep, input);
});
