import type { App } from "../../app";

/** `/auth/*`: token issuing and credential management. */
export default async function auth(app: App): Promise<void> {
  await app.register(import("./emailpass"));
  await app.register(import("./reset-password"));
  await app.register(import("./oauth"));
  await app.register(import("./token"));
}
