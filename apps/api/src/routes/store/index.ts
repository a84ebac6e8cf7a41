import type { App } from "../../app-type";
import { allowOrigins } from "../../plugins/cors";
import { resolveSalesChannels } from "../../plugins/publishable-key";
import { registerCatalogCache } from "./catalog-cache";
import productsRoutes from "./products";
import productVariantsRoutes from "./product-variants";
import collectionsRoutes from "./collections";
import productCategoriesRoutes from "./product-categories";
import regionsRoutes from "./regions";
import localesRoutes from "./locales";
import productOptionsRoutes from "./product-options";
import customersRoutes from "./customers";
import ordersRoutes from "./orders";
import paymentProvidersRoutes from "./payment-providers";
import cartsRoutes from "./carts";
import cartCompleteRoutes from "./cart-complete";
import shippingOptionsRoutes from "./shipping-options";
import paymentCollectionsRoutes from "./payment-collections";
import returnsRoutes from "./returns";

/**
 * `/store/*`: public unless a route adds `onRequest: app.guards.customer`. Every route here, however
 * its path was spelled, allows `STORE_CORS` origins and requires a valid `x-publishable-api-key`
 * when one is sent (hooks of this group, not checks on the URL's text).
 * Add a resource with an import of its file and its name in the list below.
 */
export default async function store(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.store);
  app.addHook("onRequest", resolveSalesChannels(app.publishableKeys));
  registerCatalogCache(app);
  for (const routes of [
    productsRoutes,
    productVariantsRoutes,
    collectionsRoutes,
    productCategoriesRoutes,
    regionsRoutes,
    localesRoutes,
    productOptionsRoutes,
    customersRoutes,
    ordersRoutes,
    paymentProvidersRoutes,
    cartsRoutes,
    cartCompleteRoutes,
    shippingOptionsRoutes,
    paymentCollectionsRoutes,
    returnsRoutes,
  ])
    await app.register(routes);
}
