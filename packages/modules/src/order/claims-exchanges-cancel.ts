import { errors } from "@kasse/core";
import { transaction } from "@kasse/db";
import { orderQueries as q } from "./queries";
import { claimExchangeQueries as cq } from "./queries/claims-exchanges";
import type { ClaimExchangeKind, OrderChangeAction, OrderClaimExchangeRow } from "./schema";
import type { OrderActor } from "./shapes";
import { createOrderService } from "./service";
import type { AppliedChange, ChangeApplication, OrderEditService } from "./order-edits";

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

const NOUN: Record<ClaimExchangeKind, string> = { exchange: "Exchange", claim: "Claim" };
const orders = createOrderService();

/**
 * Canceling a confirmed exchange or claim (Medusa's `POST /admin/{exchanges,claims}/{id}/cancel`),
 * the order module's part of the cancel saga: the order's next version taking the outbound lines
 * and methods off and giving back what the change deducted, as a confirmed change of its kind
 * (Medusa's cancel writes one too), and the exchange or claim marked canceled.
 */
export function claimExchangeCancel(changes: Record<ClaimExchangeKind, OrderEditService>) {
  /** The exchange or claim `id` of `kind`, confirmed and not canceled; 404 or 400 otherwise. */
  async function cancelable(kind: ClaimExchangeKind, row: OrderClaimExchangeRow | undefined, id: string) {
    if (!row || row.kind !== kind) throw errors.notFound(`${NOUN[kind]} with id: ${id} was not found`);
    if (row.canceled_at) throw errors.invalidData(`${NOUN[kind]} ${id} is already canceled`);
    const change = await q.versionChange(row.change_id);
    if (change.status !== "confirmed")
      throw errors.invalidData(`${NOUN[kind]} ${id} is ${change.status}: cancel its request instead`);
    return { row, change };
  }

  return {
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
      const writeOffs = change.actions.flatMap((a) => (a.action === "WRITE_OFF_ITEM" ? [a] : []));
      const ret = await q.returnById(row.return_id);
      const deductions: Deduction[] =
        kind === "claim"
          ? row.type === "refund"
            ? writeOffs.map((a) => ({ item_id: a.reference_id, quantity: a.details.quantity }))
            : []
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
        const confirmed = await changes[kind].confirm(plan, actor, `order_${kind}_canceled`);
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
        await changes[undo.kind].undoConfirm(undo.applied, actor);
        await q.saveVersionChange(undo.applied.change_id, { status: "canceled", deleted_at: new Date() });
        await cq.update(undo.id, { canceled_at: null, canceled_by: null });
      });
    },

    /** Records the payment collection a confirmation attached for the difference owed (removed, unpaid, on cancel). */
    async recordCollection(id: string, collectionId: string | null): Promise<void> {
      await cq.update(id, { payment_collection_id: collectionId });
    },
  };
}
