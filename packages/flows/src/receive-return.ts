import { workflow } from "@kasse/workflows";
import { receiveReturnStep, type OrderActor, type ReturnReceive } from "@kasse/modules/order";
import { receiveVariantsStep } from "@kasse/modules/inventory";

export interface ReceiveReturnInput {
  return_id: string;
  /** When given, the return must belong to this order. */
  order_id?: string | null;
  /** Which lines came back and how many; everything outstanding when absent. */
  receive?: ReturnReceive;
  actor?: OrderActor | null;
}

/**
 * Receives units of a return (all still outstanding, or the `items` given): the return and its
 * order lines record the received quantities (`partially_received` until every unit is back),
 * and those units go back into stock at the return's location. Each step is undone if the next fails.
 */
export const receiveReturnWorkflow = workflow("receive-return", async (input: ReceiveReturnInput, ctx) => {
  const received = await ctx.run(receiveReturnStep, {
    return_id: input.return_id,
    order_id: input.order_id ?? null,
    receive: input.receive ?? {},
    actor: input.actor ?? null,
  });
  if (received.restock.length) await ctx.run(receiveVariantsStep, received.restock);
  return { id: received.id, order_id: received.order_id };
});
