import type { App } from "../../app-type";
import { allowOrigins } from "../../plugins/cors";
import emailpassRoutes from "./emailpass";
import providersRoutes from "./providers";
import resetPasswordRoutes from "./reset-password";
import oauthRoutes from "./oauth";
import tokenRoutes from "./token";
import mfaRoutes from "./mfa";

/** `/auth/*`: token issuing and credential management; every route here allows `AUTH_CORS` origins. */
export default async function auth(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.auth);
  for (const routes of [emailpassRoutes, providersRoutes, resetPasswordRoutes, oauthRoutes, tokenRoutes, mfaRoutes])
    await app.register(routes);
}
