import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { useTestDatabase } from "@kasse/db/testing";
import { transaction } from "@kasse/db";
import { catalogMoved, createCartService, datesPassed, type LineItemInsert } from "./index";

const database = useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const carts = createCartService();

const snapshot = (variant: string): Omit<LineItemInsert, "quantity"> => ({
  variant_id: variant,
  product_id: "prod_1",
  title: "S",
  subtitle: "Shirt",
  thumbnail: null,
  unit_price: 0,
  is_tax_inclusive: false,
  is_discountable: true,
  requires_shipping: true,
  variant_title: "S",
  variant_sku: "SKU-S",
  product_title: "Shirt",
  product_handle: "shirt",
  product_collection_id: null,
  product_category_ids: [],
  product_tag_ids: [],
});

describe("cart service", () => {
  it("creates a cart with lower-case currency and addresses that get their own id", async () => {
    const cart = await carts.create({
      region_id: "reg_1",
      sales_channel_id: "sc_1",
      currency_code: "EUR",
      shipping_address: { address_1: "a", city: "b", country_code: "DE" },
    });
    expect(cart).toMatchObject({
      currency_code: "eur",
      email: null,
      customer_id: null,
      total: 0,
      promo_codes: [],
      completed_at: null,
    });
    expect(cart.id).toMatch(/^cart_[0-9A-Z]{30}$/);
    expect(cart.shipping_address).toMatchObject({
      address_1: "a",
      city: "b",
      country_code: "de",
      postal_code: null,
      first_name: null,
    });
    expect(cart.shipping_address!.id).toMatch(/^caaddr_/);
    expect(cart.billing_address).toBeNull();
  });

  it("loads lines and methods in creation order; unknown carts are not_found", async () => {
    const cart = await carts.create({ region_id: null, sales_channel_id: null, currency_code: "usd" });
    const first = await carts.addItem(cart.id, { ...snapshot("variant_a"), quantity: 1 });
    await carts.addItem(cart.id, { ...snapshot("variant_b"), quantity: 2, metadata: { note: "x" } });
    const state = await carts.load(cart.id);
    expect(state.items.map((i) => [i.variant_id, i.quantity])).toEqual([
      ["variant_a", 1],
      ["variant_b", 2],
    ]);
    expect(state.items[1]!.metadata).toEqual({ note: "x" });
    await carts.updateItem(cart.id, first.id, { quantity: 4 });
    expect((await carts.load(cart.id)).items[0]!.quantity).toBe(4);
    await expect(carts.updateItem("cart_other", first.id, { quantity: 1 })).rejects.toMatchObject({
      type: "not_found",
    });
    await carts.deleteItem(cart.id, first.id);
    await expect(carts.deleteItem(cart.id, first.id)).rejects.toMatchObject({ type: "not_found" });
    await expect(carts.load("cart_missing")).rejects.toMatchObject({
      type: "not_found",
      message: "Cart with id: cart_missing was not found",
    });
    await expect(transaction(() => carts.lock("cart_missing"))).rejects.toMatchObject({
      type: "not_found",
    });
  });

  it("keeps one shipping method per profile and option", async () => {
    const cart = await carts.create({ region_id: null, sales_channel_id: null, currency_code: "usd" });
    const method = (option: string, profile: string) => ({
      shipping_option_id: option,
      shipping_profile_id: profile,
      name: option,
      amount: 500,
      is_tax_inclusive: false,
      data: {},
    });
    await carts.setShippingMethod(cart.id, method("so_a", "sp_default"));
    await carts.setShippingMethod(cart.id, method("so_b", "sp_bulky"));
    await carts.setShippingMethod(cart.id, method("so_c", "sp_default"));
    const { shipping_methods } = await carts.load(cart.id);
    expect(shipping_methods.map((m) => m.shipping_option_id).sort()).toEqual(["so_b", "so_c"]);
  });

  it("stores computed money and totals", async () => {
    const cart = await carts.create({ region_id: null, sales_channel_id: null, currency_code: "usd" });
    const item = await carts.addItem(cart.id, { ...snapshot("variant_a"), quantity: 2 });
    const line = { subtotal: 2000, discount_total: 100, tax_total: 190, total: 2090, original_total: 2200 };
    const totals = {
      item_subtotal: 2000,
      item_discount_total: 100,
      item_tax_total: 190,
      item_total: 2090,
      shipping_subtotal: 0,
      shipping_discount_total: 0,
      shipping_tax_total: 0,
      shipping_total: 0,
      subtotal: 2000,
      discount_total: 100,
      tax_total: 190,
      total: 2090,
      original_total: 2200,
    };
    await carts.saveComputed(cart.id, {
      items: [
        {
          id: item.id,
          unit_price: 1000,
          is_tax_inclusive: false,
          tax_lines: [{ rate: 10, code: "T", name: "Tax", tax_rate_id: null }],
          adjustments: [{ id: "caadj_1", promotion_id: "promo_1", code: "X", amount: 100 }],
          ...line,
        },
      ],
      shipping_methods: [],
      totals,
      priced_version: cart.priced_version,
      priced_until: null,
      promo_codes: ["X"],
    });
    const state = await carts.load(cart.id);
    expect(state.cart).toMatchObject({ ...totals, promo_codes: ["X"] });
    expect(state.items[0]).toMatchObject({
      unit_price: 1000,
      ...line,
      tax_lines: [{ rate: 10, code: "T" }],
      adjustments: [{ code: "X", amount: 100 }],
    });
  });

  it("reads carry the store's cart version; a new cart is stamped with it; a write to what carts are computed from moves it", async () => {
    const cart = await carts.create({ region_id: null, sales_channel_id: null, currency_code: "usd" });
    const loaded = await carts.load(cart.id);
    expect(loaded.cart_version).toBe(cart.priced_version);
    expect(catalogMoved(loaded)).toBe(false);
    const locked = await transaction(() => carts.lock(cart.id));
    expect(locked.cart_version).toBe(loaded.cart_version);
    await database.db.execute(sql`insert into customer_group (id, name) values ('cusgroup_cart_test', 'cart test')`);
    const after = await carts.load(cart.id);
    expect(after.cart_version).toBeGreaterThan(loaded.cart_version!);
    expect(catalogMoved(after)).toBe(true);
    // A state not read from the database (a new cart's refresh) knows no version: nothing moved for it.
    expect(catalogMoved({ ...after, cart_version: undefined })).toBe(false);
  });

  it("a stamp's date passes at priced_until", () => {
    const state = (priced_until: Date | null) => ({ cart: { priced_until } }) as Parameters<typeof datesPassed>[0];
    const at = new Date("2030-01-01T00:00:00Z");
    expect(datesPassed(state(null), at)).toBe(false);
    expect(datesPassed(state(at), new Date(at.getTime() - 1))).toBe(false);
    expect(datesPassed(state(at), at)).toBe(true);
  });
});
