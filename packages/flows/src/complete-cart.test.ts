import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@kasse/db/testing";
import { isKasseError } from "@kasse/core";
import { createEngine, type Engine } from "@kasse/workflows";
import { createCartService } from "@kasse/modules/cart";
import { createInventoryService } from "@kasse/modules/inventory";
import { createOrderService } from "@kasse/modules/order";
import { createPaymentService } from "@kasse/modules/payment";
import { createProductService } from "@kasse/modules/product";
import { createStockLocationService } from "@kasse/modules/stock-location";
import { completeCart } from "./complete-cart";
import { createModules } from "@kasse/modules";
import { eventOutbox } from "@kasse/modules/event";

const database = useTestDatabase();
let engine: Engine;
let variantId: string;
let productId: string;
const CHANNEL = "sc_web";
const guest = { customer_id: null };
// Built once, like the composition root builds it: each call runs on the current handle.
const carts = createCartService();
const products = createProductService();

beforeAll(async () => {
  engine = createEngine({ events: eventOutbox, db: database.db, modules: () => createModules() });
  const locations = createStockLocationService();
  const location = await locations.create({ name: "Warehouse" });
  await locations.updateSalesChannels(location.id, { add: [CHANNEL] });
  const product = await products.create({
    title: "Cap",
    status: "published",
    options: [{ title: "Size", values: ["One"] }],
    variants: [{ title: "One", sku: "CAP", options: { Size: "One" }, prices: [] }],
  });
  productId = product.id;
  variantId = product.created[0]!.id;
  const inventory = createInventoryService();
  const [link] = await inventory.createItemsForVariants([{ variant_id: variantId, sku: "CAP", title: "Cap" }]);
  await inventory.createLevels(link!.inventory_item_id, [{ location_id: location.id, stocked_quantity: 100 }]);
});

/** A checkout-ready cart written through the module services: one line of 2 × 1500, shipping 500. */
async function readyCart(): Promise<string> {
  const address = { address_1: "1 Main St", city: "Berlin", postal_code: "10115", country_code: "de" };
  const cart = await carts.create({
    region_id: null,
    sales_channel_id: CHANNEL,
    currency_code: "eur",
    email: "a@example.com",
    shipping_address: address,
    billing_address: address,
  });
  const line = await carts.addItem(cart.id, {
    variant_id: variantId,
    product_id: productId,
    title: "Cap",
    subtitle: null,
    thumbnail: null,
    quantity: 2,
    unit_price: 1500,
    is_tax_inclusive: false,
    is_discountable: true,
    requires_shipping: true,
    variant_title: "One",
    variant_sku: "CAP",
    product_title: "Cap",
    product_handle: "cap",
    product_collection_id: null,
    product_category_ids: [],
    product_tag_ids: [],
  });
  const method = await carts.setShippingMethod(cart.id, {
    shipping_option_id: "so_1",
    shipping_profile_id: null,
    name: "Standard",
    amount: 500,
    is_tax_inclusive: false,
    data: {},
  });
  const line_totals = { subtotal: 3000, discount_total: 0, tax_total: 0, total: 3000, original_total: 3000 };
  const method_totals = { subtotal: 500, discount_total: 0, tax_total: 0, total: 500, original_total: 500 };
  await carts.saveComputed(cart.id, {
    items: [{ id: line.id, ...line_totals, is_tax_inclusive: false, tax_lines: [], adjustments: [] }],
    shipping_methods: [{ id: method.id, ...method_totals, is_tax_inclusive: false, tax_lines: [], adjustments: [] }],
    totals: {
      item_subtotal: 3000,
      item_discount_total: 0,
      item_tax_total: 0,
      item_total: 3000,
      shipping_subtotal: 500,
      shipping_discount_total: 0,
      shipping_tax_total: 0,
      shipping_total: 500,
      subtotal: 3500,
      discount_total: 0,
      tax_total: 0,
      total: 3500,
      original_total: 3500,
    },
    promo_codes: [],
    // Computed at the version the new cart was stamped with: nothing the store offers changed since.
    priced_version: cart.priced_version,
    priced_until: null,
  });
  const payments = createPaymentService();
  const collection = await payments.createCollection({ cart_id: cart.id, currency_code: "eur", amount: 3500 });
  await payments.createSession(collection.id, { provider_id: "pp_system_default" });
  return cart.id;
}

const reservationsOf = async (cartId: string) => {
  const { items } = await carts.load(cartId);
  return (
    await createInventoryService().listReservations({ line_item_id: items.map((i) => i.id) }, { limit: 10, offset: 0 })
  ).count;
};
const keysOf = async (cartId: string) =>
  (await engine.list({ transaction_id: [cartId] }, { limit: 10, offset: 0, order: "created_at" })).items.map((e) => [
    e.idempotency_key,
    e.state,
  ]);

describe("completeCart", () => {
  it("places the order from the cart's snapshot and links its payment collection", async () => {
    const cartId = await readyCart();
    const outcome = await completeCart(engine, createModules(), cartId, guest);
    expect(outcome.type).toBe("order");
    if (outcome.type !== "order") return;
    const order = await createOrderService().retrieve(outcome.order_id);
    const collection = await createPaymentService().collectionForCart(cartId);
    expect(order).toMatchObject({
      cart_id: cartId,
      status: "pending",
      payment_status: "authorized",
      fulfillment_status: "not_fulfilled",
      total: 3500,
      shipping_total: 500,
      payment_collection_ids: [collection!.id],
    });
    expect(order.items).toEqual([
      expect.objectContaining({ variant_id: variantId, quantity: 2, unit_price: 1500, total: 3000 }),
    ]);
    expect(await reservationsOf(cartId)).toBe(1);
    expect(await keysOf(cartId)).toEqual([[`${cartId}:0`, "succeeded"]]);
  });

  it("throws a missing precondition (400 with the missing pieces) and keys the next attempt anew", async () => {
    const cartId = await readyCart();
    await carts.update(cartId, { email: null, billing_address: null });
    const error = await completeCart(engine, createModules(), cartId, guest).catch((e: unknown) => e);
    expect(isKasseError(error) && error.type).toBe("invalid_data");
    expect(isKasseError(error) && error.details).toMatchObject({ missing: ["email", "billing address"] });
    await carts.update(cartId, {
      email: "b@example.com",
      billing_address: { address_1: "2 Side St", city: "Berlin", postal_code: "10115", country_code: "de" },
    });
    expect((await completeCart(engine, createModules(), cartId, guest)).type).toBe("order");
    expect(await keysOf(cartId)).toEqual([
      [`${cartId}:0`, "failed"],
      [`${cartId}:1`, "succeeded"],
    ]);
  });

  it("refuses to place an order for a cart that changed while it was being completed, undoing the reservation", async () => {
    const cartId = await readyCart();
    // A cart write landing between the reservation and the order (as a concurrent line-item add would).
    await database.db.execute(
      sql.raw(
        `create function kasse_test_touch_cart() returns trigger language plpgsql as $$ begin update cart set updated_at = now() + interval '1 second' where id = '${cartId}'; return new; end $$`,
      ),
    );
    await database.db.execute(
      sql.raw(
        `create trigger kasse_test_touch_cart after insert on reservation_item for each row execute function kasse_test_touch_cart()`,
      ),
    );
    try {
      const outcome = await completeCart(engine, createModules(), cartId, guest);
      expect(outcome).toMatchObject({
        type: "cart",
        error: {
          type: "invalid_data",
          name: "InvalidData",
          message: expect.stringMatching(/changed while it was being completed/),
        },
      });
    } finally {
      await database.db.execute(sql.raw(`drop trigger kasse_test_touch_cart on reservation_item`));
      await database.db.execute(sql.raw(`drop function kasse_test_touch_cart()`));
    }
    expect(await reservationsOf(cartId)).toBe(0);
    const state = await carts.load(cartId);
    expect(state.cart.completed_at).toBeNull();
    const [payment] = (await createPaymentService().collectionForCart(cartId))!.payments;
    expect(payment?.canceled_at).not.toBeNull();
    // The voided session is gone for good (a missing session is named), a new one completes the cart as it is now.
    await expect(completeCart(engine, createModules(), cartId, guest)).rejects.toMatchObject({
      type: "invalid_data",
      details: { missing: ["payment session"] },
    });
    await createPaymentService().createSession(payment!.payment_collection_id, {
      provider_id: "pp_system_default",
    });
    expect((await completeCart(engine, createModules(), cartId, guest)).type).toBe("order");
  });

  it("answers an unknown cart and someone else's cart with not_found", async () => {
    await expect(completeCart(engine, createModules(), "cart_missing", guest)).rejects.toMatchObject({
      type: "not_found",
    });
    const cartId = await readyCart();
    await carts.update(cartId, { customer_id: "cus_owner" });
    await expect(completeCart(engine, createModules(), cartId, guest)).rejects.toMatchObject({
      type: "not_found",
    });
    expect(await keysOf(cartId)).toEqual([]);
    expect((await completeCart(engine, createModules(), cartId, { customer_id: "cus_owner" })).type).toBe("order");
  });
});
