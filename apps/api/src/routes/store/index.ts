import type { App } from "../../app";
import { allowOrigins } from "../../plugins/cors";
import { resolveSalesChannels } from "../../plugins/publishable-key";
import { registerCatalogCache } from "./catalog-cache";

/**
 * `/store/*`: public unless a route adds `onRequest: app.guards.customer`. Every route here, however
 * its path was spelled, allows `STORE_CORS` origins and requires a valid `x-publishable-api-key`
 * when one is sent (hooks of this group, not checks on the URL's text).
 * Add a resource with one `await app.register(import("./<resource>"))` line.
 */
export default async function store(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.store);
  app.addHook("onRequest", resolveSalesChannels(app.publishableKeys));
  registerCatalogCache(app);
  await app.register(import("./products"));
  await app.register(import("./product-variants"));
  await app.register(import("./collections"));
  await app.register(import("./product-categories"));
  await app.register(import("./regions"));
  await app.register(import("./locales"));
  await app.register(import("./product-options"));
  await app.register(import("./customers"));
  await app.register(import("./orders"));
  await app.register(import("./payment-providers"));
  await app.register(import("./carts"));
  await app.register(import("./cart-complete"));
  await app.register(import("./shipping-options"));
  await app.register(import("./payment-collections"));
}
