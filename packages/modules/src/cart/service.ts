import { errors, generateId } from "@kasse/core";
import { toStoredAddress } from "@kasse/db";
import { cartQueries as q } from "./queries";
import type { Adjustment, TaxLine, CartLineItemRow, CartRow, CartShippingMethodRow } from "./schema";
import type { CartAddress, CartAddressInput } from "./shapes";
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
export type CartInsert = Pick<CartRow, "region_id" | "sales_channel_id" | "currency_code"> &
  Partial<Pick<CartRow, "customer_id" | "email" | "locale" | "metadata" | "promo_codes">> & {
    shipping_address?: CartAddressInput | null;
    billing_address?: CartAddressInput | null;
  };

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
export type ShippingMethodInsert = Pick<
  CartShippingMethodRow,
  "shipping_option_id" | "shipping_profile_id" | "name" | "amount" | "is_tax_inclusive" | "data"
>;

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

/**
 * Carts, their line items and shipping methods. Pricing, taxes, promotions and availability come
 * from other modules: the cart flows compute them and write the results here (`saveComputed`).
 * @example
 * const carts = createCartService();
 * const created = await carts.create({ region_id, sales_channel_id, currency_code: "eur" });
 * const { cart, items } = await carts.load(created.id);
 */
export function createCartService() {
  const service = {
    async create(input: CartInsert): Promise<CartRow> {
      return (await q.insert({
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
      }))!;
    },

    /** The cart with its live lines and methods: one statement, whatever the cart's size. */
    load: async (id: string): Promise<CartState> => found(await q.withLines(id), id),

    /** The cart's own row (no lines nor methods): one query, for access checks and its state. */
    retrieve: async (id: string): Promise<CartRow> => found(await q.byId({ id }), id),

    /**
     * Marks the cart completed if it is still the cart checked at `checkedUpdatedAt` (its
     * `updated_at` then, compared at millisecond precision: it went through a JS Date) and not
     * completed. False when it changed or was completed meanwhile (checkout places no order then).
     */
    async completeIfUnchanged(id: string, checkedUpdatedAt: string): Promise<boolean> {
      return (await q.complete({ id, now: new Date(), checked: checkedUpdatedAt })) !== undefined;
    },

    /** Opens a completed cart again (a checkout undone by its compensation). */
    async reopen(id: string): Promise<void> {
      await q.reopen({ id, now: new Date() });
    },

    /**
     * Locks the cart row for the rest of the transaction (every cart write starts here, so two
     * writes to one cart run one after the other) and returns its state.
     */
    async lock(id: string): Promise<CartState> {
      // The row as the lock found it (the latest committed version), and the lines and methods
      // read after the lock is held, so the state cannot change underneath the caller.
      return found(await q.lockWithLines(id), id);
    },

    /** Updates cart fields; addresses are given as input (a new address id each time) or null. */
    async update(id: string, input: Partial<CartInsert> & Pick<Partial<CartRow>, "completed_at">): Promise<CartRow> {
      const { shipping_address, billing_address, ...fields } = input;
      const set: Partial<CartRow> = { ...fields, updated_at: new Date() };
      if (fields.currency_code) set.currency_code = fields.currency_code.toLowerCase();
      if (shipping_address !== undefined) set.shipping_address = shipping_address ? toAddress(shipping_address) : null;
      if (billing_address !== undefined) set.billing_address = billing_address ? toAddress(billing_address) : null;
      return found(await q.update({ ...set, where_id: id }), id);
    },

    async addItem(cartId: string, input: LineItemInsert): Promise<CartLineItemRow> {
      return (await q.insertItem({
        ...input,
        id: generateId("cali"),
        cart_id: cartId,
        metadata: input.metadata ?? null,
      }))!;
    },

    async updateItem(
      cartId: string,
      itemId: string,
      input: Partial<Pick<CartLineItemRow, "quantity" | "unit_price" | "metadata">>,
    ): Promise<CartLineItemRow> {
      const { quantity, unit_price, metadata } = input;
      const updated = await q.updateItem({
        quantity,
        unit_price,
        metadata,
        cart_id: cartId,
        id: itemId,
        updated_at: new Date(),
      });
      if (!updated) throw errors.notFound(`Line item with id: ${itemId} was not found`);
      return updated;
    },

    /** Removes these lines of the cart (a refresh found them no longer for sale). */
    async deleteItems(cartId: string, itemIds: string[]): Promise<void> {
      if (itemIds.length) await q.deleteItems({ cart_id: cartId, ids: itemIds });
    },

    async deleteItem(cartId: string, itemId: string): Promise<void> {
      if (!(await q.deleteItem({ cart_id: cartId, id: itemId })))
        throw errors.notFound(`Line item with id: ${itemId} was not found`);
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
      const existing = current ?? (await q.methodsOf({ cart_id: cartId }));
      await service.deleteShippingMethods(existing.filter((m) => replacedBy(m, input)).map((m) => m.id));
      return (await q.insertMethod({ id: generateId("casm"), cart_id: cartId, ...input }))!;
    },

    async deleteShippingMethods(ids: string[]): Promise<void> {
      if (ids.length) await q.deleteMethods({ ids });
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
      await q.saveComputed({
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
    completedCartsPage: q.completedIds,

    /** Which of these ids are line items of a cart not completed, with their carts (checkout may be reserving for them). */
    async openCartLines(ids: string[]): Promise<Map<string, string>> {
      if (!ids.length) return new Map();
      const rows = await q.openCartLines({ ids });
      return new Map(rows.map((r) => [r.id, r.cart_id]));
    },
  };
  return service;
}

export type CartService = ReturnType<typeof createCartService>;

/** `row`, or `not_found` when there is no cart `id`. */
function found<T>(row: T | undefined, id: string): T {
  if (!row) throw errors.notFound(`Cart with id: ${id} was not found`);
  return row;
}

/** A stored address from request input: every field present (null when not given), lower-case country. */
export function toAddress(input: CartAddressInput): CartAddress {
  return toStoredAddress("caaddr", input);
}
