import type { App } from "../../app";

/**
 * `/admin/*`: every route here requires an admin (a user's JWT or a secret API key).
 * Add a resource with one `await app.register(import("./<resource>"))` line.
 */
export default async function admin(app: App): Promise<void> {
  app.addHook("onRequest", app.guards.admin);
  await app.register(import("./sales-channels"));
}
