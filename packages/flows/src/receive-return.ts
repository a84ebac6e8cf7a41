import { workflow } from "@kasse/workflows";
import { receiveReturnStep, type OrderActor } from "@kasse/modules/order";
import { receiveVariantsStep } from "@kasse/modules/inventory";

export interface ReceiveReturnInput {
  return_id: string;
  /** When given, the return must belong to this order. */
  order_id?: string | null;
  actor?: OrderActor | null;
}

/**
 * Receives a requested return in full: the return and its lines record the received quantities,
 * and the units go back into stock at the return's location. Each step is undone if the next fails.
 */
export const receiveReturnWorkflow = workflow("receive-return", async (input: ReceiveReturnInput, ctx) => {
  const received = await ctx.run(receiveReturnStep, { return_id: input.return_id, order_id: input.order_id ?? null, actor: input.actor ?? null });
  if (received.restock.length) await ctx.run(receiveVariantsStep, received.restock);
  return { id: received.id, order_id: received.order_id };
});
