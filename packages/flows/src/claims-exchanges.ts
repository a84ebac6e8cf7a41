import { errors } from "@kasse/core";
import { step, workflow } from "./definitions";
import type { Modules } from "@kasse/modules";
import {
  assertOpen,
  confirmClaimExchangeStep,
  confirmOwnedReturnRequestStep,
  createReturnStep,
  recordClaimExchangeCollectionStep,
  type ClaimExchange,
  type ClaimExchangeKind,
  type OrderActor,
  type OrderEditItemsAdd,
  type OrderEditItemUpdate,
  type OrderEditShippingAdd,
  type OrderEditShippingUpdate,
  type OrderVersionChange,
  type ReturnRequestItems,
  type ReturnRequestItemUpdate,
} from "@kasse/modules/order";
import { addChangeItems, addChangeShipping, confirmationPlan, settleConfirmedChange } from "./order-edits";
import { checkReturnLocationStep } from "./create-return";
import { syncPaymentStatusStep } from "./order-payment-steps";

// Medusa's exchanges and claims (docs/orders.md "Exchanges and claims"): the inbound units are the
// return request reserved with the exchange or claim (the return protocol's checks and actions),
// the outbound lines and both shipping methods are actions of its order change (the order edit's),
// and confirming is one saga across order, inventory and payment.

const NOUN: Record<ClaimExchangeKind, string> = { exchange: "Exchange", claim: "Claim" };

/** Which of the change's shipping methods a route names: an inbound one carries the return's id. */
function requireShipping(change: OrderVersionChange, actionId: string, inbound: boolean, id: string) {
  const action = change.actions.find((a) => a.id === actionId && a.action === "SHIPPING_ADD");
  const isInbound = action?.action === "SHIPPING_ADD" && !!action.details.return_id;
  if (!action || isInbound !== inbound)
    throw errors.notFound(
      `Action with id: ${actionId} was not found on ${inbound ? "the inbound" : "the outbound"} of ${id}`,
    );
}

/** Adds order lines to the exchange's or claim's return (as a return request's items: fulfilled units not yet asked back). */
export async function addInboundItems(m: Modules, kind: ClaimExchangeKind, id: string, input: ReturnRequestItems) {
  const { row } = await m.claimExchange.pending(kind, id);
  await m.returnChange.addRequestItems(row.return_id, input);
  return row;
}

/** Changes an inbound item's quantity or reason. */
export async function updateInboundItem(
  m: Modules,
  kind: ClaimExchangeKind,
  id: string,
  actionId: string,
  input: ReturnRequestItemUpdate,
) {
  const { row } = await m.claimExchange.pending(kind, id);
  await m.returnChange.updateRequestItem(row.return_id, actionId, input);
  return row;
}

/** Takes an inbound item off. */
export async function removeInboundItem(m: Modules, kind: ClaimExchangeKind, id: string, actionId: string) {
  const { row } = await m.claimExchange.pending(kind, id);
  await m.returnChange.removeRequestItem(row.return_id, actionId);
  return row;
}

/** Adds the shipping method the inbound units come back with (`inbound`) or the outbound ones go out with. */
export async function addClaimExchangeShipping(
  m: Modules,
  kind: ClaimExchangeKind,
  id: string,
  input: OrderEditShippingAdd,
  inbound: boolean,
) {
  const { row } = await m.claimExchange.pending(kind, id);
  await addChangeShipping(m, m.claimExchange.changes(kind), row.change_id, input, inbound ? row.return_id : undefined);
  return row;
}

/** Changes the price of an inbound or outbound shipping method. */
export async function updateClaimExchangeShipping(
  m: Modules,
  kind: ClaimExchangeKind,
  id: string,
  actionId: string,
  input: OrderEditShippingUpdate,
  inbound: boolean,
) {
  const { row, change } = await m.claimExchange.pending(kind, id);
  requireShipping(change, actionId, inbound, id);
  await m.claimExchange
    .changes(kind)
    .updateAddedShipping(row.change_id, actionId, { amount: input.custom_amount, internal_note: input.internal_note });
  return row;
}

/** Takes an inbound or outbound shipping method off. */
export async function removeClaimExchangeShipping(
  m: Modules,
  kind: ClaimExchangeKind,
  id: string,
  actionId: string,
  inbound: boolean,
) {
  const { row, change } = await m.claimExchange.pending(kind, id);
  requireShipping(change, actionId, inbound, id);
  await m.claimExchange.changes(kind).removeAction(row.change_id, actionId, "SHIPPING_ADD");
  return row;
}

/** Adds outbound lines (variants, priced as an order edit prices them; at no charge on a replace claim). */
export async function addOutboundItems(m: Modules, kind: ClaimExchangeKind, id: string, input: OrderEditItemsAdd) {
  const { row } = await m.claimExchange.pending(kind, id);
  await addChangeItems(m, m.claimExchange.changes(kind), row.change_id, input, row.type === "replace");
  return row;
}

/** Changes an outbound line's quantity (and price, but on a replace claim). */
export async function updateOutboundItem(
  m: Modules,
  kind: ClaimExchangeKind,
  id: string,
  actionId: string,
  input: OrderEditItemUpdate,
) {
  const { row } = await m.claimExchange.pending(kind, id);
  if (input.quantity < 1) throw errors.invalidData("An outbound item's quantity must be at least 1");
  await m.claimExchange.changes(kind).updateAddedItem(row.change_id, actionId, {
    quantity: input.quantity,
    unit_price: row.type === "replace" ? undefined : input.unit_price,
    internal_note: input.internal_note,
  });
  return row;
}

/** Takes an outbound line off. */
export async function removeOutboundItem(m: Modules, kind: ClaimExchangeKind, id: string, actionId: string) {
  const { row } = await m.claimExchange.pending(kind, id);
  await m.claimExchange.changes(kind).removeAction(row.change_id, actionId, "ITEM_ADD");
  return row;
}

export interface ConfirmClaimExchangeInput {
  kind: ClaimExchangeKind;
  id: string;
  actor?: OrderActor | null;
  /** The shopper is not mailed of the confirmation. */
  no_notification?: boolean;
}

/**
 * Plans the confirmation (reads only): the change active, the order open, something to confirm,
 * a location for inbound units; the order's next version as `planChange` computes it (outbound
 * lines and shipping methods added, the returned or claimed units' value taken off).
 */
const planClaimExchangeStep = step("plan-claim-exchange", {
  invoke: async (input: { kind: ClaimExchangeKind; id: string }, ctx) => {
    const m = ctx.modules;
    const found: ClaimExchange = await m.claimExchange.retrieve(input.kind, input.id);
    const change = await m.claimExchange.changes(input.kind).retrieve(found.change_id);
    if (change.status !== "pending" && change.status !== "requested")
      throw errors.invalidData(`${NOUN[input.kind]} ${input.id} is ${change.status}`);
    const order = await m.order.retrieve(found.order_id);
    assertOpen(order, input.kind === "exchange" ? "exchanged" : "claimed");
    const request = await m.returnChange.retrieveReturn(found.return_id);
    const inbound = request.status === "open" ? request.items : [];
    if (inbound.length === 0 && change.actions.length === 0)
      throw errors.invalidData(`${NOUN[input.kind]} ${input.id} has no items to confirm`);
    if (inbound.length > 0 && !request.location_id)
      throw errors.invalidData(
        `Return ${found.return_id} of ${input.kind} ${input.id} has no location to receive its items at`,
      );
    const plan = await confirmationPlan(m, order, change);
    // The inbound method sits on the order (it is charged there); the return names it as its shipping too.
    const method = change.actions.find((a) => a.action === "SHIPPING_ADD" && a.details.return_id === found.return_id);
    const inbound_shipping =
      method?.action === "SHIPPING_ADD"
        ? {
            shipping_option_id: method.details.shipping_option_id,
            name: method.details.name,
            amount: method.details.amount,
            currency_code: order.currency_code,
          }
        : null;
    return {
      output: {
        ...plan,
        inbound_shipping,
        return_id: inbound.length ? found.return_id : null,
        settled: {
          difference_due: plan.application.totals.total - order.total,
          refund_amount: "type" in found && found.type === "refund" ? plan.deducted : null,
        },
      },
    };
  },
});

/**
 * Confirms an exchange or a claim (Medusa's `POST /admin/{exchanges,claims}/{id}/request`) as one
 * saga: the plan (reads only); its inbound units requested as a return under the id reserved for
 * it (`order.return_requested`; received later through the return receipt); the order's next
 * version with the outbound lines and shipping methods and the totals net of the returned or
 * claimed units (`order.updated`, `order.exchange_created` / `order.claim_created`; a second
 * confirmation racing it is refused); the outbound lines' stock reserved at the location that has
 * it; a payment collection for an amount owed (recorded on the exchange or claim, for its cancel);
 * the payment status. An amount due back stays a
 * negative `pending_difference` for a refund. A failure at any step undoes the ones before it.
 */
export const confirmClaimExchangeWorkflow = workflow(
  "confirm-claim-exchange",
  async (input: ConfirmClaimExchangeInput, ctx) => {
    const plan = await ctx.run(planClaimExchangeStep, { kind: input.kind, id: input.id });
    const actor = input.actor ?? null;
    await ctx.run(syncPaymentStatusStep, { order_id: plan.order.id, actor });
    if (plan.return_id) {
      const request = await ctx.run(confirmOwnedReturnRequestStep, { return_id: plan.return_id, actor });
      await ctx.run(checkReturnLocationStep, {
        order_id: plan.order.id,
        line_item_ids: request.return.items.map((i) => i.id),
        location_id: request.return.location_id,
      });
      await ctx.run(createReturnStep, {
        order_id: plan.order.id,
        // Marked as the exchange's or claim's inbound: its units were settled by the deduction (its
        // shipping, charged on the order, is never taken off a refund: such a return refunds nothing).
        return: {
          ...request.return,
          shipping: plan.inbound_shipping ?? request.return.shipping,
          [`${input.kind}_id`]: input.id,
        },
        return_id: request.return_id,
        actor,
        // The exchange's or claim's own message tells the shopper what to send back.
        no_notification: true,
      });
    }
    const confirmed = await ctx.run(confirmClaimExchangeStep, {
      kind: input.kind,
      plan: plan.application,
      settled: plan.settled,
      actor,
      no_notification: input.no_notification ?? false,
    });
    const settled = await settleConfirmedChange(ctx, plan, confirmed.added_line_ids, actor);
    if (settled.payment_collection_id)
      await ctx.run(recordClaimExchangeCollectionStep, {
        id: input.id,
        payment_collection_id: settled.payment_collection_id,
      });
    return {
      id: input.id,
      order_id: plan.order.id,
      return_id: plan.return_id,
      version: confirmed.version,
      ...plan.settled,
      ...settled,
    };
  },
);
