import { errors } from "@kasse/core";
import { transaction, type ListPaging } from "@kasse/db";
import { orderQueries as q, type Order } from "./queries";
import type { OrderRow } from "./schema";
import type { DraftOrderUpdate, OrderActor, OrderCreate, OrderFilters } from "./shapes";
import { createOrderService, pick } from "./service";

/** What converting a draft changed, for undoing it (JSON, journaled). */
export interface ConvertedDraft {
  id: string;
  payment_status: OrderRow["payment_status"];
}

const orders = createOrderService();

/**
 * Draft orders (Medusa's): orders with status `draft`, entered by an admin, holding no stock and
 * no payment until converted to an order. Lists of orders leave them out (`OrderFilters`); they
 * are edited through the order-edit service (`begin` with `draft`).
 */
export function createDraftOrderService() {
  /** The draft `id`, locked; 404 when there is no such order, 400 when it is no longer a draft. */
  async function lockDraft(id: string): Promise<Order> {
    const order = await orders.lock(id);
    if (order.status !== "draft") throw errors.invalidData(`Order ${id} is ${order.status}, not a draft order`);
    return order;
  }

  const service = {
    /** Creates the draft from its priced snapshot (lines, methods and totals computed by the flow). */
    create: (input: Omit<OrderCreate, "status" | "payment_status">, actor: OrderActor): Promise<Order> =>
      orders.create({ ...input, status: "draft", payment_status: "not_paid" }, actor),

    /** The draft `id`; 404 when it is not a draft (a converted draft is an order). */
    async retrieve(id: string): Promise<Order> {
      const order = await q.byId(id);
      if (!order || order.status !== "draft") throw errors.notFound(`Draft order with id: ${id} was not found`);
      return order;
    },

    /** A page of drafts with the order list's filters. */
    list: (filters: Omit<OrderFilters, "is_draft_order" | "status">, page: ListPaging) =>
      orders.list({ ...filters, is_draft_order: true }, page),

    /** Changes the draft's email, addresses, metadata, customer and sales channel (the flow checked those exist). */
    async update(id: string, input: DraftOrderUpdate, actor: OrderActor): Promise<Order> {
      return transaction(async () => {
        const draft = await lockDraft(id);
        const { customer_id, sales_channel_id, ...rest } = input;
        // The references the order's own update does not change (the flow checked they exist).
        const next = { customer_id, sales_channel_id };
        const changed = (Object.keys(next) as Array<keyof typeof next>).filter(
          (key) => next[key] !== undefined && next[key] !== draft[key],
        );
        if (changed.length) {
          await q.setOrder(id, { ...pick(next, changed), updated_at: new Date() });
          await orders.recordChange(id, "order_updated", actor, pick(draft, changed), pick(next, changed));
        }
        return orders.update(id, rest, actor);
      });
    },

    /** Deletes the draft, its lines and methods (a converted draft is an order and is refused). */
    async delete(id: string): Promise<void> {
      await transaction(async () => {
        await lockDraft(id);
        await orders.delete(id);
      });
    },

    /**
     * Makes the draft an order (`pending`): refused unless it is still a draft with lines and no
     * active edit. Two conversions racing wait on the order's lock; the second is refused (400).
     */
    async convert(id: string, actor: OrderActor): Promise<{ order: Order; converted: ConvertedDraft }> {
      return transaction(async () => {
        const draft = await lockDraft(id);
        const active = await q.activeVersionChange({ order_id: id });
        if (active)
          throw errors.invalidData(`Draft order ${id} has an active edit (${active.id}): confirm or cancel it`);
        if (draft.items.length === 0) throw errors.invalidData(`Draft order ${id} has no items`);
        await q.setOrder(id, { status: "pending", updated_at: new Date() });
        await orders.recordChange(id, "draft_order_converted", actor, { status: "draft" }, { status: "pending" });
        return {
          order: await orders.retrieve(id),
          converted: { id, payment_status: draft.payment_status },
        };
      });
    },

    /** Undoes {@link convert}: the order is a draft again. */
    async undoConvert(converted: ConvertedDraft, actor: OrderActor): Promise<void> {
      await transaction(async () => {
        await orders.lock(converted.id);
        await q.setOrder(converted.id, { status: "draft", payment_status: converted.payment_status });
        await orders.recordChange(converted.id, "draft_order_conversion_reverted", actor, null, { status: "draft" });
      });
    },
  };
  return service;
}

export type DraftOrderService = ReturnType<typeof createDraftOrderService>;
