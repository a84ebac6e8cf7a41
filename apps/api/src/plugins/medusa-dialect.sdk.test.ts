import Medusa from "@medusajs/js-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../testing";
import { listenOnLoopback, publishableKey } from "../testing/storefront";
import { sdkAdmin, sdkFailure } from "../testing/sdk";
import { US_ADDRESS } from "../testing/checkout";

// Medusa's own clients pointed at Kasse's Medusa dialect (`http://host:port/medusa`), with no
// other change: the admin prices a product in major units, a storefront buys it and reads every
// amount in major units, the admin captures and refunds in major units.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK's types come from @medusajs/types, not installed: untyped JSON
type Row = any;

const t = useTestApp();
let store: Medusa;
let admin: Medusa;
let regionId: string;
let channelId: string;

beforeAll(async () => {
  const m = t.app.modules;
  const channel = await m.salesChannel.create({ name: "Web shop" });
  channelId = channel.id;
  const key = await publishableKey(t, channel.id);
  regionId = (await m.region.create({ name: "US", currency_code: "usd", countries: ["us"], automatic_taxes: false }))
    .id;
  const baseUrl = `${await listenOnLoopback(t)}/medusa`;
  store = new Medusa({ baseUrl, publishableKey: key.token });
  admin = await sdkAdmin(t, baseUrl);
});

describe("@medusajs/js-sdk against /medusa", () => {
  it("prices, sells, captures and refunds in major units; Kasse stores minor units", async () => {
    const { product } = await admin.admin.product.create({
      title: "Tee",
      status: "published",
      sales_channels: [{ id: channelId }],
      options: [{ title: "Size", values: ["M"] }],
      variants: [
        {
          title: "M",
          manage_inventory: false,
          options: { Size: "M" },
          prices: [{ currency_code: "usd", amount: 19.99 }],
        },
      ],
    } as Row);
    expect(product.variants[0].prices[0]).toMatchObject({ currency_code: "usd", amount: 19.99 });
    const { shipping_option } = await admin.admin.shippingOption.create({
      name: "Standard",
      price_type: "flat",
      prices: [{ currency_code: "usd", amount: 4.5 }],
    } as Row);

    const { products } = await store.store.product.list({ region_id: regionId, fields: "*variants.calculated_price" });
    const listed = products.find((p: Row) => p.id === product.id);
    expect(listed.variants[0].calculated_price).toMatchObject({ calculated_amount: 19.99, currency_code: "usd" });

    const { cart } = await store.store.cart.create({ region_id: regionId });
    const withItem = (
      await store.store.cart.createLineItem(cart.id, { variant_id: product.variants[0].id, quantity: 2 })
    ).cart;
    expect(withItem).toMatchObject({ item_subtotal: 39.98, total: 39.98 });
    await store.store.cart.update(cart.id, {
      email: "ada@example.com",
      shipping_address: US_ADDRESS,
      billing_address: US_ADDRESS,
    });
    const { shipping_options } = await store.store.fulfillment.listCartOptions({ cart_id: cart.id });
    expect(shipping_options.find((o: Row) => o.id === shipping_option.id)).toMatchObject({ amount: 4.5 });
    const shipped = (await store.store.cart.addShippingMethod(cart.id, { option_id: shipping_option.id })).cart;
    expect(shipped.total).toBe(44.48);
    await store.store.payment.initiatePaymentSession(shipped, { provider_id: "pp_system_default" });
    const result = await store.store.cart.complete(cart.id);
    if (result.type !== "order") throw new Error(`checkout failed: ${JSON.stringify(result.error)}`);
    expect(result.order).toMatchObject({ total: 44.48, shipping_total: 4.5, currency_code: "usd" });

    const { order } = await admin.admin.order.retrieve(result.order.id);
    const paymentId = order.payment_collections[0].payments[0].id;
    await admin.admin.payment.capture(paymentId, { amount: 44.48 });
    await admin.admin.payment.refund(paymentId, { amount: 10.25 });
    const { order: after } = await admin.admin.order.retrieve(result.order.id);
    expect(after).toMatchObject({ total: 44.48, summary: { paid_total: 44.48, refunded_total: 10.25 } });
    expect(await sdkFailure(admin.admin.payment.refund(paymentId, { amount: 0.001 }))).toEqual({
      status: 400,
      message: "amount: 0.001 is not an amount in USD, which has 2 decimal digits",
    });

    // The contract's root still speaks minor units about the same order.
    const root = await t.app.inject({
      method: "GET",
      url: `/admin/orders/${result.order.id}`,
      headers: await t.adminHeaders(),
    });
    expect(root.json().order).toMatchObject({ total: 4448, paid_total: 4448, refunded_total: 1025 });
  });
});
