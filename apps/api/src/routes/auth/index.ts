import type { App } from "../../app";
import { allowOrigins } from "../../plugins/cors";

/** `/auth/*`: token issuing and credential management; every route here allows `AUTH_CORS` origins. */
export default async function auth(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.auth);
  // Every file starts loading at once; they register one after the other, in this order.
  for (const routes of [
    import("./emailpass"),
    import("./providers"),
    import("./reset-password"),
    import("./oauth"),
    import("./token"),
    import("./mfa"),
  ])
    await app.register(routes);
}
