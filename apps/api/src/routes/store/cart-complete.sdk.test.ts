import Medusa from "@medusajs/js-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { sdkStorefront } from "../../testing/storefront";
import { TEST_ADDRESS } from "../../testing/checkout";

// The Medusa storefront checkout, unchanged, from an empty cart to the placed order.
const t = useTestApp();
let sdk: Medusa;
let baseUrl: string;
let publishableKey: string;
let regionId: string;
let variantId: string;
let optionId: string;

beforeAll(async () => {
  const store = await sdkStorefront(t, ["pp_system_default", "pp_test"]);
  ({ baseUrl, publishableKey, regionId, optionId } = store);
  variantId = store.variantIds[0]!;
  sdk = new Medusa({ baseUrl, publishableKey });
});

const address = TEST_ADDRESS;

/** A cart through the SDK up to a started payment session with `provider_id`. */
async function checkout(provider_id: string, data?: Record<string, unknown>, client: Medusa = sdk) {
  const sdk = client;
  const { cart } = await sdk.store.cart.create({ region_id: regionId });
  await sdk.store.cart.createLineItem(cart.id, { variant_id: variantId, quantity: 1 });
  await sdk.store.cart.update(cart.id, {
    email: "ada@example.com",
    shipping_address: address,
    billing_address: address,
  });
  const shipped = (await sdk.store.cart.addShippingMethod(cart.id, { option_id: optionId })).cart;
  await sdk.store.payment.initiatePaymentSession(shipped, { provider_id, ...(data ? { data } : {}) });
  return shipped;
}

describe("@medusajs/js-sdk storefront checkout to an order", () => {
  it("completes the cart and reads the order back", async () => {
    const cart = await checkout("pp_system_default");
    const result = await sdk.store.cart.complete(cart.id);
    expect(result.type).toBe("order");
    if (result.type !== "order") return;
    expect(result.order).toMatchObject({
      status: "pending",
      payment_status: "authorized",
      fulfillment_status: "not_fulfilled",
      email: "ada@example.com",
      total: cart.total,
    });
    expect(result.order.items?.[0]).toMatchObject({ variant_id: variantId, quantity: 1, unit_price: 4500 });
    const { order } = await sdk.store.order.retrieve(result.order.id);
    expect(order.id).toBe(result.order.id);
    // The storefront's double click: the same order again.
    const again = await sdk.store.cart.complete(cart.id);
    expect(again.type === "order" && again.order.id).toBe(result.order.id);
  });

  it("a declined card answers the cart with the error, as Medusa storefronts expect", async () => {
    const cart = await checkout("pp_test", { behavior: "decline" });
    const result = await sdk.store.cart.complete(cart.id);
    expect(result.type).toBe("cart");
    if (result.type !== "cart") return;
    expect(result.error).toMatchObject({ type: "payment_authorization_error", name: "PaymentAuthorizationError" });
    expect(result.cart).toMatchObject({ id: cart.id, completed_at: null });
  });

  it("a signed-in customer's order shows in their account and order list, and to nobody else", async () => {
    const shopper = new Medusa({ baseUrl, publishableKey, auth: { type: "jwt", jwtTokenStorageMethod: "memory" } });
    await shopper.auth.register("customer", "emailpass", { email: "grace@example.com", password: "grace-pass-1" });
    await shopper.store.customer.create({ email: "grace@example.com", first_name: "Grace" });
    await shopper.auth.login("customer", "emailpass", { email: "grace@example.com", password: "grace-pass-1" });
    const cart = await checkout("pp_system_default", undefined, shopper);
    const result = await shopper.store.cart.complete(cart.id);
    expect(result.type).toBe("order");
    if (result.type !== "order") return;
    const { customer } = await shopper.store.customer.retrieve({ fields: "*orders" });
    expect(customer.orders?.map((o: { id: string }) => o.id)).toEqual([result.order.id]);
    const { orders, count } = await shopper.store.order.list();
    expect(count).toBe(1);
    expect(orders[0]!.id).toBe(result.order.id);
    // A guest client cannot read a customer's order.
    const stranger = await t.app.inject({
      method: "GET",
      url: `/store/orders/${result.order.id}`,
      headers: { "x-publishable-api-key": publishableKey },
    });
    expect(stranger.statusCode).toBe(404);
  });
});
