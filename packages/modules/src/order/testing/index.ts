import { generateId } from "@kasse/core";
import type { OrderCreate } from "../shapes";

/**
 * A checkout snapshot for tests: two lines (2 × 1000 and 1 × 500), one 700 shipping method,
 * totals that add up; each call has new cart line ids. Override any field.
 */
export function orderSnapshot(overrides: Partial<OrderCreate> = {}): OrderCreate {
  return {
    cart_id: "cart_test",
    customer_id: null,
    email: "buyer@example.com",
    currency_code: "eur",
    region_id: "reg_test",
    sales_channel_id: "sc_test",
    shipping_address: {
      first_name: "Ada",
      last_name: "Lovelace",
      address_1: "1 Main St",
      city: "Berlin",
      postal_code: "10115",
      country_code: "DE",
    },
    billing_address: {
      first_name: "Ada",
      last_name: "Lovelace",
      address_1: "1 Main St",
      city: "Berlin",
      postal_code: "10115",
      country_code: "de",
    },
    items: [
      {
        cart_line_item_id: generateId("cali"),
        variant_id: "variant_shirt",
        product_id: "prod_shirt",
        title: "Shirt",
        variant_title: "M",
        variant_sku: "SHIRT-M",
        product_title: "Shirt",
        quantity: 2,
        unit_price: 1000,
        subtotal: 2000,
        tax_total: 0,
        discount_total: 0,
        total: 2000,
      },
      {
        cart_line_item_id: generateId("cali"),
        variant_id: "variant_mug",
        product_id: "prod_mug",
        title: "Mug",
        quantity: 1,
        unit_price: 500,
        subtotal: 500,
        total: 500,
      },
    ],
    shipping_methods: [{ shipping_option_id: "so_test", name: "Standard", amount: 700, subtotal: 700, total: 700 }],
    totals: {
      item_subtotal: 2500,
      item_tax_total: 0,
      item_discount_total: 0,
      item_total: 2500,
      shipping_subtotal: 700,
      shipping_tax_total: 0,
      shipping_discount_total: 0,
      shipping_total: 700,
      subtotal: 3200,
      discount_total: 0,
      tax_total: 0,
      total: 3200,
    },
    ...overrides,
  };
}
