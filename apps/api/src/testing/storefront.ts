import type { AddressInfo } from "node:net";
import type { TestApp } from "./app";
import { checkoutStore, type CheckoutStore } from "./checkout";

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

/**
 * The storefront Medusa's SDK tests buy from: a "Web shop" channel with a publishable key, one
 * Hoodie (L, 5 in stock, 45.00 EUR) and a 5.00 EUR shipping option, in a German region with
 * `payment_providers`; the app listening on a loopback port at `baseUrl`.
 */
export async function sdkStorefront(
  t: TestApp,
  payment_providers?: string[],
): Promise<CheckoutStore & { publishableKey: string; baseUrl: string }> {
  const store = await checkoutStore(t, {
    channel: "Web shop",
    region: { name: "Europe", currency_code: "eur", countries: ["de"], payment_providers },
    title: "Hoodie",
    variants: [{ title: "L", sku: "HOODIE-L", size: "L", stock: 5, prices: [{ currency_code: "eur", amount: 4500 }] }],
  });
  const key = await publishableKey(t, store.channelId);
  return { ...store, publishableKey: key.token, baseUrl: await listenOnLoopback(t) };
}
