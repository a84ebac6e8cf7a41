import type { AddressInfo } from "node:net";
import type { TestApp } from "./index";

/** A publishable API key of `channelId`, made through the admin API as a store's owner makes one. */
export async function publishableKey(t: TestApp, channelId: string): Promise<{ id: string; token: string }> {
  const key = (await t.admin.post("/admin/api-keys", { title: "Storefront", type: "publishable" })).json().api_key;
  await t.admin.post(`/admin/api-keys/${key.id}/sales-channels`, { add: [channelId] });
  return key;
}

/** Starts the test app on a loopback port (for clients that need a socket, such as Medusa's SDK); answers its base URL. */
export async function listenOnLoopback(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}
