import { and, asc, eq, getTableColumns, gt, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import {
  currentCartVersion,
  db,
  first,
  fromJson,
  inList,
  jsonRelation,
  statement,
  type JsonRelation,
  type Placeholders,
} from "@kasse/db";
import { cart, cartLineItem, cartShippingMethod, type CartLineItemRow, type CartShippingMethodRow } from "./schema";
import type { CartTotals } from "./totals";

// The cart module's SQL: the only file of the module that imports drizzle and its tables. Cart
// writes and answers are checkout's hot path: every statement here has a fixed text (a statement,
// built once per shape of its values and prepared), but `kasse check`'s page of completed carts.

type CartInsertRow = typeof cart.$inferInsert;
type LineInsertRow = typeof cartLineItem.$inferInsert;
type MethodInsertRow = typeof cartShippingMethod.$inferInsert;

const liveCart = isNull(cart.deleted_at);
const liveItem = isNull(cartLineItem.deleted_at);
const liveMethod = isNull(cartShippingMethod.deleted_at);

// A cart's live lines and methods as JSON, in the order of their creation.
const itemsRelation: JsonRelation = {
  table: cartLineItem,
  where: and(eq(cartLineItem.cart_id, cart.id), liveItem)!,
  orderBy: sql`${cartLineItem.created_at}, ${cartLineItem.id}`,
};
const methodsRelation: JsonRelation = {
  table: cartShippingMethod,
  where: and(eq(cartShippingMethod.cart_id, cart.id), liveMethod)!,
  orderBy: sql`${cartShippingMethod.created_at}, ${cartShippingMethod.id}`,
};

// Each read of a cart for a write or an answer takes the store's cart version with it (`CartState`).
const lockById = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ ...getTableColumns(cart), cart_version: currentCartVersion() })
    .from(cart)
    .where(and(eq(cart.id, v.id), liveCart))
    .for("update"),
);

const withLinesById = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({
      ...getTableColumns(cart),
      items: jsonRelation(itemsRelation),
      methods: jsonRelation(methodsRelation),
      cart_version: currentCartVersion(),
    })
    .from(cart)
    .where(and(eq(cart.id, v.id), liveCart)),
);

const linesOf = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ items: jsonRelation(itemsRelation), methods: jsonRelation(methodsRelation) })
    .from(cart)
    .where(eq(cart.id, v.id)),
);

/** What `saveComputed` writes of a line (`unit_price`) or method (`amount`) besides its price, with their SQL types. */
const COMPUTED_COLUMNS: Record<string, SQL> = {
  is_tax_inclusive: sql`boolean`,
  tax_lines: sql`jsonb`,
  adjustments: sql`jsonb`,
  subtotal: sql`bigint`,
  discount_total: sql`bigint`,
  tax_total: sql`bigint`,
  total: sql`bigint`,
  original_total: sql`bigint`,
};

/**
 * Updates the rows of `table` named by the JSON `rows` (`id` and the computed columns), their
 * `updated_at` set to `now` (ISO text).
 */
function computedRows(
  table: typeof cartLineItem | typeof cartShippingMethod,
  price: "unit_price" | "amount",
  rows: SQL,
  now: SQL,
): SQL {
  const columns = Object.entries({ [price]: sql`bigint`, ...COMPUTED_COLUMNS });
  const name = (column: string) => sql.identifier(column);
  // The price is optional in a computed line: a row without one keeps its own.
  const value = (column: string) =>
    column === price ? sql`coalesce(v.${name(column)}, ${table}.${name(column)})` : sql`v.${name(column)}`;
  const sets = sql.join(
    columns.map(([column]) => sql`${name(column)} = ${value(column)}`),
    sql`, `,
  );
  const types = sql.join(
    columns.map(([column, type]) => sql`${name(column)} ${type}`),
    sql`, `,
  );
  return sql`update ${table} set ${sets}, "updated_at" = ${now}::text::timestamptz from jsonb_to_recordset(${rows}::text::jsonb) as v("id" text, ${types}) where ${table}."id" = v."id"`;
}

/** A cart's live lines and methods, decoded from their JSON. */
function linesFrom(json: { items: unknown; methods: unknown } | undefined) {
  return {
    items: fromJson<CartLineItemRow>(itemsRelation, json?.items),
    shipping_methods: fromJson<CartShippingMethodRow>(methodsRelation, json?.methods),
  };
}

/** Named statements on the cart tables, run on the current handle. */
export const cartQueries = {
  /** The live cart's own row. */
  byId: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .select()
        .from(cart)
        .where(and(eq(cart.id, v.id), liveCart)),
    ),
  ),
  /** The live cart with its live lines and methods and the store's cart version: one statement. */
  async withLines(id: string) {
    const [found] = await withLinesById({ id });
    if (!found) return undefined;
    const { items, methods, cart_version, ...row } = found;
    return { cart: row, ...linesFrom({ items, methods }), cart_version };
  },
  /**
   * The live cart locked for the rest of the transaction (with the store's cart version), and its
   * lines and methods read once the lock is held. Sent together: in a transaction both go down its
   * one connection, and PostgreSQL runs the second (with a snapshot of its own) only once the first
   * has the lock.
   */
  async lockWithLines(id: string) {
    const [[found], [lines]] = await Promise.all([lockById({ id }), linesOf({ id })]);
    if (!found) return undefined;
    const { cart_version, ...row } = found;
    return { cart: row, ...linesFrom(lines), cart_version };
  },
  /** Inserts a cart: a new cart has no line to check nor price, so it is computed at the store's current cart version. */
  insert: first(
    statement((v: Placeholders<CartInsertRow>) =>
      db
        .insert(cart)
        .values({ ...v, priced_version: currentCartVersion() })
        .returning(),
    ),
  ),
  /** Sets the fields given (with their `updated_at`) on the cart `where_id`; undefined when there is no such cart. */
  update: first(
    statement((v: Placeholders<Partial<CartInsertRow> & { where_id: string }>) => {
      const { where_id, ...set } = v;
      return db.update(cart).set(set).where(eq(cart.id, where_id)).returning();
    }),
  ),
  /** Marks the cart completed if it is not and its `updated_at` is still `checked` (ISO text, ms precision). */
  complete: first(
    statement((v: Placeholders<{ id: string; now: Date; checked: string }>) =>
      db
        .update(cart)
        .set({ completed_at: v.now, updated_at: v.now })
        .where(
          and(
            eq(cart.id, v.id),
            isNull(cart.completed_at),
            sql`date_trunc('milliseconds', ${cart.updated_at}) = ${v.checked}::timestamptz`,
          ),
        )
        .returning({ id: cart.id }),
    ),
  ),
  reopen: statement((v: Placeholders<{ id: string; now: Date }>) =>
    db.update(cart).set({ completed_at: null, updated_at: v.now }).where(eq(cart.id, v.id)),
  ),
  insertItem: first(statement((v: Placeholders<LineInsertRow>) => db.insert(cartLineItem).values(v).returning())),
  /** Sets the fields given on the cart's live line; undefined when it has no such line. */
  updateItem: first(
    statement(
      (
        v: Placeholders<
          Partial<Pick<CartLineItemRow, "quantity" | "unit_price" | "metadata">> &
            Pick<CartLineItemRow, "cart_id" | "id" | "updated_at">
        >,
      ) =>
        db
          .update(cartLineItem)
          .set({ quantity: v.quantity, unit_price: v.unit_price, metadata: v.metadata, updated_at: v.updated_at })
          .where(and(eq(cartLineItem.id, v.id), eq(cartLineItem.cart_id, v.cart_id), liveItem))
          .returning(),
    ),
  ),
  deleteItems: statement((v: Placeholders<{ cart_id: string; ids: string[] }>) =>
    db.delete(cartLineItem).where(and(eq(cartLineItem.cart_id, v.cart_id), inList(cartLineItem.id, v.ids))),
  ),
  /** Deletes the cart's line; answers its id when there was one. */
  deleteItem: first(
    statement((v: Placeholders<{ cart_id: string; id: string }>) =>
      db
        .delete(cartLineItem)
        .where(and(eq(cartLineItem.id, v.id), eq(cartLineItem.cart_id, v.cart_id)))
        .returning({ id: cartLineItem.id }),
    ),
  ),
  methodsOf: statement((v: Placeholders<{ cart_id: string }>) =>
    db
      .select()
      .from(cartShippingMethod)
      .where(and(eq(cartShippingMethod.cart_id, v.cart_id), liveMethod)),
  ),
  insertMethod: first(
    statement((v: Placeholders<MethodInsertRow>) => db.insert(cartShippingMethod).values(v).returning()),
  ),
  deleteMethods: statement((v: Placeholders<{ ids: string[] }>) =>
    db.delete(cartShippingMethod).where(inList(cartShippingMethod.id, v.ids)),
  ),
  /** Every cart write ends with it: the lines, the methods and the cart's totals in one statement. */
  saveComputed: statement(
    (
      v: Placeholders<
        Pick<typeof cart.$inferSelect, keyof CartTotals> & {
          id: string;
          promo_codes: string[];
          priced_version: number | null;
          /** ISO text, or null (a timestamp column's encoder refuses null). */
          priced_until: string | null;
          now: Date;
          line_now: string;
          items: string;
          methods: string;
        }
      >,
    ) => {
      const items = db.$with("computed_items", {}).as(computedRows(cartLineItem, "unit_price", v.items, v.line_now));
      const methods = db
        .$with("computed_methods", {})
        .as(computedRows(cartShippingMethod, "amount", v.methods, v.line_now));
      // The cart's columns are set from the values but these.
      const { id, now, line_now: _lineNow, items: _items, methods: _methods, priced_until, ...set } = v;
      return db
        .with(items, methods)
        .update(cart)
        .set({ ...set, priced_until: sql`${priced_until}::text::timestamptz`, updated_at: now })
        .where(eq(cart.id, id));
    },
  ),
  /** One page (by id) of the ids of live completed carts. */
  completedIds: async (afterId: string, limit: number): Promise<string[]> =>
    (
      await db
        .select({ id: cart.id })
        .from(cart)
        .where(and(isNotNull(cart.completed_at), liveCart, gt(cart.id, afterId)))
        .orderBy(asc(cart.id))
        .limit(limit)
    ).map((r) => r.id),
  /** Which of `ids` are live lines of live carts not completed, with their carts. */
  openCartLines: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ id: cartLineItem.id, cart_id: cartLineItem.cart_id })
      .from(cartLineItem)
      .innerJoin(cart, eq(cart.id, cartLineItem.cart_id))
      .where(and(inList(cartLineItem.id, v.ids), isNull(cart.completed_at), liveItem, liveCart)),
  ),
};
