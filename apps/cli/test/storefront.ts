import { expect } from "vitest";
import { TEST_ADDRESS } from "@kasse/api/testing";

/** An answer of a running Kasse: its status and its JSON body. */
export interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** A storefront client of one running process, sending the store's publishable key. */
export function storefront(url: string, publishableKey: string) {
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        "x-publishable-api-key": publishableKey,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}

export type Storefront = ReturnType<typeof storefront>;

/** The body of a 200 answer, as `T`. */
export async function ok<T = Record<string, unknown>>(call: Promise<Answer>): Promise<T> {
  const res = await call;
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json as T;
}

type Id = { id: string };

/** A guest cart in `regionId` ready to complete: one unit of each variant, addresses, shipping, a payment session. */
export async function readyCart(call: Storefront, regionId: string, variants: string[]): Promise<string> {
  const { cart } = await ok<{ cart: Id }>(call("POST", "/store/carts", { region_id: regionId }));
  for (const variant_id of variants)
    await ok(call("POST", `/store/carts/${cart.id}/line-items`, { variant_id, quantity: 1 }));
  await ok(
    call("POST", `/store/carts/${cart.id}`, {
      email: "guest@example.com",
      shipping_address: TEST_ADDRESS,
      billing_address: TEST_ADDRESS,
    }),
  );
  const { shipping_options } = await ok<{ shipping_options: Id[] }>(
    call("GET", `/store/shipping-options?cart_id=${cart.id}`),
  );
  await ok(call("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0]!.id }));
  const { payment_collection } = await ok<{ payment_collection: Id }>(
    call("POST", "/store/payment-collections", { cart_id: cart.id }),
  );
  await ok(
    call("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
      provider_id: "pp_system_default",
    }),
  );
  return cart.id;
}
