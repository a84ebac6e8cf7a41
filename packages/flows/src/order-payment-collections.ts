import { errors } from "@kasse/core";
import { step, workflow, type FlowContext } from "./definitions";
import type { Modules } from "@kasse/modules";
import {
  assertOpen,
  attachPaymentCollectionStep,
  detachPaymentCollectionStep,
  type Order,
  type OrderActor,
} from "@kasse/modules/order";
import {
  createOrderPaymentCollectionStep,
  deleteUnpaidCollectionStep,
  markCollectionPaidStep,
} from "@kasse/modules/payment";
import { orderBalance } from "./order-change-plan";
import { paidSoFar } from "./order-edits";
import { recordPaymentChangeStep, syncPaymentStatusStep } from "./order-payment-steps";

/** What the order still owes (`pending_difference`; negative: due back) and what a new collection may ask for. */
async function balanceOf(m: Modules, order: Order): Promise<{ pending_difference: number; to_collect: number }> {
  return orderBalance(order.total, await paidSoFar(m, order));
}

/** The order `orderId` (404 when there is none), refused unless it is open. */
async function openOrder(m: Modules, orderId: string, doing: string): Promise<Order> {
  const order = await m.order.retrieve(orderId);
  assertOpen(order, doing);
  return order;
}

export interface OrderCollectionInput {
  order_id: string;
  /** What to ask for; default: all the order owes that its collections do not already ask for. */
  amount?: number | null;
  actor?: OrderActor | null;
}

/** Checks a collection for an order's difference and plans it (reads only). */
const planOrderCollectionStep = step("plan-order-payment-collection", {
  invoke: async (input: { order_id: string; amount: number | null }, ctx) => {
    const order = await openOrder(ctx.modules, input.order_id, "charged");
    const { to_collect } = await balanceOf(ctx.modules, order);
    if (to_collect <= 0)
      throw errors.invalidData(`Order ${order.id} owes nothing that its payment collections do not already ask for`);
    const amount = input.amount ?? to_collect;
    if (amount > to_collect)
      throw errors.invalidData(
        `Cannot ask for more than order ${order.id} owes: ${to_collect} is not yet asked for by its payment collections`,
      );
    return {
      output: {
        region_id: order.region_id,
        currency_code: order.currency_code,
        amount,
        expected_collection_ids: order.payment_collection_ids,
      },
    };
  },
});

/**
 * Asks for what an order still owes (Medusa's `POST /admin/payment-collections`): a payment
 * collection of `amount` (default, and at most: what is owed that the order's collections do not
 * already ask for; refused when that is nothing), attached to the order, and its payment status
 * re-derived. A collection attached meanwhile by another request makes this one 409 and undone.
 */
export const createOrderCollectionWorkflow = workflow(
  "create-order-difference-collection",
  async (input: OrderCollectionInput, ctx) => {
    const plan = await ctx.run(planOrderCollectionStep, { order_id: input.order_id, amount: input.amount ?? null });
    const sync = { order_id: input.order_id, actor: input.actor ?? null };
    await ctx.run(syncPaymentStatusStep, sync);
    const collection = await ctx.run(createOrderPaymentCollectionStep, {
      region_id: plan.region_id,
      currency_code: plan.currency_code,
      amount: plan.amount,
    });
    await ctx.run(attachPaymentCollectionStep, {
      order_id: input.order_id,
      payment_collection_id: collection.id,
      expected_collection_ids: plan.expected_collection_ids,
    });
    await ctx.run(recordPaymentChangeStep, {
      order_id: input.order_id,
      action: "payment_collection_created",
      actor: input.actor ?? null,
      details: { payment_collection_id: collection.id, amount: plan.amount },
    });
    const payment_status = await ctx.run(syncPaymentStatusStep, sync);
    return { payment_collection_id: collection.id, payment_status };
  },
);

/** The order paying with collection `collectionId` (404 when none does, or not the one named). */
async function orderOfCollection(m: Modules, collectionId: string, orderId?: string | null): Promise<Order> {
  const found = await m.order.findByPaymentCollection(collectionId);
  if (!found || (orderId && found.id !== orderId))
    throw errors.notFound(
      `Payment collection with id: ${collectionId} was not found${orderId ? ` on order ${orderId}` : ""}`,
    );
  return m.order.retrieve(found.id);
}

export interface CollectionActionInput {
  payment_collection_id: string;
  /** When given (Medusa's `mark-as-paid` body), the collection must be this order's. */
  order_id?: string | null;
  actor?: OrderActor | null;
}

/** Checks that the collection is an open order's and still unpaid (the payment step checks again under its lock). */
const planCollectionActionStep = step("plan-order-collection-action", {
  invoke: async (input: { payment_collection_id: string; order_id: string | null; doing: string }, ctx) => {
    const order = await orderOfCollection(ctx.modules, input.payment_collection_id, input.order_id);
    assertOpen(order, input.doing);
    const collection = await ctx.modules.payment.collectionRow(input.payment_collection_id);
    if (collection.status !== "not_paid" && collection.status !== "awaiting")
      throw errors.invalidData(
        `Payment collection ${collection.id} is ${collection.status}: only an unpaid collection can be ${input.doing}`,
      );
    return { output: { order_id: order.id } };
  },
});

/**
 * What an action on an order's collection starts with: its plan (`doing` names the action in the
 * refusal), then the order's payment status brought up to date; `sync` re-derives it again.
 */
async function beginCollectionAction(ctx: FlowContext, input: CollectionActionInput, doing: string) {
  const plan = await ctx.run(planCollectionActionStep, {
    payment_collection_id: input.payment_collection_id,
    order_id: input.order_id ?? null,
    doing,
  });
  const sync = { order_id: plan.order_id, actor: input.actor ?? null };
  await ctx.run(syncPaymentStatusStep, sync);
  return { plan, sync };
}

/**
 * Marks an order's unpaid collection paid (Medusa's `POST /admin/payment-collections/{id}/mark-as-paid`):
 * a payment of its whole amount with the system provider, captured at once (money the merchant
 * took outside Kasse), logged with `payment.captured`, and the order's payment status and
 * `pending_difference` follow. A second marking, concurrent or not, is 400; a failure after the
 * payment takes it back out.
 */
export const markCollectionPaidWorkflow = workflow(
  "mark-payment-collection-as-paid",
  async (input: CollectionActionInput, ctx) => {
    const { plan, sync } = await beginCollectionAction(ctx, input, "marked as paid");
    const paid = await ctx.run(markCollectionPaidStep, {
      payment_collection_id: input.payment_collection_id,
      created_by: input.actor?.actor_id ?? null,
    });
    await ctx.run(recordPaymentChangeStep, {
      order_id: plan.order_id,
      action: "payment_marked_paid",
      actor: input.actor ?? null,
      details: { payment_collection_id: input.payment_collection_id, payment_id: paid.payment_id, amount: paid.amount },
      events: { name: "payment.captured", moves: [paid] },
    });
    const payment_status = await ctx.run(syncPaymentStatusStep, sync);
    return { order_id: plan.order_id, payment_id: paid.payment_id, payment_status };
  },
);

/**
 * Deletes an order's unpaid collection (Medusa's `DELETE /admin/payment-collections/{id}`): taken
 * off the order, then deleted (refused, and put back on the order, when something was paid into
 * it meanwhile); the payment status re-derived.
 */
export const deleteOrderCollectionWorkflow = workflow(
  "delete-order-payment-collection",
  async (input: CollectionActionInput, ctx) => {
    const { plan, sync } = await beginCollectionAction(ctx, input, "deleted");
    const target = { order_id: plan.order_id, payment_collection_id: input.payment_collection_id };
    await ctx.run(detachPaymentCollectionStep, target);
    await ctx.run(deleteUnpaidCollectionStep, { payment_collection_id: input.payment_collection_id });
    await ctx.run(recordPaymentChangeStep, {
      order_id: plan.order_id,
      action: "payment_collection_deleted",
      actor: input.actor ?? null,
      details: { payment_collection_id: input.payment_collection_id },
    });
    return { order_id: plan.order_id, payment_status: await ctx.run(syncPaymentStatusStep, sync) };
  },
);
