import { errors, generateId } from "@kasse/core";
import { groupBy, toStoredAddress, transaction, type ListPaging, type Paging } from "@kasse/db";
import type { OrderPaymentStatus, OrderChangeRow, OrderLineItemRow, OrderRow } from "./schema";
import type { OrderActor, OrderAddress, OrderAddressInput, OrderCreate, OrderFilters, OrderUpdate } from "./shapes";
import { orderQueries as q, type LineStage, type Order } from "./queries";
import { deriveFulfillmentStatus } from "./fulfillment-status";

export type { LineStage, Order };

/** The `orders` summary a customer view carries (docs/CONTRACT.md: id, display_id, status, total, created_at). */
export type OrderSummary = Pick<
  OrderRow,
  "id" | "display_id" | "status" | "payment_status" | "fulfillment_status" | "currency_code" | "total" | "created_at"
>;

/** The status fields a cancellation changes, as JSON (journaled as a compensation input). */
export interface OrderState {
  status: OrderRow["status"];
  fulfillment_status: OrderRow["fulfillment_status"];
  canceled_at: string | null;
}

const stateOf = (row: OrderRow): OrderState => ({
  status: row.status,
  fulfillment_status: row.fulfillment_status,
  canceled_at: row.canceled_at?.toISOString() ?? null,
});
/** What moving a stage up is called, and what its units then are. */
const STAGE_WORDS: Record<LineStage, [verb: string, done: string]> = {
  fulfilled_quantity: ["fulfill", "fulfilled"],
  shipped_quantity: ["ship", "shipped"],
  delivered_quantity: ["deliver", "delivered"],
  return_requested_quantity: ["return", "returned"],
  return_received_quantity: ["receive", "received"],
  return_dismissed_quantity: ["dismiss", "dismissed"],
};

/** How far a line's stage may go: up to the stage before it, down to what later stages hold. */
function bounds(item: Order["items"][number], stage: LineStage): { floor: number; ceiling: number } {
  switch (stage) {
    case "fulfilled_quantity":
      return { ceiling: item.quantity, floor: Math.max(item.shipped_quantity, item.return_requested_quantity) };
    case "shipped_quantity":
      return { ceiling: item.fulfilled_quantity, floor: item.delivered_quantity };
    case "delivered_quantity":
      return { ceiling: item.shipped_quantity, floor: 0 };
    case "return_requested_quantity":
      return { ceiling: item.fulfilled_quantity, floor: item.return_received_quantity };
    case "return_received_quantity":
      return { ceiling: item.return_requested_quantity, floor: item.return_dismissed_quantity };
    case "return_dismissed_quantity":
      return { ceiling: item.return_received_quantity, floor: 0 };
  }
}
/** One move of {@link createOrderService}'s `moveLineQuantities`. */
export interface LineMove {
  stage: LineStage;
  lines: Array<{ id: string; quantity: number }>;
  /** What the change log calls it (`fulfillment_created`, `return_received`, ...). */
  action: string;
  actor?: OrderActor | null;
  /** Takes back an earlier move (a compensation): allowed whatever the order's status. */
  undo?: boolean;
}

const ARCHIVABLE: ReadonlyArray<OrderRow["status"]> = ["completed", "canceled", "draft"];

/**
 * Refuses a new fulfillment, shipment, return or payment movement on a canceled order (nothing is
 * left to move), an archived one (archival closes the order for good) or a draft (nothing is placed
 * yet: it is edited and converted through the draft-order routes).
 */
export function assertOpen(row: Pick<OrderRow, "id" | "status">, doing: string): void {
  if (row.status === "canceled" || row.status === "archived" || row.status === "draft")
    throw errors.invalidData(`Order ${row.id} is ${row.status} and cannot be ${doing}`);
}
/**
 * Whether the store shows order `row` to the shopper `customerId` (null: signed out): a placed
 * guest order to whoever holds its id, a customer's order only to that customer; a draft to no one.
 */
export function visibleToShopper(row: Pick<OrderRow, "status" | "customer_id">, customerId: string | null): boolean {
  return row.status !== "draft" && (row.customer_id === null || row.customer_id === customerId);
}
const SYSTEM: OrderActor = { actor_type: null, actor_id: null };

/**
 * Orders: created from a checkout snapshot, read with their lines in batches, updated by admins,
 * and every change appended to the `order_change` log.
 * @example
 * const orders = createOrderService();
 * const placed = await orders.create(snapshot, { actor_type: "customer", actor_id: "cus_1" });
 */
export function createOrderService() {
  /**
   * Locks order `id` and sets what `next` answers for it (or refuses), logging `action` with the
   * status fields it changed; answers the state before, which {@link restoreState} puts back.
   */
  const transition = (
    id: string,
    actor: OrderActor,
    action: string,
    next: (existing: Order) => Pick<OrderRow, "status"> & Partial<Pick<OrderRow, "fulfillment_status" | "canceled_at">>,
  ) =>
    transaction(async () => {
      const existing = await service.lock(id);
      const after = next(existing);
      const logged: Array<keyof OrderRow> = after.fulfillment_status ? ["status", "fulfillment_status"] : ["status"];
      await q.setOrder(id, after);
      await service.recordChange(id, action, actor, pick(existing, logged), pick(after, logged));
      return { before: stateOf(existing), order: await service.retrieve(id) };
    });

  const service = {
    /** Creates the order, its lines and shipping methods, and logs `order_placed`. */
    async create(input: OrderCreate, actor: OrderActor = SYSTEM): Promise<Order> {
      // Its inserts are sent together, which takes one connection: a transaction's (a checkout's step).
      return transaction(async () => {
        const id = generateId("order");
        /** The order's lines or shipping methods in the order given (`rank`), with new ids; totals not given are 0. */
        const ranked = <T extends Partial<Pick<OrderLineItemRow, "tax_total" | "discount_total" | "metadata">>>(
          rows: T[],
          prefix: string,
        ) =>
          rows.map((row, rank) => ({
            ...row,
            rank,
            id: generateId(prefix),
            order_id: id,
            tax_total: row.tax_total ?? 0,
            discount_total: row.discount_total ?? 0,
            metadata: row.metadata ?? null,
          }));
        const status = input.status ?? "pending";
        const payment_status = input.payment_status ?? (input.payment_collection_ids?.length ? "awaiting" : "not_paid");
        // Each insert answers its rows (database defaults included: display_id, timestamps), so the
        // order is not read back: the same rows a retrieve reads, lines and methods in rank order.
        // Sent at once (one write, one round trip): PostgreSQL runs them in order, the order first.
        const [row, items, , shipping_methods] = await Promise.all([
          q.insertOrder({
            id,
            status,
            payment_status,
            cart_id: input.cart_id ?? null,
            customer_id: input.customer_id ?? null,
            email: input.email ?? null,
            currency_code: input.currency_code.toLowerCase(),
            region_id: input.region_id ?? null,
            sales_channel_id: input.sales_channel_id ?? null,
            locale: input.locale ?? null,
            shipping_address: toAddress(input.shipping_address),
            billing_address: toAddress(input.billing_address),
            payment_collection_ids: input.payment_collection_ids ?? [],
            ...input.totals,
            metadata: input.metadata ?? null,
          }),
          q.insertLines(ranked(input.items, "ordli")),
          input.promotions?.length
            ? q.insertPromotions(input.promotions.map((p) => ({ ...p, order_id: id })))
            : undefined,
          input.shipping_methods?.length
            ? q.insertMethods(
                ranked(input.shipping_methods, "ordsm").map((method) => ({ ...method, data: method.data ?? {} })),
              )
            : [],
          service.recordChange(id, "order_placed", actor, null, { status, payment_status, total: input.totals.total }),
        ]);
        return { ...row!, items: byRank(items), shipping_methods: byRank(shipping_methods) };
      });
    },

    async retrieve(id: string): Promise<Order> {
      const found = await q.byId(id);
      if (!found) throw errors.notFound(`Order with id: ${id} was not found`);
      return found;
    },

    /** Retrieves and locks the order row for the rest of the transaction (state changes serialize on it). */
    lock: q.lock,

    /** A page of orders with their lines and shipping methods, and how many match in all: one statement. */
    list: (filters: OrderFilters, page: ListPaging): Promise<{ items: Order[]; count: number }> =>
      q.page(filters, page, false),

    /**
     * {@link list} with each order's returns and their items (what `orderReturn.listForOrders` reads),
     * still in one statement: the admin's order list.
     */
    listWithReturns: (filters: OrderFilters, page: ListPaging) => q.page(filters, page, true),

    /** Admin edit of email, addresses and metadata; the fields that changed are logged before/after. */
    async update(id: string, input: OrderUpdate, actor: OrderActor = SYSTEM): Promise<Order> {
      return transaction(async () => {
        const existing = await service.lock(id);
        const next: Partial<OrderRow> = {};
        if (input.email !== undefined) next.email = input.email;
        if (input.metadata !== undefined) next.metadata = input.metadata;
        // An address edit keeps the fields not sent (Medusa updates the order's address in place).
        if (input.shipping_address)
          next.shipping_address = toStoredAddress("ordaddr", input.shipping_address, existing.shipping_address);
        if (input.billing_address)
          next.billing_address = toStoredAddress("ordaddr", input.billing_address, existing.billing_address);
        const changed = (Object.keys(next) as Array<keyof OrderRow>).filter(
          (key) => JSON.stringify(existing[key]) !== JSON.stringify(next[key]),
        );
        if (changed.length === 0) return existing;
        await q.setOrder(id, next);
        await service.recordChange(id, "order_updated", actor, pick(existing, changed), pick(next, changed));
        return service.retrieve(id);
      });
    },

    /**
     * Cancels the order (Medusa's rule: refused once anything is fulfilled, or when already
     * canceled). Locks the order row, so a concurrent fulfillment or cancel waits and then sees it.
     * Returns the state before, which {@link restoreState} puts back.
     */
    cancel: (id: string, actor: OrderActor = SYSTEM): Promise<{ before: OrderState; order: Order }> =>
      transition(id, actor, "order_canceled", (existing) => {
        if (existing.status === "canceled") throw errors.invalidData(`Order ${id} is already canceled`);
        // A draft is deleted, not canceled (it holds nothing to give back).
        if (existing.status === "completed" || existing.status === "archived" || existing.status === "draft")
          throw errors.invalidData(`Order ${id} is ${existing.status} and cannot be canceled`);
        if (existing.items.some((i) => i.fulfilled_quantity > 0))
          throw errors.invalidData(`All fulfillments must be canceled before canceling order ${id}`);
        return { status: "canceled", fulfillment_status: "canceled", canceled_at: new Date() };
      }),

    /**
     * Completes the order (Medusa's complete-order: refused when canceled, or already completed
     * or archived). Returns the state before, for {@link restoreState}.
     */
    complete: (id: string, actor: OrderActor = SYSTEM): Promise<{ before: OrderState; order: Order }> =>
      transition(id, actor, "order_completed", (existing) => {
        if (["canceled", "completed", "archived", "draft"].includes(existing.status))
          throw errors.invalidData(`Order ${id} is ${existing.status} and cannot be completed`);
        return { status: "completed" };
      }),

    /**
     * Archives the order (Medusa's archive-order: only a completed, canceled or draft order).
     * An archived order is read-only for every workflow; see {@link assertOpen}. Returns the state
     * before, for {@link restoreState}.
     */
    archive: (id: string, actor: OrderActor = SYSTEM): Promise<{ before: OrderState; order: Order }> =>
      transition(id, actor, "order_archived", (existing) => {
        if (existing.status === "archived") throw errors.invalidData(`Order ${id} is already archived`);
        if (!ARCHIVABLE.includes(existing.status))
          throw errors.invalidData(
            `Order ${id} is ${existing.status}; only completed, canceled or draft orders can be archived`,
          );
        return { status: "archived" };
      }),

    /** Puts back a state saved by {@link cancel}, {@link complete} or {@link archive} (their compensation), logging the reversal. */
    async restoreState(id: string, state: OrderState, action: string): Promise<void> {
      await transaction(async () => {
        const current = await service.lock(id);
        await q.setOrder(id, {
          status: state.status,
          fulfillment_status: state.fulfillment_status,
          canceled_at: state.canceled_at ? new Date(state.canceled_at) : null,
        });
        await service.recordChange(
          id,
          action,
          SYSTEM,
          { status: current.status, fulfillment_status: current.fulfillment_status },
          { status: state.status, fulfillment_status: state.fulfillment_status },
        );
      });
    },

    /**
     * Moves line quantities of one stage (fulfilled, shipped, delivered, return requested or
     * received) by `quantity` per line (negative to take back), keeping 0 ≤ delivered ≤ shipped ≤
     * fulfilled ≤ quantity and 0 ≤ received ≤ requested ≤ fulfilled, re-deriving
     * `fulfillment_status` and logging the change as `action`. A canceled or archived order takes
     * no move unless it is the `undo` of an earlier one (a compensation must always get through).
     */
    async moveLineQuantities(id: string, move: LineMove): Promise<Order> {
      return transaction(async () => {
        const { stage, lines, action } = move;
        const existing = await service.lock(id);
        if (!move.undo) assertOpen(existing, lines.every((l) => l.quantity > 0) ? STAGE_WORDS[stage][1] : "changed");
        if (lines.length === 0) throw errors.invalidData("At least one item is required");
        const byId = new Map(existing.items.map((i) => [i.id, i]));
        const seen = new Set<string>();
        for (const line of lines) {
          const item = byId.get(line.id);
          if (!item) throw errors.invalidData(`Item ${line.id} is not on order ${id}`);
          if (seen.has(line.id)) throw errors.invalidData(`Item ${line.id} is listed twice`);
          seen.add(line.id);
          if (!Number.isSafeInteger(line.quantity) || line.quantity === 0)
            throw errors.invalidData(`Quantity of item ${line.id} must be a non-zero integer`);
          const next = item[stage] + line.quantity;
          const { ceiling, floor } = bounds(item, stage);
          if (next > ceiling)
            throw errors.invalidData(
              `Cannot ${STAGE_WORDS[stage][0]} more than ${ceiling - item[stage]} of item ${line.id}`,
            );
          if (next < floor)
            throw errors.invalidData(`Item ${line.id} has only ${item[stage] - floor} units that can be taken back`);
        }
        for (const line of lines) await q.addToLineStage(line.id, stage, line.quantity);
        const updated = await service.retrieve(id);
        const status =
          existing.status === "canceled" ? existing.fulfillment_status : deriveFulfillmentStatus(updated.items);
        if (status !== existing.fulfillment_status) await q.setOrder(id, { fulfillment_status: status });
        await service.recordChange(
          id,
          action,
          move.actor ?? SYSTEM,
          {
            fulfillment_status: existing.fulfillment_status,
            [stage]: lines.map((l) => ({ id: l.id, quantity: byId.get(l.id)![stage] })),
          },
          {
            fulfillment_status: status,
            [stage]: lines.map((l) => ({ id: l.id, quantity: byId.get(l.id)![stage] + l.quantity })),
          },
        );
        return service.retrieve(id);
      });
    },

    /** Stores a re-derived payment status (see `derivePaymentStatus`), logging it when it changed. */
    async setPaymentStatus(id: string, status: OrderPaymentStatus, actor: OrderActor = SYSTEM): Promise<void> {
      await transaction(async () => {
        const current = await service.lock(id);
        if (current.payment_status === status) return;
        await q.setOrder(id, { payment_status: status });
        await service.recordChange(
          id,
          "payment_status_changed",
          actor,
          { payment_status: current.payment_status },
          { payment_status: status },
        );
      });
    },

    /** Adds a payment collection to the ones paying for the order (an edit's difference to pay). */
    async attachPaymentCollection(id: string, collectionId: string, expected?: string[]): Promise<void> {
      await transaction(async () => {
        const current = await service.lock(id);
        if (current.payment_collection_ids.includes(collectionId)) return;
        // A collection asked for what the order's collections `expected` left owing: another one
        // attached meanwhile may already ask for it.
        if (expected && current.payment_collection_ids.join() !== expected.join())
          throw errors.conflict(`Order ${id}'s payment collections changed meanwhile: ask again`);
        await q.setOrder(id, { payment_collection_ids: [...current.payment_collection_ids, collectionId] });
      });
    },

    /** Takes a payment collection off the order (undoes {@link attachPaymentCollection}). */
    async detachPaymentCollection(id: string, collectionId: string): Promise<void> {
      await transaction(async () => {
        const current = await service.lock(id);
        await q.setOrder(id, {
          payment_collection_ids: current.payment_collection_ids.filter((c) => c !== collectionId),
        });
      });
    },

    /** The order placed from a cart, if any (live). */
    findByCart: (cartId: string): Promise<OrderRow | undefined> => q.byCart({ cart_id: cartId }),

    /** The order a payment collection pays for, if any. */
    findByPaymentCollection: (collectionId: string): Promise<OrderRow | undefined> =>
      q.byPaymentCollection({ ids: JSON.stringify([collectionId]) }),

    /** Hard delete: only the compensation of a creation uses it (the order never existed). */
    async delete(id: string): Promise<void> {
      await q.delete({ id });
    },

    /** Appends one entry to the order's change log. */
    async recordChange(
      orderId: string,
      action: string,
      actor: OrderActor,
      before: Record<string, unknown> | null,
      after: Record<string, unknown> | null,
    ): Promise<void> {
      await q.insertChange({
        id: generateId("ordch"),
        order_id: orderId,
        action,
        actor_type: actor.actor_type,
        actor_id: actor.actor_id,
        before,
        after,
      });
    },

    /** The order's change log, oldest first. */
    async listChanges(
      orderId: string,
      page: Paging & { id?: string[] },
    ): Promise<{ items: OrderChangeRow[]; count: number }> {
      await service.retrieve(orderId);
      return q.changes(orderId, page);
    },

    /** Order summaries of several customers in one query, newest first, keyed by customer id. */
    async summariesByCustomer(customerIds: string[]): Promise<Map<string, OrderSummary[]>> {
      const rows = customerIds.length ? await q.summariesOf({ ids: customerIds }) : [];
      return groupBy(rows, (r) => r.customer_id!, {
        value: ({ customer_id: _customer, ...summary }) => summary,
        keys: customerIds,
      });
    },

    /** Carts with more than one live order (`kasse check`), with those orders' ids; at most `limit`. */
    cartsWithSeveralOrders: (limit = 50): Promise<Array<{ cart_id: string; order_ids: string[] }>> =>
      q.cartsWithSeveralOrders({ limit }),

    /** Which of these carts have a live order. */
    async cartIdsWithOrders(cartIds: string[]): Promise<Set<string>> {
      if (!cartIds.length) return new Set();
      return new Set((await q.cartsWithOrders({ ids: cartIds })).map((r) => r.cart_id));
    },

    /**
     * Which of these line item ids name a line of a live, not canceled order, by its own id or by
     * the cart line it was placed from (checkout reserves for the cart line).
     */
    async liveOrderLineIds(ids: string[]): Promise<Set<string>> {
      if (!ids.length) return new Set();
      const rows = await q.liveLines({ ids });
      const wanted = new Set(ids);
      return new Set(
        rows.flatMap((r) => [r.id, r.cart_line_item_id].filter((id): id is string => id !== null && wanted.has(id))),
      );
    },

    /**
     * The id each of these order lines' reservations carry, where it is not the line's own: the
     * cart line it was placed from (checkout reserves before the order exists). By order line id.
     */
    async reservationKeys(lineIds: string[]): Promise<Map<string, string>> {
      if (!lineIds.length) return new Map();
      const wanted = new Set(lineIds);
      const rows = await q.liveLines({ ids: lineIds });
      return new Map(
        rows.flatMap((r) => (wanted.has(r.id) && r.cart_line_item_id ? [[r.id, r.cart_line_item_id] as const] : [])),
      );
    },

    /**
     * How many live orders (drafts left out: their codes use no budget until converted) used any of
     * `promotionIds` at checkout or conversion, and what those promotions gave
     * them in all: what a campaign's usage (orders) or spend (amount) budget should show.
     */
    async promotionUse(promotionIds: string[]): Promise<{ orders: number; amount: number }> {
      if (!promotionIds.length) return { orders: 0, amount: 0 };
      const row = await q.promotionUse({ ids: promotionIds });
      return { orders: Number(row?.orders ?? 0), amount: Number(row?.amount ?? 0) };
    },

    /**
     * The promotions each of `orderIds` used at checkout and what each gave it (minor units of the
     * order's currency), by order id, in promotion id order: one query for all the orders.
     */
    async promotionsOf(orderIds: string[]): Promise<Map<string, Array<{ promotion_id: string; amount: number }>>> {
      const rows = orderIds.length ? await q.promotionsOf(orderIds) : [];
      return groupBy(rows, (r) => r.order_id, { value: ({ order_id: _order, ...promotion }) => promotion });
    },

    /**
     * One page (by id) of the lines of live, not canceled orders still owing units (ordered more
     * than fulfilled): what their reservations should hold. `cart_line_item_id` is what checkout reserved under.
     */
    unfulfilledLinesPage: (
      afterId: string,
      limit: number,
    ): Promise<Array<{ id: string; cart_line_item_id: string | null; variant_id: string; outstanding: number }>> =>
      q.unfulfilledLines({ after: afterId, limit }),

    /**
     * One page (by id) of live orders with their highest total over their versions (an edit that
     * lowered it leaves the difference to refund) and payment collections: what their payments may
     * hold (`kasse check`).
     */
    paymentTotalsPage: (afterId: string, limit: number) => q.paymentTotals({ after: afterId, limit }),
  };
  return service;
}

export type OrderService = ReturnType<typeof createOrderService>;

function toAddress(input: OrderAddressInput | null | undefined): OrderAddress | null {
  return input ? toStoredAddress("ordaddr", input) : null;
}

/** The `keys` of `row`, each null when it has none: what the change log records before and after. */
export function pick(row: Partial<OrderRow>, keys: Array<keyof OrderRow>): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, row[key] ?? null]));
}

/** Rows in the order a read gives them: by rank, then id. */
const byRank = <T extends { rank: number; id: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
