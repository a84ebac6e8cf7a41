import { bigint, boolean, index, integer, jsonb, text } from "@kasse/db";
import {
  indexes,
  metadata,
  money,
  storedTotals,
  entityTable,
  parentId,
  timestamptz,
  storedAddress,
  indexWhere,
} from "@kasse/db";

/** A tax line: the rate (percent) that applied to a line item or shipping method. */
export interface TaxLine {
  rate: number;
  code: string;
  name: string;
  tax_rate_id: string | null;
}

/** A promotion's discount on a line item or shipping method (minor units). */
export interface Adjustment {
  id: string;
  promotion_id: string;
  code: string | null;
  amount: number;
}

/** The stored totals of a line or shipping method (see `totals.ts` for their identities). */
const lineTotals = () => ({
  subtotal: money("subtotal").notNull().default(0),
  discount_total: money("discount_total").notNull().default(0),
  tax_total: money("tax_total").notNull().default(0),
  total: money("total").notNull().default(0),
  original_total: money("original_total").notNull().default(0),
});

/** Carts: what a storefront customer is about to buy; totals are stored so reads are cheap. */
export const cart = entityTable(
  "cart",
  {
    region_id: text("region_id"),
    sales_channel_id: text("sales_channel_id"),
    customer_id: text("customer_id"),
    currency_code: text("currency_code").notNull(),
    email: text("email"),
    /** The shopper's language (BCP 47), as the storefront sets it. */
    locale: text("locale"),
    shipping_address: storedAddress("shipping_address"),
    billing_address: storedAddress("billing_address"),
    /** Codes the customer applied (as entered), in the order applied. */
    promo_codes: jsonb("promo_codes").$type<string[]>().notNull().default([]),
    ...storedTotals(),
    original_total: money("original_total").notNull().default(0),
    completed_at: timestamptz("completed_at"),
    metadata: metadata(),
    /**
     * The `cart_version` (@kasse/db) read before the lines, prices, promotions, shipping and taxes
     * were last computed and every line checked to be for sale; null before the first computation
     * that read one. While it is current, what the cart stores is what the store offers.
     */
    priced_version: bigint("priced_version", { mode: "number" }),
    /** When a price list or campaign the computation saw starts or ends: its result may change then without any write. */
    priced_until: timestamptz("priced_until"),
  },
  (t) => [...indexes("cart", { customer: t.customer_id, region: t.region_id, created_at: t.created_at })],
);

/** A cart line: the variant as it was when added (snapshot) and its computed money. */
export const cartLineItem = entityTable(
  "cart_line_item",
  {
    cart_id: parentId("cart_id", () => cart.id, { onDelete: "cascade" }),
    variant_id: text("variant_id").notNull(),
    product_id: text("product_id").notNull(),
    title: text("title").notNull(),
    subtitle: text("subtitle"),
    thumbnail: text("thumbnail"),
    quantity: integer("quantity").notNull(),
    unit_price: money("unit_price").notNull(),
    is_tax_inclusive: boolean("is_tax_inclusive").notNull().default(false),
    is_discountable: boolean("is_discountable").notNull().default(true),
    requires_shipping: boolean("requires_shipping").notNull().default(true),
    variant_title: text("variant_title").notNull(),
    variant_sku: text("variant_sku"),
    product_title: text("product_title").notNull(),
    product_handle: text("product_handle"),
    product_collection_id: text("product_collection_id"),
    /** The product's type when added (a tax rate may override the default for it). */
    product_type_id: text("product_type_id"),
    product_category_ids: jsonb("product_category_ids").$type<string[]>().notNull().default([]),
    product_tag_ids: jsonb("product_tag_ids").$type<string[]>().notNull().default([]),
    tax_lines: jsonb("tax_lines").$type<TaxLine[]>().notNull().default([]),
    adjustments: jsonb("adjustments").$type<Adjustment[]>().notNull().default([]),
    ...lineTotals(),
    metadata: metadata(),
  },
  (t) => [
    index("cart_line_item_cart_idx").on(t.cart_id),
    index("cart_line_item_variant_idx").on(t.cart_id, t.variant_id).where(indexWhere("deleted_at is null")),
  ],
);

/** A shipping method chosen for the cart: at most one per shipping profile. */
export const cartShippingMethod = entityTable(
  "cart_shipping_method",
  {
    cart_id: parentId("cart_id", () => cart.id, { onDelete: "cascade" }),
    shipping_option_id: text("shipping_option_id").notNull(),
    shipping_profile_id: text("shipping_profile_id"),
    name: text("name").notNull(),
    amount: money("amount").notNull(),
    is_tax_inclusive: boolean("is_tax_inclusive").notNull().default(false),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    tax_lines: jsonb("tax_lines").$type<TaxLine[]>().notNull().default([]),
    adjustments: jsonb("adjustments").$type<Adjustment[]>().notNull().default([]),
    ...lineTotals(),
    metadata: metadata(),
  },
  (t) => [index("cart_shipping_method_cart_idx").on(t.cart_id)],
);
export type CartRow = typeof cart.$inferSelect;
export type CartLineItemRow = typeof cartLineItem.$inferSelect;
export type CartShippingMethodRow = typeof cartShippingMethod.$inferSelect;
