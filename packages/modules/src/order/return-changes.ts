import { errors, generateId, KasseError } from "@kasse/core";
import { isUniqueViolation, transaction } from "@kasse/db";
import { claimExchangeQueries, orderQueries as q } from "./queries";
import type {
  ReturnChangeAction,
  ReturnChangeActionName,
  ReturnChangeType,
  OrderClaimExchangeRow,
  OrderReturnChangeInsert,
  OrderReturnChangeRow,
} from "./schema";
import type { ReturnShipping } from "./column-shapes";
import type {
  OrderActor,
  OrderReturn,
  ReturnCreateInput,
  ReturnReceive,
  ReturnReceiveItems,
  ReturnReceiveItemUpdate,
  ReturnRequestBegin,
  ReturnRequestItems,
  ReturnRequestItemUpdate,
  ReturnRequestUpdate,
} from "./shapes";
import { assertOpen, createOrderService } from "./service";
import { createReturnService } from "./returns";
import { createReturnReasonService } from "./return-reasons";

/** A pending (or confirmed) return change as the API shows it: Medusa's `order_change` with its actions. */
export type ReturnChange = ReturnType<typeof changeView>;

/** What confirming a return request hands the create-return saga. */
export interface ConfirmedRequest {
  change_id: string;
  order_id: string;
  return_id: string;
  return: ReturnCreateInput;
}

/** What confirming a receipt hands the receive-return saga: the units to restock, and those damaged. */
export interface ConfirmedReceipt extends Omit<ConfirmedRequest, "return"> {
  receive: ReturnReceive;
  dismiss: Array<{ id: string; quantity: number }>;
}

const receiptAction = (damaged: boolean): ReturnChangeActionName =>
  damaged ? "RECEIVE_DAMAGED_RETURN_ITEM" : "RECEIVE_RETURN_ITEM";

const KIND: Record<ReturnChangeType, string> = { return_request: "request", return_receive: "receipt" };

function actionView(row: OrderReturnChangeRow, a: ReturnChangeAction) {
  return {
    id: a.id,
    order_change_id: row.id,
    order_id: row.order_id,
    return_id: row.return_id,
    action: a.action,
    reference: "return_item",
    reference_id: a.item_id,
    details: { reference_id: a.item_id, quantity: a.quantity, reason_id: a.reason_id },
    internal_note: a.internal_note,
    created_at: a.created_at,
  };
}

/** A return change with its actions, as the API shows it. */
export function changeView(row: OrderReturnChangeRow) {
  return { ...row, actions: row.actions.map((a) => actionView(row, a)) };
}

/** A return, or one whose request is still pending: `open`, no location until one is chosen. */
type ReturnOrDraft = Omit<OrderReturn, "status" | "location_id"> & {
  status: OrderReturn["status"] | "open";
  location_id: string | null;
};

/** A pending request's return shipping, as the return will have it. */
function shippingOf(row: OrderReturnChangeRow): ReturnShipping | null {
  if (!row.shipping) return null;
  const { shipping_option_id, name, amount, currency_code } = row.shipping;
  return { shipping_option_id, name, amount, currency_code };
}

/**
 * A return whose request is still pending, shaped as a return: `open`, its items the request's
 * actions, and the exchange or claim (`owner`) whose inbound it is.
 */
function draftReturn(
  row: OrderReturnChangeRow,
  owner?: Pick<OrderClaimExchangeRow, "id" | "kind"> | undefined,
): ReturnOrDraft {
  return {
    id: row.return_id,
    order_id: row.order_id,
    exchange_id: owner?.kind === "exchange" ? owner.id : null,
    claim_id: owner?.kind === "claim" ? owner.id : null,
    status: "open",
    location_id: row.location_id,
    shipping: shippingOf(row),
    received_at: null,
    canceled_at: null,
    metadata: row.metadata,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: null,
    items: row.actions.map((a) => ({
      id: a.id,
      return_id: row.return_id,
      line_item_id: a.item_id,
      item_id: a.item_id,
      quantity: a.quantity,
      received_quantity: 0,
      damaged_quantity: 0,
      reason_id: a.reason_id,
      created_at: new Date(a.created_at),
      updated_at: new Date(a.created_at),
      deleted_at: null,
    })),
  };
}

const orders = createOrderService();
const returns = createReturnService();
const reasons = createReturnReasonService();

/** The reads and writes of return changes; inside a write, the pending change stays locked until it commits. */
const changes = {
  /** The order `orderId`, refused unless it is open to returns. */
  async openOrder(orderId: string) {
    const order = await orders.retrieve(orderId);
    assertOpen(order, "returned");
    return order;
  },

  /** The pending change of return `returnId`, locked; 404 when the return is unknown, 400 when nothing of `type` is pending. */
  async lock(returnId: string, type: ReturnChangeType): Promise<OrderReturnChangeRow> {
    const row = await q.lockPendingChange({ return_id: returnId });
    if (!row) {
      if (!(await q.returnById(returnId))) throw errors.notFound(`Return with id: ${returnId} was not found`);
      throw errors.invalidData(`Return ${returnId} has no pending ${KIND[type]}`);
    }
    if (row.change_type !== type) throw errors.invalidData(`Return ${returnId} has a pending ${KIND[row.change_type]}`);
    return row;
  },

  save: (row: OrderReturnChangeRow, set: Partial<OrderReturnChangeRow>) =>
    q.saveChange(row.id, { ...set, updated_at: new Date() }),

  /** Refuses a second pending change on the order, and one while an order edit is active. */
  async assertNoPending(orderId: string): Promise<void> {
    const [pending, edit] = await Promise.all([
      q.pendingChangeOfOrder({ order_id: orderId }),
      q.activeVersionChange({ order_id: orderId }),
    ]);
    if (edit) throw errors.invalidData(`Order ${orderId} has an active ${edit.change_type} change (${edit.id})`);
    if (pending)
      throw errors.invalidData(
        `Order ${orderId} already has a pending return ${KIND[pending.change_type]} (return ${pending.return_id})`,
      );
  },

  /** Inserts a pending change; a race past {@link assertNoPending} meets the one-pending index as a conflict. */
  insert: (values: OrderReturnChangeInsert) =>
    q.insertChangeRequest(values, `Order ${values.order_id} already has a pending return change`),

  /** The units each line may take on a change of `type`: returnable units of a request, outstanding ones of a receipt. */
  async limits(type: ReturnChangeType, row: OrderReturnChangeRow): Promise<Map<string, number>> {
    if (type === "return_request") {
      // How many more units of each order line may be asked back (fulfilled − already requested).
      const order = await changes.openOrder(row.order_id);
      return new Map(order.items.map((i) => [i.id, i.fulfilled_quantity - i.return_requested_quantity]));
    }
    // How many units of each line of the return are still to come back.
    const existing = await returns.retrieve(row.return_id);
    return new Map(existing.items.map((i) => [i.line_item_id, i.quantity - i.received_quantity]));
  },
};

/**
 * Refuses `quantity` of line `itemId` beyond its limit, less what the change's other actions on
 * the line (but `exceptActionId`) already take: a receipt's units received and damaged come
 * out of the same outstanding units.
 */
function checkQuantity(
  type: ReturnChangeType,
  row: OrderReturnChangeRow,
  limits: Map<string, number>,
  itemId: string,
  quantity: number,
  exceptActionId?: string,
) {
  const limit = limits.get(itemId);
  if (limit === undefined)
    throw errors.invalidData(
      type === "return_request"
        ? `Item ${itemId} is not on order ${row.order_id}`
        : `Item ${itemId} is not on return ${row.return_id}`,
    );
  const taken = row.actions
    .filter((a) => a.item_id === itemId && a.id !== exceptActionId)
    .reduce((sum, a) => sum + a.quantity, 0);
  const left = Math.max(0, limit - taken);
  if (quantity > left)
    throw errors.invalidData(
      type === "return_request"
        ? `Cannot return more than ${left} of item ${itemId}`
        : `Cannot receive more than ${left} of item ${itemId} on return ${row.return_id}`,
    );
}

/** Refuses to confirm or cancel alone the return of an exchange or a claim: its confirmation or cancellation does. */
async function refuseOwned(returnId: string): Promise<void> {
  const owner = await claimExchangeQueries.ofReturn({ return_id: returnId });
  if (owner)
    throw errors.invalidData(
      `Return ${returnId} is the inbound part of ${owner.kind} ${owner.id}: confirm or cancel the ${owner.kind}`,
    );
}

/** The change's `name` action `actionId`, 404 when there is none. */
function findAction(row: OrderReturnChangeRow, name: ReturnChangeActionName, actionId: string) {
  const action = row.actions.find((a) => a.id === actionId && a.action === name);
  if (!action) throw errors.notFound(`Action with id: ${actionId} was not found on return ${row.return_id}`);
  return action;
}

/** The request's return shipping action `actionId`, 404 when it has none of that id. */
function shippingAction(row: OrderReturnChangeRow, actionId: string) {
  if (row.shipping?.id !== actionId)
    throw errors.notFound(`Action with id: ${actionId} was not found on return ${row.return_id}`);
  return row.shipping;
}

/**
 * Medusa's order-change protocol for returns, over Kasse's returns: a return request is put
 * together item by item (`RETURN_ITEM` actions on a pending `return_request` change, the return's
 * id reserved) and a receipt counted item by item (`RECEIVE_RETURN_ITEM` actions on a pending
 * `return_receive` change of a requested return). Nothing moves on the order or in stock until the
 * change is confirmed; confirming hands its actions to the create-return or receive-return saga
 * ({@link confirmRequest}, {@link confirmReceipt} are their first steps). Canceling a pending change
 * deletes it. An order has at most one pending change.
 */
export function createReturnChangeService() {
  /** Runs `edit` on the locked pending change of `type` and saves what it answers: the change's view. */
  function withChange(
    returnId: string,
    type: ReturnChangeType,
    edit: (row: OrderReturnChangeRow) => Partial<OrderReturnChangeRow> | Promise<Partial<OrderReturnChangeRow>>,
  ) {
    return transaction(async () => {
      const row = await changes.lock(returnId, type);
      return changeView(await changes.save(row, await edit(row)));
    });
  }

  /** Adds items (order line ids) to a pending change as `name` actions; a line already on it as one is refused. */
  async function addItems(
    returnId: string,
    type: ReturnChangeType,
    name: ReturnChangeActionName,
    items: Array<{ id: string; quantity: number; reason_id?: string | null; internal_note?: string | null }>,
  ) {
    return withChange(returnId, type, async (locked) => {
      let row = locked;
      const limits = await changes.limits(type, row);
      const now = new Date().toISOString();
      for (const item of items) {
        if (row.actions.some((a) => a.action === name && a.item_id === item.id))
          throw errors.invalidData(`Item ${item.id} is already on return ${returnId}`);
        checkQuantity(type, row, limits, item.id, item.quantity);
        const added: ReturnChangeAction = {
          id: generateId("ordchact"),
          action: name,
          item_id: item.id,
          quantity: item.quantity,
          reason_id: item.reason_id ?? null,
          internal_note: item.internal_note ?? null,
          created_at: now,
        };
        row = { ...row, actions: [...row.actions, added] };
      }
      await reasons.assertKnown(items.map((i) => i.reason_id));
      return { actions: row.actions };
    });
  }

  async function updateItem(
    returnId: string,
    type: ReturnChangeType,
    name: ReturnChangeActionName,
    actionId: string,
    patch: { quantity?: number; reason_id?: string | null; internal_note?: string | null },
  ) {
    return withChange(returnId, type, async (row) => {
      const action = findAction(row, name, actionId);
      if (patch.quantity !== undefined)
        checkQuantity(type, row, await changes.limits(type, row), action.item_id, patch.quantity, actionId);
      await reasons.assertKnown([patch.reason_id]);
      const updated: ReturnChangeAction = {
        ...action,
        quantity: patch.quantity ?? action.quantity,
        reason_id: patch.reason_id !== undefined ? patch.reason_id : action.reason_id,
        internal_note: patch.internal_note !== undefined ? patch.internal_note : action.internal_note,
      };
      return { actions: row.actions.map((a) => (a.id === actionId ? updated : a)) };
    });
  }

  async function removeItem(returnId: string, type: ReturnChangeType, name: ReturnChangeActionName, actionId: string) {
    return withChange(returnId, type, (row) => {
      findAction(row, name, actionId);
      return { actions: row.actions.filter((a) => a.id !== actionId) };
    });
  }

  /** Deletes a pending change: nothing of it stays. */
  async function cancel(returnId: string, type: ReturnChangeType): Promise<void> {
    await transaction(async () => q.deleteChange({ id: (await changes.lock(returnId, type)).id }));
  }

  /**
   * Marks a pending change confirmed (the first step of its saga): at least one action is needed,
   * and whatever `check` asks of the change.
   */
  async function confirm(
    returnId: string,
    type: ReturnChangeType,
    actor: OrderActor | undefined,
    check?: (row: OrderReturnChangeRow) => void,
  ) {
    return transaction(async () => {
      const row = await changes.lock(returnId, type);
      check?.(row);
      if (row.actions.length === 0)
        throw errors.invalidData(
          `Return ${returnId} has no items to ${type === "return_request" ? "request" : "receive"}`,
        );
      return changes.save(row, {
        status: "confirmed",
        confirmed_at: new Date(),
        confirmed_by: actor?.actor_id ?? null,
      });
    });
  }

  const service = {
    /** Begins a return request on an open order (Medusa's `POST /admin/returns`): the return's id is reserved. */
    async beginRequest(input: ReturnRequestBegin, actor: OrderActor | undefined) {
      return transaction(async () => {
        await changes.openOrder(input.order_id);
        await changes.assertNoPending(input.order_id);
        const row = await changes.insert({
          id: generateId("ordch"),
          order_id: input.order_id,
          return_id: generateId("ret"),
          change_type: "return_request",
          location_id: input.location_id ?? null,
          description: input.description ?? null,
          internal_note: input.internal_note ?? null,
          created_by: actor?.actor_id ?? null,
          metadata: input.metadata ?? null,
        });
        return draftReturn(row);
      });
    },

    /** Changes a pending request's location or metadata. */
    async updateRequest(returnId: string, input: ReturnRequestUpdate) {
      return transaction(async () => {
        const row = await changes.lock(returnId, "return_request");
        // Drizzle leaves a field given `undefined` out of the update.
        const set = { location_id: input.location_id, metadata: input.metadata };
        return draftReturn(await changes.save(row, set), await claimExchangeQueries.ofReturn({ return_id: returnId }));
      });
    },

    addRequestItems: (returnId: string, input: ReturnRequestItems) =>
      addItems(returnId, "return_request", "RETURN_ITEM", input.items),
    updateRequestItem: (returnId: string, actionId: string, input: ReturnRequestItemUpdate) =>
      updateItem(returnId, "return_request", "RETURN_ITEM", actionId, input),
    removeRequestItem: (returnId: string, actionId: string) =>
      removeItem(returnId, "return_request", "RETURN_ITEM", actionId),
    /** Cancels a pending request; one that belongs to an exchange or a claim goes with it (`owned`) and not alone. */
    async cancelRequest(returnId: string, owned = false): Promise<void> {
      if (!owned) await refuseOwned(returnId);
      await cancel(returnId, "return_request");
    },

    /**
     * Confirms a pending request (the create-return saga's first step): its actions become the
     * return's items. It needs a location and at least one item.
     */
    async confirmRequest(returnId: string, actor: OrderActor | undefined, owned = false): Promise<ConfirmedRequest> {
      if (!owned) await refuseOwned(returnId);
      const row = await confirm(returnId, "return_request", actor, (pending) => {
        if (!pending.location_id)
          throw errors.invalidData(`Return ${returnId} has no location to receive its items at`);
      }).catch((error: unknown) => {
        // An exchange's or claim's reserved return is gone only when another confirmation took it.
        if (owned && error instanceof KasseError && error.type === "not_found")
          throw errors.invalidData(`Return ${returnId} is no longer pending: it was confirmed meanwhile`);
        throw error;
      });
      return {
        change_id: row.id,
        order_id: row.order_id,
        return_id: row.return_id,
        return: {
          location_id: row.location_id!,
          items: row.actions.map((a) => ({ id: a.item_id, quantity: a.quantity, reason_id: a.reason_id })),
          shipping: shippingOf(row),
          metadata: row.metadata,
        },
      };
    },

    /**
     * Gives a pending request its return shipping method (Medusa's `SHIPPING_ADD` of a return: a
     * return option priced by the caller, or at the admin's `custom_amount`); a return has one,
     * so a second is refused until the first is removed.
     */
    async addRequestShipping(returnId: string, shipping: ReturnShipping, internalNote?: string | null) {
      return withChange(returnId, "return_request", (row) => {
        if (row.shipping)
          throw errors.invalidData(
            `Return ${returnId} already has a shipping method (${row.shipping.id}): remove it first`,
          );
        const action = {
          ...shipping,
          id: generateId("ordchact"),
          internal_note: internalNote ?? null,
          created_at: new Date().toISOString(),
        };
        return { shipping: action };
      });
    },

    /** Changes a pending request's return shipping price (`custom_amount`) or note; 404 for another action. */
    async updateRequestShipping(
      returnId: string,
      actionId: string,
      patch: { amount?: number; internal_note?: string | null },
    ) {
      return withChange(returnId, "return_request", (row) => {
        const current = shippingAction(row, actionId);
        const internal_note = patch.internal_note !== undefined ? patch.internal_note : current.internal_note;
        return { shipping: { ...current, amount: patch.amount ?? current.amount, internal_note } };
      });
    },

    /** Takes a pending request's return shipping method off; 404 for another action. */
    async removeRequestShipping(returnId: string, actionId: string) {
      return withChange(returnId, "return_request", (row) => {
        shippingAction(row, actionId);
        return { shipping: null };
      });
    },

    /** Begins counting a requested (or partially received) return's units back in (Medusa's `POST /admin/returns/{id}/receive`). */
    async beginReceipt(returnId: string, actor: OrderActor | undefined): Promise<void> {
      await transaction(async () => {
        const existing = await q.lockReturnRow({ id: returnId });
        if (!existing) {
          await changes.lock(returnId, "return_receive"); // a pending request: 400, else 404
          throw errors.notFound(`Return with id: ${returnId} was not found`);
        }
        if (existing.status !== "requested" && existing.status !== "partially_received")
          throw errors.invalidData(`Return ${returnId} is ${existing.status}`);
        await changes.assertNoPending(existing.order_id);
        await changes.insert({
          id: generateId("ordch"),
          order_id: existing.order_id,
          return_id: returnId,
          change_type: "return_receive",
          location_id: existing.location_id,
          created_by: actor?.actor_id ?? null,
        });
      });
    },

    /** Counts units back in, to be restocked (`RECEIVE_RETURN_ITEM`), or damaged, kept out of stock (`RECEIVE_DAMAGED_RETURN_ITEM`). */
    addReceiveItems: (returnId: string, input: ReturnReceiveItems, damaged = false) =>
      addItems(returnId, "return_receive", receiptAction(damaged), input.items),
    updateReceiveItem: (returnId: string, actionId: string, input: ReturnReceiveItemUpdate, damaged = false) =>
      updateItem(returnId, "return_receive", receiptAction(damaged), actionId, input),
    removeReceiveItem: (returnId: string, actionId: string, damaged = false) =>
      removeItem(returnId, "return_receive", receiptAction(damaged), actionId),
    cancelReceipt: (returnId: string) => cancel(returnId, "return_receive"),

    /** Confirms a pending receipt (the receive-return saga's first step): its actions are what came back. */
    async confirmReceipt(returnId: string, actor: OrderActor | undefined): Promise<ConfirmedReceipt> {
      const row = await confirm(returnId, "return_receive", actor);
      const counted = (name: ReturnChangeActionName) =>
        row.actions.filter((a) => a.action === name).map((a) => ({ id: a.item_id, quantity: a.quantity }));
      return {
        change_id: row.id,
        order_id: row.order_id,
        return_id: row.return_id,
        receive: { items: counted("RECEIVE_RETURN_ITEM") },
        dismiss: counted("RECEIVE_DAMAGED_RETURN_ITEM"),
      };
    },

    /**
     * Makes a confirmed change pending again (the compensation of a confirmation). Should the
     * order have begun another change meanwhile (none was pending once this one was confirmed),
     * this one is deleted instead: an order has one pending change, and nothing of it was applied.
     */
    async reopen(changeId: string): Promise<void> {
      try {
        // A savepoint: the unique violation must not abort the transaction the delete then runs in.
        await transaction(() => q.reopenChange({ id: changeId, at: new Date() }), { savepoint: true });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        await q.deleteConfirmedChange({ id: changeId });
      }
    },

    /** The order's pending return change, if any. */
    async pendingForOrder(orderId: string): Promise<ReturnChange | null> {
      const row = await q.pendingChangeOfOrder({ order_id: orderId });
      return row ? changeView(row) : null;
    },

    /** A return, or the return a pending request will create (`open`); 404 when neither exists. */
    async retrieveReturn(id: string): Promise<ReturnOrDraft> {
      const draft = await q.pendingRequestOf({ return_id: id });
      return draft ? draftReturn(draft, await claimExchangeQueries.ofReturn({ return_id: id })) : returns.retrieve(id);
    },
  };
  return service;
}

export type ReturnChangeService = ReturnType<typeof createReturnChangeService>;
