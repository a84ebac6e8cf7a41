import { errors, generateId } from "@kasse/core";
import { transaction, viewPage, type ListPaging } from "@kasse/db";
import { claimExchangeQueries as cq, orderQueries as q, type ClaimExchangeFilters } from "./queries";
import type {
  ClaimExchangeKind,
  ClaimType,
  OrderChangeAction,
  OrderClaimExchangeRow,
  OrderReturnChangeRow,
} from "./schema";
import type { ClaimBegin, ClaimItemsAdd, ClaimItemUpdate, OrderActor, OrderEditBegin } from "./shapes";
import { createOrderService } from "./service";
import {
  createOrderEditService,
  openChange,
  stamp,
  type AppliedChange,
  type ChangeApplication,
  type OrderEditService,
  type OrderVersionChange,
} from "./order-edits";
import { createReturnChangeService } from "./return-changes";

/** An exchange or a claim as the API shows it (Medusa's `order_exchange` / `order_claim`). */
export type ClaimExchange = Awaited<ReturnType<typeof view>>;

/** Units of an order line an exchange or a claim takes off what the order charges (returned or claimed). */
export interface Deduction {
  item_id: string;
  quantity: number;
}

/** What undoing a cancel of a confirmed exchange or claim needs (JSON, journaled). */
export interface CanceledClaimExchange {
  id: string;
  kind: ClaimExchangeKind;
  applied: AppliedChange;
}

/** What undoing a confirmation needs (JSON, journaled): a cancel's, and the request it dropped. */
export interface AppliedClaimExchange extends CanceledClaimExchange {
  /** The empty return request the confirmation dropped (nothing came back), to put back. */
  dropped_request: (Omit<OrderReturnChangeRow, "created_at" | "updated_at"> & { created_at: string }) | null;
}

const orders = createOrderService();
const returnChanges = createReturnChangeService();
const CHANGES: Record<ClaimExchangeKind, OrderEditService> = {
  exchange: createOrderEditService("exchange"),
  claim: createOrderEditService("claim"),
};
const NOUN: Record<ClaimExchangeKind, string> = { exchange: "Exchange", claim: "Claim" };

type WriteOff = Extract<OrderChangeAction, { action: "WRITE_OFF_ITEM" }>;
const writeOffs = (actions: OrderChangeAction[]) => actions.filter((a): a is WriteOff => a.action === "WRITE_OFF_ITEM");
/** A claim's claimed units if it refunds them (a replace claim's are replaced at no charge: the order keeps them). */
const refunded = (row: OrderClaimExchangeRow, actions: OrderChangeAction[]): Deduction[] =>
  row.type === "refund"
    ? writeOffs(actions).map((a) => ({ item_id: a.reference_id, quantity: a.details.quantity }))
    : [];

/** An exchange or claim row with its change: status, outbound items, claimed items, actions. */
async function view(row: OrderClaimExchangeRow) {
  const [change, order] = await Promise.all([q.versionChange(row.change_id), orders.retrieve(row.order_id)]);
  const added = change.actions.flatMap((a) => (a.action === "ITEM_ADD" ? [a] : []));
  const additional_items =
    change.status === "confirmed"
      ? row.additional_items.map((item, i) => ({
          id: added[i]?.id ?? item.item_id,
          item_id: item.item_id,
          // The order line it became (Medusa's dashboard finds an item's outbound units by it).
          item: order.items.find((line) => line.id === item.item_id),
          quantity: item.quantity,
          unit_price: added[i]?.details.unit_price,
          variant_id: added[i]?.details.variant_id,
        }))
      : added.map((a) => ({
          id: a.id,
          item_id: a.id,
          quantity: a.details.quantity,
          unit_price: a.details.unit_price,
          variant_id: a.details.variant_id,
        }));
  const { kind: _kind, type, refund_amount, ...fields } = row;
  const claim =
    row.kind === "claim"
      ? {
          type,
          refund_amount,
          claim_items: writeOffs(change.actions).map((a) => ({
            id: a.id,
            item_id: a.reference_id,
            quantity: a.details.quantity,
            reason: a.details.reason,
            note: a.details.note,
          })),
        }
      : {};
  return {
    ...fields,
    ...claim,
    currency_code: order.currency_code,
    status: row.canceled_at ? "canceled" : change.status,
    order_version: change.version,
    additional_items,
    actions: change.actions.map((a) => ({
      ...a,
      order_change_id: change.id,
      order_id: change.order_id,
      version: change.version,
    })),
  };
}

/**
 * Medusa's exchanges and claims, each one order change (`exchange` or `claim`) with a return
 * reserved for its inbound units: begun on an open order with no other active change, put
 * together (inbound items on the return request, outbound lines and shipping methods and a
 * claim's claimed items on the order change), then confirmed by a saga (its order step is
 * {@link confirm}) or canceled. An exchange's difference is what the returned units were worth
 * against the new lines and shipping; a refund claim's is the claimed units' worth; a replace
 * claim's outbound lines cost nothing.
 */
export function createClaimExchangeService() {
  /** `row`, the exchange or claim `id`, refused (404) unless there is one of `kind`. */
  function ofKind(kind: ClaimExchangeKind, row: OrderClaimExchangeRow | undefined, id: string) {
    if (!row || row.kind !== kind) throw errors.notFound(`${NOUN[kind]} with id: ${id} was not found`);
    return row;
  }

  /** The live exchange or claim `id` of `kind`; 404 otherwise. */
  const find = async (kind: ClaimExchangeKind, id: string) => ofKind(kind, await cq.find(id), id);

  /** The exchange or claim `id` of `kind`, confirmed and not canceled; 404 or 400 otherwise. */
  async function cancelable(kind: ClaimExchangeKind, found: OrderClaimExchangeRow | undefined, id: string) {
    const row = ofKind(kind, found, id);
    if (row.canceled_at) throw errors.invalidData(`${NOUN[kind]} ${id} is already canceled`);
    const change = await q.versionChange(row.change_id);
    if (change.status !== "confirmed")
      throw errors.invalidData(`${NOUN[kind]} ${id} is ${change.status}: cancel its request instead`);
    return { row, change };
  }

  const service = {
    /** The order-change machinery of `kind` (outbound lines and shipping methods, as an order edit's). */
    changes: (kind: ClaimExchangeKind): OrderEditService => CHANGES[kind],

    /** Begins an exchange or a claim on an open order with no active change: its change and its return request. */
    async begin(
      kind: ClaimExchangeKind,
      input: OrderEditBegin & Partial<Pick<ClaimBegin, "type">>,
      actor: OrderActor,
    ): Promise<ClaimExchange> {
      return transaction(async () => {
        const change = await openChange(input, kind, actor);
        const orderId = change.order_id;
        const returnId = generateId("ret");
        await q.insertChangeRequest(
          {
            id: generateId("ordch"),
            order_id: orderId,
            return_id: returnId,
            change_type: "return_request",
            created_by: actor.actor_id,
          },
          `Order ${orderId} already has a pending return change`,
        );
        const row = await cq.insert({
          id: generateId(kind === "exchange" ? "exc" : "claim"),
          order_id: orderId,
          kind,
          type: kind === "claim" ? (input.type as ClaimType) : null,
          change_id: change.id,
          return_id: returnId,
          created_by: actor.actor_id,
          metadata: input.metadata ?? null,
        });
        return view(row);
      });
    },

    /** The exchange or claim `id`; 404 when there is none of `kind`. */
    retrieve: async (kind: ClaimExchangeKind, id: string): Promise<ClaimExchange> => view(await find(kind, id)),

    /** The exchange or claim whose order change is `changeId`; 404 when there is none. */
    async ofChange(changeId: string): Promise<OrderClaimExchangeRow> {
      const row = await cq.ofChange({ change_id: changeId });
      if (!row) throw errors.notFound(`No exchange or claim has the order change ${changeId}`);
      return row;
    },

    /** A page of exchanges or claims, with their changes. */
    list: (kind: ClaimExchangeKind, filters: ClaimExchangeFilters, page: ListPaging) =>
      viewPage(cq.list(kind, filters, page), (rows) => Promise.all(rows.map(view))),

    /** The exchange or claim `id` with its change, refused unless the change is still pending (its parts can change). */
    async pending(
      kind: ClaimExchangeKind,
      id: string,
    ): Promise<{ row: OrderClaimExchangeRow; change: OrderVersionChange }> {
      const row = await find(kind, id);
      const change = await CHANGES[kind].retrieve(row.change_id);
      if (change.status !== "pending")
        throw errors.invalidData(`${NOUN[kind]} ${id} is ${change.status}: its items cannot change`);
      return { row, change };
    },

    /**
     * Units the change takes off what the order charges: an exchange's returned units, a refund
     * claim's claimed units (a replace claim's are replaced at no charge, so the order keeps them).
     */
    async deductions(
      change: Pick<OrderVersionChange, "id" | "change_type"> & { actions: OrderChangeAction[] },
    ): Promise<Deduction[]> {
      if (change.change_type !== "exchange" && change.change_type !== "claim") return [];
      const row = await cq.ofChange({ change_id: change.id });
      if (!row) return [];
      if (row.kind === "claim") return refunded(row, change.actions);
      const request = await q.pendingRequestOf({ return_id: row.return_id });
      return (request?.actions ?? []).map((a) => ({ item_id: a.item_id, quantity: a.quantity }));
    },

    /**
     * Adds claimed items (`WRITE_OFF_ITEM`): lines of the order, each at most its fulfilled units
     * less those claimed before (confirmed claims) and on this claim.
     */
    async addClaimItems(id: string, input: ClaimItemsAdd): Promise<ClaimExchange> {
      return transaction(async () => {
        const { row } = await service.pending("claim", id);
        const left = await claimable(row.order_id);
        await CHANGES.claim.writeActions(row.change_id, (change, order) => {
          const actions = [...change.actions];
          for (const item of input.items) {
            if (!order.items.some((i) => i.id === item.id))
              throw errors.invalidData(`Item ${item.id} is not on order ${order.id}`);
            checkClaimable(left, actions, item.id, item.quantity);
            const details = { quantity: item.quantity, reason: item.reason ?? null, note: item.description ?? null };
            actions.push(stamp({ action: "WRITE_OFF_ITEM", details }, "order_item", item.internal_note, item.id));
          }
          return actions;
        });
        return view(row);
      });
    },

    /** Changes a claimed item's quantity, reason or note. */
    async updateClaimItem(id: string, actionId: string, input: ClaimItemUpdate): Promise<ClaimExchange> {
      return transaction(async () => {
        const { row } = await service.pending("claim", id);
        const left = await claimable(row.order_id);
        await CHANGES.claim.writeActions(row.change_id, (change) => {
          const action = writeOffs(change.actions).find((a) => a.id === actionId);
          if (!action) throw errors.notFound(`Action with id: ${actionId} was not found on claim ${id}`);
          const others = change.actions.filter((a) => a.id !== actionId);
          const quantity = input.quantity ?? action.details.quantity;
          checkClaimable(left, others, action.reference_id, quantity);
          const reason = input.reason ?? (input.reason_id !== undefined ? input.reason_id : action.details.reason);
          const updated: WriteOff = {
            ...action,
            details: { ...action.details, quantity, reason },
            internal_note: input.internal_note !== undefined ? input.internal_note : action.internal_note,
          };
          return change.actions.map((a) => (a.id === actionId ? updated : a));
        });
        return view(row);
      });
    },

    /** Takes a claimed item off the claim. */
    async removeClaimItem(id: string, actionId: string): Promise<ClaimExchange> {
      const { row } = await service.pending("claim", id);
      await CHANGES.claim.removeAction(row.change_id, actionId, "WRITE_OFF_ITEM");
      return view(row);
    },

    /**
     * Cancels a pending exchange or claim (Medusa's `DELETE …/request`): its change canceled, its
     * return request deleted, the exchange or claim removed. Nothing of it was applied.
     */
    async cancelPending(kind: ClaimExchangeKind, id: string, actor: OrderActor): Promise<void> {
      await transaction(async () => {
        const row = ofKind(kind, await cq.lock(id), id);
        await CHANGES[kind].cancel(row.change_id, actor);
        if (await q.pendingRequestOf({ return_id: row.return_id }))
          await returnChanges.cancelRequest(row.return_id, true);
        await cq.softDelete(id);
      });
    },

    /**
     * Confirms the exchange or claim whose change `plan` was computed from (a step of its saga):
     * the order's next version with its outbound lines and methods and the totals net of what it
     * takes off, what it settled (`difference_due`, a refund claim's `refund_amount`), and the
     * return request dropped when it holds no item. Refused when the change is no longer active.
     */
    async confirm(
      kind: ClaimExchangeKind,
      plan: ChangeApplication,
      settled: { difference_due: number; refund_amount: number | null },
      actor: OrderActor,
    ): Promise<{ order_id: string; version: number; added_line_ids: string[]; undo: AppliedClaimExchange }> {
      return transaction(async () => {
        const found = await cq.ofChange({ change_id: plan.change_id });
        if (!found || found.kind !== kind) throw errors.notFound(`${NOUN[kind]} was not found`);
        const row = await cq.lock(found.id);
        const { order, applied } = await CHANGES[kind].confirm(plan, actor);
        const request = await q.pendingRequestOf({ return_id: row.return_id });
        let dropped: AppliedClaimExchange["dropped_request"] = null;
        if (request && request.actions.length === 0) {
          await q.deleteChange({ id: request.id });
          const { created_at, updated_at: _u, ...rest } = request;
          dropped = { ...rest, created_at: created_at.toISOString() };
        }
        await cq.update(row.id, {
          difference_due: settled.difference_due,
          refund_amount: settled.refund_amount,
          additional_items: applied.line_ids.map((item_id, i) => ({
            item_id,
            quantity: plan.added_lines[i]!.quantity,
          })),
          updated_at: new Date(),
        });
        return {
          order_id: order.id,
          version: order.version,
          added_line_ids: applied.line_ids,
          undo: { id: row.id, kind, applied, dropped_request: dropped },
        };
      });
    },

    /** Undoes {@link confirm}: the order's version back, the change active, the return request as it was. */
    async undoConfirm(undo: AppliedClaimExchange, actor: OrderActor): Promise<void> {
      await transaction(async () => {
        await CHANGES[undo.kind].undoConfirm(undo.applied, actor);
        await cq.update(undo.id, { difference_due: null, refund_amount: null, additional_items: [] });
        if (undo.dropped_request)
          await cq.restoreReturnChanges([
            {
              ...undo.dropped_request,
              created_at: new Date(undo.dropped_request.created_at),
              confirmed_at: null,
            },
          ]);
      });
    },

    // Canceling a confirmed exchange or claim (Medusa's `POST /admin/{exchanges,claims}/{id}/cancel`),
    // the order module's part of the cancel saga: the order's next version taking the outbound lines
    // and methods off and giving back what the change deducted, as a confirmed change of its kind
    // (Medusa's cancel writes one too), and the exchange or claim marked canceled.

    /**
     * The confirmed exchange or claim `id` of `kind` with its order, its return, what its
     * confirmation deducted (an exchange's returned units, a refund claim's claimed units) and the
     * shipping methods it added (those of the version it made that the one before lacked, still on
     * the order); refused (400) when it is already canceled or not confirmed, or once an outbound
     * line was fulfilled; 404 when there is none.
     */
    async cancelPlan(kind: ClaimExchangeKind, id: string) {
      const { row, change } = await cancelable(kind, await cq.find(id), id);
      const order = await orders.retrieve(row.order_id);
      for (const added of row.additional_items) {
        const line = order.items.find((i) => i.id === added.item_id);
        if (line && line.fulfilled_quantity > 0)
          throw errors.invalidData(
            `${NOUN[kind]} ${id}'s outbound item ${line.id} was fulfilled: it cannot be canceled`,
          );
      }
      const ret = await q.returnById(row.return_id);
      const deductions: Deduction[] =
        kind === "claim"
          ? refunded(row, change.actions)
          : (ret?.items ?? []).map((i) => ({ item_id: i.line_item_id, quantity: i.quantity }));
      const [before, made] = await Promise.all([
        q.versionOf({ order_id: order.id, version: change.version - 1 }),
        change.version === order.version ? undefined : q.versionOf({ order_id: order.id, version: change.version }),
      ]);
      const had = new Set((before?.shipping_methods ?? []).map((m) => m.id));
      const methods = made ? made.shipping_methods.map((m) => m.id) : order.shipping_methods.map((m) => m.id);
      const method_ids = order.shipping_methods
        .filter((m) => methods.includes(m.id) && !had.has(m.id))
        .map((m) => m.id);
      return { row, order, return: ret ?? null, deductions, method_ids };
    },

    /**
     * Cancels the confirmed exchange or claim `id` (a step of its cancel saga): the change `plan`
     * was computed for (its `actions`) is written and confirmed as the order's next version, logged
     * `order_<kind>_canceled`, and the exchange or claim marked canceled. Refused (400) when it was
     * canceled meanwhile (two cancels: one wins) or an outbound line was fulfilled since.
     */
    async cancelConfirmed(
      kind: ClaimExchangeKind,
      id: string,
      actions: OrderChangeAction[],
      plan: ChangeApplication,
      actor: OrderActor,
    ): Promise<{ order_id: string; version: number; undo: CanceledClaimExchange }> {
      return transaction(async () => {
        const { row } = await cancelable(kind, await cq.lock(id), id);
        const order = await orders.lock(row.order_id);
        await q.insertVersionChange(
          {
            id: plan.change_id,
            order_id: order.id,
            change_type: kind,
            status: "pending",
            version: order.version + 1,
            description: `Cancels ${kind} ${id}`,
            actions,
            created_by: actor.actor_id,
            updated_at: new Date(plan.planned_at),
          },
          `Order ${order.id} has an active change: it must be confirmed or canceled first`,
        );
        const confirmed = await CHANGES[kind].confirm(plan, actor, `order_${kind}_canceled`);
        await cq.update(id, { canceled_at: new Date(), canceled_by: actor.actor_id, updated_at: new Date() });
        return {
          order_id: order.id,
          version: confirmed.order.version,
          undo: { id, kind, applied: confirmed.applied },
        };
      });
    },

    /** Undoes {@link cancelConfirmed}: the order's version back, the cancel's change gone, the exchange or claim live. */
    async undoCancel(undo: CanceledClaimExchange, actor: OrderActor): Promise<void> {
      await transaction(async () => {
        await CHANGES[undo.kind].undoConfirm(undo.applied, actor);
        await q.saveVersionChange(undo.applied.change_id, { status: "canceled", deleted_at: new Date() });
        await cq.update(undo.id, { canceled_at: null, canceled_by: null });
      });
    },

    /** Records the payment collection a confirmation attached for the difference owed (removed, unpaid, on cancel). */
    async recordCollection(id: string, collectionId: string | null): Promise<void> {
      await cq.update(id, { payment_collection_id: collectionId });
    },
  };
  return service;
}

/**
 * How many units of each order line may still be claimed: fulfilled less what confirmed claims
 * wrote off (a canceled claim's units are claimable again).
 */
async function claimable(orderId: string): Promise<Map<string, number>> {
  const order = await orders.retrieve(orderId);
  const left = new Map(order.items.map((i) => [i.id, i.fulfilled_quantity]));
  const [confirmed, canceled] = await Promise.all([
    q.versionChanges(orderId, { change_type: ["claim"], status: ["confirmed"] }, { limit: 10_000, offset: 0 }),
    cq.canceledOfOrder({ order_id: orderId }),
  ]);
  for (const change of confirmed.items.filter((c) => !canceled.some((r) => r.change_id === c.id)))
    for (const a of writeOffs(change.actions))
      left.set(a.reference_id, (left.get(a.reference_id) ?? 0) - a.details.quantity);
  return left;
}

/** Refuses claiming `quantity` of line `itemId` beyond what is left, less what `actions` already claim of it. */
function checkClaimable(left: Map<string, number>, actions: OrderChangeAction[], itemId: string, quantity: number) {
  const taken = writeOffs(actions)
    .filter((a) => a.reference_id === itemId)
    .reduce((sum, a) => sum + a.details.quantity, 0);
  const available = Math.max(0, (left.get(itemId) ?? 0) - taken);
  if (quantity > available) throw errors.invalidData(`Cannot claim more than ${available} of item ${itemId}`);
}

export type ClaimExchangeService = ReturnType<typeof createClaimExchangeService>;
