import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, text } from "drizzle-orm/pg-core";
import { Type, type Static } from "@sinclair/typebox";
import {
  Code,
  CountryCode,
  CurrencyCode,
  Email,
  Id,
  LocaleCode,
  MoneyView,
  OptionalMetadata,
  ProviderData,
  Title,
  Strict,
} from "@kasse/core";
import {
  indexes,
  metadata,
  money,
  storedTotals,
  MetadataView,
  OrNull,
  RowView,
  View,
  entityTable,
  parentId,
  timestamptz,
  storedAddress,
  type StoredAddress,
} from "@kasse/db";

/** A cart's address (Medusa's shape), stored on the cart as JSON with its own id. */
export type CartAddress = StoredAddress;

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
    index("cart_line_item_variant_idx")
      .on(t.cart_id, t.variant_id)
      .where(sql`deleted_at is null`),
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

const Text = Type.Union([Title(), Type.Null()]);

/** An address in a cart request (`POST /store/carts/{id}/shipping-address` and the cart update). */
export const CartAddressInput = Strict({
  first_name: Type.Optional(Text),
  last_name: Type.Optional(Text),
  company: Type.Optional(Text),
  address_1: Type.Optional(Text),
  address_2: Type.Optional(Text),
  city: Type.Optional(Text),
  postal_code: Type.Optional(Text),
  province: Type.Optional(Text),
  country_code: Type.Optional(Type.Union([CountryCode(), Type.Null()])),
  phone: Type.Optional(Text),
  metadata: OptionalMetadata(),
});
export type CartAddressInput = Static<typeof CartAddressInput>;

/** The contract's dedicated address endpoints require the four postal fields. */
export const CartAddressRequired = Strict({
  ...CartAddressInput.properties,
  address_1: Title({ minLength: 1 }),
  city: Title({ minLength: 1 }),
  postal_code: Title({ minLength: 1 }),
  country_code: CountryCode(),
});

/**
 * The full set of codes of a cart. `null` entries are accepted and ignored: Medusa's storefront
 * rebuilds the list from `cart.promotions[].code`, where an automatic promotion's code is null.
 */
const PromoCodeList = Type.Array(Type.Union([Code({ minLength: 1 }), Type.Null()]), { maxItems: 50 });

/** Body of `POST /store/carts`. */
export const CartCreate = Strict({
  region_id: Type.Optional(Id({ minLength: 1 })),
  sales_channel_id: Type.Optional(Id({ minLength: 1 })),
  currency_code: Type.Optional(CurrencyCode()),
  email: Type.Optional(Email()),
  locale: Type.Optional(Type.Union([LocaleCode(), Type.Null()])),
  metadata: OptionalMetadata(),
  shipping_address: Type.Optional(CartAddressInput),
  billing_address: Type.Optional(CartAddressInput),
  promo_codes: Type.Optional(PromoCodeList),
});
export type CartCreate = Static<typeof CartCreate>;

/** Body of `POST /store/carts/{id}`. */
export const CartUpdate = Strict({
  region_id: Type.Optional(Id({ minLength: 1 })),
  sales_channel_id: Type.Optional(Id({ minLength: 1 })),
  currency_code: Type.Optional(CurrencyCode()),
  email: Type.Optional(Type.Union([Email(), Type.Null()])),
  locale: Type.Optional(Type.Union([LocaleCode(), Type.Null()])),
  metadata: OptionalMetadata(),
  shipping_address: Type.Optional(Type.Union([CartAddressInput, Type.Null()])),
  billing_address: Type.Optional(Type.Union([CartAddressInput, Type.Null()])),
  promo_codes: Type.Optional(PromoCodeList),
});
export type CartUpdate = Static<typeof CartUpdate>;

/** Body of `POST /store/carts/{id}/line-items`. */
export const LineItemCreate = Strict({
  variant_id: Id({ minLength: 1 }),
  quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  metadata: OptionalMetadata(),
});
export type LineItemCreate = Static<typeof LineItemCreate>;

/** Body of `POST /store/carts/{id}/line-items/{line_id}`. Medusa removes the line at quantity 0. */
export const LineItemUpdate = Strict({
  quantity: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  metadata: OptionalMetadata(),
});
export type LineItemUpdate = Static<typeof LineItemUpdate>;

/** Body of `POST /store/carts/{id}/shipping-methods`. */
export const ShippingMethodCreate = Strict({
  option_id: Id({ minLength: 1 }),
  data: Type.Optional(ProviderData()),
});
export type ShippingMethodCreate = Static<typeof ShippingMethodCreate>;

/** Body of `POST` and `DELETE /store/carts/{id}/promotions`. */
export const PromoCodes = Strict({ promo_codes: Type.Array(Code({ minLength: 1 }), { minItems: 1, maxItems: 50 }) });
export type PromoCodes = Static<typeof PromoCodes>;

/** Body of `POST /store/carts/{id}/customer`. */
export const CartCustomerTransfer = Strict({
  customer_id: Type.Optional(Id({ minLength: 1 })),
  email: Type.Optional(Email()),
});
export type CartCustomerTransfer = Static<typeof CartCustomerTransfer>;

// ---- Responses ------------------------------------------------------------------------------

/** A cart or order address. */
export const AddressView = View({
  id: Type.String(),
  first_name: OrNull(Type.String()),
  last_name: OrNull(Type.String()),
  company: OrNull(Type.String()),
  address_1: OrNull(Type.String()),
  address_2: OrNull(Type.String()),
  city: OrNull(Type.String()),
  postal_code: OrNull(Type.String()),
  province: OrNull(Type.String()),
  country_code: OrNull(Type.String()),
  phone: OrNull(Type.String()),
  metadata: MetadataView(),
});
/** A cart's, a line's and a shipping method's own row as the API shows it (derived from the columns); the store cart's view extends them. */
export const CartRowView = RowView(cart);
export const CartLineItemRowView = RowView(cartLineItem);
export const CartShippingMethodRowView = RowView(cartShippingMethod);
/** A tax line of a line item (`item_id`) or shipping method (`shipping_method_id`). */
export const TaxLineView = View({
  rate: Type.Number(),
  code: Type.String(),
  name: Type.String(),
  tax_rate_id: OrNull(Type.String()),
  item_id: Type.String(),
  shipping_method_id: Type.String(),
});
/** A promotion's discount on a line item (`item_id`) or shipping method (`shipping_method_id`). */
export const AdjustmentView = View({
  id: Type.String(),
  promotion_id: Type.String(),
  code: OrNull(Type.String()),
  amount: MoneyView(),
  item_id: Type.String(),
  shipping_method_id: Type.String(),
});
