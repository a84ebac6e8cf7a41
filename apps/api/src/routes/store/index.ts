import type { App } from "../../app";

/**
 * `/store/*`: public unless a route adds `onRequest: app.guards.customer`.
 * Add a resource with one `await app.register(import("./<resource>"))` line.
 */
export default async function store(app: App): Promise<void> {
  await app.register(import("./products"));
  await app.register(import("./product-variants"));
  await app.register(import("./collections"));
  await app.register(import("./product-categories"));
  await app.register(import("./regions"));
  await app.register(import("./customers"));
  await app.register(import("./orders"));
  await app.register(import("./payment-providers"));
  await app.register(import("./carts"));
  await app.register(import("./cart-complete"));
  await app.register(import("./shipping-options"));
  await app.register(import("./payment-collections"));
}
