import type { FastifyRequest } from "fastify";
import { Type } from "@sinclair/typebox";
import { FileUrlView, MoneyView, MoneyWhen } from "@kasse/core";
import { Extend, OrNull, View } from "@kasse/db";
import type { CartActor, CartResult } from "@kasse/flows";
import {
  AddressView,
  AdjustmentView,
  CartLineItemRowView,
  CartRowView,
  CartShippingMethodRowView,
  TaxLineView,
} from "@kasse/modules/cart";
import { PaymentCollectionView, type PaymentCollection } from "@kasse/modules/payment";
import { RegionView, type Region } from "@kasse/modules/region";
import { MONEY_APPLICATION_TYPES } from "@kasse/modules/promotion";

/** The caller as the cart flows see it: a signed-in customer's id, else a guest. */
export function cartActor(request: FastifyRequest): CartActor {
  const auth = request.auth;
  return { customer_id: auth && auth.actor_type === "customer" && auth.actor_id ? auth.actor_id : null };
}

const ProductRef = () =>
  View({
    id: OrNull(Type.String()),
    title: OrNull(Type.String()),
    thumbnail: OrNull(FileUrlView()),
    handle: OrNull(Type.String()),
  });

/** A line of a store cart: the variant snapshot, its adjustments, tax lines and totals. */
const CartLineItemView = Extend(
  CartLineItemRowView,
  {
    variant: View({
      id: OrNull(Type.String()),
      title: OrNull(Type.String()),
      sku: OrNull(Type.String()),
      product: ProductRef(),
    }),
    product: ProductRef(),
    // The product's picture as the line was added: a reference to one of the store's files is answered at today's address.
    thumbnail: OrNull(FileUrlView()),
    adjustments: Type.Array(AdjustmentView),
    tax_lines: Type.Array(TaxLineView),
  },
  ["product_collection_id", "product_category_ids", "product_tag_ids", "deleted_at"],
);

/** A shipping method of a store cart. */
const CartShippingMethodView = Extend(
  CartShippingMethodRowView,
  { adjustments: Type.Array(AdjustmentView), tax_lines: Type.Array(TaxLineView) },
  ["shipping_profile_id", "updated_at", "deleted_at"],
);

/** A payment collection as the Store shows it: no provider data on its sessions, no payments. */
const StorePaymentCollectionView = Extend(PaymentCollectionView, {}, [
  "region_id",
  "completed_at",
  "payments",
  "deleted_at",
]);

/** Medusa v2's store cart, as {@link cartResponse} shapes it. */
export const CartView = Extend(
  CartRowView,
  {
    region: OrNull(Extend(RegionView, {}, ["payment_providers", "created_at", "updated_at", "deleted_at"])),
    items: Type.Array(CartLineItemView),
    shipping_address: OrNull(AddressView),
    billing_address: OrNull(AddressView),
    shipping_methods: Type.Array(CartShippingMethodView),
    payment_collection: OrNull(StorePaymentCollectionView),
    promotions: Type.Array(
      View({
        id: Type.String(),
        code: OrNull(Type.String()),
        is_automatic: Type.Boolean(),
        application_method: Type.Optional(
          OrNull(
            View({
              type: Type.String(),
              target_type: Type.String(),
              allocation: OrNull(Type.String()),
              value: MoneyWhen("type", MONEY_APPLICATION_TYPES, Type.Number()),
              currency_code: OrNull(Type.String()),
            }),
          ),
        ),
      }),
    ),
    /** The discount without tax (Kasse's `discount_total` is already without tax), as Medusa's storefront reads it. */
    discount_subtotal: MoneyView(),
  },
  // `priced_version`, `priced_until`: what the cart's computation is good for, Kasse's own bookkeeping.
  ["promo_codes", "deleted_at", "priced_version", "priced_until"],
);

/** The product a line is of, as the line's `product` and its `variant.product` show it. */
const productOf = (item: CartResult["items"][number]) => ({
  id: item.product_id,
  title: item.product_title,
  thumbnail: item.thumbnail,
  handle: item.product_handle,
});

/** Medusa v2's store cart: lines with their variant snapshot, methods, addresses, promotions, totals. */
export function cartResponse(result: CartResult) {
  const { cart, items, shipping_methods } = result;
  const promotions = new Map<
    string,
    {
      id: string;
      code: string | null;
      is_automatic: boolean;
      application_method?: NonNullable<CartResult["promotions"]>[number]["application_method"];
    }
  >();
  const loaded = new Map((result.promotions ?? []).map((p) => [p.id, p]));
  for (const adjustment of [...items, ...shipping_methods].flatMap((line) => line.adjustments)) {
    const promotion = loaded.get(adjustment.promotion_id);
    promotions.set(adjustment.promotion_id, {
      id: adjustment.promotion_id,
      code: adjustment.code,
      is_automatic: !cart.promo_codes.some((c) => c.toLowerCase() === adjustment.code?.toLowerCase()),
      ...(promotion ? { application_method: promotion.application_method } : {}),
    });
  }
  return {
    id: cart.id,
    region_id: cart.region_id,
    region: result.region ? regionView(result.region) : null,
    sales_channel_id: cart.sales_channel_id,
    customer_id: cart.customer_id,
    currency_code: cart.currency_code,
    email: cart.email,
    locale: cart.locale,
    items: items.map((item) => ({
      id: item.id,
      cart_id: item.cart_id,
      variant_id: item.variant_id,
      product_id: item.product_id,
      title: item.title,
      subtitle: item.subtitle,
      thumbnail: item.thumbnail,
      quantity: item.quantity,
      unit_price: item.unit_price,
      is_tax_inclusive: item.is_tax_inclusive,
      is_discountable: item.is_discountable,
      requires_shipping: item.requires_shipping,
      product_title: item.product_title,
      product_handle: item.product_handle,
      variant_title: item.variant_title,
      variant_sku: item.variant_sku,
      subtotal: item.subtotal,
      discount_total: item.discount_total,
      tax_total: item.tax_total,
      total: item.total,
      original_total: item.original_total,
      metadata: item.metadata,
      variant: { id: item.variant_id, title: item.variant_title, sku: item.variant_sku, product: productOf(item) },
      product: productOf(item),
      adjustments: item.adjustments.map((a) => ({ ...a, item_id: item.id })),
      tax_lines: item.tax_lines.map((t) => ({ ...t, item_id: item.id })),
      created_at: item.created_at,
      updated_at: item.updated_at,
    })),
    shipping_address: cart.shipping_address,
    billing_address: cart.billing_address,
    shipping_methods: shipping_methods.map((method) => ({
      id: method.id,
      cart_id: method.cart_id,
      shipping_option_id: method.shipping_option_id,
      name: method.name,
      amount: method.amount,
      is_tax_inclusive: method.is_tax_inclusive,
      data: method.data,
      subtotal: method.subtotal,
      discount_total: method.discount_total,
      tax_total: method.tax_total,
      total: method.total,
      original_total: method.original_total,
      adjustments: method.adjustments.map((a) => ({ ...a, shipping_method_id: method.id })),
      tax_lines: method.tax_lines.map((t) => ({ ...t, shipping_method_id: method.id })),
      metadata: method.metadata,
      created_at: method.created_at,
    })),
    payment_collection: result.payment_collection
      ? paymentCollectionResponse(result.payment_collection, result.region)
      : null,
    promotions: [...promotions.values()],
    subtotal: cart.subtotal,
    discount_total: cart.discount_total,
    discount_subtotal: cart.discount_total,
    shipping_total: cart.shipping_total,
    tax_total: cart.tax_total,
    total: cart.total,
    original_total: cart.original_total,
    item_subtotal: cart.item_subtotal,
    item_tax_total: cart.item_tax_total,
    item_discount_total: cart.item_discount_total,
    item_total: cart.item_total,
    shipping_subtotal: cart.shipping_subtotal,
    shipping_tax_total: cart.shipping_tax_total,
    shipping_discount_total: cart.shipping_discount_total,
    metadata: cart.metadata,
    created_at: cart.created_at,
    updated_at: cart.updated_at,
    completed_at: cart.completed_at,
  };
}

/** A payment collection as the Store shows it: the contract's fields, its sessions and the region's providers. */
export function paymentCollectionResponse(collection: PaymentCollection, region: Region | null) {
  return {
    id: collection.id,
    cart_id: collection.cart_id,
    currency_code: collection.currency_code,
    amount: collection.amount,
    authorized_amount: collection.authorized_amount,
    captured_amount: collection.captured_amount,
    refunded_amount: collection.refunded_amount,
    status: collection.status,
    payment_providers: region?.payment_providers ?? [],
    payment_sessions: collection.payment_sessions.map((s) => ({
      id: s.id,
      payment_collection_id: s.payment_collection_id,
      provider_id: s.provider_id,
      amount: s.amount,
      currency_code: s.currency_code,
      status: s.status,
      data: s.data,
      authorized_at: s.authorized_at,
      created_at: s.created_at,
    })),
    metadata: collection.metadata,
    created_at: collection.created_at,
    updated_at: collection.updated_at,
  };
}

function regionView(region: Region) {
  return {
    id: region.id,
    name: region.name,
    currency_code: region.currency_code,
    automatic_taxes: region.automatic_taxes,
    countries: region.countries,
    metadata: region.metadata,
  };
}
