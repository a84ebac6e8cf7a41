import type { App } from "../../app";
import { allowOrigins } from "../../plugins/cors";

/**
 * `/admin/*`: every route here, however its path was spelled, allows `ADMIN_CORS` origins and
 * requires an admin (a user's JWT or a secret API key): hooks of this group, not checks on the URL.
 * Add a resource with one `await app.register(import("./<resource>"))` line.
 */
export default async function admin(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.admin);
  app.addHook("onRequest", app.guards.admin);
  await app.register(import("./api-keys"));
  await app.register(import("./users"));
  await app.register(import("./invites"));
  await app.register(import("./sales-channels"));
  await app.register(import("./sales-channel-products"));
  await app.register(import("./products"));
  await app.register(import("./collections"));
  await app.register(import("./product-categories"));
  await app.register(import("./product-tags"));
  await app.register(import("./product-types"));
  await app.register(import("./currencies"));
  await app.register(import("./regions"));
  await app.register(import("./tax-regions"));
  await app.register(import("./price-preferences"));
  await app.register(import("./price-lists"));
  await app.register(import("./stock-locations"));
  await app.register(import("./inventory-items"));
  await app.register(import("./reservations"));
  await app.register(import("./customers"));
  await app.register(import("./orders"));
  await app.register(import("./payments"));
  await app.register(import("./return-reasons"));
  await app.register(import("./returns"));
  await app.register(import("./return-changes"));
  await app.register(import("./customer-groups"));
  await app.register(import("./notifications"));
  await app.register(import("./webhooks"));
  await app.register(import("./shipping-profiles"));
  await app.register(import("./shipping-options"));
  await app.register(import("./shipping-option-types"));
  await app.register(import("./fulfillment-sets"));
  await app.register(import("./promotions"));
  await app.register(import("./payment-providers"));
  await app.register(import("./campaigns"));
  await app.register(import("./workflow-executions"));
  await app.register(import("./queues"));
  await app.register(import("./dashboard-shell"));
  await app.register(import("./stores"));
  await app.register(import("./order-claims-exchanges"));
  await app.register(import("./refund-reasons"));
  await app.register(import("./product-options"));
  await app.register(import("./fulfillment-providers"));
  await app.register(import("./uploads"));
  await app.register(import("./tax-rates"));
  await app.register(import("./product-variants"));
}
