import { errors } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import { assertOpen, visibleToShopper, type Order, type OrderActor } from "@kasse/modules/order";
import {
  authorizePaymentSessionStep,
  keepCollectionPayableStep,
  type PaymentCollectionRow,
} from "@kasse/modules/payment";
import { step, workflow } from "./definitions";
import { orderBalance } from "./order-change-plan";
import { paidSoFar } from "./order-edits";
import { recordPaymentChangeStep, syncPaymentStatusStep } from "./order-payment-steps";

/**
 * The order that pays with collection `collectionId` (an edit's, exchange's or claim's difference),
 * if the shopper `customerId` may see it in the store (a guest order: whoever holds the payment
 * link; a customer's: that customer only). A collection of no order, or of an order the shopper
 * may not see, is 404 (its existence is not revealed).
 */
export async function shopperOrderOfCollection(
  m: Modules,
  collectionId: string,
  customerId: string | null,
): Promise<Order> {
  const found = await m.order.findByPaymentCollection(collectionId);
  if (!found || !visibleToShopper(found, customerId))
    throw errors.notFound(`Payment collection with id: ${collectionId} was not found`);
  return m.order.retrieve(found.id);
}

/**
 * Refuses paying `collection` of `order` (400): a closed order, a collection already authorized,
 * paid or canceled, or one asking for more than the order still owes beyond what its other
 * collections ask for (the order changed after the link was sent: the store asks anew).
 */
export async function assertPayable(m: Modules, order: Order, collection: PaymentCollectionRow): Promise<void> {
  assertOpen(order, "paid");
  if (collection.status !== "not_paid" && collection.status !== "awaiting")
    throw errors.invalidData(`Payment collection ${collection.id} is ${collection.status}: it cannot be paid again`);
  const paid = await paidSoFar(m, order);
  const { to_collect } = orderBalance(order.total, { ...paid, requested: paid.requested - collection.amount });
  if (collection.amount > to_collect)
    throw errors.invalidData(
      `Payment collection ${collection.id} asks for ${collection.amount} but order ${order.id} now owes ${to_collect} of it; the order changed since the payment link was made`,
    );
}

/** {@link assertPayable} for the shopper's `collection` (404 when not theirs); answers its order. */
async function payableOrderCollection(
  m: Modules,
  collection: PaymentCollectionRow,
  customerId: string | null,
): Promise<Order> {
  const order = await shopperOrderOfCollection(m, collection.id, customerId);
  await assertPayable(m, order, collection);
  return order;
}

export interface PayOrderCollectionInput {
  payment_collection_id: string;
  session_id: string;
  customer_id: string | null;
  context?: Record<string, unknown>;
}

/** Checks the shopper's payment of an order's collection (reads only; the authorization checks again under its lock). */
const planOrderCollectionPaymentStep = step("plan-order-collection-payment", {
  invoke: async (input: { payment_collection_id: string; customer_id: string | null }, ctx) => {
    const collection = await ctx.modules.payment.collectionRow(input.payment_collection_id);
    const order = await payableOrderCollection(ctx.modules, collection, input.customer_id);
    return { output: { order_id: order.id, amount: collection.amount } };
  },
});

/**
 * The shopper pays what an order owes through its payment link (`POST /store/payment-collections/{id}/payment-sessions/{session_id}/authorize`
 * for an order's collection): the plan; the order's payment status brought up to date (undo:
 * re-derived); the collection kept payable (undo: reopened after the void below); the session
 * authorized with its provider, keyed on the step (undo: voided, or refunded when the provider
 * took the money at once); logged on the order (`payment_authorized`,
 * and `payment.captured` when the provider captured with the authorization, as Stripe does with
 * `STRIPE_CAPTURE=automatic`); the payment status re-derived. What is captured moves
 * `pending_difference`; an authorization alone is captured from the admin as checkout's is.
 */
export const payOrderCollectionWorkflow = workflow(
  "pay-order-payment-collection",
  async (input: PayOrderCollectionInput, ctx) => {
    const plan = await ctx.run(planOrderCollectionPaymentStep, {
      payment_collection_id: input.payment_collection_id,
      customer_id: input.customer_id,
    });
    const actor: OrderActor = { actor_type: input.customer_id ? "customer" : null, actor_id: input.customer_id };
    const sync = { order_id: plan.order_id, actor };
    await ctx.run(syncPaymentStatusStep, sync);
    await ctx.run(keepCollectionPayableStep, { payment_collection_id: input.payment_collection_id });
    const paid = await ctx.run(authorizePaymentSessionStep, {
      collection_id: input.payment_collection_id,
      session_id: input.session_id,
      ...(input.context ? { context: input.context } : {}),
    });
    const move = { payment_id: paid.payment_id, amount: plan.amount };
    await ctx.run(recordPaymentChangeStep, {
      order_id: plan.order_id,
      action: "payment_authorized",
      actor,
      details: { payment_collection_id: input.payment_collection_id, ...move, captured: paid.captured },
      ...(paid.captured ? { events: { name: "payment.captured" as const, moves: [move] } } : {}),
    });
    const payment_status = await ctx.run(syncPaymentStatusStep, sync);
    return { order_id: plan.order_id, payment_id: paid.payment_id, captured: paid.captured, payment_status };
  },
);
