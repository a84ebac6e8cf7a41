import { workflow } from "./definitions";
import { confirmReturnReceiptStep, receiveReturnStep, type OrderActor, type ReturnReceive } from "@kasse/modules/order";
import { receiveVariantsStep } from "@kasse/modules/inventory";
import { refundReturnReceipt } from "./return-refund";

export interface ReceiveReturnInput {
  return_id: string;
  /** When given, the return must belong to this order. */
  order_id?: string | null;
  /** Which lines came back and how many; everything outstanding when absent. */
  receive?: ReturnReceive;
  /**
   * Receive what the return's pending receipt counted (Medusa's `POST /admin/returns/{id}/receive/confirm`),
   * confirming that receipt first; `receive` is then not read.
   */
  pending_receipt?: boolean;
  actor?: OrderActor | null;
  /** The shopper is not mailed of the receipt. */
  no_notification?: boolean;
}

/**
 * Receives units of a return (all still outstanding, or the `items` given, or those its pending
 * receipt counted): the return and its order lines record the received quantities
 * (`partially_received` until every unit is back), and those units go back into stock at the
 * return's location, except the ones the receipt counted damaged (dismissed); last, what they are
 * worth is refunded as far as the order was paid beyond its worth without them. Each step is
 * undone if the next fails (a refund, made last, is not undone).
 */
export const receiveReturnWorkflow = workflow("receive-return", async (input: ReceiveReturnInput, ctx) => {
  const counted = input.pending_receipt
    ? await ctx.run(confirmReturnReceiptStep, { return_id: input.return_id, actor: input.actor ?? null })
    : { receive: input.receive ?? {}, dismiss: [] };
  const received = await ctx.run(receiveReturnStep, {
    return_id: input.return_id,
    order_id: input.order_id ?? null,
    receive: counted.receive,
    dismiss: counted.dismiss,
    actor: input.actor ?? null,
    no_notification: input.no_notification ?? false,
  });
  if (received.restock.length) await ctx.run(receiveVariantsStep, received.restock);
  const refunded = await refundReturnReceipt(ctx, {
    order_id: received.order_id,
    return_id: received.id,
    lines: received.lines,
    actor: input.actor ?? null,
  });
  return { id: received.id, order_id: received.order_id, refunded };
});
