import type { DemoStore } from "@kasse/operations";

/** What a new user needs to point a storefront at the demo store. */
export function describeStore(store: DemoStore): string[] {
  return [
    `Demo store seeded: ${store.product_count} products, regions ${store.region_ids.us} (US) and ${store.region_ids.eu} (Europe).`,
    `Publishable API key (x-publishable-api-key): ${store.publishable_api_key}`,
  ];
}
