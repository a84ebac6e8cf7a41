import type { App } from "../../app";
import { allowOrigins } from "../../plugins/cors";

/** `/auth/*`: token issuing and credential management; every route here allows `AUTH_CORS` origins. */
export default async function auth(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.auth);
  await app.register(import("./emailpass"));
  await app.register(import("./providers"));
  await app.register(import("./reset-password"));
  await app.register(import("./oauth"));
  await app.register(import("./token"));
  await app.register(import("./mfa"));
}
