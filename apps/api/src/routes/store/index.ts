import type { App } from "../../app";
import { allowOrigins } from "../../plugins/cors";
import { resolveSalesChannels } from "../../plugins/publishable-key";
import { registerCatalogCache } from "./catalog-cache";

/**
 * `/store/*`: public unless a route adds `onRequest: app.guards.customer`. Every route here, however
 * its path was spelled, allows `STORE_CORS` origins and requires a valid `x-publishable-api-key`
 * when one is sent (hooks of this group, not checks on the URL's text).
 * Add a resource with one `import("./<resource>")` line in the list below.
 */
export default async function store(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.store);
  app.addHook("onRequest", resolveSalesChannels(app.publishableKeys));
  registerCatalogCache(app);
  // Every file starts loading at once; they register one after the other, in this order.
  for (const routes of [
    import("./products"),
    import("./product-variants"),
    import("./collections"),
    import("./product-categories"),
    import("./regions"),
    import("./locales"),
    import("./product-options"),
    import("./customers"),
    import("./orders"),
    import("./payment-providers"),
    import("./carts"),
    import("./cart-complete"),
    import("./shipping-options"),
    import("./payment-collections"),
  ])
    await app.register(routes);
}
