import type { TestApp } from "./app";
import { createFixtureProduct, type FixtureVariant } from "./catalog";

/** What {@link checkoutStore} set up. */
export interface CheckoutStore {
  channelId: string;
  locationId: string;
  regionId: string;
  /** The flat-rate shipping option. */
  optionId: string;
  /** The product's variants, in the order given. */
  variantIds: string[];
}

/**
 * A store that can sell: the default sales channel (or a new one named `channel`) with a stock location, a region, a published
 * product with `variants` stocked there, and a flat-rate shipping option.
 * @example
 * const store = await checkoutStore(t, { variants: [{ title: "M", size: "M", stock: 10, prices: [{ currency_code: "eur", amount: 2000 }] }] });
 */
export async function checkoutStore(
  t: TestApp,
  input: {
    /** A new sales channel of this name instead of the store's default one. */
    channel?: string;
    region?: { name: string; currency_code: string; countries: string[]; payment_providers?: string[] };
    title?: string;
    variants: FixtureVariant[];
    shipping_amount?: number;
  },
): Promise<CheckoutStore> {
  const m = t.app.modules;
  const region = input.region ?? { name: "Europe", currency_code: "eur", countries: ["de"] };
  const channel = input.channel
    ? await m.salesChannel.create({ name: input.channel })
    : await m.salesChannel.getOrCreateDefault();
  const location = await m.stockLocation.create({ name: "Warehouse" });
  await m.stockLocation.updateSalesChannels(location.id, { add: [channel.id] });
  const regionId = (await m.region.create(region)).id;
  const product = await createFixtureProduct(
    t,
    {
      title: input.title ?? "Tee",
      status: "published",
      sales_channels: [{ id: channel.id }],
      variants: input.variants,
    },
    location.id,
  );
  const optionId = (
    await m.fulfillment.createOption({
      name: "Standard",
      prices: [{ currency_code: region.currency_code, amount: input.shipping_amount ?? 500 }],
    })
  ).id;
  return { channelId: channel.id, locationId: location.id, regionId, optionId, variantIds: product.variantIds };
}

/** A German address, the default of {@link checkoutReadyCart}. */
export const TEST_ADDRESS = {
  first_name: "Ada",
  last_name: "Lovelace",
  address_1: "Hauptstr. 1",
  city: "Berlin",
  postal_code: "10115",
  country_code: "de",
};

/** An American address, for stores selling in the US. */
export const US_ADDRESS = {
  first_name: "Ada",
  last_name: "Lovelace",
  address_1: "1 Main St",
  city: "Springfield",
  postal_code: "12345",
  country_code: "us",
};

/** A German region that takes the test payment provider too (`pp_test`, whose sessions can fail or hang on request). */
export const PP_TEST_REGION = {
  name: "Europe",
  currency_code: "eur",
  countries: ["de"],
  payment_providers: ["pp_system_default", "pp_test"],
};

export interface ReadyCartOptions {
  region_id: string;
  option_id: string;
  variant_id: string;
  quantity?: number;
  /** More lines, added after the first one. */
  more_items?: Array<{ variant_id: string; quantity: number }>;
  /** Payment provider (default `pp_system_default`) and its session data (`{ behavior }` for `pp_test`). */
  provider?: string;
  data?: Record<string, unknown>;
  promo?: string;
  /** The shopper's email (`ada@example.com` unless given). */
  email?: string;
  address?: Record<string, string>;
  headers?: Record<string, string>;
}

/**
 * A cart ready to complete, built through the store API as a storefront does: line, email and
 * addresses, shipping method, promotion code (when given), payment collection and session.
 * Throws with the answer when a step is not 200. Returns the cart as `GET /store/carts/{id}` answers it.
 */
export async function checkoutReadyCart(t: TestApp, options: ReadyCartOptions) {
  const headers = options.headers ?? {};
  const address = options.address ?? TEST_ADDRESS;
  const ok = async (method: "GET" | "POST", url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.json();
  };
  const { cart } = await ok("POST", "/store/carts", { region_id: options.region_id });
  await ok("POST", `/store/carts/${cart.id}/line-items`, {
    variant_id: options.variant_id,
    quantity: options.quantity ?? 2,
  });
  for (const item of options.more_items ?? []) await ok("POST", `/store/carts/${cart.id}/line-items`, item);
  await ok("POST", `/store/carts/${cart.id}`, {
    email: options.email ?? "ada@example.com",
    shipping_address: address,
    billing_address: address,
  });
  await ok("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: options.option_id });
  if (options.promo) await ok("POST", `/store/carts/${cart.id}/promotions`, { promo_codes: [options.promo] });
  const { payment_collection } = await ok("POST", "/store/payment-collections", { cart_id: cart.id });
  await ok("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
    provider_id: options.provider ?? "pp_system_default",
    data: options.data ?? {},
  });
  return (await ok("GET", `/store/carts/${cart.id}`)).cart;
}
