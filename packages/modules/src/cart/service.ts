import { and, eq, getTableColumns, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import {
  builtOnce,
  builtRowWrite,
  currentCartVersion,
  fromJson,
  jsonRelation,
  param,
  queryRows,
  slot,
  type Db,
  type JsonRelation,
  toStoredAddress,
} from "@kasse/db";
import {
  cart,
  cartLineItem,
  cartShippingMethod,
  type Adjustment,
  type CartAddress,
  type CartAddressInput,
  type CartLineItemRow,
  type CartRow,
  type CartShippingMethodRow,
  type TaxLine,
} from "./schema";
import type { CartTotals, LineTotals } from "./totals";

/** A cart with its lines and shipping methods, as stored. */
export interface CartState {
  cart: CartRow;
  items: CartLineItemRow[];
  shipping_methods: CartShippingMethodRow[];
  /**
   * The store's `cart_version` (@kasse/db) read with the cart (`lock`, `load`): a computation from
   * this state is stamped with it. Absent from a state not read from the database (a new cart).
   */
  cart_version?: number;
}

/**
 * True when a write to what a cart is computed from (the catalog, price lists, promotions,
 * customer groups, shipping options, taxes) committed since the cart was last computed: its lines
 * may no longer be for sale, its prices and discounts no longer the store's.
 */
export function catalogMoved(state: CartState): boolean {
  return state.cart_version !== undefined && state.cart.priced_version !== state.cart_version;
}

/** True when a price list or campaign date the cart's last computation saw has come: it may give another result now. */
export function datesPassed(state: CartState, now: Date): boolean {
  return state.cart.priced_until !== null && state.cart.priced_until.getTime() <= now.getTime();
}

/** What a new cart starts with; the flow resolves region, currency and channel first. */
export interface CartInsert {
  region_id: string | null;
  sales_channel_id: string | null;
  currency_code: string;
  customer_id?: string | null;
  email?: string | null;
  locale?: string | null;
  metadata?: Record<string, unknown> | null;
  shipping_address?: CartAddressInput | null;
  billing_address?: CartAddressInput | null;
  promo_codes?: string[];
}

/** A new line: the variant snapshot the flow took from the catalog. */
export type LineItemInsert = Omit<
  CartLineItemRow,
  | "id"
  | "cart_id"
  | "created_at"
  | "updated_at"
  | "deleted_at"
  | keyof LineTotals
  | "tax_lines"
  | "adjustments"
  | "metadata"
  | "product_type_id"
> & {
  metadata?: Record<string, unknown> | null;
  product_type_id?: string | null;
};

/** A new shipping method: the option the flow chose for the cart, at its amount. */
export interface ShippingMethodInsert {
  shipping_option_id: string;
  shipping_profile_id: string | null;
  name: string;
  amount: number;
  is_tax_inclusive: boolean;
  data: Record<string, unknown>;
}

/** Whether `method` makes way for `input` ({@link CartService.setShippingMethod}): same profile or same option. */
export function replacedBy(method: CartShippingMethodRow, input: ShippingMethodInsert): boolean {
  return (
    method.shipping_profile_id === input.shipping_profile_id || method.shipping_option_id === input.shipping_option_id
  );
}

/** The computed money of a line or method, written back by `saveComputed`. */
export interface ComputedLine extends LineTotals {
  id: string;
  unit_price?: number;
  amount?: number;
  is_tax_inclusive: boolean;
  tax_lines: TaxLine[];
  adjustments: Adjustment[];
}

const liveItem = isNull(cartLineItem.deleted_at);
const liveMethod = isNull(cartShippingMethod.deleted_at);

// The reads of every cart write and answer, built once (`param("id")`: the cart's id).
const liveCart = and(eq(cart.id, param("id")), isNull(cart.deleted_at));
const cartById = builtOnce<CartRow[], { id: string }>((db) => db.select().from(cart).where(liveCart));
// Each read of a cart for a write or an answer takes the store's cart version with it (see `CartState`).
const lockedCartById = builtOnce<Array<CartRow & { cart_version: number }>, { id: string }>((db) =>
  db
    .select({ ...getTableColumns(cart), cart_version: currentCartVersion() })
    .from(cart)
    .where(liveCart)
    .for("update"),
);
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
const fullCartById = builtOnce<
  Array<CartRow & { items: unknown; methods: unknown; cart_version: number }>,
  { id: string }
>((db) =>
  db
    .select({
      ...getTableColumns(cart),
      items: jsonRelation(itemsRelation),
      methods: jsonRelation(methodsRelation),
      cart_version: currentCartVersion(),
    })
    .from(cart)
    .where(liveCart),
);
const linesOfCart = builtOnce<Array<{ items: unknown; methods: unknown }>, { id: string }>((db) =>
  db
    .select({ items: jsonRelation(itemsRelation), methods: jsonRelation(methodsRelation) })
    .from(cart)
    .where(eq(cart.id, param("id"))),
);

/** What `saveComputed` writes of a line (`unit_price`) or method (`amount`) besides its price, with their SQL types. */
const COMPUTED_COLUMNS = {
  is_tax_inclusive: "boolean",
  tax_lines: "jsonb",
  adjustments: "jsonb",
  subtotal: "bigint",
  discount_total: "bigint",
  tax_total: "bigint",
  total: "bigint",
  original_total: "bigint",
};

/** Updates the rows of `table` named by the JSON rows of placeholder `key` (`id` and the computed columns). */
function computedRows(table: string, price: "unit_price" | "amount", key: string): SQL {
  const columns = Object.entries({ [price]: "bigint", ...COMPUTED_COLUMNS });
  // The price is optional in a computed line: a row without one keeps its own.
  const value = (c: string) => (c === price ? `coalesce(v."${c}", "${table}"."${c}")` : `v."${c}"`);
  return sql.join([
    sql.raw(`update "${table}" set ${columns.map(([c]) => `"${c}" = ${value(c)}`).join(", ")}, "updated_at" = `),
    sql`${sql.placeholder("line_now")}::text::timestamptz from jsonb_to_recordset(${sql.placeholder(key)}::text::jsonb)`,
    sql.raw(
      ` as v("id" text, ${columns.map(([c, type]) => `"${c}" ${type}`).join(", ")}) where "${table}"."id" = v."id"`,
    ),
  ]);
}

// Every cart write ends with it: the lines, the methods and the cart's totals in one statement.
const computedWrite = builtOnce<
  unknown,
  { [K in keyof CartTotals]: number } & {
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
>((db) => {
  const items = db.$with("computed_items", {}).as(computedRows("cart_line_item", "unit_price", "items"));
  const methods = db.$with("computed_methods", {}).as(computedRows("cart_shipping_method", "amount", "methods"));
  const slot = (key: string) => sql.placeholder(key) as unknown as SQL;
  const totals: Record<keyof CartTotals, SQL> = {
    item_subtotal: slot("item_subtotal"),
    item_discount_total: slot("item_discount_total"),
    item_tax_total: slot("item_tax_total"),
    item_total: slot("item_total"),
    shipping_subtotal: slot("shipping_subtotal"),
    shipping_discount_total: slot("shipping_discount_total"),
    shipping_tax_total: slot("shipping_tax_total"),
    shipping_total: slot("shipping_total"),
    subtotal: slot("subtotal"),
    discount_total: slot("discount_total"),
    tax_total: slot("tax_total"),
    total: slot("total"),
    original_total: slot("original_total"),
  };
  return db
    .with(items, methods)
    .update(cart)
    .set({
      ...totals,
      promo_codes: slot("promo_codes"),
      priced_version: slot("priced_version"),
      priced_until: sql`${sql.placeholder("priced_until")}::text::timestamptz`,
      updated_at: slot("now"),
    })
    .where(eq(cart.id, param("id")));
});

// The writes of cart creation, line and method additions, cart updates and checkout, built once
// per shape of their row (which columns are given, and which are null).
// A new cart has no line to check nor price: it is computed at the store's current cart version.
const insertCart = builtRowWrite<CartRow[]>(cart, (db, row) =>
  db
    .insert(cart)
    .values({ ...(row as object), priced_version: currentCartVersion() } as never)
    .returning(),
);
const updateCart = builtRowWrite<CartRow[]>(cart, (db, row) =>
  db
    .update(cart)
    .set(row)
    .where(eq(cart.id, param("where_id")))
    .returning(),
);
const insertItem = builtRowWrite<CartLineItemRow[]>(cartLineItem, (db, row) =>
  db.insert(cartLineItem).values(row).returning(),
);
const insertMethod = builtRowWrite<CartShippingMethodRow[]>(cartShippingMethod, (db, row) =>
  db.insert(cartShippingMethod).values(row).returning(),
);
// `checked`: the cart's `updated_at` as the caller read it (text).
const completeCart = builtOnce<Array<{ id: string }>, { id: string; now: Date; checked: string }>((db) =>
  db
    .update(cart)
    .set({ completed_at: slot("now"), updated_at: slot("now") })
    .where(
      and(
        eq(cart.id, param("id")),
        isNull(cart.completed_at),
        sql`date_trunc('milliseconds', ${cart.updated_at}) = ${param("checked")}::timestamptz`,
      ),
    )
    .returning({ id: cart.id }),
);

/**
 * Carts, their line items and shipping methods. Pricing, taxes, promotions and availability come
 * from other modules: the cart flows compute them and write the results here (`saveComputed`).
 * @example
 * const carts = createCartService(db);
 * const created = await carts.create({ region_id, sales_channel_id, currency_code: "eur" });
 * const { cart, items } = await carts.load(created.id);
 */
export function createCartService(db: Db) {
  const service = {
    async create(input: CartInsert): Promise<CartRow> {
      const [row] = await insertCart(db, {
        id: generateId("cart"),
        region_id: input.region_id,
        sales_channel_id: input.sales_channel_id,
        currency_code: input.currency_code.toLowerCase(),
        customer_id: input.customer_id ?? null,
        email: input.email ?? null,
        locale: input.locale ?? null,
        metadata: input.metadata ?? null,
        shipping_address: input.shipping_address ? toAddress(input.shipping_address) : null,
        billing_address: input.billing_address ? toAddress(input.billing_address) : null,
        promo_codes: input.promo_codes ?? [],
      });
      return row!;
    },

    /** The cart with its live lines and methods: one statement, whatever the cart's size. */
    async load(id: string): Promise<CartState> {
      const [found] = await fullCartById(db, { id });
      if (!found) throw notFound(id);
      const { items, methods, cart_version, ...row } = found;
      return {
        cart: row,
        items: fromJson<CartLineItemRow>(itemsRelation, items),
        shipping_methods: fromJson<CartShippingMethodRow>(methodsRelation, methods),
        cart_version,
      };
    },

    /** The cart's own row (no lines nor methods): one query, for access checks and its state. */
    async retrieve(id: string): Promise<CartRow> {
      const [row] = await cartById(db, { id });
      if (!row) throw notFound(id);
      return row;
    },

    /**
     * Marks the cart completed if it is still the cart checked at `checkedUpdatedAt` (its
     * `updated_at` then, compared at millisecond precision: it went through a JS Date) and not
     * completed. False when it changed or was completed meanwhile (checkout places no order then).
     */
    async completeIfUnchanged(id: string, checkedUpdatedAt: string): Promise<boolean> {
      const now = new Date();
      const closed = await completeCart(db, { id, now, checked: checkedUpdatedAt });
      return closed.length > 0;
    },

    /** Opens a completed cart again (a checkout undone by its compensation). */
    async reopen(id: string): Promise<void> {
      await db.update(cart).set({ completed_at: null, updated_at: new Date() }).where(eq(cart.id, id));
    },

    /**
     * Locks the cart row for the rest of the transaction (every cart write starts here, so two
     * writes to one cart run one after the other) and returns its state.
     */
    async lock(id: string): Promise<CartState> {
      // The row as the lock found it (the latest committed version), and the lines and methods
      // read after the lock is held, so the state cannot change underneath the caller. Sent
      // together: in a transaction both go down its one connection, and PostgreSQL runs the
      // second (with a snapshot of its own) only once the first has the lock.
      const [[found], [lines]] = await Promise.all([lockedCartById(db, { id }), linesOfCart(db, { id })]);
      if (!found) throw notFound(id);
      const { cart_version, ...row } = found;
      return {
        cart: row,
        items: fromJson<CartLineItemRow>(itemsRelation, lines?.items),
        shipping_methods: fromJson<CartShippingMethodRow>(methodsRelation, lines?.methods),
        cart_version,
      };
    },

    /** Updates cart fields; addresses are given as input (a new address id each time) or null. */
    async update(
      id: string,
      input: Partial<
        Pick<
          CartRow,
          | "region_id"
          | "sales_channel_id"
          | "currency_code"
          | "email"
          | "locale"
          | "customer_id"
          | "metadata"
          | "promo_codes"
          | "completed_at"
        >
      > & {
        shipping_address?: CartAddressInput | null;
        billing_address?: CartAddressInput | null;
      },
    ): Promise<CartRow> {
      const { shipping_address, billing_address, ...fields } = input;
      const set: Partial<CartRow> = { ...fields, updated_at: new Date() };
      if (fields.currency_code) set.currency_code = fields.currency_code.toLowerCase();
      if (shipping_address !== undefined) set.shipping_address = shipping_address ? toAddress(shipping_address) : null;
      if (billing_address !== undefined) set.billing_address = billing_address ? toAddress(billing_address) : null;
      const [row] = await updateCart(db, { ...set, where_id: id });
      if (!row) throw notFound(id);
      return row;
    },

    async addItem(cartId: string, input: LineItemInsert): Promise<CartLineItemRow> {
      const [row] = await insertItem(db, {
        ...input,
        id: generateId("cali"),
        cart_id: cartId,
        metadata: input.metadata ?? null,
      });
      return row!;
    },

    async updateItem(
      cartId: string,
      itemId: string,
      input: { quantity?: number; unit_price?: number; metadata?: Record<string, unknown> | null },
    ): Promise<CartLineItemRow> {
      const [updated] = await db
        .update(cartLineItem)
        .set(input)
        .where(and(eq(cartLineItem.id, itemId), eq(cartLineItem.cart_id, cartId), liveItem))
        .returning();
      if (!updated) throw errors.notFound(`Line item with id: ${itemId} was not found`);
      return updated;
    },

    /** Removes these lines of the cart (a refresh found them no longer for sale). */
    async deleteItems(cartId: string, itemIds: string[]): Promise<void> {
      if (itemIds.length)
        await db.delete(cartLineItem).where(and(eq(cartLineItem.cart_id, cartId), inArray(cartLineItem.id, itemIds)));
    },

    async deleteItem(cartId: string, itemId: string): Promise<void> {
      const deleted = await db
        .delete(cartLineItem)
        .where(and(eq(cartLineItem.id, itemId), eq(cartLineItem.cart_id, cartId)))
        .returning({ id: cartLineItem.id });
      if (deleted.length === 0) throw errors.notFound(`Line item with id: ${itemId} was not found`);
    },

    /**
     * Adds a shipping method, replacing the cart's method of the same shipping profile (as Medusa).
     * `current`: the cart's live methods, when the caller holds the cart's lock and has read them.
     */
    async setShippingMethod(
      cartId: string,
      input: ShippingMethodInsert,
      current?: CartShippingMethodRow[],
    ): Promise<CartShippingMethodRow> {
      const existing =
        current ??
        (await db
          .select()
          .from(cartShippingMethod)
          .where(and(eq(cartShippingMethod.cart_id, cartId), liveMethod)));
      await service.deleteShippingMethods(existing.filter((m) => replacedBy(m, input)).map((m) => m.id));
      const [row] = await insertMethod(db, { id: generateId("casm"), cart_id: cartId, ...input });
      return row!;
    },

    async deleteShippingMethods(ids: string[]): Promise<void> {
      if (ids.length) await db.delete(cartShippingMethod).where(inArray(cartShippingMethod.id, ids));
    },

    /**
     * Writes what the cart flow computed: each line's money, each method's, the cart's totals and
     * what the computation is good for (`priced_version`, `priced_until`), in one statement whatever
     * the number of lines (the lines and methods as JSON rows). Returns the `updated_at` it wrote.
     */
    async saveComputed(
      cartId: string,
      computed: {
        items: ComputedLine[];
        shipping_methods: ComputedLine[];
        totals: CartTotals;
        promo_codes: string[];
        priced_version: number | null;
        priced_until: Date | null;
      },
    ): Promise<Date> {
      const now = new Date();
      await computedWrite(db, {
        ...computed.totals,
        id: cartId,
        promo_codes: computed.promo_codes,
        priced_version: computed.priced_version,
        priced_until: computed.priced_until?.toISOString() ?? null,
        now,
        line_now: now.toISOString(),
        items: JSON.stringify(computed.items.map(({ amount: _amount, ...line }) => line)),
        methods: JSON.stringify(computed.shipping_methods.map(({ unit_price: _price, ...method }) => method)),
      });
      return now;
    },
    /** One page (by id) of the ids of completed carts (`kasse check`). */
    async completedCartsPage(afterId: string, limit: number): Promise<string[]> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`select id from cart where completed_at is not null and deleted_at is null and id > ${afterId} order by id limit ${limit}`,
      );
      return rows.map((r) => r.id);
    },

    /** Which of these ids are line items of a cart not completed, with their carts (checkout may be reserving for them). */
    async openCartLines(ids: string[]): Promise<Map<string, string>> {
      if (!ids.length) return new Map();
      const rows = await queryRows<{ id: string; cart_id: string }>(
        db,
        sql`select l.id, l.cart_id from cart_line_item l join cart c on c.id = l.cart_id where l.id in ${ids} and c.completed_at is null and l.deleted_at is null and c.deleted_at is null`,
      );
      return new Map(rows.map((r) => [r.id, r.cart_id]));
    },
  };
  return service;
}

export type CartService = ReturnType<typeof createCartService>;

function notFound(id: string) {
  return errors.notFound(`Cart with id: ${id} was not found`);
}

/** A stored address from request input: every field present (null when not given), lower-case country. */
export function toAddress(input: CartAddressInput): CartAddress {
  return toStoredAddress("caaddr", input);
}
