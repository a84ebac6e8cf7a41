import { adminApi, createApi, type Api } from "./api";
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
  /** A variant in stock at the location, for the orders the actions place. */
  variantId: string;
  locationId: string;
  /** The records the pages beyond the daily 20 open (collections, categories, settings, …). */
  more: MoreRecords;
}

/** One record of each kind the further pages open, found in the demo store or created here. */
interface MoreRecords {
  collectionId: string;
  categoryId: string;
  customerGroupId: string;
  campaignId: string;
  reservationId: string;
  taxRegionId: string;
  shippingProfileId: string;
  salesChannelId: string;
  apiKeyId: string;
  userId: string;
  productTypeId: string;
  productTagId: string;
  variantId: string;
  /** A location with shipping enabled: a service zone (France) and a shipping option in it. */
  shippingLocationId: string;
  shippingOptionTypeId: string;
  /** Germany's tax region: a country without provinces in the dashboard's list (its page reads `children`). */
  germanyTaxRegionId: string;
  /** The succeeded workflow execution with the most steps (the seeded order's completion). */
  workflowExecutionId: string;
}

type Json = Record<string, unknown>;

/**
 * What a merchant's first week leaves behind: a guest order placed through the storefront API
 * (cart → shipping → manual payment → complete), a customer in a group, a promotion and a price
 * list. Uses the contract's root API (integer minor units), whatever path the dashboard calls.
 */
export async function seedStore(kasse: RunningKasse): Promise<Seeded> {
  const admin = await adminApi(kasse);
  const store = createApi(kasse.origin, { "x-publishable-api-key": kasse.publishableKey });

  const { regions } = await admin<{ regions: Array<{ id: string; currency_code: string }> }>(
    "GET",
    "/admin/regions?limit=10",
  );
  const region = regions.find((r) => r.currency_code === "usd") ?? regions[0]!;
  const { products } = await store<{ products: Array<{ id: string; variants: Array<{ id: string }> }> }>(
    "GET",
    "/store/products?limit=1",
  );
  const product = products[0]!;
  const variantId = product.variants[0]!.id;

  // Stock enough for the orders the actions place (the demo store stocks 5 to 44 of each variant).
  const { stock_locations } = await admin<{ stock_locations: Array<{ id: string }> }>(
    "GET",
    "/admin/stock-locations?limit=1",
  );
  const locationId = stock_locations[0]!.id;
  const { variants } = await admin<{
    variants: Array<{ id: string; inventory_items: Array<{ inventory_item_id: string }> }>;
  }>("GET", `/admin/products/${product.id}/variants?id=${variantId}`);
  const inventoryItemId = variants[0]!.inventory_items[0]!.inventory_item_id;
  await admin("POST", `/admin/inventory-items/${inventoryItemId}/location-levels/${locationId}`, {
    stocked_quantity: 100,
  });
  const orderId = await placeOrder(kasse, region.id, variantId);

  const { customer } = await admin<{ customer: { id: string } }>("POST", "/admin/customers", {
    email: "grace@example.com",
    first_name: "Grace",
    last_name: "Hopper",
  });
  const { customer_group } = await admin<{ customer_group: { id: string } }>("POST", "/admin/customer-groups", {
    name: "VIP",
  });
  await admin("POST", `/admin/customer-groups/${customer_group.id}/customers`, { add: [customer.id] });

  const { promotion } = await admin<{ promotion: { id: string } }>("POST", "/admin/promotions", {
    code: "WELCOME10",
    type: "standard",
    status: "active",
    application_method: { type: "percentage", target_type: "order", value: 10 },
  });
  const { price_list } = await admin<{ price_list: { id: string } }>("POST", "/admin/price-lists", {
    title: "Summer sale",
    description: "A sale price for one variant",
    type: "sale",
    status: "active",
    prices: [{ variant_id: variantId, currency_code: region.currency_code, amount: 1000 }],
  });

  return {
    orderId,
    productId: product.id,
    inventoryItemId,
    customerId: customer.id,
    promotionId: promotion.id,
    priceListId: price_list.id,
    regionId: region.id,
    variantId,
    locationId,
    more: await seedMoreRecords(admin, {
      customerGroupId: customer_group.id,
      inventoryItemId,
      locationId,
      productId: product.id,
      variantId,
    }),
  };
}

/**
 * The records the pages beyond the daily 20 open: the demo store's first collection, category, tax
 * region, shipping profile, sales channel, key, user and tag, and what it has none of (a campaign, a
 * product type, a reservation) created through the API.
 */
async function seedMoreRecords(
  admin: Api,
  known: { customerGroupId: string; inventoryItemId: string; locationId: string; productId: string; variantId: string },
): Promise<MoreRecords> {
  const first = async (path: string, key: string): Promise<string> => {
    const page = await admin<Record<string, Array<{ id: string }>>>("GET", `/admin/${path}?limit=1`);
    const id = page[key]?.[0]?.id;
    if (!id) throw new Error(`the demo store has no ${key}`);
    return id;
  };
  const { campaign } = await admin<{ campaign: { id: string } }>("POST", "/admin/campaigns", {
    name: "Autumn",
    campaign_identifier: "autumn-2026",
  });
  const { product_type } = await admin<{ product_type: { id: string } }>("POST", "/admin/product-types", {
    value: "Apparel",
  });
  const { reservation } = await admin<{ reservation: { id: string } }>("POST", "/admin/reservations", {
    inventory_item_id: known.inventoryItemId,
    location_id: known.locationId,
    quantity: 1,
    description: "Held for a phone order",
  });
  const shipping = await seedShippingLocation(admin);
  return {
    ...shipping,
    collectionId: await first("collections", "collections"),
    categoryId: await first("product-categories", "product_categories"),
    customerGroupId: known.customerGroupId,
    campaignId: campaign.id,
    reservationId: reservation.id,
    taxRegionId: await first("tax-regions", "tax_regions"),
    germanyTaxRegionId: (
      await admin<{ tax_regions: Array<{ id: string; province_code: string | null }> }>(
        "GET",
        "/admin/tax-regions?country_code=de",
      )
    ).tax_regions.find((r) => r.province_code === null)!.id,
    shippingProfileId: await first("shipping-profiles", "shipping_profiles"),
    salesChannelId: await first("sales-channels", "sales_channels"),
    apiKeyId: await first("api-keys", "api_keys"),
    userId: await first("users", "users"),
    productTypeId: product_type.id,
    productTagId: await first("product-tags", "product_tags"),
    variantId: known.variantId,
    workflowExecutionId: await seededExecution(admin),
  };
}

/** The succeeded workflow execution that ran the most steps (the seeded order's completion): the one whose page the survey opens. */
async function seededExecution(admin: Api): Promise<string> {
  const { workflow_executions } = await admin<{
    workflow_executions: Array<{ id: string; execution: { steps: Record<string, unknown> } }>;
  }>("GET", "/admin/workflow-executions?state=succeeded&limit=50");
  const steps = (e: (typeof workflow_executions)[number]) => Object.keys(e.execution.steps).length;
  const found = workflow_executions.reduce<(typeof workflow_executions)[number] | undefined>(
    (best, e) => (best === undefined || steps(e) > steps(best) ? e : best),
    undefined,
  );
  if (!found || steps(found) === 0) throw new Error("no succeeded workflow execution with steps after seeding");
  return found.id;
}

/**
 * What a merchant's shipping setup leaves: a shipping option type, a location with shipping
 * enabled, its service zone "France" (a country geo zone) and a €6.90 shipping option there.
 */
async function seedShippingLocation(admin: Api): Promise<{ shippingLocationId: string; shippingOptionTypeId: string }> {
  const { shipping_option_type } = await admin<{ shipping_option_type: { id: string } }>(
    "POST",
    "/admin/shipping-option-types",
    { label: "Standard", code: "standard", description: "Two to four days" },
  );
  const { stock_location } = await admin<{ stock_location: { id: string } }>("POST", "/admin/stock-locations", {
    name: "Lyon warehouse",
  });
  const { stock_location: withSet } = await admin<{ stock_location: { fulfillment_sets: Array<{ id: string }> } }>(
    "POST",
    `/admin/stock-locations/${stock_location.id}/fulfillment-sets`,
    { name: "Lyon warehouse shipping", type: "shipping" },
  );
  const { fulfillment_set } = await admin<{ fulfillment_set: { service_zones: Array<{ id: string }> } }>(
    "POST",
    `/admin/fulfillment-sets/${withSet.fulfillment_sets[0]!.id}/service-zones`,
    { name: "France", geo_zones: [{ type: "country", country_code: "fr" }] },
  );
  await admin("POST", "/admin/shipping-options", {
    name: "Colissimo",
    price_type: "flat",
    service_zone_id: fulfillment_set.service_zones[0]!.id,
    provider_id: "manual_manual",
    type_id: shipping_option_type.id,
    prices: [{ currency_code: "eur", amount: 690 }],
    rules: [
      { attribute: "is_return", operator: "eq", value: "false" },
      { attribute: "enabled_in_store", operator: "eq", value: "true" },
    ],
  });
  return { shippingLocationId: stock_location.id, shippingOptionTypeId: shipping_option_type.id };
}

/**
 * A guest order placed through the storefront API as a shopper does (cart → address → shipping →
 * manual payment, authorized → complete): two of `variantId` in `regionId`. Returns the order's id.
 */
export async function placeOrder(kasse: RunningKasse, regionId: string, variantId: string): Promise<string> {
  const store = createApi(kasse.origin, { "x-publishable-api-key": kasse.publishableKey });
  const address = {
    first_name: "Ada",
    last_name: "Lovelace",
    address_1: "1 Main St",
    city: "Springfield",
    postal_code: "12345",
    country_code: "us",
  };
  const { cart } = await store<{ cart: { id: string } }>("POST", "/store/carts", { region_id: regionId });
  await store("POST", `/store/carts/${cart.id}/line-items`, { variant_id: variantId, quantity: 2 });
  await store("POST", `/store/carts/${cart.id}`, {
    email: "ada@example.com",
    shipping_address: address,
    billing_address: address,
  });
  const { shipping_options } = await store<{ shipping_options: Array<{ id: string }> }>(
    "GET",
    `/store/shipping-options?cart_id=${cart.id}`,
  );
  await store("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0]!.id });
  const { payment_collection } = await store<{ payment_collection: { id: string } }>(
    "POST",
    "/store/payment-collections",
    { cart_id: cart.id },
  );
  await store("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
    provider_id: "pp_system_default",
  });
  const completed = await store<{ type: string; order?: { id: string }; error?: Json }>(
    "POST",
    `/store/carts/${cart.id}/complete`,
    {},
  );
  if (completed.type !== "order" || !completed.order)
    throw new Error(`checkout did not place an order: ${JSON.stringify(completed.error)}`);
  return completed.order.id;
}
