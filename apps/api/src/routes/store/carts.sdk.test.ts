import Medusa from "@medusajs/js-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { sdkStorefront } from "../../testing/storefront";
import { TEST_ADDRESS } from "../../testing/checkout";

// The Medusa storefront path, unchanged, against the app on a real loopback port.
const t = useTestApp();
let sdk: Medusa;
let regionId: string;
let channelId: string;
let variantId: string;
let optionId: string;

beforeAll(async () => {
  const store = await sdkStorefront(t);
  ({ regionId, channelId, optionId } = store);
  variantId = store.variantIds[0]!;
  await t.app.modules.tax.create({ country_code: "de", default_tax_rate: { rate: 19, code: "DE19", name: "MwSt" } });
  sdk = new Medusa({ baseUrl: store.baseUrl, publishableKey: store.publishableKey });
});

describe("@medusajs/js-sdk storefront checkout", () => {
  it("creates a cart, adds an item, sets addresses, ships and starts a payment session", async () => {
    const { cart } = await sdk.store.cart.create({ region_id: regionId });
    expect(cart).toMatchObject({ region_id: regionId, currency_code: "eur", sales_channel_id: channelId });

    const withItem = (await sdk.store.cart.createLineItem(cart.id, { variant_id: variantId, quantity: 2 })).cart;
    expect(withItem.items?.[0]).toMatchObject({ variant_id: variantId, quantity: 2, unit_price: 4500 });

    const address = TEST_ADDRESS;
    const updated = (
      await sdk.store.cart.update(cart.id, {
        email: "ada@example.com",
        shipping_address: address,
        billing_address: address,
      })
    ).cart;
    expect(updated).toMatchObject({ email: "ada@example.com", subtotal: 9000, tax_total: 1710, total: 10710 });

    const { shipping_options } = await sdk.store.fulfillment.listCartOptions({ cart_id: cart.id });
    expect(shipping_options.map((o: { id: string }) => o.id)).toEqual([optionId]);

    const shipped = (await sdk.store.cart.addShippingMethod(cart.id, { option_id: optionId })).cart;
    expect(shipped.shipping_methods?.[0]).toMatchObject({ shipping_option_id: optionId, amount: 500 });
    expect(shipped.total).toBe(10710 + 500 + 95);

    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(shipped, {
      provider_id: "pp_system_default",
    });
    expect(payment_collection).toMatchObject({ amount: shipped.total, currency_code: "eur" });
    expect(payment_collection.payment_sessions?.[0]).toMatchObject({
      provider_id: "pp_system_default",
      status: "pending",
      amount: shipped.total,
    });

    const { cart: read } = await sdk.store.cart.retrieve(cart.id);
    expect(read.payment_collection?.id).toBe(payment_collection.id);
  });

  it("surfaces a 400 as a FetchError with the message", async () => {
    const { cart } = await sdk.store.cart.create({ region_id: regionId });
    await expect(sdk.store.cart.createLineItem(cart.id, { variant_id: variantId, quantity: 6 })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/insufficient inventory/i),
    });
  });
});
