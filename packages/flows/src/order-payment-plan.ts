import { errors } from "@kasse/core";
import { step, type FlowContext } from "./definitions";
import { assertOpen, type OrderActor } from "@kasse/modules/order";
import { orderBalance } from "./order-change-plan";
import { paidSoFar } from "./order-edits";
import { planMoves, recordPaymentChangeStep, syncPaymentStatusStep, type PaymentMove } from "./order-payment-steps";

/** What to capture or refund: one payment, or an order's payment collection (amount spread over its payments). */
export interface PaymentTarget {
  /** `/admin/orders/{order_id}/payment-collections/{payment_collection_id}/...` */
  order_id?: string | null;
  payment_collection_id?: string | null;
  /** `/admin/payments/{payment_id}/...` */
  payment_id?: string | null;
  amount?: number | null;
}

/**
 * Checks a capture or refund and plans it (reads only): the payment or collection must exist and
 * belong to the order named; a canceled or archived order takes none; the amount must be a positive
 * integer within what is left, and a capture (without an amount: what is left) within what the
 * order still owes, so its payments never take more than its total. The provider calls happen in
 * the following steps.
 */
const planPaymentMovesStep = step("plan-payment-moves", {
  invoke: async (input: PaymentTarget & { kind: "capture" | "refund" }, ctx) => {
    const payments = ctx.modules.payment;
    const orders = ctx.modules.order;
    if (input.amount !== null && input.amount !== undefined && (!Number.isInteger(input.amount) || input.amount <= 0))
      throw errors.invalidData(`The ${input.kind} amount must be a positive integer`);
    let collectionId = input.payment_collection_id ?? null;
    if (input.payment_id) {
      collectionId = (await payments.retrievePayment(input.payment_id)).payment_collection_id;
    }
    if (!collectionId) throw errors.invalidData("A payment or a payment collection is required");
    let orderId = input.order_id ?? null;
    if (orderId) {
      const order = await orders.lock(orderId);
      if (!order.payment_collection_ids.includes(collectionId))
        throw errors.notFound(`Payment collection with id: ${collectionId} was not found on order ${orderId}`);
    } else {
      orderId = (await orders.findByPaymentCollection(collectionId))?.id ?? null;
    }
    // Money moves only on an open order (a canceled one was settled by its cancellation).
    const order = orderId ? await orders.retrieve(orderId) : null;
    if (order) assertOpen(order, input.kind === "capture" ? "captured" : "refunded");
    const collection = await payments.retrieveCollection(collectionId);
    const candidates = input.payment_id
      ? collection.payments.filter((p) => p.id === input.payment_id)
      : collection.payments;
    if (input.payment_id && candidates[0]?.canceled_at)
      throw errors.invalidData(`Payment ${input.payment_id} is canceled`);
    // A capture takes at most what the order still owes (its `pending_difference`): its total less
    // what came back on its returns and what its collections hold net of refunds (a refund paid
    // out for a claim that was then canceled is owed again).
    const paid = input.kind === "capture" && order ? await paidSoFar(ctx.modules, order) : undefined;
    const owed = order && paid ? orderBalance(order.total, paid).pending_difference : undefined;
    const moves: PaymentMove[] = planMoves(candidates, input.kind, input.amount ?? undefined, owed);
    if (owed !== undefined && input.amount != null && input.amount > owed)
      throw errors.invalidData(`Cannot capture more than the order still owes: ${Math.max(owed, 0)} left to capture`);
    return { output: { order_id: orderId, payment_collection_id: collectionId, moves } };
  },
});

/** How a capture or a refund moves one payment and how it logs the moves (`payment_captured`, `payment.captured`). */
interface MoveKind {
  kind: "capture" | "refund";
  move: (move: PaymentMove) => Promise<unknown>;
  action: string;
  details: (moves: PaymentMove[]) => Record<string, unknown>;
  event: "payment.captured" | "payment.refunded";
}

/**
 * The saga a capture and a refund share: plan (checks) → sync status (undo: re-derive) → move each
 * payment → log the change and its events → sync status; answers what moved and the new status.
 */
export async function movePayments(
  ctx: FlowContext,
  input: PaymentTarget & { actor?: OrderActor | null },
  how: MoveKind,
) {
  const plan = await ctx.run(planPaymentMovesStep, { ...input, kind: how.kind });
  const sync = { order_id: plan.order_id, actor: input.actor ?? null };
  await ctx.run(syncPaymentStatusStep, sync);
  for (const move of plan.moves) await how.move(move);
  await ctx.run(recordPaymentChangeStep, {
    order_id: plan.order_id,
    action: how.action,
    actor: input.actor ?? null,
    details: how.details(plan.moves),
    events: { name: how.event, moves: plan.moves },
  });
  const payment_status = await ctx.run(syncPaymentStatusStep, sync);
  return {
    order_id: plan.order_id,
    payment_collection_id: plan.payment_collection_id,
    payment_ids: plan.moves.map((m) => m.payment_id),
    payment_status,
  };
}
