import { Type } from "@sinclair/typebox";
import type { App } from "../app-type";
import { allowOrigins } from "../plugins/cors";
import { NoFields } from "../http/schemas";

const CloudAuth = Type.Object(
  { enabled: Type.Boolean() },
  { description: "Whether sign-in through a hosting cloud is offered" },
);

/**
 * `/cloud/*`: Medusa Cloud's sign-in, which its admin dashboard asks about before login. Kasse is
 * self-hosted and offers none, so `GET /cloud/auth` answers `{enabled: false}` (the dashboard then
 * shows only its own login form).
 */
export default async function cloud(app: App): Promise<void> {
  allowOrigins(app, app.config.cors.admin);
  app.get("/auth", { schema: { querystring: NoFields, response: { 200: CloudAuth } } }, async () => ({
    enabled: false,
  }));
}
