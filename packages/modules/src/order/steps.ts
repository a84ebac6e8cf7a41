import { step } from "@kasse/workflows";
import type { OrderActor, OrderCreate, ReturnCreate, ReturnReceive } from "./schema";
import { createReturnService, type ReturnReceipt } from "./returns";
import { assertOpen, createOrderService, type LineStage, type OrderState } from "./service";
import { createOrderTransferService } from "./transfers";

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
    const created = await createOrderService(ctx.tx).create(input.order, input.actor ?? undefined, ctx.tx);
    const output: CreatedOrder = {
      id: created.id,
      display_id: created.display_id,
      items: created.items.map((i) => ({ id: i.id, cart_line_item_id: i.cart_line_item_id, variant_id: i.variant_id, quantity: i.quantity })),
    };
    return { output, compensateInput: { id: created.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await createOrderService(ctx.tx).delete(id, ctx.tx);
  },
});

/**
 * Marks the order canceled (refused when fulfilled or already canceled; the order row is locked).
 * Compensation puts its previous status back and logs the reversal.
 */
export const cancelOrderStep = step("cancel-order", {
  invoke: async (input: { order_id: string; actor?: OrderActor | null }, ctx) => {
    const { before, order } = await createOrderService(ctx.tx).cancel(input.order_id, input.actor ?? undefined, ctx.tx);
    const output = { id: order.id, status: order.status, line_item_ids: order.items.flatMap((i) => (i.cart_line_item_id ? [i.id, i.cart_line_item_id] : [i.id])), payment_collection_ids: order.payment_collection_ids };
    return { output, compensateInput: { id: order.id, before } };
  },
  compensate: async ({ id, before }: { id: string; before: OrderState }, ctx) => {
    await createOrderService(ctx.tx).restoreState(id, before, "order_cancel_reverted", ctx.tx);
  },
});

/**
 * Refuses (400) a change to a canceled or archived order before a flow writes anything (reads
 * only; the order step after it checks again under the order's row lock).
 */
export const checkOrderOpenStep = step("check-order-open", {
  invoke: async (input: { order_id: string; doing: string }, ctx) => {
    assertOpen(await createOrderService(ctx.tx).retrieve(input.order_id, ctx.tx), input.doing);
    return { output: null };
  },
});

/**
 * Moves the order lines' fulfilled, shipped or delivered quantities (validated, order locked) and
 * re-derives `fulfillment_status`. Compensation moves them back. Outputs each line's snapshot, for
 * the stock and fulfillment steps after it.
 */
export const moveOrderLinesStep = step("move-order-line-quantities", {
  invoke: async (input: { order_id: string; stage: LineStage; items: Array<{ id: string; quantity: number }>; action: string; actor?: OrderActor | null }, ctx) => {
    const updated = await createOrderService(ctx.tx).moveLineQuantities(input.order_id, { stage: input.stage, lines: input.items, action: input.action, actor: input.actor }, ctx.tx);
    const byId = new Map(updated.items.map((i) => [i.id, i]));
    const lines = input.items.map((l) => {
      const item = byId.get(l.id)!;
      return { id: item.id, quantity: l.quantity, cart_line_item_id: item.cart_line_item_id, variant_id: item.variant_id, title: item.title, sku: item.variant_sku };
    });
    return { output: { fulfillment_status: updated.fulfillment_status, lines }, compensateInput: input };
  },
  compensate: async (input: { order_id: string; stage: LineStage; items: Array<{ id: string; quantity: number }>; action: string }, ctx) => {
    await createOrderService(ctx.tx).moveLineQuantities(input.order_id, { stage: input.stage, lines: input.items.map((l) => ({ id: l.id, quantity: -l.quantity })), action: `${input.action}_reverted`, undo: true }, ctx.tx);
  },
});

/** Requests a return (see `createReturnService().create`); compensation removes it and gives the quantities back. */
export const createReturnStep = step("create-return", {
  invoke: async (input: { order_id: string; return: ReturnCreate; actor?: OrderActor | null }, ctx) => {
    const created = await createReturnService(ctx.tx).create(input.order_id, input.return, input.actor ?? undefined, ctx.tx);
    return { output: { id: created.id }, compensateInput: { id: created.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await createReturnService(ctx.tx).remove(id, ctx.tx);
  },
});

/**
 * Receives units of a return (all outstanding, or `items`): the return and the order lines record
 * them. Outputs what to restock (variant, location, quantity). Compensation takes exactly this
 * receipt back.
 */
export const receiveReturnStep = step("receive-return", {
  invoke: async (input: { return_id: string; order_id: string | null; receive: ReturnReceive; actor?: OrderActor | null }, ctx) => {
    const receipt = await createReturnService(ctx.tx).receive(input.return_id, input.order_id, input.receive, input.actor ?? undefined, ctx.tx);
    const order = await createOrderService(ctx.tx).retrieve(receipt.order_id, ctx.tx);
    const variants = new Map(order.items.map((i) => [i.id, i.variant_id]));
    const restock = receipt.lines.flatMap((l) => {
      const variant_id = variants.get(l.line_item_id);
      return variant_id ? [{ variant_id, location_id: receipt.location_id, quantity: l.quantity }] : [];
    });
    return { output: { id: receipt.id, order_id: receipt.order_id, restock }, compensateInput: receipt };
  },
  compensate: async (receipt: ReturnReceipt, ctx) => {
    await createReturnService(ctx.tx).undoReceipt(receipt, ctx.tx);
  },
});

/** Cancels a return nothing of which was received; compensation makes it requested again. */
export const cancelReturnStep = step("cancel-return", {
  invoke: async (input: { return_id: string; order_id: string | null; actor?: OrderActor | null }, ctx) => {
    const canceled = await createReturnService(ctx.tx).cancel(input.return_id, input.order_id, input.actor ?? undefined, ctx.tx);
    return { output: { id: canceled.id, order_id: canceled.order_id }, compensateInput: { id: canceled.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await createReturnService(ctx.tx).undoCancel(id, ctx.tx);
  },
});

/** Completes an order (Medusa's complete-order: not once canceled); compensation puts its status back. */
export const completeOrderStep = step("complete-order", {
  invoke: async (input: { order_id: string; actor?: OrderActor | null }, ctx) => {
    const { before, order } = await createOrderService(ctx.tx).complete(input.order_id, input.actor ?? undefined, ctx.tx);
    return { output: { id: order.id, status: order.status }, compensateInput: { id: order.id, before } };
  },
  compensate: async ({ id, before }: { id: string; before: OrderState }, ctx) => {
    await createOrderService(ctx.tx).restoreState(id, before, "order_completion_reverted", ctx.tx);
  },
});

/** Archives a completed, canceled or draft order (Medusa's archive-order); compensation puts its status back. */
export const archiveOrderStep = step("archive-order", {
  invoke: async (input: { order_id: string; actor?: OrderActor | null }, ctx) => {
    const { before, order } = await createOrderService(ctx.tx).archive(input.order_id, input.actor ?? undefined, ctx.tx);
    return { output: { id: order.id, status: order.status }, compensateInput: { id: order.id, before } };
  },
  compensate: async ({ id, before }: { id: string; before: OrderState }, ctx) => {
    await createOrderService(ctx.tx).restoreState(id, before, "order_archive_reverted", ctx.tx);
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
    const { secret, request, email } = await createOrderTransferService(ctx.tx).request({ order_id: input.order_id, customer_id: input.customer_id }, input.actor, ctx.tx);
    return { output: { id: request.id, order_id: request.order_id, email, token: secret, expires_at: request.expires_at.toISOString() }, compensateInput: { id: request.id } };
  },
  compensate: async ({ id }: { id: string }, ctx) => {
    await createOrderTransferService(ctx.tx).cancel(id, ctx.tx);
  },
});
