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
import { MetadataView, OrNull, RowView, View, type StoredAddress } from "@kasse/db";
import { cart, cartLineItem, cartShippingMethod } from "./schema";

/** A cart's address (Medusa's shape), stored on the cart as JSON with its own id. */
export type CartAddress = StoredAddress;

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

/** Body of `POST /store/carts/{id}`: the create's fields, and the email and addresses may be cleared. */
export const CartUpdate = Strict({
  ...CartCreate.properties,
  email: Type.Optional(Type.Union([Email(), Type.Null()])),
  shipping_address: Type.Optional(Type.Union([CartAddressInput, Type.Null()])),
  billing_address: Type.Optional(Type.Union([CartAddressInput, Type.Null()])),
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

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export {
  type Adjustment,
  type CartLineItemRow,
  type CartRow,
  type CartShippingMethodRow,
  type TaxLine,
} from "./schema";
