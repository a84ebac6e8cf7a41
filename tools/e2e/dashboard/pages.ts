import type { Seeded } from "./seed";

/** One page of the dashboard: a name for reports and allow-list entries, and its path under /app. */
export interface DashboardPage {
  name: string;
  path: string;
}

/** The 20 pages the survey measured, then the further pages a merchant reaches from the menus and settings; detail pages on the seeded records. */
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
    ...furtherPages(s),
  ];
}

/** The pages the survey left out: collections, categories, groups, campaigns, reservations, variants, a location with shipping and the rest of settings. */
function furtherPages({ more, productId }: Seeded): DashboardPage[] {
  return [
    { name: "collections-list", path: "/collections" },
    { name: "collection-detail", path: `/collections/${more.collectionId}` },
    { name: "categories-list", path: "/categories" },
    { name: "category-detail", path: `/categories/${more.categoryId}` },
    { name: "variant-detail", path: `/products/${productId}/variants/${more.variantId}` },
    { name: "customer-groups-list", path: "/customer-groups" },
    { name: "customer-group-detail", path: `/customer-groups/${more.customerGroupId}` },
    { name: "campaigns-list", path: "/campaigns" },
    { name: "campaign-detail", path: `/campaigns/${more.campaignId}` },
    { name: "reservations-list", path: "/reservations" },
    { name: "reservation-detail", path: `/reservations/${more.reservationId}` },
    { name: "settings-profile", path: "/settings/profile" },
    { name: "user-detail", path: `/settings/users/${more.userId}` },
    { name: "sales-channel-detail", path: `/settings/sales-channels/${more.salesChannelId}` },
    { name: "api-key-detail", path: `/settings/publishable-api-keys/${more.apiKeyId}` },
    { name: "settings-secret-api-keys", path: "/settings/secret-api-keys" },
    { name: "settings-tax-regions", path: "/settings/tax-regions" },
    { name: "tax-region-detail", path: `/settings/tax-regions/${more.taxRegionId}` },
    { name: "tax-region-detail-germany", path: `/settings/tax-regions/${more.germanyTaxRegionId}` },
    { name: "settings-return-reasons", path: "/settings/return-reasons" },
    { name: "settings-refund-reasons", path: "/settings/refund-reasons" },
    { name: "settings-product-types", path: "/settings/product-types" },
    { name: "product-type-detail", path: `/settings/product-types/${more.productTypeId}` },
    { name: "settings-product-tags", path: "/settings/product-tags" },
    { name: "product-tag-detail", path: `/settings/product-tags/${more.productTagId}` },
    { name: "settings-shipping-profiles", path: "/settings/locations/shipping-profiles" },
    { name: "shipping-profile-detail", path: `/settings/locations/shipping-profiles/${more.shippingProfileId}` },
    { name: "location-shipping-detail", path: `/settings/locations/${more.shippingLocationId}` },
    { name: "settings-shipping-option-types", path: "/settings/locations/shipping-option-types" },
    {
      name: "shipping-option-type-detail",
      path: `/settings/locations/shipping-option-types/${more.shippingOptionTypeId}`,
    },
    { name: "settings-workflows", path: "/settings/workflows" },
    { name: "workflow-execution-detail", path: `/settings/workflows/${more.workflowExecutionId}` },
  ];
}
