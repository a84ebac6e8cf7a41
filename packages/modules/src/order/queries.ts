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
  inArray,
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
  first,
  fromJson,
  groupBy,
  inFilters,
  inList,
  insertRows,
  jsonRelation,
  likePattern,
  listPage,
  viewPage,
  liveRecords,
  orderBy,
  rangeConditions,
  rowsOf,
  statement,
  textSearch,
  type JsonRelation,
  type ListFilters,
  type ListPaging,
  type Paging,
  type Placeholders,
  type RangeFilter,
} from "@kasse/db";
import {
  order,
  orderChange,
  orderClaimExchange,
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
  type ClaimExchangeKind,
  type OrderChangeStatus,
  type ReturnStatus,
  type OrderLineItemRow,
  type OrderReturnItemRow,
  type OrderReturnRow,
  type OrderRow,
  type OrderShippingMethodRow,
} from "./schema";
import type { OrderFilters, OrderReturn, ReturnReasonFilters } from "./shapes";

// The order module's SQL (orders, their lines, change log, returns, return changes, exchanges and claims,
// transfers and return reasons): the only file of the module that imports drizzle and its tables.

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

/** Orders, not drafts (Medusa's order lists leave drafts out; the draft-order list asks for them alone). */
const placed = ne(order.status, "draft");
const draftsOrPlaced = (filters: OrderFilters) => (filters.is_draft_order ? eq(order.status, "draft") : placed);

/** {@link pageQuery} unfiltered, in the default order (the admin's order list as it opens): built once. */
const firstPagesOf = (returns: boolean) =>
  statement((v: Placeholders<{ limit: number; offset: number }>) =>
    pageQuery(and(live, placed)!, orderBy(undefined, ORDER_COLUMNS, order.id), v.limit, v.offset, returns),
  );
const firstPages = firstPagesOf(false);
const firstPagesWithReturns = firstPagesOf(true);

const insertPromotions = insertRows(orderPromotion);
const linesOfOrders = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ id: order.id, items: jsonRelation(itemsRelation), methods: jsonRelation(methodsRelation) })
    .from(order)
    .where(inList(order.id, v.ids)),
);

// An order's answer (checkout's, the order page's): the row with its lines and methods, one statement.
const fullOrderById = first(
  statement((v: Placeholders<{ id: string }>) =>
    db
      .select({ ...getTableColumns(order), items: jsonRelation(itemsRelation), methods: jsonRelation(methodsRelation) })
      .from(order)
      .where(and(eq(order.id, v.id), live)),
  ),
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

// An order's highest total over its versions: an edit that lowered it leaves what was paid above it to refund.
const highestTotal = sql<number>`greatest(${order.total}, coalesce((select max((${orderVersion.totals}->>'total')::bigint) from ${orderVersion} where ${orderVersion.order_id} = ${order.id}), 0))`;

function orderConditions(filters: OrderFilters): SQL[] {
  const out: SQL[] = [
    ...inFilters(filters, {
      id: order.id,
      status: order.status,
      payment_status: order.payment_status,
      fulfillment_status: order.fulfillment_status,
      sales_channel_id: order.sales_channel_id,
      customer_id: order.customer_id,
      email: order.email,
      region_id: order.region_id,
    }),
    ...rangeConditions(order.created_at, filters.created_at),
    ...rangeConditions(order.updated_at, filters.updated_at),
  ];
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

const returnById = first(
  statement((v: Placeholders<{ id: string }>) => db.select().from(orderReturn).where(eq(orderReturn.id, v.id))),
);
const returnsOfOrders = rowsOf(orderReturn, orderReturn.order_id, {
  order: [asc(orderReturn.created_at), asc(orderReturn.id)],
});
const itemsOfReturns = rowsOf(orderReturnItem, orderReturnItem.return_id, { order: [asc(orderReturnItem.id)] });
const lockReturnById = first(
  statement((v: Placeholders<{ id: string }>) =>
    db.select().from(orderReturn).where(eq(orderReturn.id, v.id)).for("update"),
  ),
);

/** The items of `rows`, one statement for all, attached to their return. */
async function withItems(rows: OrderReturnRow[]): Promise<OrderReturn[]> {
  if (rows.length === 0) return [];
  const items = groupBy(await itemsOfReturns(rows.map((r) => r.id)), (i) => i.return_id);
  return rows.map((row) => asReturn(row, items.get(row.id) ?? []));
}

/** The return `row` with its items; undefined when there is none. */
const withItemsOf = async (row: OrderReturnRow | undefined) => (row ? (await withItems([row]))[0] : undefined);

/** The pending return change of order `order_id` or return `return_id`, as `where` picks it. */
const pendingChange = (where: SQL | undefined) =>
  db
    .select()
    .from(orderReturnChange)
    .where(and(where, eq(orderReturnChange.status, "pending")));

/**
 * A page of order `orderId`'s live changes in `table` (its version changes or its return changes),
 * oldest (or newest) first, of the ids, types and statuses asked for, and their count.
 */
const changesOfOrder =
  <T extends typeof orderVersionChange | typeof orderReturnChange>(table: T) =>
  (
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

const requested = eq(orderTransferRequest.status, "requested");
const unexpired = gt(orderTransferRequest.expires_at, sql`now()`);

/** The live return reasons matching a list's filters. */
const reasonConditions = (filters: ReturnReasonFilters): SQL[] => [
  ...inFilters(filters, { id: returnReason.id, value: returnReason.value }),
  ...textSearch(filters.q, [returnReason.value, returnReason.label, returnReason.description]),
];

/** The order module's named statements, each run on the current handle (the transaction in progress, if any). */
export const orderQueries = {
  /** The live order `id` with its lines and methods; undefined when there is none. */
  async byId(id: string): Promise<Order | undefined> {
    const found = await fullOrderById({ id });
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
  /** Inserts an order and answers its row (database defaults included). */
  insertOrder: first(statement((v: Placeholders<typeof order.$inferInsert>) => db.insert(order).values(v).returning())),
  /** Inserts lines, shipping methods or an order's promotions, however many: one statement each. */
  insertLines: insertRows<OrderLineItemRow[]>(orderLineItem, { returning: true }),
  insertMethods: insertRows<OrderShippingMethodRow[]>(orderShippingMethod, { returning: true }),
  insertPromotions,
  /** Appends an entry to an order's change log. */
  insertChange: statement((v: Placeholders<typeof orderChange.$inferInsert>) => db.insert(orderChange).values(v)),
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
  /** Deletes the lines `ids`. */
  deleteLines: statement((v: Placeholders<{ ids: string[] }>) =>
    db.delete(orderLineItem).where(inList(orderLineItem.id, v.ids)),
  ),
  /** Deletes the shipping methods `ids`. */
  deleteMethods: statement((v: Placeholders<{ ids: string[] }>) =>
    db.delete(orderShippingMethod).where(inList(orderShippingMethod.id, v.ids)),
  ),
  /** Puts back a shipping method a confirmed change took off, as it was (its undo). */
  restoreMethod: statement((v: Placeholders<typeof orderShippingMethod.$inferInsert>) =>
    db.insert(orderShippingMethod).values(v),
  ),
  /** Adds `quantity` (negative to take back) to a line's `stage` column. */
  async addToLineStage(lineId: string, stage: LineStage, quantity: number): Promise<void> {
    await db
      .update(orderLineItem)
      .set({ [stage]: sql`${orderLineItem[stage]} + ${quantity}` })
      .where(eq(orderLineItem.id, lineId));
  },
  /** The live order placed from cart `cart_id`, if any. */
  byCart: first(
    statement((v: Placeholders<{ cart_id: string }>) =>
      db
        .select()
        .from(order)
        .where(and(eq(order.cart_id, v.cart_id), live))
        .limit(1),
    ),
  ),
  /** The live order whose payment collections include those of `ids` (a JSON array). */
  byPaymentCollection: first(
    statement((v: Placeholders<{ ids: string }>) =>
      db
        .select()
        .from(order)
        .where(and(live, sql`${order.payment_collection_ids} @> ${v.ids}::jsonb`))
        .limit(1),
    ),
  ),
  /** Deletes order `id` with everything that cascades from it. */
  delete: statement((v: Placeholders<{ id: string }>) => db.delete(order).where(eq(order.id, v.id))),
  /** A page of order `orderId`'s change log, oldest first. */
  changes: (orderId: string, page: Paging & { id?: string[] }) =>
    listPage(
      orderChange,
      and(eq(orderChange.order_id, orderId), page.id?.length ? inList(orderChange.id, page.id) : undefined),
      [asc(orderChange.created_at), asc(orderChange.id)],
      page,
    ),
  /** The placed live orders of the customers `ids`, newest first. */
  summariesOf: statement((v: Placeholders<{ ids: string[] }>) =>
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
  ),
  /** Carts with more than one live order, with those orders' ids; at most `limit`. */
  cartsWithSeveralOrders: statement((v: Placeholders<{ limit: number }>) =>
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
      .limit(v.limit),
  ),
  /** The carts among `ids` that have a live order. */
  cartsWithOrders: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .selectDistinct({ cart_id: sql<string>`${order.cart_id}` })
      .from(order)
      .where(and(live, inList(order.cart_id, v.ids))),
  ),
  /** Lines of live, not canceled orders named by their own id or their cart line's. */
  liveLines: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ id: orderLineItem.id, cart_line_item_id: orderLineItem.cart_line_item_id })
      .from(orderLineItem)
      .innerJoin(order, eq(order.id, orderLineItem.order_id))
      .where(and(openOrderLine, or(inList(orderLineItem.id, v.ids), inList(orderLineItem.cart_line_item_id, v.ids)))),
  ),
  /** How many live placed orders used the promotions `ids`, and what those gave them. */
  promotionUse: first(
    statement((v: Placeholders<{ ids: string[] }>) =>
      db
        .select({
          orders: countDistinct(orderPromotion.order_id),
          amount: sql<string>`coalesce(sum(${orderPromotion.amount}), 0)`,
        })
        .from(orderPromotion)
        .innerJoin(order, eq(order.id, orderPromotion.order_id))
        // A draft's codes use no budget until it is converted.
        .where(and(live, ne(order.status, "draft"), inList(orderPromotion.promotion_id, v.ids))),
    ),
  ),
  /** The promotions the orders `ids` record. */
  promotionsOf: rowsOf(orderPromotion, orderPromotion.order_id, {
    order: [asc(orderPromotion.order_id), asc(orderPromotion.promotion_id)],
  }),
  /** A page (by id, after `after`) of open orders' lines still owing units. */
  unfulfilledLines: statement((v: Placeholders<{ after: string; limit: number }>) =>
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
      .limit(v.limit),
  ),
  /** A page (by id, after `after`) of live orders with their highest total and payment collections. */
  paymentTotals: statement((v: Placeholders<{ after: string; limit: number }>) =>
    db
      .select({
        id: order.id,
        total: highestTotal.mapWith(Number),
        payment_collection_ids: order.payment_collection_ids,
      })
      .from(order)
      .where(and(live, gt(order.id, v.after)))
      .orderBy(order.id)
      .limit(v.limit),
  ),

  // Returns.
  /** The return `id` with its items; undefined when there is none. */
  returnById: async (id: string): Promise<OrderReturn | undefined> => withItemsOf(await returnById({ id })),
  /** The return `id` with its items, locked for the rest of the transaction; undefined when there is none. */
  lockReturn: async (id: string): Promise<OrderReturn | undefined> => withItemsOf(await lockReturnById({ id })),
  /** The return row `id`, locked, without its items. */
  lockReturnRow: lockReturnById,
  /** Every return of the orders `ids`, with its items, oldest first. */
  returnsOfOrders: async (ids: string[]): Promise<OrderReturn[]> => withItems(await returnsOfOrders(ids)),
  async returns(
    filters: { order_id?: string[]; status?: string[] },
    page: Paging,
  ): Promise<{ items: OrderReturn[]; count: number }> {
    const where = and(...inFilters(filters, { order_id: orderReturn.order_id, status: orderReturn.status }));
    return viewPage(listPage(orderReturn, where, [asc(orderReturn.created_at), asc(orderReturn.id)], page), withItems);
  },
  insertReturn: statement((v: Placeholders<typeof orderReturn.$inferInsert>) => db.insert(orderReturn).values(v)),
  insertReturnItems: insertRows(orderReturnItem),
  deleteReturn: statement((v: Placeholders<{ id: string }>) => db.delete(orderReturn).where(eq(orderReturn.id, v.id))),
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

  // Return changes (Medusa's order-change protocol for returns).
  /** The pending change of return `return_id`, locked; undefined when there is none. */
  lockPendingChange: first(
    statement((v: Placeholders<{ return_id: string }>) =>
      pendingChange(eq(orderReturnChange.return_id, v.return_id)).for("update"),
    ),
  ),
  /** The pending return change of order `order_id`, if any. */
  pendingChangeOfOrder: first(
    statement((v: Placeholders<{ order_id: string }>) => pendingChange(eq(orderReturnChange.order_id, v.order_id))),
  ),
  /** The pending request of return `return_id`, if any. */
  pendingRequestOf: first(
    statement((v: Placeholders<{ return_id: string }>) =>
      pendingChange(
        and(eq(orderReturnChange.return_id, v.return_id), eq(orderReturnChange.change_type, "return_request")),
      ),
    ),
  ),
  /** Inserts a pending change; a second pending one on the order is `conflict` with `message`. */
  insertChangeRequest: returnChanges.insert,
  saveChange: returnChanges.update,
  deleteChange: statement((v: Placeholders<{ id: string }>) =>
    db.delete(orderReturnChange).where(eq(orderReturnChange.id, v.id)),
  ),
  /** Makes the confirmed change `id` pending again. */
  reopenChange: statement((v: Placeholders<{ id: string; at: Date }>) =>
    db
      .update(orderReturnChange)
      .set({ status: "pending", confirmed_at: null, confirmed_by: null, updated_at: v.at })
      .where(and(eq(orderReturnChange.id, v.id), eq(orderReturnChange.status, "confirmed"))),
  ),
  deleteConfirmedChange: statement((v: Placeholders<{ id: string }>) =>
    db.delete(orderReturnChange).where(and(eq(orderReturnChange.id, v.id), eq(orderReturnChange.status, "confirmed"))),
  ),

  // Order changes (Medusa's: edits) and the versions they replace.
  /** The order's active (pending or requested) change, if any. */
  activeVersionChange: first(
    statement((v: Placeholders<{ order_id: string }>) =>
      db
        .select()
        .from(orderVersionChange)
        .where(
          and(eq(orderVersionChange.order_id, v.order_id), inList(orderVersionChange.status, ["pending", "requested"])),
        ),
    ),
  ),
  versionChange: versionChanges.retrieve,
  lockVersionChange: versionChanges.lock,
  /** Inserts a change; a second active one on the order is `conflict` with the message given. */
  insertVersionChange: versionChanges.insert,
  saveVersionChange: versionChanges.update,
  /** A page of order `orderId`'s changes, oldest (or newest) first, of the types and statuses asked for. */
  versionChanges: changesOfOrder(orderVersionChange),
  /** A page of order `orderId`'s return changes, oldest (or newest) first, of the types and statuses asked for. */
  returnChangesOfOrder: changesOfOrder(orderReturnChange),
  insertVersion: statement((v: Placeholders<typeof orderVersion.$inferInsert>) => db.insert(orderVersion).values(v)),
  deleteVersion: statement((v: Placeholders<{ order_id: string; version: number }>) =>
    db.delete(orderVersion).where(and(eq(orderVersion.order_id, v.order_id), eq(orderVersion.version, v.version))),
  ),
  /** What order `order_id` was at `version`, if a change replaced it. */
  versionOf: first(
    statement((v: Placeholders<{ order_id: string; version: number }>) =>
      db
        .select()
        .from(orderVersion)
        .where(and(eq(orderVersion.order_id, v.order_id), eq(orderVersion.version, v.version))),
    ),
  ),

  // Transfers. Times compared with a column are ISO text (a placeholder skips the column's encoder).
  cancelOpenTransfers: statement((v: Placeholders<{ order_id: string; at: Date }>) =>
    db
      .update(orderTransferRequest)
      .set({ status: "canceled", answered_at: v.at, updated_at: v.at })
      .where(and(eq(orderTransferRequest.order_id, v.order_id), requested)),
  ),
  cancelTransfer: statement((v: Placeholders<{ id: string; at: Date }>) =>
    db
      .update(orderTransferRequest)
      .set({ status: "canceled", answered_at: v.at, updated_at: v.at })
      .where(and(eq(orderTransferRequest.id, v.id), requested)),
  ),
  insertTransfer: first(
    statement((v: Placeholders<typeof orderTransferRequest.$inferInsert>) =>
      db.insert(orderTransferRequest).values(v).returning(),
    ),
  ),
  /** Answers the open, unexpired request of order `order_id` whose token is `token_hash`, if there is one. */
  useTransferToken: first(
    statement((v: Placeholders<{ order_id: string; token_hash: string; status: "accepted" | "declined"; at: Date }>) =>
      db
        .update(orderTransferRequest)
        .set({ status: v.status, answered_at: v.at, updated_at: v.at })
        .where(
          and(
            eq(orderTransferRequest.order_id, v.order_id),
            eq(orderTransferRequest.token_hash, v.token_hash),
            requested,
            unexpired,
          ),
        )
        .returning(),
    ),
  ),

  // Return reasons.
  reasons: { ...reasons, list: reasons.listBy(reasonConditions) },
};

const claimsExchanges = liveRecords(orderClaimExchange, "Order change", {
  created_at: orderClaimExchange.created_at,
  updated_at: orderClaimExchange.updated_at,
});

/** Filters of a list of exchanges or claims (Medusa's list query; `q`: part of the id or the order's id). */
export interface ClaimExchangeFilters extends ListFilters {
  order_id?: string[];
  /** Their order changes' statuses. */
  status?: OrderChangeStatus[];
  created_at?: RangeFilter<Date>;
  updated_at?: RangeFilter<Date>;
}

/** The statements of exchanges and claims (`order_claim_exchange`). */
export const claimExchangeQueries = {
  ...claimsExchanges,
  /** The exchange or claim whose return is `return_id`, if any. */
  ofReturn: first(
    statement((v: Placeholders<{ return_id: string }>) =>
      db
        .select()
        .from(orderClaimExchange)
        .where(and(eq(orderClaimExchange.return_id, v.return_id), claimsExchanges.live)),
    ),
  ),
  /** The order changes of order `order_id`'s canceled exchanges and claims. */
  canceledOfOrder: statement((v: Placeholders<{ order_id: string }>) =>
    db
      .select({ change_id: orderClaimExchange.change_id })
      .from(orderClaimExchange)
      .where(
        and(
          eq(orderClaimExchange.order_id, v.order_id),
          isNotNull(orderClaimExchange.canceled_at),
          claimsExchanges.live,
        ),
      ),
  ),
  /** The exchange or claim whose order change is `change_id`, if any. */
  ofChange: first(
    statement((v: Placeholders<{ change_id: string }>) =>
      db
        .select()
        .from(orderClaimExchange)
        .where(and(eq(orderClaimExchange.change_id, v.change_id), claimsExchanges.live)),
    ),
  ),
  /** A page of exchanges or claims. */
  list: (kind: ClaimExchangeKind, filters: ClaimExchangeFilters, page: ListPaging) =>
    claimsExchanges.list(
      [
        eq(orderClaimExchange.kind, kind),
        filters.id ? inList(orderClaimExchange.id, filters.id) : undefined,
        filters.order_id ? inList(orderClaimExchange.order_id, filters.order_id) : undefined,
        // A canceled exchange or claim is `canceled` whatever its confirmed change says.
        filters.status
          ? or(
              and(
                inArray(
                  orderClaimExchange.change_id,
                  db
                    .select({ id: orderVersionChange.id })
                    .from(orderVersionChange)
                    .where(inList(orderVersionChange.status, filters.status)),
                ),
                isNull(orderClaimExchange.canceled_at),
              ),
              filters.status.includes("canceled") ? isNotNull(orderClaimExchange.canceled_at) : undefined,
            )
          : undefined,
        ...textSearch(filters.q, [orderClaimExchange.id, orderClaimExchange.order_id]),
        ...rangeConditions(orderClaimExchange.created_at, filters.created_at),
        ...rangeConditions(orderClaimExchange.updated_at, filters.updated_at),
      ],
      page,
    ),
  /** Puts back return requests a confirmation deleted (the compensation of that confirmation). */
  restoreReturnChanges: insertRows(orderReturnChange),
};
