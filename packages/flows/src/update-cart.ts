import type { Modules } from "@kasse/modules";
import { errors, isKasseError } from "@kasse/core";
import {
  replacedBy,
  type CartAddressInput,
  type CartCreate,
  type CartUpdate,
  type ShippingMethodCreate,
} from "@kasse/modules/cart";
import type { Region } from "@kasse/modules/region";
import { writeCart, type CartActor, type CartChange } from "./cart-write";
import { nullIfMissing, type CartResult } from "./cart-result";
import { refreshCart } from "./refresh-cart";
import { recordEvent } from "@kasse/modules/event";
import { writeWithEvents } from "./events";

/** A body's promotion codes without its `null` entries (an automatic promotion's code, sent back by storefronts). */
const presentCodes = (codes: Array<string | null> | undefined): string[] | undefined =>
  codes?.filter((c): c is string => c !== null);

/** Where a new cart is sold: the request's sales channels (publishable key, else the default channel). */
export interface CartChannelContext {
  /** The channels the request may use; the first is the default for a new cart. */
  sales_channel_ids: string[];
  /** True when they come from a publishable key: `sales_channel_id` must then be one of them. */
  from_publishable_key: boolean;
}

/**
 * Creates a cart: the region named (else the store's first region), its currency, the sales
 * channel named (else the request's), the signed-in customer (and their email when none is
 * given), addresses, metadata and promotion codes (each must apply). One transaction.
 * @example
 * const result = await createCart(app.modules, { customer_id: null }, { sales_channel_ids: [defaultId], from_publishable_key: false }, { region_id });
 */
export function createCart(
  m: Modules,
  actor: CartActor,
  channels: CartChannelContext,
  input: CartCreate,
): Promise<CartResult> {
  return writeWithEvents(async () => {
    // Independent reads, sent together (one round trip on the transaction's connection).
    const [region, sales_channel_id] = await Promise.all([
      input.region_id ? regionFor(m, input.region_id) : defaultRegion(m),
      salesChannelFor(m, channels, input.sales_channel_id),
    ]);
    const currency_code = currencyFor(region, input.currency_code);
    const customer = actor.customer_id ? await m.customer.retrieve(actor.customer_id).catch(nullIfMissing) : null;
    const created = await m.cart.create({
      region_id: region.id,
      sales_channel_id,
      currency_code,
      customer_id: actor.customer_id,
      email: input.email ?? customer?.email ?? null,
      locale: input.locale ?? null,
      metadata: input.metadata ?? null,
      shipping_address: input.shipping_address ?? null,
      billing_address: input.billing_address ?? null,
    });
    const codes = presentCodes(input.promo_codes) ?? [];
    // A new cart has no lines or methods yet: no need to read them back. The event goes out with
    // the refresh's write (a refresh that fails rolls it back).
    const [result] = await Promise.all([
      refreshCart(m, { cart: created, items: [], shipping_methods: [] }, { codes, requireCodes: codes, region }),
      recordEvent("cart.created", { id: created.id, currency_code, customer_id: actor.customer_id }),
    ]);
    return result;
  });
}

/**
 * Updates a cart (`POST /store/carts/{id}`). A new region re-prices every line in its currency
 * and drops shipping methods that no longer apply; a shipping address outside the new region's
 * countries is cleared, as Medusa does.
 */
export function updateCart(
  m: Modules,
  cartId: string,
  actor: CartActor,
  channels: CartChannelContext,
  input: CartUpdate,
): Promise<CartResult> {
  return writeCart(m, cartId, actor, async (state) => {
    const { region_id, currency_code, sales_channel_id, promo_codes, ...fields } = input;
    const changes: Parameters<Modules["cart"]["update"]>[1] = { ...fields };
    const options: CartChange = {};
    if (region_id !== undefined && region_id !== state.cart.region_id) {
      const region = await regionFor(m, region_id);
      options.region = region;
      changes.region_id = region.id;
      changes.currency_code = currencyFor(region, currency_code);
      const country = (
        fields.shipping_address === undefined ? state.cart.shipping_address : fields.shipping_address
      )?.country_code?.toLowerCase();
      if (country && region.countries.length && !region.countries.some((c) => c.iso_2 === country))
        changes.shipping_address = null;
    } else if (currency_code !== undefined && currency_code.toLowerCase() !== state.cart.currency_code) {
      throw errors.invalidData(`Currency ${currency_code.toLowerCase()} is not the currency of the cart's region`);
    }
    if (sales_channel_id !== undefined) {
      changes.sales_channel_id = await salesChannelFor(m, channels, sales_channel_id);
      // Another channel may not sell every line: each is checked, and the ones it does not sell removed.
      options.recheck = changes.sales_channel_id !== state.cart.sales_channel_id;
    }
    const row = await m.cart.update(cartId, changes);
    const codes = presentCodes(promo_codes);
    if (codes !== undefined) {
      options.codes = codes;
      options.requireCodes = codes.filter(
        (c) => !state.cart.promo_codes.some((k) => k.toLowerCase() === c.toLowerCase()),
      );
    }
    return { ...options, state: { ...state, cart: row } };
  });
}

/** Sets the shipping or billing address (the contract's dedicated endpoints). */
export function setCartAddress(
  m: Modules,
  cartId: string,
  actor: CartActor,
  kind: "shipping_address" | "billing_address",
  address: CartAddressInput,
): Promise<CartResult> {
  return writeCart(m, cartId, actor, async (state) => ({
    state: { ...state, cart: await m.cart.update(cartId, { [kind]: address }) },
  }));
}

/**
 * Adds the shipping method of an option valid for the cart (its region and currency), replacing
 * the cart's method of the same shipping profile; any other option is 400 `invalid_data`.
 */
export function addShippingMethod(
  m: Modules,
  cartId: string,
  actor: CartActor,
  input: ShippingMethodCreate,
): Promise<CartResult> {
  return writeCart(m, cartId, actor, async (state) => {
    const options = await m.fulfillment.optionsForContext({
      region_id: state.cart.region_id,
      currency_code: state.cart.currency_code,
      address: state.cart.shipping_address,
    });
    const option = options.find((o) => o.id === input.option_id);
    if (!option) throw errors.invalidData(`Shipping option with id: ${input.option_id} is not valid for the cart`);
    const insert = {
      shipping_option_id: option.id,
      shipping_profile_id: option.shipping_profile_id,
      name: option.name,
      amount: option.amount,
      is_tax_inclusive: false,
      data: input.data ?? {},
    };
    const method = await m.cart.setShippingMethod(cartId, insert, state.shipping_methods);
    const shipping_methods = [...state.shipping_methods.filter((s) => !replacedBy(s, insert)), method];
    // The cart's region, currency and address are unchanged: the refresh prices with these options.
    return { state: { ...state, shipping_methods }, shippingOptions: options };
  });
}

/** Applies promotion codes: each must exist and discount the cart, else 400 naming it and nothing changes. */
export function addPromotions(m: Modules, cartId: string, actor: CartActor, codes: string[]): Promise<CartResult> {
  return writeCart(m, cartId, actor, async (state) => {
    const current = state.cart.promo_codes;
    const added = codes.filter((c) => !current.some((k) => k.toLowerCase() === c.toLowerCase()));
    return { codes: [...current, ...added], requireCodes: added, state };
  });
}

/** Removes promotion codes from the cart (unknown ones are ignored, as in Medusa). */
export function removePromotions(m: Modules, cartId: string, actor: CartActor, codes: string[]): Promise<CartResult> {
  return writeCart(m, cartId, actor, async (state) => {
    const removed = new Set(codes.map((c) => c.toLowerCase()));
    return { codes: state.cart.promo_codes.filter((c) => !removed.has(c.toLowerCase())), state };
  });
}

/** Recomputes taxes now, even in a region without automatic taxes (`POST /store/carts/{id}/taxes`). */
export function calculateCartTaxes(m: Modules, cartId: string, actor: CartActor): Promise<CartResult> {
  return writeCart(m, cartId, actor, async (state) => ({ forceTaxes: true, state }));
}

/**
 * Gives a guest cart to the signed-in customer (`POST /store/carts/{id}/customer`): the cart takes
 * their id and email (or the email given) and is re-priced for their customer groups.
 */
export async function transferCart(
  m: Modules,
  cartId: string,
  actor: CartActor,
  input: { customer_id?: string; email?: string },
): Promise<CartResult> {
  if (!actor.customer_id) throw errors.unauthorized("A signed-in customer is required to take over a cart");
  const customerId = actor.customer_id;
  if (input.customer_id && input.customer_id !== customerId)
    throw errors.notAllowed("A cart can only be transferred to the signed-in customer");
  return writeCart(m, cartId, actor, async (state) => {
    const customer = await m.customer.retrieve(customerId);
    const row = await m.cart.update(cartId, { customer_id: customer.id, email: input.email ?? customer.email });
    return { state: { ...state, cart: row } };
  });
}

async function regionFor(m: Modules, id: string): Promise<Region> {
  try {
    return await m.region.retrieve(id);
  } catch (error) {
    if (isKasseError(error) && error.type === "not_found")
      throw errors.invalidData(`Region with id: ${id} was not found`);
    throw error;
  }
}

/** The store's default region: its oldest (Medusa uses the store's default region). */
async function defaultRegion(m: Modules): Promise<Region> {
  const { items } = await m.region.list({}, { limit: 1, offset: 0, order: "created_at" });
  if (!items[0]) throw errors.invalidData("No region_id was given and the store has no region");
  return items[0];
}

/** A cart's currency is its region's; naming another one is 400. */
function currencyFor(region: Region, requested: string | undefined): string {
  if (requested && requested.toLowerCase() !== region.currency_code)
    throw errors.invalidData(`Currency ${requested.toLowerCase()} is not the currency of region ${region.id}`);
  return region.currency_code;
}

async function salesChannelFor(
  m: Modules,
  channels: CartChannelContext,
  requested: string | undefined,
): Promise<string> {
  if (requested && channels.from_publishable_key && !channels.sales_channel_ids.includes(requested)) {
    throw errors.invalidData(`Sales channel ${requested} is not part of the publishable key`);
  }
  const id = requested ?? channels.sales_channel_ids[0];
  if (!id) throw errors.invalidData("The publishable key has no sales channel");
  const channel = await m.salesChannel.retrieve(id).catch((error: unknown) => {
    throw isKasseError(error) && error.type === "not_found"
      ? errors.invalidData(`Sales channel with id: ${id} was not found`)
      : error;
  });
  if (channel.is_disabled) throw errors.invalidData(`Sales channel ${id} is disabled`);
  return channel.id;
}
