import type { RunningKasse } from "./kasse";

/** The records the detail pages open, created through Kasse's own API on top of the demo store. */
export interface Seeded {
  orderId: string;
  productId: string;
  inventoryItemId: string;
  customerId: string;
  promotionId: string;
  priceListId: string;
  regionId: string;
  locationId: string;
}

type Json = Record<string, unknown>;

/**
 * What a merchant's first week leaves behind: a guest order placed through the storefront API
 * (cart → shipping → manual payment → complete), a customer in a group, a promotion and a price
 * list. Uses the contract's root API (integer minor units), whatever path the dashboard calls.
 */
export async function seedStore(kasse: RunningKasse): Promise<Seeded> {
  const call = caller(kasse.origin);
  const { token } = await call<{ token: string }>("POST", "/auth/user/emailpass", kasse.admin);
  const admin = { authorization: `Bearer ${token}` };
  const store = { "x-publishable-api-key": kasse.publishableKey };

  const { regions } = await call<{ regions: Array<{ id: string; currency_code: string }> }>("GET", "/admin/regions?limit=10", undefined, admin);
  const region = regions.find((r) => r.currency_code === "usd") ?? regions[0]!;
  const { products } = await call<{ products: Array<{ id: string; variants: Array<{ id: string }> }> }>("GET", "/store/products?limit=1", undefined, store);
  const product = products[0]!;
  const variantId = product.variants[0]!.id;

  const address = { first_name: "Ada", last_name: "Lovelace", address_1: "1 Main St", city: "Springfield", postal_code: "12345", country_code: "us" };
  const { cart } = await call<{ cart: { id: string } }>("POST", "/store/carts", { region_id: region.id }, store);
  await call("POST", `/store/carts/${cart.id}/line-items`, { variant_id: variantId, quantity: 2 }, store);
  await call("POST", `/store/carts/${cart.id}`, { email: "ada@example.com", shipping_address: address, billing_address: address }, store);
  const { shipping_options } = await call<{ shipping_options: Array<{ id: string }> }>("GET", `/store/shipping-options?cart_id=${cart.id}`, undefined, store);
  await call("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0]!.id }, store);
  const { payment_collection } = await call<{ payment_collection: { id: string } }>("POST", "/store/payment-collections", { cart_id: cart.id }, store);
  await call("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, { provider_id: "pp_system_default" }, store);
  const completed = await call<{ type: string; order?: { id: string }; error?: Json }>("POST", `/store/carts/${cart.id}/complete`, {}, store);
  if (completed.type !== "order" || !completed.order) throw new Error(`checkout did not place an order: ${JSON.stringify(completed.error)}`);

  const { customer } = await call<{ customer: { id: string } }>("POST", "/admin/customers", { email: "grace@example.com", first_name: "Grace", last_name: "Hopper" }, admin);
  const { customer_group } = await call<{ customer_group: { id: string } }>("POST", "/admin/customer-groups", { name: "VIP" }, admin);
  await call("POST", `/admin/customer-groups/${customer_group.id}/customers`, { add: [customer.id] }, admin);

  const { promotion } = await call<{ promotion: { id: string } }>(
    "POST",
    "/admin/promotions",
    { code: "WELCOME10", type: "standard", status: "active", application_method: { type: "percentage", target_type: "order", value: 10 } },
    admin,
  );
  const { price_list } = await call<{ price_list: { id: string } }>(
    "POST",
    "/admin/price-lists",
    { title: "Summer sale", description: "A sale price for one variant", type: "sale", status: "active", prices: [{ variant_id: variantId, currency_code: region.currency_code, amount: 1000 }] },
    admin,
  );

  const { inventory_items } = await call<{ inventory_items: Array<{ id: string }> }>("GET", "/admin/inventory-items?limit=1", undefined, admin);
  const { stock_locations } = await call<{ stock_locations: Array<{ id: string }> }>("GET", "/admin/stock-locations?limit=1", undefined, admin);
  return {
    orderId: completed.order.id,
    productId: product.id,
    inventoryItemId: inventory_items[0]!.id,
    customerId: customer.id,
    promotionId: promotion.id,
    priceListId: price_list.id,
    regionId: region.id,
    locationId: stock_locations[0]!.id,
  };
}

function caller(origin: string) {
  return async <T = Json>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> => {
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`seeding: ${method} ${path} answered ${res.status}: ${text}`);
    return JSON.parse(text) as T;
  };
}
