import { step, type FlowContext } from "./definitions";
import { returnCreditOf, type OrderActor } from "@kasse/modules/order";
import { orderBalance } from "./order-change-plan";
import { paidSoFar } from "./order-edits";
import {
  planMoves,
  recordPaymentChangeStep,
  refundPaymentStep,
  syncPaymentStatusStep,
  type PaymentMove,
} from "./order-payment-steps";

/**
 * What a receipt refunds (reads only): what it added to its return's credit (the units it
 * received at their lines' shares, less the return's shipping the first time anything came back),
 * as far as the order, with them back, has been paid more than it is now worth (a negative
 * `pending_difference`: an authorized, uncaptured payment refunds nothing, the order just owes
 * less), spread over its payments.
 */
const planReturnRefundStep = step("plan-return-refund", {
  invoke: async (
    input: { order_id: string; return_id: string; lines: Array<{ line_item_id: string; quantity: number }> },
    ctx,
  ) => {
    const m = ctx.modules;
    const [order, ret] = await Promise.all([m.order.retrieve(input.order_id), m.orderReturn.retrieve(input.return_id)]);
    const counted = new Map(input.lines.map((l) => [l.line_item_id, l.quantity]));
    const added =
      returnCreditOf(order.items, ret) -
      returnCreditOf(order.items, ret, (i) => i.received_quantity - (counted.get(i.line_item_id) ?? 0));
    const { pending_difference } = orderBalance(order.total, await paidSoFar(m, order));
    const amount = Math.min(added, Math.max(0, -pending_difference));
    if (amount <= 0) return { output: { amount: 0, moves: [] as PaymentMove[] } };
    const collections = await m.payment.listCollections({ id: order.payment_collection_ids });
    return {
      output: {
        amount,
        moves: planMoves(
          collections.flatMap((c) => c.payments),
          "refund",
          amount,
        ),
      },
    };
  },
});

/**
 * The refund a return's receipt makes (docs/orders.md "Settling the difference"): the received
 * units' worth, within what was paid beyond what the order is now worth, refunded at the payments'
 * providers, logged (`return_refunded`, `payment.refunded`) and the payment status re-derived. A
 * provider refund cannot be undone, so the receipt's saga runs this last.
 */
export async function refundReturnReceipt(
  ctx: FlowContext,
  input: {
    order_id: string;
    return_id: string;
    lines: Array<{ line_item_id: string; quantity: number }>;
    actor: OrderActor | null;
  },
): Promise<number> {
  const plan = await ctx.run(planReturnRefundStep, {
    order_id: input.order_id,
    return_id: input.return_id,
    lines: input.lines,
  });
  if (plan.moves.length === 0) return 0;
  const sync = { order_id: input.order_id, actor: input.actor };
  await ctx.run(syncPaymentStatusStep, sync);
  for (const move of plan.moves)
    await ctx.run(refundPaymentStep, {
      ...move,
      note: `Return ${input.return_id} received`,
      created_by: input.actor?.actor_id ?? null,
    });
  await ctx.run(recordPaymentChangeStep, {
    order_id: input.order_id,
    action: "return_refunded",
    actor: input.actor,
    details: { return_id: input.return_id, amount: plan.amount, refunds: plan.moves },
    events: { name: "payment.refunded", moves: plan.moves },
  });
  await ctx.run(syncPaymentStatusStep, sync);
  return plan.amount;
}
