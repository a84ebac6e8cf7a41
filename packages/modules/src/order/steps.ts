import { definitions } from "@kasse/workflows";
import type { ClaimExchangeKind, OrderChangeAction } from "./schema";
import type { OrderActor, OrderCreate, ReturnCreateInput, ReturnReceive } from "./shapes";
import type { AppliedClaimExchange, CanceledClaimExchange, ClaimExchangeService } from "./claims-exchanges";
import type { ReturnReceipt, ReturnService } from "./returns";
import type { ReturnChangeService } from "./return-changes";
import type { AppliedChange, ChangeApplication, OrderEditService } from "./order-edits";
import { assertOpen, type LineStage, type OrderService, type OrderState } from "./service";
import type { OrderTransferService } from "./transfers";
import type { ConvertedDraft, DraftOrderService } from "./draft-orders";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = {
  order: OrderService;
  claimExchange: ClaimExchangeService;
  orderEdit: OrderEditService;
  orderReturn: ReturnService;
  orderTransfer: OrderTransferService;
  returnChange: ReturnChangeService;
  draftOrder: DraftOrderService;
};

const { step } = definitions<StepModules>();

/** What {@link createOrderStep} journals: the new order's ids (JSON, no dates). */
export interface CreatedOrder {
  id: string;
  display_id: number;
  /** Each order line with the cart line it came from, to find checkout reservations. */
  items: Array<{ id: string; cart_line_item_id: string | null; variant_id: string | null; quantity: number }>;
}

/**
 * Creates an order from a checkout snapshot (see `OrderCreate`). Compensation deletes the order
 * with its lines, shipping methods and change log: a compensated checkout leaves no order behind.
 */
export const createOrderStep = step("create-order", {
  invoke: async (input: { order: OrderCreate; actor?: OrderActor | null }, ctx) => {
    const created = await ctx.modules.order.create(input.order, input.actor ?? undefined);
    const output: CreatedOrder = {
      id: created.id,
      display_id: created.display_id,
      items: created.items.map((i) => ({
        id: i.id,
        cart_line_item_id: i.cart_line_item_id,
        variant_id: i.variant_id,
        quantity: i.quantity,
      })),
    };
    return { output, compensateInput: { id: created.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await ctx.modules.order.delete(id);
  },
});

/**
 * Marks the order canceled (refused when fulfilled or already canceled; the order row is locked).
 * Compensation puts its previous status back and logs the reversal.
 */
export const cancelOrderStep = step("cancel-order", {
  invoke: async (input: { order_id: string; actor?: OrderActor | null }, ctx) => {
    const { before, order } = await ctx.modules.order.cancel(input.order_id, input.actor ?? undefined);
    await ctx.emit("order.canceled", { id: order.id });
    const output = {
      id: order.id,
      status: order.status,
      line_item_ids: order.items.flatMap((i) => (i.cart_line_item_id ? [i.id, i.cart_line_item_id] : [i.id])),
      payment_collection_ids: order.payment_collection_ids,
    };
    return { output, compensateInput: { id: order.id, before } };
  },
  compensate: async ({ id, before }: { id: string; before: OrderState }, ctx) => {
    await ctx.modules.order.restoreState(id, before, "order_cancel_reverted");
  },
});

/**
 * Refuses (400) a change to a canceled or archived order before a flow writes anything (reads
 * only; the order step after it checks again under the order's row lock).
 */
export const checkOrderOpenStep = step("check-order-open", {
  invoke: async (input: { order_id: string; doing: string }, ctx) => {
    assertOpen(await ctx.modules.order.retrieve(input.order_id), input.doing);
    return { output: null };
  },
});

/** What {@link moveOrderLinesStep} moves: units of the order's lines, at one stage, logged as `action`. */
interface LinesMove {
  order_id: string;
  stage: LineStage;
  items: Array<{ id: string; quantity: number }>;
  action: string;
  actor?: OrderActor | null;
}

/**
 * Moves the order lines' fulfilled, shipped or delivered quantities (validated, order locked) and
 * re-derives `fulfillment_status`. Compensation moves them back. Outputs each line's snapshot, for
 * the stock and fulfillment steps after it.
 */
export const moveOrderLinesStep = step("move-order-line-quantities", {
  invoke: async (input: LinesMove, ctx) => {
    const updated = await ctx.modules.order.moveLineQuantities(input.order_id, {
      stage: input.stage,
      lines: input.items,
      action: input.action,
      actor: input.actor,
    });
    const byId = new Map(updated.items.map((i) => [i.id, i]));
    const lines = input.items.map((l) => {
      const item = byId.get(l.id)!;
      return {
        id: item.id,
        quantity: l.quantity,
        cart_line_item_id: item.cart_line_item_id,
        variant_id: item.variant_id,
        title: item.title,
        sku: item.variant_sku,
      };
    });
    return { output: { fulfillment_status: updated.fulfillment_status, lines }, compensateInput: input };
  },
  compensate: async (input: LinesMove, ctx) => {
    await ctx.modules.order.moveLineQuantities(input.order_id, {
      stage: input.stage,
      lines: input.items.map((l) => ({ id: l.id, quantity: -l.quantity })),
      action: `${input.action}_reverted`,
      undo: true,
    });
  },
});

/** Requests a return (see `createReturnService().create`); compensation removes it and gives the quantities back. */
export const createReturnStep = step("create-return", {
  invoke: async (
    input: {
      order_id: string;
      return: ReturnCreateInput;
      return_id?: string | null;
      actor?: OrderActor | null;
      /** The shopper is not mailed (asked by the merchant, or told by the exchange or claim it belongs to). */
      no_notification?: boolean;
    },
    ctx,
  ) => {
    const created = await ctx.modules.orderReturn.create(
      input.order_id,
      input.return,
      input.actor ?? undefined,
      input.return_id ?? undefined,
    );
    await ctx.emit("order.return_requested", {
      order_id: input.order_id,
      return_id: created.id,
      no_notification: input.no_notification ?? false,
    });
    return { output: { id: created.id }, compensateInput: { id: created.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await ctx.modules.orderReturn.remove(id);
  },
});

/**
 * Receives units of a return (all outstanding, or `items`): the return and the order lines record
 * them. Outputs what to restock (variant, location, quantity). Compensation takes exactly this
 * receipt back.
 */
export const receiveReturnStep = step("receive-return", {
  invoke: async (
    input: {
      return_id: string;
      order_id: string | null;
      receive: ReturnReceive;
      /** Units that came back damaged: received, not restocked. */
      dismiss?: Array<{ id: string; quantity: number }>;
      actor?: OrderActor | null;
      no_notification?: boolean;
    },
    ctx,
  ) => {
    const receipt = await ctx.modules.orderReturn.receive(
      input.return_id,
      input.order_id,
      input.receive,
      input.actor ?? undefined,
      input.dismiss ?? [],
    );
    const order = await ctx.modules.order.retrieve(receipt.order_id);
    await ctx.emit("order.return_received", {
      order_id: receipt.order_id,
      return_id: receipt.id,
      no_notification: input.no_notification ?? false,
    });
    const variants = new Map(order.items.map((i) => [i.id, i.variant_id]));
    const kept = new Map((receipt.dismissed ?? []).map((l) => [l.line_item_id, l.quantity]));
    const restock = receipt.lines.flatMap((l) => {
      const variant_id = variants.get(l.line_item_id);
      const quantity = l.quantity - (kept.get(l.line_item_id) ?? 0);
      return variant_id && quantity > 0 ? [{ variant_id, location_id: receipt.location_id, quantity }] : [];
    });
    return {
      output: { id: receipt.id, order_id: receipt.order_id, restock, lines: receipt.lines },
      compensateInput: receipt,
    };
  },
  compensate: async (receipt: ReturnReceipt, ctx) => {
    await ctx.modules.orderReturn.undoReceipt(receipt);
  },
});

/** A step confirming a pending return change with `confirm`; compensation makes the change pending again. */
function confirmChangeStep<O extends { change_id: string }>(
  name: string,
  confirm: (changes: ReturnChangeService, returnId: string, actor: OrderActor | undefined) => Promise<O>,
) {
  return step(name, {
    invoke: async (input: { return_id: string; actor?: OrderActor | null }, ctx) => {
      const confirmed = await confirm(ctx.modules.returnChange, input.return_id, input.actor ?? undefined);
      return { output: confirmed, compensateInput: { id: confirmed.change_id } };
    },
    compensate: async ({ id }: { id: string }, ctx) => {
      await ctx.modules.returnChange.reopen(id);
    },
  });
}

/**
 * Confirms a pending return request (Medusa's order-change protocol): outputs the return it asks
 * for, with the id reserved for it. Compensation makes the request pending again.
 */
export const confirmReturnRequestStep = confirmChangeStep("confirm-return-request", (changes, id, actor) =>
  changes.confirmRequest(id, actor),
);

/** Confirms the pending return request of an exchange or a claim (their confirmation's step); compensation as above. */
export const confirmOwnedReturnRequestStep = confirmChangeStep("confirm-owned-return-request", (changes, id, actor) =>
  changes.confirmRequest(id, actor, true),
);

/**
 * Confirms a pending receipt of a return: outputs the lines counted back. Compensation makes the
 * receipt pending again.
 */
export const confirmReturnReceiptStep = confirmChangeStep("confirm-return-receipt", (changes, id, actor) =>
  changes.confirmReceipt(id, actor),
);

/** Cancels a return nothing of which was received; compensation makes it requested again. */
export const cancelReturnStep = step("cancel-return", {
  invoke: async (
    input: { return_id: string; order_id: string | null; actor?: OrderActor | null; alone?: boolean },
    ctx,
  ) => {
    const canceled = await ctx.modules.orderReturn.cancel(input.return_id, input.order_id, input.actor ?? undefined, {
      alone: input.alone === true,
    });
    return { output: { id: canceled.id, order_id: canceled.order_id }, compensateInput: { id: canceled.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await ctx.modules.orderReturn.undoCancel(id);
  },
});

/**
 * Opens a transfer request of an order to a customer (see `createOrderTransferService`); its
 * output carries the token to mail, marked secret so the journal keeps a redaction. Undone by
 * canceling the request, which needs no token.
 */
export const requestOrderTransferStep = step("request-order-transfer", {
  secret: { output: ["token"] },
  invoke: async (input: { order_id: string; customer_id: string; actor: OrderActor }, ctx) => {
    const { secret, request, email } = await ctx.modules.orderTransfer.request(
      { order_id: input.order_id, customer_id: input.customer_id },
      input.actor,
    );
    return {
      output: {
        id: request.id,
        order_id: request.order_id,
        email,
        token: secret,
        expires_at: request.expires_at.toISOString(),
      },
      compensateInput: { id: request.id },
    };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await ctx.modules.orderTransfer.cancel(id);
  },
});

/**
 * Confirms an order edit as the order's next version (see `createOrderEditService().confirm`) and
 * records `order.updated` and `order-edit.confirmed` with it. Compensation puts the replaced
 * version back and makes the edit active again.
 */
export const confirmOrderEditStep = step("confirm-order-edit", {
  invoke: async (input: { plan: ChangeApplication; pending_difference: number; actor?: OrderActor | null }, ctx) => {
    const actor = input.actor ?? { actor_type: null, actor_id: null };
    const { order, applied } = await ctx.modules.orderEdit.confirm(input.plan, actor);
    const { no_notification } = await ctx.modules.orderEdit.retrieve(applied.change_id);
    await ctx.emit("order.updated", { id: order.id });
    await ctx.emit("order-edit.confirmed", {
      order_id: order.id,
      order_change_id: applied.change_id,
      pending_difference: input.pending_difference,
      no_notification,
    });
    return {
      output: { id: order.id, version: order.version, added_line_ids: applied.line_ids },
      compensateInput: { applied, actor },
    };
  },
  compensate: async (input: { applied: AppliedChange; actor: OrderActor }, ctx) => {
    await ctx.modules.orderEdit.undoConfirm(input.applied, input.actor);
  },
});

/**
 * Attaches a payment collection to the order (an edit's difference to pay); with
 * `expected_collection_ids`, refused (409) unless the order's collections are still those.
 * Compensation detaches it.
 */
export const attachPaymentCollectionStep = step("attach-order-payment-collection", {
  invoke: async (
    input: { order_id: string; payment_collection_id: string; expected_collection_ids?: string[] },
    ctx,
  ) => {
    await ctx.modules.order.attachPaymentCollection(
      input.order_id,
      input.payment_collection_id,
      input.expected_collection_ids,
    );
    return {
      output: null,
      compensateInput: { order_id: input.order_id, payment_collection_id: input.payment_collection_id },
    };
  },
  compensate: async (input: { order_id: string; payment_collection_id: string }, ctx) => {
    await ctx.modules.order.detachPaymentCollection(input.order_id, input.payment_collection_id);
  },
});

/** Takes a payment collection off the order (before it is deleted); compensation attaches it again. */
export const detachPaymentCollectionStep = step("detach-order-payment-collection", {
  invoke: async (input: { order_id: string; payment_collection_id: string }, ctx) => {
    await ctx.modules.order.detachPaymentCollection(input.order_id, input.payment_collection_id);
    return { output: null, compensateInput: input };
  },
  compensate: async (input: { order_id: string; payment_collection_id: string }, ctx) => {
    await ctx.modules.order.attachPaymentCollection(input.order_id, input.payment_collection_id);
  },
});

/**
 * Confirms an exchange or a claim as the order's next version (see `createClaimExchangeService().confirm`)
 * and records `order.updated` and `order.exchange_created` or `order.claim_created` with it.
 * Compensation puts the replaced version back and makes the change pending again.
 */
export const confirmClaimExchangeStep = step("confirm-claim-exchange", {
  invoke: async (
    input: {
      kind: ClaimExchangeKind;
      plan: ChangeApplication;
      settled: { difference_due: number; refund_amount: number | null };
      actor?: OrderActor | null;
      no_notification?: boolean;
    },
    ctx,
  ) => {
    const actor = input.actor ?? { actor_type: null, actor_id: null };
    const confirmed = await ctx.modules.claimExchange.confirm(input.kind, input.plan, input.settled, actor);
    await ctx.emit("order.updated", { id: confirmed.order_id });
    await ctx.emit(`order.${input.kind}_created`, {
      order_id: confirmed.order_id,
      [`${input.kind}_id`]: confirmed.undo.id,
      no_notification: input.no_notification ?? false,
    });
    const { undo, ...output } = confirmed;
    return { output: { ...output, id: undo.id }, compensateInput: { undo, actor } };
  },
  compensate: async (input: { undo: AppliedClaimExchange; actor: OrderActor }, ctx) => {
    await ctx.modules.claimExchange.undoConfirm(input.undo, input.actor);
  },
});

/**
 * Records on the exchange or claim the payment collection its confirmation attached (what its
 * cancel removes while unpaid). Compensation clears it.
 */
export const recordClaimExchangeCollectionStep = step("record-claim-exchange-collection", {
  invoke: async (input: { id: string; payment_collection_id: string }, ctx) => {
    await ctx.modules.claimExchange.recordCollection(input.id, input.payment_collection_id);
    return { output: null, compensateInput: { id: input.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await ctx.modules.claimExchange.recordCollection(id, null);
  },
});

/**
 * Cancels a confirmed exchange or claim as the order's next version (see
 * `claimExchangeCancel().cancelConfirmed`) and records `order.updated` with it (Medusa has no
 * event of its own for it). Compensation puts the replaced version back and the exchange or claim live.
 */
export const cancelClaimExchangeStep = step("cancel-claim-exchange", {
  invoke: async (
    input: {
      kind: ClaimExchangeKind;
      id: string;
      actions: OrderChangeAction[];
      plan: ChangeApplication;
      actor?: OrderActor | null;
    },
    ctx,
  ) => {
    const actor = input.actor ?? { actor_type: null, actor_id: null };
    const canceled = await ctx.modules.claimExchange.cancelConfirmed(
      input.kind,
      input.id,
      input.actions,
      input.plan,
      actor,
    );
    await ctx.emit("order.updated", { id: canceled.order_id });
    return {
      output: { order_id: canceled.order_id, version: canceled.version },
      compensateInput: { undo: canceled.undo, actor },
    };
  },
  compensate: async (input: { undo: CanceledClaimExchange; actor: OrderActor }, ctx) => {
    await ctx.modules.claimExchange.undoCancel(input.undo, input.actor);
  },
});

/**
 * Makes a draft an order (`pending`) and records `order.placed` with it, as checkout's order does
 * (released only when the whole conversion succeeds). Order module only; compensation makes it a
 * draft again.
 */
export const convertDraftOrderStep = step("convert-draft-order", {
  invoke: async (input: { draft_order_id: string; actor?: OrderActor | null }, ctx) => {
    const actor = input.actor ?? { actor_type: null, actor_id: null };
    const { order, converted } = await ctx.modules.draftOrder.convert(input.draft_order_id, actor);
    await ctx.emit("order.placed", {
      id: order.id,
      display_id: order.display_id,
      cart_id: null,
      customer_id: order.customer_id,
      email: order.email,
      currency_code: order.currency_code,
      total: order.total,
      item_count: order.items.reduce((sum, i) => sum + i.quantity, 0),
    });
    return { output: { id: order.id, version: order.version }, compensateInput: { converted, actor } };
  },
  compensate: async (input: { converted: ConvertedDraft; actor: OrderActor }, ctx) => {
    await ctx.modules.draftOrder.undoConvert(input.converted, input.actor);
  },
});
