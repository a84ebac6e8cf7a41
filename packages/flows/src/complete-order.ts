import { workflow } from "@kasse/workflows";
import { completeOrderStep, type OrderActor } from "@kasse/modules/order";

/** Completes an order (Medusa's `POST /admin/orders/{id}/complete`): `status` → `completed`; refused once canceled. */
export const completeOrderWorkflow = workflow("complete-order", async (input: { order_id: string; actor?: OrderActor | null }, ctx) => {
  return ctx.run(completeOrderStep, input);
});
