import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  getTableColumns,
  gt,
  ilike,
  isNotNull,
  isNull,
  ne,
  or,
  sql,
  type Placeholder,
  type SQL,
} from "drizzle-orm";
import {
  db,
  fromJson,
  groupBy,
  inList,
  insertRows,
  jsonRelation,
  likePattern,
  listPage,
  liveRecords,
  orderBy,
  rangeConditions,
  statement,
  textSearch,
  type JsonRelation,
  type ListPaging,
  type Paging,
  type Placeholders,
} from "@kasse/db";
import {
  order,
  orderChange,
  orderLineItem,
  orderPromotion,
  orderReturn,
  orderReturnChange,
  orderReturnItem,
  orderShippingMethod,
  orderTransferRequest,
  orderVersion,
  orderVersionChange,
  returnReason,
  type OrderChangeStatus,
  type OrderChangeType,
  type ReturnStatus,
  type OrderChangeRow,
  type OrderVersionChangeRow,
  type OrderLineItemRow,
  type OrderReturnChangeRow,
  type OrderReturnItemRow,
  type OrderReturnRow,
  type OrderRow,
  type OrderShippingMethodRow,
  type OrderTransferRequestRow,
  type ReturnReasonRow,
} from "./schema";
import type { OrderFilters, OrderReturn } from "./shapes";

// The order module's SQL (orders, their lines, change log, returns, return changes, transfers and
// return reasons): the only file of the module that imports drizzle and its tables.

/** An order with its lines and shipping methods. */
export type Order = OrderRow & { items: OrderLineItemRow[]; shipping_methods: OrderShippingMethodRow[] };

/** A stage of a line's progress (a quantity column of `order_line_item`). */
export type LineStage =
  | "fulfilled_quantity"
  | "shipped_quantity"
  | "delivered_quantity"
  | "return_requested_quantity"
  | "return_received_quantity"
  | "return_dismissed_quantity";

const live = isNull(order.deleted_at);
/** Columns a list may be ordered by (`order=-total`), besides `created_at` and `updated_at`. */
const SORTABLE = { display_id: order.display_id, total: order.total, email: order.email, status: order.status };
const ORDER_COLUMNS = { created_at: order.created_at, updated_at: order.updated_at, ...SORTABLE };
const orders = liveRecords(order, "Order", SORTABLE);
const reasons = liveRecords(returnReason, "Return reason", { value: returnReason.value, label: returnReason.label });
const returnChanges = liveRecords(orderReturnChange, "Return change");
const versionChanges = liveRecords(orderVersionChange, "Order change");

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

/**
 * The order with the lines and shipping methods read as JSON beside it. They go before the row's
 * columns: V8 copies a wide row quickly into a literal that adds no key after the spread.
 */
const withLines = (row: OrderRow, lines: { items: unknown; methods: unknown } | undefined): Order => ({
  items: fromJson<OrderLineItemRow>(itemsRelation, lines?.items),
  shipping_methods: fromJson<OrderShippingMethodRow>(methodsRelation, lines?.methods),
  ...row,
});

/** A return with its items as the module answers it (each item's order line also as `item_id`). */
const asReturn = (row: OrderReturnRow, items: OrderReturnItemRow[]): OrderReturn => ({
  ...row,
  items: items.map((i) => ({ ...i, item_id: i.line_item_id })),
});

/** The returns a {@link returnsRelation} read. */
const returnsOf = (json: unknown): OrderReturn[] =>
  fromJson<OrderReturnRow & { items: OrderReturnItemRow[] }>(returnsRelation, json).map((r) => asReturn(r, r.items));

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
 * from `order_live_created_at_status_idx` (0.5 ms with an index-only count).
 */
const pageQuery = (
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
/** Orders, not drafts (Medusa's order lists leave drafts out; the draft-order list asks for them alone). */
const placed = ne(order.status, "draft");
const draftsOrPlaced = (filters: OrderFilters) => (filters.is_draft_order ? eq(order.status, "draft") : placed);

const firstPagesOf = (returns: boolean) =>
  statement((v: Placeholders<{ limit: number; offset: number }>) =>
    pageQuery(
      and(live, placed)!,
      orderBy(undefined, ORDER_COLUMNS, order.id),
      v.limit as unknown as Placeholder,
      v.offset as unknown as Placeholder,
      returns,
    ),
  );
const firstPages = firstPagesOf(false);
const firstPagesWithReturns = firstPagesOf(true);

const linesOfOrders = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ id: order.id, items: jsonRelation(itemsRelation), methods: jsonRelation(methodsRelation) })
    .from(order)
    .where(inList(order.id, v.ids)),
);

// An order's answer (checkout's, the order page's): the row with its lines and methods, one statement.
const fullOrderById = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ ...getTableColumns(order), items: jsonRelation(itemsRelation), methods: jsonRelation(methodsRelation) })
    .from(order)
    .where(and(eq(order.id, v.id), live)),
);

// An order placed and an entry of its change log, built once per shape of their row; its lines,
// promotions and shipping methods, however many: one statement each.
const insertOrder = statement((v: Placeholders<typeof order.$inferInsert>) => db.insert(order).values(v).returning());
const insertChange = statement((v: Placeholders<typeof orderChange.$inferInsert>) =>
  db.insert(orderChange).values(v).returning(),
);
const insertLines = insertRows<OrderLineItemRow[]>(orderLineItem, { returning: true });
const insertMethods = insertRows<OrderShippingMethodRow[]>(orderShippingMethod, { returning: true });
const restoreMethod = statement((v: Placeholders<typeof orderShippingMethod.$inferInsert>) =>
  db.insert(orderShippingMethod).values(v),
);
const insertPromotions = insertRows(orderPromotion);

const byCart = statement((v: Placeholders<{ cart_id: string }>) =>
  db
    .select()
    .from(order)
    .where(and(eq(order.cart_id, v.cart_id), live))
    .limit(1),
);

const byPaymentCollection = statement((v: Placeholders<{ ids: string }>) =>
  db
    .select()
    .from(order)
    .where(and(live, sql`${order.payment_collection_ids} @> ${v.ids}::jsonb`))
    .limit(1),
);

const deleteOrder = statement((v: Placeholders<{ id: string }>) => db.delete(order).where(eq(order.id, v.id)));

const summariesOf = statement((v: Placeholders<{ ids: string[] }>) =>
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
    .where(and(live, inList(order.customer_id, v.ids), placed))
    .orderBy(desc(order.created_at), asc(order.id)),
);

const cartsWithSeveral = statement((v: Placeholders<{ limit: number }>) =>
  db
    .select({
      cart_id: sql<string>`${order.cart_id}`,
      order_ids: sql<string[]>`array_agg(${order.id} order by ${order.id})`,
    })
    .from(order)
    .where(and(live, isNotNull(order.cart_id)))
    .groupBy(order.cart_id)
    .having(sql`count(*) > 1`)
    .orderBy(order.cart_id)
    .limit(v.limit as unknown as Placeholder),
);

const cartsOrdered = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .selectDistinct({ cart_id: sql<string>`${order.cart_id}` })
    .from(order)
    .where(and(live, inList(order.cart_id, v.ids))),
);

/** Lines of live orders that are not canceled (what reservations and returns concern). */
const openOrderLine = and(
  isNull(orderLineItem.deleted_at),
  live,
  isNull(order.canceled_at),
  ne(order.status, "canceled"),
  // A draft holds no stock until it is converted.
  placed,
);

const liveLines = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ id: orderLineItem.id, cart_line_item_id: orderLineItem.cart_line_item_id })
    .from(orderLineItem)
    .innerJoin(order, eq(order.id, orderLineItem.order_id))
    .where(and(openOrderLine, or(inList(orderLineItem.id, v.ids), inList(orderLineItem.cart_line_item_id, v.ids)))),
);

const promotionUse = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({
      orders: countDistinct(orderPromotion.order_id),
      amount: sql<string>`coalesce(sum(${orderPromotion.amount}), 0)`,
    })
    .from(orderPromotion)
    .innerJoin(order, eq(order.id, orderPromotion.order_id))
    // A draft's codes use no budget until it is converted.
    .where(and(live, ne(order.status, "draft"), inList(orderPromotion.promotion_id, v.ids))),
);

const promotionsOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(orderPromotion)
    .where(inList(orderPromotion.order_id, v.ids))
    .orderBy(asc(orderPromotion.order_id), asc(orderPromotion.promotion_id)),
);

const unfulfilledLines = statement((v: Placeholders<{ after: string; limit: number }>) =>
  db
    .select({
      id: orderLineItem.id,
      cart_line_item_id: orderLineItem.cart_line_item_id,
      variant_id: sql<string>`${orderLineItem.variant_id}`,
      outstanding: sql<number>`(${orderLineItem.quantity} - ${orderLineItem.fulfilled_quantity})::int`,
    })
    .from(orderLineItem)
    .innerJoin(order, eq(order.id, orderLineItem.order_id))
    .where(
      and(
        openOrderLine,
        isNotNull(orderLineItem.variant_id),
        gt(orderLineItem.quantity, orderLineItem.fulfilled_quantity),
        gt(orderLineItem.id, v.after),
      ),
    )
    .orderBy(orderLineItem.id)
    .limit(v.limit as unknown as Placeholder),
);

// An order's highest total over its versions: an edit that lowered it leaves what was paid above it to refund.
const highestTotal = sql<number>`greatest(${order.total}, coalesce((select max((${orderVersion.totals}->>'total')::bigint) from ${orderVersion} where ${orderVersion.order_id} = ${order.id}), 0))`;
const paymentTotals = statement((v: Placeholders<{ after: string; limit: number }>) =>
  db
    .select({ id: order.id, total: highestTotal, payment_collection_ids: order.payment_collection_ids })
    .from(order)
    .where(and(live, gt(order.id, v.after)))
    .orderBy(order.id)
    .limit(v.limit as unknown as Placeholder),
);

function orderConditions(filters: OrderFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id?.length) out.push(inList(order.id, filters.id));
  if (filters.status?.length) out.push(inList(order.status, filters.status));
  if (filters.payment_status?.length) out.push(inList(order.payment_status, filters.payment_status));
  if (filters.fulfillment_status?.length) out.push(inList(order.fulfillment_status, filters.fulfillment_status));
  if (filters.sales_channel_id?.length) out.push(inList(order.sales_channel_id, filters.sales_channel_id));
  if (filters.customer_id?.length) out.push(inList(order.customer_id, filters.customer_id));
  if (filters.email?.length) out.push(inList(order.email, filters.email));
  if (filters.region_id?.length) out.push(inList(order.region_id, filters.region_id));
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

// Returns.
const returnsOfOrders = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(orderReturn)
    .where(inList(orderReturn.order_id, v.ids))
    .orderBy(asc(orderReturn.created_at), asc(orderReturn.id)),
);
const itemsOfReturns = statement((v: Placeholders<{ ids: string[] }>) =>
  db.select().from(orderReturnItem).where(inList(orderReturnItem.return_id, v.ids)).orderBy(asc(orderReturnItem.id)),
);
const returnById = statement((v: Placeholders<{ id: string }>) =>
  db.select().from(orderReturn).where(eq(orderReturn.id, v.id)),
);
const lockReturnById = statement((v: Placeholders<{ id: string }>) =>
  db.select().from(orderReturn).where(eq(orderReturn.id, v.id)).for("update"),
);
const insertReturn = statement((v: Placeholders<typeof orderReturn.$inferInsert>) => db.insert(orderReturn).values(v));
const insertReturnItems = insertRows(orderReturnItem);
const deleteReturn = statement((v: Placeholders<{ id: string }>) =>
  db.delete(orderReturn).where(eq(orderReturn.id, v.id)),
);

/** The items of `rows`, one statement for all, attached to their return. */
async function withItems(rows: OrderReturnRow[]): Promise<OrderReturn[]> {
  if (rows.length === 0) return [];
  const items = groupBy(await itemsOfReturns({ ids: rows.map((r) => r.id) }), (i) => i.return_id);
  return rows.map((row) => asReturn(row, items.get(row.id) ?? []));
}

// Return changes (Medusa's order-change protocol for returns).
const pendingByReturn = statement((v: Placeholders<{ return_id: string }>) =>
  db
    .select()
    .from(orderReturnChange)
    .where(and(eq(orderReturnChange.return_id, v.return_id), eq(orderReturnChange.status, "pending")))
    .for("update"),
);
const pendingOfOrder = statement((v: Placeholders<{ order_id: string }>) =>
  db
    .select()
    .from(orderReturnChange)
    .where(and(eq(orderReturnChange.order_id, v.order_id), eq(orderReturnChange.status, "pending"))),
);
const pendingRequestOf = statement((v: Placeholders<{ return_id: string }>) =>
  db
    .select()
    .from(orderReturnChange)
    .where(
      and(
        eq(orderReturnChange.return_id, v.return_id),
        eq(orderReturnChange.change_type, "return_request"),
        eq(orderReturnChange.status, "pending"),
      ),
    ),
);
const deleteChange = statement((v: Placeholders<{ id: string }>) =>
  db.delete(orderReturnChange).where(eq(orderReturnChange.id, v.id)),
);
const reopenChange = statement((v: Placeholders<{ id: string; at: Date }>) =>
  db
    .update(orderReturnChange)
    .set({ status: "pending", confirmed_at: null, confirmed_by: null, updated_at: v.at })
    .where(and(eq(orderReturnChange.id, v.id), eq(orderReturnChange.status, "confirmed"))),
);
const deleteConfirmedChange = statement((v: Placeholders<{ id: string }>) =>
  db.delete(orderReturnChange).where(and(eq(orderReturnChange.id, v.id), eq(orderReturnChange.status, "confirmed"))),
);

// Order changes (Medusa's: edits), their versions.
const ACTIVE: OrderChangeStatus[] = ["pending", "requested"];
const activeOfOrder = statement((v: Placeholders<{ order_id: string; statuses: string[] }>) =>
  db
    .select()
    .from(orderVersionChange)
    .where(and(eq(orderVersionChange.order_id, v.order_id), inList(orderVersionChange.status, v.statuses))),
);
const insertVersion = statement((v: Placeholders<typeof orderVersion.$inferInsert>) =>
  db.insert(orderVersion).values(v),
);
const deleteVersion = statement((v: Placeholders<{ order_id: string; version: number }>) =>
  db.delete(orderVersion).where(and(eq(orderVersion.order_id, v.order_id), eq(orderVersion.version, v.version))),
);
const versionOf = statement((v: Placeholders<{ order_id: string; version: number }>) =>
  db
    .select()
    .from(orderVersion)
    .where(and(eq(orderVersion.order_id, v.order_id), eq(orderVersion.version, v.version))),
);
const deleteLinesById = statement((v: Placeholders<{ ids: string[] }>) =>
  db.delete(orderLineItem).where(inList(orderLineItem.id, v.ids)),
);
const deleteMethodsById = statement((v: Placeholders<{ ids: string[] }>) =>
  db.delete(orderShippingMethod).where(inList(orderShippingMethod.id, v.ids)),
);

// Transfers. Times compared with a column are ISO text (a placeholder skips the column's encoder).
const cancelOpenTransfers = statement((v: Placeholders<{ order_id: string; at: Date }>) =>
  db
    .update(orderTransferRequest)
    .set({ status: "canceled", answered_at: v.at, updated_at: v.at })
    .where(and(eq(orderTransferRequest.order_id, v.order_id), eq(orderTransferRequest.status, "requested"))),
);
const cancelTransfer = statement((v: Placeholders<{ id: string; at: Date }>) =>
  db
    .update(orderTransferRequest)
    .set({ status: "canceled", answered_at: v.at, updated_at: v.at })
    .where(and(eq(orderTransferRequest.id, v.id), eq(orderTransferRequest.status, "requested"))),
);
const insertTransfer = statement((v: Placeholders<typeof orderTransferRequest.$inferInsert>) =>
  db.insert(orderTransferRequest).values(v).returning(),
);
const useTransferToken = statement(
  (v: Placeholders<{ order_id: string; token_hash: string; status: "accepted" | "declined"; at: Date }>) =>
    db
      .update(orderTransferRequest)
      .set({ status: v.status, answered_at: v.at, updated_at: v.at })
      .where(
        and(
          eq(orderTransferRequest.order_id, v.order_id),
          eq(orderTransferRequest.token_hash, v.token_hash),
          eq(orderTransferRequest.status, "requested"),
          gt(orderTransferRequest.expires_at, sql`now()`),
        ),
      )
      .returning(),
);
const openTransfer = statement((v: Placeholders<{ order_id: string }>) =>
  db
    .select()
    .from(orderTransferRequest)
    .where(
      and(
        eq(orderTransferRequest.order_id, v.order_id),
        eq(orderTransferRequest.status, "requested"),
        gt(orderTransferRequest.expires_at, sql`now()`),
      ),
    ),
);

/** The order module's named statements, each run on the current handle (the transaction in progress, if any). */
/**
 * A page of order `orderId`'s live changes in `table` (its version changes or its return changes),
 * oldest first, of the ids, types and statuses asked for, and their count.
 */
const changesOfOrder = <T extends typeof orderVersionChange | typeof orderReturnChange>(
  table: T,
  orderId: string,
  filters: { id?: string[]; change_type?: string[]; status?: string[] },
  page: Paging,
  newestFirst = false,
) =>
  listPage(
    table,
    and(
      eq(table.order_id, orderId),
      isNull(table.deleted_at),
      filters.id ? inList(table.id, filters.id) : undefined,
      filters.change_type ? inList(table.change_type, filters.change_type) : undefined,
      filters.status ? inList(table.status, filters.status) : undefined,
    ),
    newestFirst ? [desc(table.created_at), desc(table.id)] : [asc(table.created_at), asc(table.id)],
    page,
  );

export const orderQueries = {
  /** The live order `id` with its lines and methods; undefined when there is none. */
  async byId(id: string): Promise<Order | undefined> {
    const [found] = await fullOrderById({ id });
    if (!found) return undefined;
    const { items, methods, ...row } = found;
    return withLines(row as OrderRow, { items, methods });
  },
  /** The live order `id` with its lines and methods, its row locked for the rest of the transaction. */
  async lock(id: string): Promise<Order> {
    const row = await orders.lock(id);
    const [lines] = await linesOfOrders({ ids: [id] });
    return withLines(row, lines);
  },
  /**
   * A page of orders with their lines and methods (and with `returns`, their returns), and how many
   * match in all: one statement (two for a page past the end or the count alone).
   */
  async page(
    filters: OrderFilters,
    page: ListPaging,
    returns: boolean,
  ): Promise<{ items: Order[]; count: number; returns: Map<string, OrderReturn[]> }> {
    const where = orderConditions(filters);
    const rows: PageRow[] =
      where.length === 0 && !filters.is_draft_order && !page.order?.trim()
        ? await (returns ? firstPagesWithReturns : firstPages)({ limit: page.limit, offset: page.offset })
        : await pageQuery(
            and(live, draftsOrPlaced(filters), ...where),
            orderBy(page.order, ORDER_COLUMNS, order.id),
            page.limit,
            page.offset,
            returns,
          );
    const answer = (total: number) => ({
      items: rows.map((r) => withLines(r.row, r)),
      count: total,
      returns: new Map(returns ? rows.map((r) => [r.row.id, returnsOf(r.returns)]) : []),
    });
    if (rows.length > 0 || (page.offset === 0 && page.limit > 0)) return answer(rows[0]?.total ?? 0);
    // A page past the end (or `limit=0`, the count alone) has no row to carry the total.
    const [total] = await db
      .select({ count: count() })
      .from(order)
      .where(and(live, draftsOrPlaced(filters), ...where));
    return answer(total?.count ?? 0);
  },
  insertOrder: async (row: typeof order.$inferInsert): Promise<OrderRow> => (await insertOrder(row))[0]!,
  insertLines,
  insertMethods,
  insertPromotions,
  insertChange: async (row: typeof orderChange.$inferInsert): Promise<OrderChangeRow> => (await insertChange(row))[0]!,
  /** Sets columns of order `id` (a status, an address, metadata). */
  async setOrder(id: string, values: Partial<typeof order.$inferInsert>): Promise<void> {
    await db.update(order).set(values).where(eq(order.id, id));
  },
  /** Sets columns of line `id` (an edit's new quantity, price and totals, or their undo). */
  async setLine(id: string, values: Partial<typeof orderLineItem.$inferInsert>): Promise<void> {
    await db.update(orderLineItem).set(values).where(eq(orderLineItem.id, id));
  },
  /** Sets the money of shipping method `id` (a draft's promotions priced anew, or their undo). */
  async setMethod(id: string, values: Partial<typeof orderShippingMethod.$inferInsert>): Promise<void> {
    await db.update(orderShippingMethod).set(values).where(eq(orderShippingMethod.id, id));
  },
  /** Replaces the promotions order `orderId` records (a draft's codes, as its edit leaves them). */
  async replacePromotions(orderId: string, rows: Array<{ promotion_id: string; amount: number }>): Promise<void> {
    await db.delete(orderPromotion).where(eq(orderPromotion.order_id, orderId));
    if (rows.length) await insertPromotions(rows.map((r) => ({ ...r, order_id: orderId })));
  },
  deleteLines: (ids: string[]) => deleteLinesById({ ids }),
  deleteMethods: (ids: string[]) => deleteMethodsById({ ids }),
  /** Puts back a shipping method a confirmed change took off, as it was (its undo). */
  restoreMethod: (row: typeof orderShippingMethod.$inferInsert) => restoreMethod(row),
  /** Adds `quantity` (negative to take back) to a line's `stage` column. */
  async addToLineStage(lineId: string, stage: LineStage, quantity: number): Promise<void> {
    await db
      .update(orderLineItem)
      .set({ [stage]: sql`${orderLineItem[stage]} + ${quantity}` })
      .where(eq(orderLineItem.id, lineId));
  },
  byCart: async (cartId: string): Promise<OrderRow | undefined> => (await byCart({ cart_id: cartId }))[0],
  byPaymentCollection: async (collectionId: string): Promise<OrderRow | undefined> =>
    (await byPaymentCollection({ ids: JSON.stringify([collectionId]) }))[0],
  delete: (id: string) => deleteOrder({ id }),
  /** A page of order `orderId`'s change log, oldest first. */
  changes: (orderId: string, page: Paging & { id?: string[] }) =>
    listPage(
      orderChange,
      and(eq(orderChange.order_id, orderId), page.id?.length ? inList(orderChange.id, page.id) : undefined),
      [asc(orderChange.created_at), asc(orderChange.id)],
      page,
    ),
  summariesOf: (customerIds: string[]) => summariesOf({ ids: customerIds }),
  cartsWithSeveralOrders: (limit: number) => cartsWithSeveral({ limit }),
  cartsWithOrders: (cartIds: string[]) => cartsOrdered({ ids: cartIds }),
  /** Lines of live, not canceled orders named by their own id or their cart line's. */
  liveLines: (ids: string[]) => liveLines({ ids }),
  async promotionUse(promotionIds: string[]): Promise<{ orders: number; amount: number }> {
    const [row] = await promotionUse({ ids: promotionIds });
    return { orders: Number(row?.orders ?? 0), amount: Number(row?.amount ?? 0) };
  },
  promotionsOf: (orderIds: string[]) => promotionsOf({ ids: orderIds }),
  unfulfilledLines: (after: string, limit: number) => unfulfilledLines({ after, limit }),
  async paymentTotals(
    after: string,
    limit: number,
  ): Promise<Array<{ id: string; total: number; payment_collection_ids: string[] }>> {
    const rows = await paymentTotals({ after, limit });
    return rows.map((r) => ({ ...r, total: Number(r.total) }));
  },

  // Returns.
  async returnById(id: string): Promise<OrderReturn | undefined> {
    const [row] = await returnById({ id });
    return row ? (await withItems([row]))[0] : undefined;
  },
  /** The return `id` with its items, locked for the rest of the transaction; undefined when there is none. */
  async lockReturn(id: string): Promise<OrderReturn | undefined> {
    const [row] = await lockReturnById({ id });
    return row ? (await withItems([row]))[0] : undefined;
  },
  /** The return row `id`, locked, without its items. */
  lockReturnRow: async (id: string): Promise<OrderReturnRow | undefined> => (await lockReturnById({ id }))[0],
  async returnsOfOrders(orderIds: string[]): Promise<OrderReturn[]> {
    return withItems(await returnsOfOrders({ ids: orderIds }));
  },
  async returns(
    filters: { order_id?: string[]; status?: string[] },
    page: Paging,
  ): Promise<{ items: OrderReturn[]; count: number }> {
    const where = and(
      filters.order_id?.length ? inList(orderReturn.order_id, filters.order_id) : undefined,
      filters.status?.length ? inList(orderReturn.status, filters.status) : undefined,
    );
    const { items, count } = await listPage(
      orderReturn,
      where,
      [asc(orderReturn.created_at), asc(orderReturn.id)],
      page,
    );
    return { items: await withItems(items), count };
  },
  insertReturn: (row: typeof orderReturn.$inferInsert) => insertReturn(row),
  insertReturnItems,
  deleteReturn: (id: string) => deleteReturn({ id }),
  async setReturn(id: string, values: { status: ReturnStatus; received_at?: Date | null; canceled_at?: Date | null }) {
    await db.update(orderReturn).set(values).where(eq(orderReturn.id, id));
  },
  /** Adds `quantity` (negative to take back) to the received or damaged count of a return's line. */
  async addReturned(
    returnId: string,
    lineId: string,
    column: "received_quantity" | "damaged_quantity",
    quantity: number,
  ): Promise<void> {
    await db
      .update(orderReturnItem)
      .set({ [column]: sql`${orderReturnItem[column]} + ${quantity}` })
      .where(and(eq(orderReturnItem.return_id, returnId), eq(orderReturnItem.line_item_id, lineId)));
  },

  // Return changes.
  /** The pending change of return `returnId`, locked; undefined when there is none. */
  lockPendingChange: async (returnId: string): Promise<OrderReturnChangeRow | undefined> =>
    (await pendingByReturn({ return_id: returnId }))[0],
  pendingChangeOfOrder: async (orderId: string): Promise<OrderReturnChangeRow | undefined> =>
    (await pendingOfOrder({ order_id: orderId }))[0],
  pendingRequestOf: async (returnId: string): Promise<OrderReturnChangeRow | undefined> =>
    (await pendingRequestOf({ return_id: returnId }))[0],
  /** Inserts a pending change; a second pending one on the order is `conflict` with `message`. */
  insertChangeRequest: (values: typeof orderReturnChange.$inferInsert, message: string) =>
    returnChanges.insert(values, message),
  saveChange: (id: string, values: Partial<typeof orderReturnChange.$inferInsert>) => returnChanges.update(id, values),
  deleteChange: (id: string) => deleteChange({ id }),
  reopenChange: (id: string, at: Date) => reopenChange({ id, at }),
  deleteConfirmedChange: (id: string) => deleteConfirmedChange({ id }),

  // Transfers.
  /** The order's active (pending or requested) change, if any. */
  activeVersionChange: async (orderId: string): Promise<OrderVersionChangeRow | undefined> =>
    (await activeOfOrder({ order_id: orderId, statuses: ACTIVE }))[0],
  versionChange: versionChanges.retrieve,
  lockVersionChange: versionChanges.lock,
  /** Inserts a change; a second active one on the order is `conflict` with `message`. */
  insertVersionChange: (values: typeof orderVersionChange.$inferInsert, message: string) =>
    versionChanges.insert(values, message),
  saveVersionChange: (id: string, values: Partial<typeof orderVersionChange.$inferInsert>, conflict?: string) =>
    versionChanges.update(id, values, conflict),
  /** A page of order `orderId`'s changes, oldest (or newest) first, of the types and statuses asked for. */
  versionChanges: (
    orderId: string,
    filters: { id?: string[]; change_type?: OrderChangeType[]; status?: OrderChangeStatus[] },
    page: Paging,
    newestFirst?: boolean,
  ) => changesOfOrder(orderVersionChange, orderId, filters, page, newestFirst),
  /** The first `limit` return changes of order `orderId` (oldest or newest first) of the types and statuses asked for, and their count. */
  returnChangesOfOrder: (
    orderId: string,
    filters: { id?: string[]; change_type?: string[]; status?: string[] },
    limit: number,
    newestFirst?: boolean,
  ) => changesOfOrder(orderReturnChange, orderId, filters, { limit, offset: 0 }, newestFirst),
  insertVersion: (row: typeof orderVersion.$inferInsert) => insertVersion(row),
  deleteVersion: (orderId: string, version: number) => deleteVersion({ order_id: orderId, version }),
  versionOf: async (orderId: string, version: number) => (await versionOf({ order_id: orderId, version }))[0],
  cancelOpenTransfers: (orderId: string, at: Date) => cancelOpenTransfers({ order_id: orderId, at }),
  cancelTransfer: (id: string, at: Date) => cancelTransfer({ id, at }),
  insertTransfer: async (row: typeof orderTransferRequest.$inferInsert): Promise<OrderTransferRequestRow> =>
    (await insertTransfer(row))[0]!,
  useTransferToken: async (
    orderId: string,
    tokenHash: string,
    status: "accepted" | "declined",
    at: Date,
  ): Promise<OrderTransferRequestRow | undefined> =>
    (await useTransferToken({ order_id: orderId, token_hash: tokenHash, status, at }))[0],
  openTransfer: async (orderId: string): Promise<OrderTransferRequestRow | undefined> =>
    (await openTransfer({ order_id: orderId }))[0],

  // Return reasons.
  insertReason: (row: typeof returnReason.$inferInsert, conflict: string): Promise<ReturnReasonRow> =>
    reasons.insert(row, conflict),
  retrieveReason: reasons.retrieve,
  reasons: (filters: { id?: string[]; value?: string[]; q?: string }, page: ListPaging) =>
    reasons.list(
      [
        filters.id?.length ? inList(returnReason.id, filters.id) : undefined,
        filters.value?.length ? inList(returnReason.value, filters.value) : undefined,
        ...textSearch(filters.q, [returnReason.value, returnReason.label, returnReason.description]),
      ],
      page,
    ),
  updateReason: (id: string, values: Partial<typeof returnReason.$inferInsert>, conflict: string) =>
    reasons.update(id, values, conflict),
  deleteReason: reasons.softDelete,
  existingReasons: reasons.existing,
};
