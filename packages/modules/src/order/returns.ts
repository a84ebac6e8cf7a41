import { errors, generateId } from "@kasse/core";
import { groupBy, transaction } from "@kasse/db";
import type { ReturnStatus } from "./schema";
import type { OrderActor, OrderReturn, ReturnCreateInput, ReturnReceive } from "./shapes";
import { orderQueries as q } from "./queries";
import { createOrderService, type LineMove } from "./service";
import { createReturnReasonService } from "./return-reasons";

/** Units of one order line received back. */
export interface ReceivedLine {
  line_item_id: string;
  quantity: number;
}

/** What one receipt did (JSON: journaled as a step output), so that it can be restocked and undone exactly. */
export interface ReturnReceipt {
  id: string;
  order_id: string;
  location_id: string;
  /** Every unit that came back. */
  lines: ReceivedLine[];
  /** Of those, the units kept out of stock (damaged); absent in receipts journaled before there were any. */
  dismissed?: ReceivedLine[];
}

/**
 * Returns of fulfilled units: requested (quantities ≤ fulfilled − already requested, reasons must
 * exist), received in one or several receipts (the lines' received quantities rise; the flow
 * restocks the location), or canceled while nothing has come back.
 */
export function createReturnService() {
  const orders = createOrderService();
  const reasons = createReturnReasonService();

  /** The return, locked for the transaction; 404 when it is not `orderId`'s (when given). */
  async function lock(id: string, orderId: string | null): Promise<OrderReturn> {
    const row = await q.lockReturn(id);
    if (!row || (orderId && row.order_id !== orderId))
      throw errors.notFound(`Return with id: ${id} was not found${orderId ? ` on order ${orderId}` : ""}`);
    return row;
  }

  /** Moves the return's units into (`sign` −1: out of) its order lines' `return_requested_quantity`. */
  const moveRequested = (existing: OrderReturn, sign: 1 | -1, move: Pick<LineMove, "action" | "actor" | "undo">) =>
    orders.moveLineQuantities(existing.order_id, {
      ...move,
      stage: "return_requested_quantity",
      lines: existing.items.map((i) => ({ id: i.line_item_id, quantity: sign * i.quantity })),
    });

  /**
   * Counts `lines` back in (out again, with `move.undo`) on the order lines and the return: as
   * received, or with `damaged` as dismissed (the return's damaged quantities).
   */
  async function moveReceived(
    receipt: Pick<ReturnReceipt, "id" | "order_id">,
    lines: ReceivedLine[],
    damaged: boolean,
    move: Pick<LineMove, "action" | "actor" | "undo">,
  ): Promise<void> {
    const sign = move.undo ? -1 : 1;
    await orders.moveLineQuantities(receipt.order_id, {
      ...move,
      stage: damaged ? "return_dismissed_quantity" : "return_received_quantity",
      lines: lines.map((l) => ({ id: l.line_item_id, quantity: sign * l.quantity })),
    });
    const column = damaged ? "damaged_quantity" : "received_quantity";
    for (const line of lines) await q.addReturned(receipt.id, line.line_item_id, column, sign * line.quantity);
  }

  /**
   * Sets a return's status from its items' received quantities (`received` once every unit is
   * back, `partially_received` while some are, else `requested`); `received_at` is when the last
   * unit came back.
   */
  async function settleStatus(id: string): Promise<void> {
    const current = await service.retrieve(id);
    const complete = current.items.every((i) => i.received_quantity === i.quantity);
    const status: ReturnStatus = complete
      ? "received"
      : current.items.some((i) => i.received_quantity > 0)
        ? "partially_received"
        : "requested";
    await q.setReturn(id, { status, received_at: complete ? (current.received_at ?? new Date()) : null });
  }

  const service = {
    /** Requests a return; the order row is locked and the lines' `return_requested_quantity` rises. */
    async create(
      orderId: string,
      input: ReturnCreateInput,
      actor: OrderActor | undefined,
      /** The id reserved for it by a confirmed return request (see `createReturnChangeService`). */
      reservedId?: string,
    ): Promise<OrderReturn> {
      return transaction(async () => {
        await reasons.assertKnown(input.items.map((i) => i.reason_id));
        await orders.moveLineQuantities(orderId, {
          stage: "return_requested_quantity",
          lines: input.items.map((i) => ({ id: i.id, quantity: i.quantity })),
          action: "return_requested",
          actor,
        });
        const id = reservedId ?? generateId("ret");
        await q.insertReturn({
          id,
          order_id: orderId,
          location_id: input.location_id,
          shipping: input.shipping ?? null,
          exchange_id: input.exchange_id ?? null,
          claim_id: input.claim_id ?? null,
          metadata: input.metadata ?? null,
        });
        await q.insertReturnItems(
          input.items.map((i) => ({
            id: generateId("retitem"),
            return_id: id,
            line_item_id: i.id,
            quantity: i.quantity,
            reason_id: i.reason_id ?? null,
          })),
        );
        return service.retrieve(id);
      });
    },

    /** Removes a requested return and gives its lines' requested quantities back (a creation's compensation). */
    async remove(id: string): Promise<void> {
      await transaction(async () => {
        const existing = await lock(id, null);
        await moveRequested(existing, -1, { action: "return_request_reverted", undo: true });
        await q.deleteReturn({ id: id });
      });
    },

    async retrieve(id: string): Promise<OrderReturn> {
      const found = await q.returnById(id);
      if (!found) throw errors.notFound(`Return with id: ${id} was not found`);
      return found;
    },

    list: q.returns,

    /** Every return of the orders (one query per table), keyed by order id. */
    async listForOrders(orderIds: string[]): Promise<Map<string, OrderReturn[]>> {
      const rows = orderIds.length ? await q.returnsOfOrders(orderIds) : [];
      return groupBy(rows, (r) => r.order_id, { keys: orderIds });
    },

    /**
     * Receives units of a requested or partially received return (`orderId` given: it must be that
     * order's): `items` (order line ids) or, without them, everything still outstanding. The
     * return's and the order lines' received quantities rise; the return is `received` once every
     * unit is back, else `partially_received`. {@link undoReceipt} takes exactly this receipt back.
     */
    async receive(
      id: string,
      orderId: string | null,
      input: ReturnReceive,
      actor: OrderActor | undefined,
      /** Units that came back damaged: received, but kept out of stock (Medusa's dismissed items). */
      damaged: Array<{ id: string; quantity: number }> = [],
    ): Promise<ReturnReceipt> {
      return transaction(async () => {
        const existing = await lock(id, orderId);
        if (existing.status !== "requested" && existing.status !== "partially_received")
          throw errors.invalidData(`Return ${id} is ${existing.status}`);
        const outstanding = new Map(existing.items.map((i) => [i.line_item_id, i.quantity - i.received_quantity]));
        const restocked: ReceivedLine[] = input.items
          ? input.items.map((i) => ({ line_item_id: i.id, quantity: i.quantity }))
          : [...outstanding]
              .filter(([, left]) => left > 0)
              .map(([line_item_id, quantity]) => ({ line_item_id, quantity }));
        const dismissed: ReceivedLine[] = damaged.map((i) => ({ line_item_id: i.id, quantity: i.quantity }));
        // Every unit back, restocked or not, one entry per line (the order's line move refuses a line listed twice).
        const lines: ReceivedLine[] = [];
        for (const line of damaged.length ? [...restocked, ...dismissed] : restocked) {
          const same = damaged.length ? lines.find((l) => l.line_item_id === line.line_item_id) : undefined;
          if (same) same.quantity += line.quantity;
          else lines.push({ ...line });
        }
        for (const line of lines) {
          const left = outstanding.get(line.line_item_id);
          if (left === undefined) throw errors.invalidData(`Item ${line.line_item_id} is not on return ${id}`);
          if (line.quantity > left)
            throw errors.invalidData(`Cannot receive more than ${left} of item ${line.line_item_id} on return ${id}`);
        }
        await moveReceived(existing, lines, false, { action: "return_received", actor });
        if (dismissed.length) await moveReceived(existing, dismissed, true, { action: "return_dismissed", actor });
        await settleStatus(id);
        return {
          id,
          order_id: existing.order_id,
          location_id: existing.location_id,
          lines,
          ...(dismissed.length ? { dismissed } : {}),
        };
      });
    },

    /**
     * Takes back one {@link receive} (its compensation): its quantities come off, and the status
     * is read again from what is still received (another receipt may have landed meanwhile).
     */
    async undoReceipt(receipt: ReturnReceipt): Promise<void> {
      await transaction(async () => {
        await lock(receipt.id, null);
        if (receipt.dismissed?.length)
          await moveReceived(receipt, receipt.dismissed, true, { action: "return_dismissal_reverted", undo: true });
        await moveReceived(receipt, receipt.lines, false, { action: "return_receipt_reverted", undo: true });
        await settleStatus(receipt.id);
      });
    },

    /**
     * Cancels a return nothing of which has come back (Medusa refuses a received one): the order
     * lines' requested quantities are given back, so those units can be returned again. `alone`
     * (asked by the return's own cancel, not its exchange's or claim's) refuses an inbound return.
     */
    async cancel(
      id: string,
      orderId: string | null,
      actor: OrderActor | undefined,
      options: { alone?: boolean } = {},
    ): Promise<OrderReturn> {
      return transaction(async () => {
        const existing = await lock(id, orderId);
        // An exchange's or a claim's inbound goes with it: canceled alone, the exchange or claim
        // would still send its outbound lines and settle a difference that counts this return.
        const owner = existing.exchange_id
          ? { kind: "exchange", id: existing.exchange_id }
          : existing.claim_id
            ? { kind: "claim", id: existing.claim_id }
            : null;
        if (options.alone && owner)
          throw errors.invalidData(
            `Return ${id} is the inbound of ${owner.kind} ${owner.id}: cancel the ${owner.kind} instead (POST /admin/${owner.kind}s/${owner.id}/cancel)`,
          );
        if (existing.status !== "requested")
          throw errors.invalidData(`Return ${id} is ${existing.status} and cannot be canceled`);
        await moveRequested(existing, -1, { action: "return_canceled", actor });
        await q.setReturn(id, { status: "canceled", canceled_at: new Date() });
        return service.retrieve(id);
      });
    },

    /** Takes back a {@link cancel} (its compensation): the return is requested again. */
    async undoCancel(id: string): Promise<void> {
      await transaction(async () => {
        const existing = await lock(id, null);
        if (existing.status !== "canceled") return;
        await moveRequested(existing, 1, { action: "return_cancel_reverted", undo: true });
        await q.setReturn(id, { status: "requested", canceled_at: null });
      });
    },
  };
  return service;
}

export type ReturnService = ReturnType<typeof createReturnService>;
