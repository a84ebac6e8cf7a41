import { errors, generateId } from "@kasse/core";
import { step, workflow } from "./definitions";
import { adjustLineReservationsStep } from "@kasse/modules/inventory";
import {
  assertOpen,
  cancelClaimExchangeStep,
  cancelReturnStep,
  detachPaymentCollectionStep,
  type ClaimExchangeKind,
  type OrderActor,
  type OrderChangeAction,
} from "@kasse/modules/order";
import { deleteUnpaidCollectionStep } from "@kasse/modules/payment";
import { orderBalance } from "./order-change-plan";
import { collectOwed, confirmationPlan, paidSoFar } from "./order-edits";
import { syncPaymentStatusStep } from "./order-payment-steps";

export interface CancelClaimExchangeInput {
  kind: ClaimExchangeKind;
  id: string;
  actor?: OrderActor | null;
}

const stamped = (action: Pick<OrderChangeAction, "action" | "details" | "reference" | "reference_id">) =>
  ({
    ...action,
    id: generateId("ordchact"),
    internal_note: null,
    created_at: new Date().toISOString(),
  }) as OrderChangeAction;

/**
 * Plans the cancel of a confirmed exchange or claim (reads only): refused once anything of its
 * return was received or an outbound line fulfilled, when already canceled, or when the order is
 * closed. The change it writes: each outbound line's quantity to 0 (`ITEM_UPDATE`), the methods
 * its confirmation added off (`SHIPPING_REMOVE`), and what it deducted given back (its deductions
 * negated); the collection its confirmation attached, when still unpaid, to remove; and what the
 * order then owes that its remaining collections do not ask for (`to_collect`: a refund already
 * paid out for the claim or exchange), to ask for with a new collection.
 */
const planCancelClaimExchangeStep = step("plan-cancel-claim-exchange", {
  invoke: async (input: { kind: ClaimExchangeKind; id: string }, ctx) => {
    const m = ctx.modules;
    const found = await m.claimExchange.cancelPlan(input.kind, input.id);
    const { row, order } = found;
    assertOpen(order, "changed");
    if (found.return && found.return.status !== "requested" && found.return.status !== "canceled")
      throw errors.invalidData(
        `Return ${found.return.id} of ${input.kind} ${input.id} is ${found.return.status}: the ${input.kind} cannot be canceled`,
      );
    const outbound = order.items.filter((i) => i.quantity > 0 && row.additional_items.some((a) => a.item_id === i.id));
    const actions = [
      ...outbound.map((line) =>
        stamped({
          action: "ITEM_UPDATE",
          details: { quantity: 0, unit_price: line.unit_price, tax_rate: 0 },
          reference: "order_item",
          reference_id: line.id,
        }),
      ),
      ...order.shipping_methods
        .filter((method) => found.method_ids.includes(method.id))
        .map((method) =>
          stamped({
            action: "SHIPPING_REMOVE",
            details: { amount: method.amount },
            reference: "shipping_method",
            reference_id: method.id,
          }),
        ),
    ];
    const change = { id: generateId("ordch"), change_type: input.kind, updated_at: new Date(), actions };
    const given = found.deductions.map((d) => ({ item_id: d.item_id, quantity: -d.quantity }));
    const plan = await confirmationPlan(m, order, change, given);
    const collectionId = row.payment_collection_id;
    const collection =
      collectionId && order.payment_collection_ids.includes(collectionId)
        ? await m.payment.collectionRow(collectionId)
        : null;
    const unpaid = collection?.status === "not_paid" || collection?.status === "awaiting";
    // Owed once the unpaid collection is gone: the plan's own figure still counts it as asked for.
    const paid = await paidSoFar(m, order);
    const removed = unpaid ? collection.amount : 0;
    const { to_collect } = orderBalance(plan.summary.current_order_total, {
      ...paid,
      requested: paid.requested - removed,
    });
    return {
      output: {
        ...plan,
        to_collect,
        actions,
        return_id: found.return?.status === "requested" ? found.return.id : null,
        remove_collection_id: unpaid ? collection.id : null,
      },
    };
  },
});

/**
 * Cancels a confirmed exchange or claim (Medusa's `POST /admin/{exchanges,claims}/{id}/cancel`)
 * as one saga: the plan (reads only); its inbound return canceled; the order's next version
 * with the outbound lines at 0, their shipping off and the exchange's or claim's deduction given
 * back (`order.updated`; a second cancel racing it is refused); the outbound lines' reservations
 * released; the unpaid collection its confirmation attached taken off the order and deleted; a
 * new collection for what the order then owes beyond its collections (a claim's or exchange's
 * refund already paid out: the customer's payment link, or the admin's mark-as-paid), as a
 * confirmation attaches one; the payment status. A paid difference stays a negative
 * `pending_difference`, for a refund. A failure at any step undoes the ones before it.
 */
export const cancelClaimExchangeWorkflow = workflow(
  "cancel-claim-exchange",
  async (input: CancelClaimExchangeInput, ctx) => {
    const plan = await ctx.run(planCancelClaimExchangeStep, { kind: input.kind, id: input.id });
    const actor = input.actor ?? null;
    const sync = { order_id: plan.order.id, actor };
    await ctx.run(syncPaymentStatusStep, sync);
    if (plan.return_id) await ctx.run(cancelReturnStep, { return_id: plan.return_id, order_id: plan.order.id, actor });
    const canceled = await ctx.run(cancelClaimExchangeStep, {
      kind: input.kind,
      id: input.id,
      actions: plan.actions,
      plan: plan.application,
      actor,
    });
    await ctx.run(adjustLineReservationsStep, { lines: plan.lines, location_ids: plan.location_ids });
    if (plan.remove_collection_id) {
      const target = { order_id: plan.order.id, payment_collection_id: plan.remove_collection_id };
      await ctx.run(detachPaymentCollectionStep, target);
      await ctx.run(deleteUnpaidCollectionStep, { payment_collection_id: plan.remove_collection_id });
    }
    const payment_collection_id = await collectOwed(ctx, plan.order, plan.to_collect);
    const payment_status = await ctx.run(syncPaymentStatusStep, sync);
    return {
      id: input.id,
      order_id: plan.order.id,
      version: canceled.version,
      pending_difference: plan.summary.pending_difference,
      removed_collection_id: plan.remove_collection_id,
      payment_collection_id,
      payment_status,
    };
  },
);
