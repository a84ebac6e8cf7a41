import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  isNull,
  or,
  sql,
  type Placeholder,
  type SQL,
} from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import {
  isTransaction,
  queryRows,
  transaction,
  rangeConditions,
  type Db,
  type ListPaging,
  type Paging,
  listPage,
  likePattern,
  anyOf,
  inList,
  liveRecords,
  orderBy,
  builtOnce,
  builtRowsInsert,
  builtRowWrite,
  param,
  fromJson,
  jsonRelation,
  type JsonRelation,
  idList,
  inParam,
  groupByParent,
  toStoredAddress,
} from "@kasse/db";
import {
  order,
  orderChange,
  orderLineItem,
  orderShippingMethod,
  orderPromotion,
  orderReturn,
  orderReturnItem,
  type OrderActor,
  type OrderAddress,
  type OrderAddressInput,
  type OrderChangeRow,
  type OrderCreate,
  type OrderFilters,
  type OrderLineItemRow,
  type OrderPaymentStatus,
  type OrderReturnItemRow,
  type OrderReturnRow,
  type OrderRow,
  type OrderShippingMethodRow,
  type OrderUpdate,
} from "./schema";
import { deriveFulfillmentStatus } from "./fulfillment-status";
import type { OrderReturn } from "./returns";

/** An order with its lines and shipping methods. */
export type Order = OrderRow & { items: OrderLineItemRow[]; shipping_methods: OrderShippingMethodRow[] };

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
/** A stage of a line's progress. */
export type LineStage =
  | "fulfilled_quantity"
  | "shipped_quantity"
  | "delivered_quantity"
  | "return_requested_quantity"
  | "return_received_quantity"
  | "return_dismissed_quantity";
const STAGE_VERB: Record<LineStage, string> = {
  fulfilled_quantity: "fulfill",
  shipped_quantity: "ship",
  delivered_quantity: "deliver",
  return_requested_quantity: "return",
  return_received_quantity: "receive",
  return_dismissed_quantity: "dismiss",
};
const STAGE_DONE: Record<LineStage, string> = {
  fulfilled_quantity: "fulfilled",
  shipped_quantity: "shipped",
  delivered_quantity: "delivered",
  return_requested_quantity: "returned",
  return_received_quantity: "received",
  return_dismissed_quantity: "dismissed",
};

/** How far a line's stage may go: up to the stage before it, down to what later stages hold. */
function bounds(item: OrderLineItemRow, stage: LineStage): { floor: number; ceiling: number } {
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
 * left to move) or an archived one (archival closes the order for good).
 */
export function assertOpen(row: Pick<OrderRow, "id" | "status">, doing: string): void {
  if (row.status === "canceled" || row.status === "archived")
    throw errors.invalidData(`Order ${row.id} is ${row.status} and cannot be ${doing}`);
}
const live = isNull(order.deleted_at);
const SYSTEM: OrderActor = { actor_type: null, actor_id: null };

/**
 * Orders: created from a checkout snapshot, read with their lines in batches, updated by admins,
 * and every change appended to the `order_change` log.
 * @example
 * const orders = createOrderService(db);
 * const placed = await orders.create(snapshot, { actor_type: "customer", actor_id: "cus_1" });
 */
export function createOrderService(db: Db) {
  const orders = liveRecords(db, order, "Order", SORTABLE);
  /** The rows with their lines and shipping methods, in one statement. */
  async function attach(rows: OrderRow[]): Promise<Order[]> {
    if (rows.length === 0) return [];
    const lines = new Map((await linesOfOrders(db, { ids: idList(rows.map((r) => r.id)) })).map((l) => [l.id, l]));
    return rows.map((row) => withLines(row, lines.get(row.id)));
  }

  /** The rows of a {@link pageQuery} and how many orders match in all. */
  async function listRows(filters: OrderFilters, page: ListPaging, returns: boolean) {
    const where = conditions(filters);
    const rows: PageRow[] =
      where.length === 0 && !page.order?.trim()
        ? await (returns ? firstPagesWithReturns : firstPages)(db, { limit: page.limit, offset: page.offset })
        : await pageQuery(
            db,
            and(live, ...where),
            orderBy(page.order, ORDER_COLUMNS, order.id),
            page.limit,
            page.offset,
            returns,
          );
    if (rows.length > 0 || (page.offset === 0 && page.limit > 0)) return { rows, count: rows[0]?.total ?? 0 };
    // A page past the end (or `limit=0`, the count alone) has no row to carry the total.
    const [total] = await db
      .select({ count: count() })
      .from(order)
      .where(and(live, ...where));
    return { rows, count: total?.count ?? 0 };
  }

  const service = {
    /** Creates the order, its lines and shipping methods, and logs `order_placed`. */
    async create(input: OrderCreate, actor: OrderActor = SYSTEM): Promise<Order> {
      // Its inserts are sent together, which takes one connection: a transaction's (a checkout's step).
      if (!isTransaction(db)) return transaction(db, (t) => createOrderService(t).create(input, actor));
      const id = generateId("order");
      /** The order's lines or shipping methods in the order given (`rank`), with new ids; totals not given are 0. */
      const ranked = <
        T extends {
          tax_total?: number | null;
          discount_total?: number | null;
          metadata?: Record<string, unknown> | null;
        },
      >(
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
      const [[row], items, , shipping_methods] = await Promise.all([
        insertOrder(db, {
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
        insertLines(db, ranked(input.items, "ordli")),
        input.promotions?.length
          ? db
              .insert(orderPromotion)
              .values(input.promotions.map((p) => ({ ...p, order_id: id })))
              .execute()
          : undefined,
        input.shipping_methods?.length
          ? insertMethods(
              db,
              ranked(input.shipping_methods, "ordsm").map((method) => ({ ...method, data: method.data ?? {} })),
            )
          : [],
        service.recordChange(id, "order_placed", actor, null, { status, payment_status, total: input.totals.total }),
      ]);
      return { ...row!, items: byRank(items), shipping_methods: byRank(shipping_methods) };
    },

    async retrieve(id: string): Promise<Order> {
      const [found] = await fullOrderById(db, { id });
      if (!found) throw errors.notFound(`Order with id: ${id} was not found`);
      const { items, methods, ...row } = found;
      return withLines(row, { items, methods });
    },

    /** Retrieves and locks the order row for the rest of the transaction (state changes serialize on it). */
    lock: async (id: string): Promise<Order> => (await attach([await orders.lock(id)]))[0]!,

    /** A page of orders with their lines and shipping methods, and how many match in all: one statement. */
    async list(filters: OrderFilters, page: ListPaging): Promise<{ items: Order[]; count: number }> {
      const { rows, count } = await listRows(filters, page, false);
      return { items: rows.map((r) => withLines(r.row, r)), count };
    },

    /**
     * {@link list} with each order's returns and their items (what `orderReturn.listForOrders` reads),
     * still in one statement: the admin's order list.
     */
    async listWithReturns(
      filters: OrderFilters,
      page: ListPaging,
    ): Promise<{ items: Order[]; count: number; returns: Map<string, OrderReturn[]> }> {
      const { rows, count } = await listRows(filters, page, true);
      const returns = new Map(rows.map((r) => [r.row.id, returnsOf(r.returns)]));
      return { items: rows.map((r) => withLines(r.row, r)), count, returns };
    },

    /** Admin edit of email, addresses and metadata; the fields that changed are logged before/after. */
    async update(id: string, input: OrderUpdate, actor: OrderActor = SYSTEM): Promise<Order> {
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
      await db.update(order).set(next).where(eq(order.id, id));
      await service.recordChange(id, "order_updated", actor, pick(existing, changed), pick(next as OrderRow, changed));
      return service.retrieve(id);
    },

    /**
     * Cancels the order (Medusa's rule: refused once anything is fulfilled, or when already
     * canceled). Locks the order row, so a concurrent fulfillment or cancel waits and then sees it.
     * Returns the state before, which {@link restoreState} puts back.
     */
    async cancel(id: string, actor: OrderActor = SYSTEM): Promise<{ before: OrderState; order: Order }> {
      const existing = await service.lock(id);
      if (existing.status === "canceled") throw errors.invalidData(`Order ${id} is already canceled`);
      if (existing.status === "completed" || existing.status === "archived")
        throw errors.invalidData(`Order ${id} is ${existing.status} and cannot be canceled`);
      if (existing.items.some((i) => i.fulfilled_quantity > 0))
        throw errors.invalidData(`All fulfillments must be canceled before canceling order ${id}`);
      const before = stateOf(existing);
      const after = { status: "canceled" as const, fulfillment_status: "canceled" as const, canceled_at: new Date() };
      await db.update(order).set(after).where(eq(order.id, id));
      await service.recordChange(
        id,
        "order_canceled",
        actor,
        { status: before.status, fulfillment_status: before.fulfillment_status },
        { status: after.status, fulfillment_status: after.fulfillment_status },
      );
      return { before, order: await service.retrieve(id) };
    },

    /**
     * Completes the order (Medusa's complete-order: refused when canceled, or already completed
     * or archived). Returns the state before, for {@link restoreState}.
     */
    async complete(id: string, actor: OrderActor = SYSTEM): Promise<{ before: OrderState; order: Order }> {
      const existing = await service.lock(id);
      if (["canceled", "completed", "archived", "draft"].includes(existing.status))
        throw errors.invalidData(`Order ${id} is ${existing.status} and cannot be completed`);
      const before = stateOf(existing);
      await db.update(order).set({ status: "completed" }).where(eq(order.id, id));
      await service.recordChange(id, "order_completed", actor, { status: before.status }, { status: "completed" });
      return { before, order: await service.retrieve(id) };
    },

    /**
     * Archives the order (Medusa's archive-order: only a completed, canceled or draft order).
     * An archived order is read-only for every workflow; see {@link assertOpen}. Returns the state
     * before, for {@link restoreState}.
     */
    async archive(id: string, actor: OrderActor = SYSTEM): Promise<{ before: OrderState; order: Order }> {
      const existing = await service.lock(id);
      if (existing.status === "archived") throw errors.invalidData(`Order ${id} is already archived`);
      if (!ARCHIVABLE.includes(existing.status))
        throw errors.invalidData(
          `Order ${id} is ${existing.status}; only completed, canceled or draft orders can be archived`,
        );
      const before = stateOf(existing);
      await db.update(order).set({ status: "archived" }).where(eq(order.id, id));
      await service.recordChange(id, "order_archived", actor, { status: before.status }, { status: "archived" });
      return { before, order: await service.retrieve(id) };
    },

    /** Puts back a state saved by {@link cancel}, {@link complete} or {@link archive} (their compensation), logging the reversal. */
    async restoreState(id: string, state: OrderState, action: string): Promise<void> {
      const current = await service.lock(id);
      await db
        .update(order)
        .set({
          status: state.status,
          fulfillment_status: state.fulfillment_status,
          canceled_at: state.canceled_at ? new Date(state.canceled_at) : null,
        })
        .where(eq(order.id, id));
      await service.recordChange(
        id,
        action,
        SYSTEM,
        { status: current.status, fulfillment_status: current.fulfillment_status },
        { status: state.status, fulfillment_status: state.fulfillment_status },
      );
    },

    /**
     * Moves line quantities of one stage (fulfilled, shipped, delivered, return requested or
     * received) by `quantity` per line (negative to take back), keeping 0 ≤ delivered ≤ shipped ≤
     * fulfilled ≤ quantity and 0 ≤ received ≤ requested ≤ fulfilled, re-deriving
     * `fulfillment_status` and logging the change as `action`. A canceled or archived order takes
     * no move unless it is the `undo` of an earlier one (a compensation must always get through).
     */
    async moveLineQuantities(id: string, move: LineMove): Promise<Order> {
      const { stage, lines, action } = move;
      const existing = await service.lock(id);
      if (!move.undo) assertOpen(existing, lines.every((l) => l.quantity > 0) ? STAGE_DONE[stage] : "changed");
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
          throw errors.invalidData(`Cannot ${STAGE_VERB[stage]} more than ${ceiling - item[stage]} of item ${line.id}`);
        if (next < floor)
          throw errors.invalidData(`Item ${line.id} has only ${item[stage] - floor} units that can be taken back`);
      }
      for (const line of lines) {
        await db
          .update(orderLineItem)
          .set({ [stage]: sql`${orderLineItem[stage]} + ${line.quantity}` })
          .where(eq(orderLineItem.id, line.id));
      }
      const updated = await service.retrieve(id);
      const status =
        existing.status === "canceled" ? existing.fulfillment_status : deriveFulfillmentStatus(updated.items);
      if (status !== existing.fulfillment_status)
        await db.update(order).set({ fulfillment_status: status }).where(eq(order.id, id));
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
    },

    /** Stores a re-derived payment status (see `derivePaymentStatus`), logging it when it changed. */
    async setPaymentStatus(id: string, status: OrderPaymentStatus, actor: OrderActor = SYSTEM): Promise<void> {
      const current = await service.lock(id);
      if (current.payment_status === status) return;
      await db.update(order).set({ payment_status: status }).where(eq(order.id, id));
      await service.recordChange(
        id,
        "payment_status_changed",
        actor,
        { payment_status: current.payment_status },
        { payment_status: status },
      );
    },

    /** The order placed from a cart, if any (live). */
    async findByCart(cartId: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(order)
        .where(and(eq(order.cart_id, cartId), live))
        .limit(1);
      return row;
    },

    /** The order a payment collection pays for, if any. */
    async findByPaymentCollection(collectionId: string): Promise<OrderRow | undefined> {
      const [row] = await db
        .select()
        .from(order)
        .where(and(live, sql`${order.payment_collection_ids} @> ${JSON.stringify([collectionId])}::jsonb`))
        .limit(1);
      return row;
    },

    /** Hard delete: only the compensation of a creation uses it (the order never existed). */
    async delete(id: string): Promise<void> {
      await db.delete(order).where(eq(order.id, id));
    },

    /** Appends one entry to the order's change log. */
    async recordChange(
      orderId: string,
      action: string,
      actor: OrderActor,
      before: Record<string, unknown> | null,
      after: Record<string, unknown> | null,
    ): Promise<OrderChangeRow> {
      const [row] = await insertChange(db, {
        id: generateId("ordch"),
        order_id: orderId,
        action,
        actor_type: actor.actor_type,
        actor_id: actor.actor_id,
        before,
        after,
      });
      return row!;
    },

    /** The order's change log, oldest first. */
    async listChanges(
      orderId: string,
      page: Paging & { id?: string[] },
    ): Promise<{ items: OrderChangeRow[]; count: number }> {
      await service.retrieve(orderId);
      const where = and(
        eq(orderChange.order_id, orderId),
        page.id?.length ? inArray(orderChange.id, page.id) : undefined,
      );
      return listPage(db, orderChange, where, [asc(orderChange.created_at), asc(orderChange.id)], page);
    },

    /** Order summaries of several customers in one query, newest first, keyed by customer id. */
    async summariesByCustomer(customerIds: string[]): Promise<Map<string, OrderSummary[]>> {
      return groupByParent(
        customerIds,
        (ids) =>
          db
            .select({
              id: order.id,
              customer_id: order.customer_id,
              display_id: order.display_id,
              status: order.status,
              payment_status: order.payment_status,
              fulfillment_status: order.fulfillment_status,
              currency_code: order.currency_code,
              total: order.total,
              created_at: order.created_at,
            })
            .from(order)
            .where(and(live, inList(order.customer_id, ids)))
            .orderBy(desc(order.created_at), asc(order.id)),
        (r) => r.customer_id!,
        { value: ({ customer_id: _customer, ...summary }) => summary, everyParent: true },
      );
    },

    /** Carts with more than one live order (`kasse check`), with those orders' ids; at most `limit`. */
    async cartsWithSeveralOrders(limit = 50): Promise<Array<{ cart_id: string; order_ids: string[] }>> {
      return queryRows(
        db,
        sql`select cart_id, array_agg(id order by id) as order_ids from "order" where deleted_at is null and cart_id is not null group by cart_id having count(*) > 1 order by cart_id limit ${limit}`,
      );
    },

    /** Which of these carts have a live order. */
    async cartIdsWithOrders(cartIds: string[]): Promise<Set<string>> {
      if (!cartIds.length) return new Set();
      const rows = await db
        .selectDistinct({ cart_id: order.cart_id })
        .from(order)
        .where(and(live, inList(order.cart_id, cartIds)));
      return new Set(rows.map((r) => r.cart_id!));
    },

    /**
     * Which of these line item ids name a line of a live, not canceled order, by its own id or by
     * the cart line it was placed from (checkout reserves for the cart line).
     */
    async liveOrderLineIds(ids: string[]): Promise<Set<string>> {
      if (!ids.length) return new Set();
      const rows = await queryRows<{ id: string; cart_line_item_id: string | null }>(
        db,
        sql`select l.id, l.cart_line_item_id
            from order_line_item l join "order" o on o.id = l.order_id
            where l.deleted_at is null and o.deleted_at is null and o.canceled_at is null and o.status <> 'canceled'
              and (l.id in ${ids} or l.cart_line_item_id in ${ids})`,
      );
      const wanted = new Set(ids);
      return new Set(
        rows.flatMap((r) => [r.id, r.cart_line_item_id].filter((id): id is string => id !== null && wanted.has(id))),
      );
    },

    /**
     * How many live orders used any of `promotionIds` at checkout, and what those promotions gave
     * them in all: what a campaign's usage (orders) or spend (amount) budget should show.
     */
    async promotionUse(promotionIds: string[]): Promise<{ orders: number; amount: number }> {
      if (!promotionIds.length) return { orders: 0, amount: 0 };
      const [row] = await queryRows<{ orders: number; amount: number }>(
        db,
        sql`select count(distinct p.order_id)::int as orders, coalesce(sum(p.amount), 0)::bigint as amount
            from order_promotion p join "order" o on o.id = p.order_id
            where o.deleted_at is null and p.promotion_id in ${promotionIds}`,
      );
      return { orders: row!.orders, amount: Number(row!.amount) };
    },

    /**
     * The promotions each of `orderIds` used at checkout and what each gave it (minor units of the
     * order's currency), by order id, in promotion id order: one query for all the orders.
     */
    async promotionsOf(orderIds: string[]): Promise<Map<string, Array<{ promotion_id: string; amount: number }>>> {
      return groupByParent(
        orderIds,
        (ids) =>
          db
            .select()
            .from(orderPromotion)
            .where(inList(orderPromotion.order_id, ids))
            .orderBy(asc(orderPromotion.order_id), asc(orderPromotion.promotion_id)),
        (r) => r.order_id,
        { value: ({ order_id: _order, ...promotion }) => promotion },
      );
    },

    /**
     * One page (by id) of the lines of live, not canceled orders still owing units (ordered more
     * than fulfilled): what their reservations should hold. `cart_line_item_id` is what checkout reserved under.
     */
    async unfulfilledLinesPage(
      afterId: string,
      limit: number,
    ): Promise<Array<{ id: string; cart_line_item_id: string | null; variant_id: string; outstanding: number }>> {
      return queryRows(
        db,
        sql`select l.id, l.cart_line_item_id, l.variant_id, (l.quantity - l.fulfilled_quantity)::int as outstanding
            from order_line_item l join "order" o on o.id = l.order_id
            where l.deleted_at is null and o.deleted_at is null and o.canceled_at is null and o.status <> 'canceled'
              and l.variant_id is not null and l.quantity > l.fulfilled_quantity and l.id > ${afterId}
            order by l.id limit ${limit}`,
      );
    },

    /** One page (by id) of live orders with their total and payment collections: what their payments may hold (`kasse check`). */
    async paymentTotalsPage(
      afterId: string,
      limit: number,
    ): Promise<Array<{ id: string; total: number; payment_collection_ids: string[] }>> {
      const rows = await queryRows<{ id: string; total: string | number; payment_collection_ids: string[] }>(
        db,
        sql`select id, total, payment_collection_ids from "order"
            where deleted_at is null and id > ${afterId} order by id limit ${limit}`,
      );
      return rows.map((r) => ({ ...r, total: Number(r.total) }));
    },
  };
  return service;
}

export type OrderService = ReturnType<typeof createOrderService>;

function toAddress(input: OrderAddressInput | null | undefined): OrderAddress | null {
  return input ? toStoredAddress("ordaddr", input) : null;
}

function pick(row: OrderRow, keys: Array<keyof OrderRow>): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, row[key] ?? null]));
}

// An order placed and an entry of its change log, built once per shape of their row.
const insertOrder = builtRowWrite<OrderRow[]>(order, (db, row) => db.insert(order).values(row).returning());
const insertChange = builtRowWrite<OrderChangeRow[]>(orderChange, (db, row) =>
  db.insert(orderChange).values(row).returning(),
);
// Its lines and shipping methods, however many: one statement each, built once.
const insertLines = builtRowsInsert<OrderLineItemRow[]>(orderLineItem, { returning: true });
const insertMethods = builtRowsInsert<OrderShippingMethodRow[]>(orderShippingMethod, { returning: true });

// Each order's lines and shipping methods, as JSON in one statement for a page of orders.
const itemsRelation: JsonRelation = {
  table: orderLineItem,
  where: eq(orderLineItem.order_id, order.id),
  orderBy: sql`${orderLineItem.rank}, ${orderLineItem.id}`,
};
const methodsRelation: JsonRelation = {
  table: orderShippingMethod,
  where: eq(orderShippingMethod.order_id, order.id),
  orderBy: sql`${orderShippingMethod.rank}, ${orderShippingMethod.id}`,
};
const linesOfOrders = builtOnce<Array<{ id: string; items: unknown; methods: unknown }>, { ids: string }>((db) =>
  db
    .select({ id: order.id, items: jsonRelation(itemsRelation), methods: jsonRelation(methodsRelation) })
    .from(order)
    .where(inParam(order.id, "ids")),
);

// An order's answer (checkout's, the order page's): the row with its lines and methods, one statement.
const fullOrderById = builtOnce<Array<OrderRow & { items: unknown; methods: unknown }>, { id: string }>((db) =>
  db
    .select({ ...getTableColumns(order), items: jsonRelation(itemsRelation), methods: jsonRelation(methodsRelation) })
    .from(order)
    .where(and(eq(order.id, param("id")), live)),
);

/**
 * The order with the lines and shipping methods read as JSON beside it. They go before the row's
 * columns: V8 copies a wide row quickly into a literal that adds no key after the spread.
 */
const withLines = (row: OrderRow, lines: { items: unknown; methods: unknown } | undefined): Order => ({
  items: fromJson<OrderLineItemRow>(itemsRelation, lines?.items),
  shipping_methods: fromJson<OrderShippingMethodRow>(methodsRelation, lines?.methods),
  ...row,
});

/** Columns a list may be ordered by (`order=-total`), besides `created_at` and `updated_at`. */
const SORTABLE = { display_id: order.display_id, total: order.total, email: order.email, status: order.status };
const ORDER_COLUMNS = { created_at: order.created_at, updated_at: order.updated_at, ...SORTABLE };

// Each order's returns with their items, in the order `orderReturn.listForOrders` reads them.
const returnsRelation: JsonRelation = {
  table: orderReturn,
  where: eq(orderReturn.order_id, order.id),
  orderBy: sql`${orderReturn.created_at}, ${orderReturn.id}`,
  with: {
    items: {
      table: orderReturnItem,
      where: eq(orderReturnItem.return_id, orderReturn.id),
      orderBy: sql`${orderReturnItem.id}`,
    },
  },
};

/** The returns a {@link returnsRelation} read, as `orderReturn` gives them (each item's line as `item_id`). */
const returnsOf = (json: unknown): OrderReturn[] =>
  fromJson<OrderReturnRow & { items: OrderReturnItemRow[] }>(returnsRelation, json).map((r) => ({
    ...r,
    items: r.items.map((i) => ({ ...i, item_id: i.line_item_id })),
  }));

/** A row of {@link pageQuery}: the order, the count of every match, its relations as JSON. */
interface PageRow {
  row: OrderRow;
  total: number;
  items: unknown;
  methods: unknown;
  returns?: unknown;
}

/**
 * A page of orders, each with its lines and shipping methods (and with `returns`, its returns) as
 * JSON, and the count of every match, in one statement. PostgreSQL computes the JSON after the
 * sort and limit, for the page's rows only. The count is a subquery run once, not
 * `count(*) over ()`: a window over every match keeps each whole row until the last one is read,
 * so the default page sorted all the orders (2.6 ms for 1,141 orders) instead of reading its 15
 * from `order_live_created_at_idx` (0.5 ms with an index-only count).
 */
const pageQuery = (
  db: Db,
  where: SQL | undefined,
  terms: SQL[],
  limit: number | Placeholder,
  offset: number | Placeholder,
  returns: boolean,
) =>
  db
    .select({
      row: order,
      total: sql<number>`(select count(*) from ${order} where ${where ?? sql`true`})`.mapWith(Number),
      items: jsonRelation(itemsRelation),
      methods: jsonRelation(methodsRelation),
      ...(returns ? { returns: jsonRelation(returnsRelation) } : {}),
    })
    .from(order)
    .where(where)
    .orderBy(...terms)
    .limit(limit)
    .offset(offset);

/** {@link pageQuery} unfiltered, in the default order (the admin's order list as it opens): built once. */
const firstPagesOf = (returns: boolean) =>
  builtOnce<PageRow[], { limit: number; offset: number }>((db) =>
    pageQuery(
      db,
      live,
      orderBy(undefined, ORDER_COLUMNS, order.id),
      sql.placeholder("limit"),
      sql.placeholder("offset"),
      returns,
    ),
  );
const firstPages = firstPagesOf(false);
const firstPagesWithReturns = firstPagesOf(true);

/** Rows in the order {@link attach} reads them: by rank, then id. */
const byRank = <T extends { rank: number; id: string }>(rows: T[]): T[] =>
  [...rows].sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

function conditions(filters: OrderFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id?.length) out.push(inList(order.id, filters.id));
  if (filters.status?.length) out.push(inArray(order.status, filters.status as OrderRow["status"][]));
  if (filters.payment_status?.length)
    out.push(inArray(order.payment_status, filters.payment_status as OrderRow["payment_status"][]));
  if (filters.fulfillment_status?.length)
    out.push(inArray(order.fulfillment_status, filters.fulfillment_status as OrderRow["fulfillment_status"][]));
  out.push(
    ...anyOf(filters, {
      sales_channel_id: order.sales_channel_id,
      customer_id: order.customer_id,
      email: order.email,
      region_id: order.region_id,
    }),
  );
  out.push(
    ...rangeConditions(order.created_at, filters.created_at),
    ...rangeConditions(order.updated_at, filters.updated_at),
  );
  if (filters.q) {
    const q = filters.q.trim();
    const matches: SQL[] = [ilike(order.email, likePattern(q))];
    // `q=1042` or `q=#1042` finds the order by its display id, as the admin's search does.
    const display = /^#?(\d{1,9})$/.exec(q);
    if (display) matches.push(eq(order.display_id, Number(display[1])));
    out.push(or(...matches)!);
  }
  return out;
}
