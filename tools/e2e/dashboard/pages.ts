import type { Seeded } from "./seed";

/** One page of the dashboard: a name for reports and allow-list entries, and its path under /app. */
export interface DashboardPage {
  name: string;
  path: string;
}

/** The 20 pages the run opens, detail pages on the seeded records. */
export function surveyPages(s: Seeded): DashboardPage[] {
  return [
    { name: "orders-list", path: "/orders" },
    { name: "order-detail", path: `/orders/${s.orderId}` },
    { name: "products-list", path: "/products" },
    { name: "product-detail", path: `/products/${s.productId}` },
    { name: "inventory-list", path: "/inventory" },
    { name: "inventory-detail", path: `/inventory/${s.inventoryItemId}` },
    { name: "customers-list", path: "/customers" },
    { name: "customer-detail", path: `/customers/${s.customerId}` },
    { name: "promotions-list", path: "/promotions" },
    { name: "promotion-detail", path: `/promotions/${s.promotionId}` },
    { name: "price-lists-list", path: "/price-lists" },
    { name: "price-list-detail", path: `/price-lists/${s.priceListId}` },
    { name: "settings-store", path: "/settings/store" },
    { name: "settings-regions", path: "/settings/regions" },
    { name: "region-detail", path: `/settings/regions/${s.regionId}` },
    { name: "settings-sales-channels", path: "/settings/sales-channels" },
    { name: "settings-locations", path: "/settings/locations" },
    { name: "location-detail", path: `/settings/locations/${s.locationId}` },
    { name: "settings-users", path: "/settings/users" },
    { name: "settings-api-keys", path: "/settings/publishable-api-keys" },
  ];
}
