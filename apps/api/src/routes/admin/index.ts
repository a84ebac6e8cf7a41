import type { App } from "../../app";
import { allowOrigins } from "../../plugins/cors";

/**
 * `/admin/*`: every route here, however its path was spelled, allows `ADMIN_CORS` origins and
 * requires an admin (a user's JWT or a secret API key): hooks of this group, not checks on the URL.
 * Add a resource with one `import("./<resource>")` line in the list below.
 */
export default async function admin(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.admin);
  app.addHook("onRequest", app.guards.admin);
  // Every file starts loading at once; they register one after the other, in this order.
  for (const routes of [
    import("./api-keys"),
    import("./users"),
    import("./invites"),
    import("./sales-channels"),
    import("./sales-channel-products"),
    import("./products"),
    import("./collections"),
    import("./product-categories"),
    import("./product-tags"),
    import("./product-types"),
    import("./currencies"),
    import("./regions"),
    import("./tax-regions"),
    import("./price-preferences"),
    import("./price-lists"),
    import("./stock-locations"),
    import("./inventory-items"),
    import("./reservations"),
    import("./customers"),
    import("./orders"),
    import("./payments"),
    import("./return-reasons"),
    import("./returns"),
    import("./return-changes"),
    import("./customer-groups"),
    import("./notifications"),
    import("./webhooks"),
    import("./shipping-profiles"),
    import("./shipping-options"),
    import("./shipping-option-types"),
    import("./fulfillment-sets"),
    import("./promotions"),
    import("./payment-providers"),
    import("./campaigns"),
    import("./workflow-executions"),
    import("./queues"),
    import("./dashboard-shell"),
    import("./stores"),
    import("./order-claims-exchanges"),
    import("./refund-reasons"),
    import("./product-options"),
    import("./fulfillment-providers"),
    import("./uploads"),
    import("./tax-rates"),
    import("./product-variants"),
  ])
    await app.register(routes);
}
