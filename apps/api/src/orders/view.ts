import { Type } from "@sinclair/typebox";
import { addMoney, FileUrlView, MoneyView } from "@kasse/core";
import { Extend, OrNull, View } from "@kasse/db";
import { AddressView } from "@kasse/modules/cart";
import {
  OrderLineItemView,
  OrderView,
  ReturnView,
  returnCredit,
  creditLineTotal,
  type Order,
  type OrderReturn,
} from "@kasse/modules/order";
import { PaymentCollectionView, type PaymentCollection } from "@kasse/modules/payment";
import { FulfillmentView, type Fulfillment } from "@kasse/modules/fulfillment";
import type { Modules } from "@kasse/modules";
import { wants, type FieldSelection } from "../http/fields";

type Audience = "admin" | "store";

/** The live variant of an order line (`fields=*items.variant`), null once deleted. */
const LineVariantView = View({
  id: Type.String(),
  title: Type.String(),
  sku: OrNull(Type.String()),
  product_id: Type.String(),
  options: Type.Array(
    View({
      id: Type.String(),
      value: Type.String(),
      option_id: Type.String(),
      option: View({ id: Type.String(), title: Type.String() }),
    }),
  ),
});
/** The live product of an order line (`fields=*items.product`), null once deleted. */
const LineProductView = View({
  id: Type.String(),
  title: Type.String(),
  handle: Type.String(),
  subtitle: OrNull(Type.String()),
  thumbnail: OrNull(FileUrlView()),
});

/** An order's line as the API shows it, with its live variant and product when `fields` asks. */
export const OrderLineDetailView = Extend(OrderLineItemView, {
  variant: Type.Optional(OrNull(LineVariantView)),
  product: Type.Optional(OrNull(LineProductView)),
});

/** An order as the API shows it ({@link orderViews}); the Store leaves provider data out of its payment collections. */
export const OrderDetailView = Extend(
  OrderView,
  {
    items: Type.Array(OrderLineDetailView),
    /** The discount without tax (Kasse's `discount_total` is without tax), as Medusa's storefront reads it. */
    discount_subtotal: MoneyView(),
    shipping_address: OrNull(AddressView),
    billing_address: OrNull(AddressView),
    payment_collections: Type.Array(PaymentCollectionView),
    fulfillments: Type.Array(
      Extend(FulfillmentView, { requires_shipping: Type.Boolean() }, ["inventory_consumed", "deleted_at"]),
    ),
    returns: Type.Array(ReturnView),
    paid_total: MoneyView(),
    refunded_total: MoneyView(),
    summary: View({ paid_total: MoneyView(), refunded_total: MoneyView(), pending_difference: MoneyView() }),
  },
  ["payment_collection_ids", "deleted_at"],
);

/**
 * Orders as the API shows them (Medusa v2's order shape): each line with its fulfilled/shipped/
 * delivered/returned quantities at top level and in `detail`, the payment collections with their
 * payments, and `paid_total` / `refunded_total` from the collections' captured and refunded amounts.
 * One query per module for the whole page.
 */
export async function orderViews(
  modules: Modules,
  orders: Order[],
  audience: Audience = "admin",
  /** The orders' returns when already read with them (`order.listWithReturns`): not read again. */
  known: { returns?: Map<string, OrderReturn[]> } = {},
) {
  const ids = [...new Set(orders.flatMap((o) => o.payment_collection_ids))];
  const orderIds = orders.map((o) => o.id);
  const [collections, fulfillments, returns] = await Promise.all([
    ids.length ? modules.payment.listCollections({ id: ids }) : [],
    modules.fulfillmentRecord.listForOrders(orderIds),
    known.returns ?? modules.orderReturn.listForOrders(orderIds),
  ]);
  const byId = new Map(collections.map((c) => [c.id, c]));
  return orders.map((o) =>
    shape(
      o,
      o.payment_collection_ids.flatMap((id) => byId.get(id) ?? []),
      fulfillments.get(o.id) ?? [],
      returns.get(o.id) ?? [],
      audience,
    ),
  );
}

/** {@link orderViews} for one order. */
export async function orderView(modules: Modules, order: Order, audience: Audience = "admin") {
  return (await orderViews(modules, [order], audience))[0]!;
}

// The views below copy wide rows (an order has some forty columns, a line thirty) with one object
// literal each, its new keys before the spread and only the row's own keys after it: V8 then
// clones the row's layout at once, where a key added after the spread, or a rest pattern, costs a
// new layout for every object, microseconds an order. A key left out of the answer is set to
// undefined, which the serializer (like JSON.stringify) leaves out.

function shape(
  order: Order,
  collections: PaymentCollection[],
  fulfillments: Fulfillment[],
  returns: OrderReturn[],
  audience: Audience,
) {
  const paid_total = addMoney(...collections.map((c) => c.captured_amount));
  const refunded_total = addMoney(...collections.map((c) => c.refunded_amount));
  return {
    payment_collections: collections.map((c) => paymentCollectionView(c, audience)),
    fulfillments: fulfillments.map((f) => ({
      // Shipped to the customer (not handed over in store) when one of its lines needs shipping.
      requires_shipping: f.items.some(
        (i) => order.items.find((line) => line.id === i.line_item_id)?.requires_shipping ?? true,
      ),
      ...f,
      deleted_at: undefined,
      inventory_consumed: undefined,
      items: f.items.map((i) => ({ ...i, deleted_at: undefined })),
    })),
    returns: returns.map((r) => ({
      ...r,
      deleted_at: undefined,
      items: r.items.map((i) => ({ ...i, deleted_at: undefined })),
    })),
    discount_subtotal: order.discount_total,
    paid_total,
    refunded_total,
    // What came back on returns is owed no more (docs/orders.md "Settling the difference").
    summary: {
      paid_total,
      refunded_total,
      pending_difference:
        order.total - returnCredit(order.items, returns) - creditLineTotal(order) - paid_total + refunded_total,
    },
    ...order,
    payment_collection_ids: undefined,
    deleted_at: undefined,
    items: order.items.map(lineView),
    shipping_methods: order.shipping_methods.map((method) => ({ ...method, deleted_at: undefined })),
  };
}

/** An order line as the API shows it: its progress counts in `detail` with Medusa's meaning of each. */
export function lineView(item: Order["items"][number]) {
  return {
    detail: {
      quantity: item.quantity,
      fulfilled_quantity: item.fulfilled_quantity,
      shipped_quantity: item.shipped_quantity,
      delivered_quantity: item.delivered_quantity,
      // Medusa's meaning here: asked back and not received yet (Kasse's top-level count keeps every unit asked back).
      return_requested_quantity: item.return_requested_quantity - item.return_received_quantity,
      // Received back into stock; the damaged ones are dismissed, as Medusa counts them apart.
      return_received_quantity: item.return_received_quantity - item.return_dismissed_quantity,
      return_dismissed_quantity: item.return_dismissed_quantity,
    },
    ...item,
    deleted_at: undefined,
    order_id: undefined,
  };
}

/** The store view leaves out provider session data (client secrets) and payment provider data. */
function paymentCollectionView(collection: PaymentCollection, audience: Audience) {
  if (audience === "admin") return { ...collection, deleted_at: undefined };
  const { deleted_at: _d, ...rest } = collection;
  return {
    ...rest,
    payment_sessions: collection.payment_sessions.map(({ data: _data, context: _context, ...s }) => s),
    payments: collection.payments.map(({ data: _data, ...p }) => p),
  };
}

/**
 * Adds each line's live `variant` and `product` when `fields` names `items.variant` /
 * `items.product` (Medusa's storefront asks for both): one query each for all the orders' lines.
 */
export async function withLineRefs<
  T extends { items: Array<{ variant_id: string | null; product_id: string | null }> },
>(modules: Modules, orders: T[], selection: FieldSelection): Promise<T[]> {
  const wantsVariant = wants(selection, "items.variant");
  const wantsProduct = wants(selection, "items.product");
  if (!wantsVariant && !wantsProduct) return orders;
  const lines = orders.flatMap((o) => o.items);
  const variantIds = [...new Set(lines.map((l) => l.variant_id).filter((id): id is string => !!id))];
  const productIds = [...new Set(lines.map((l) => l.product_id).filter((id): id is string => !!id))];
  const [variants, products] = await Promise.all([
    wantsVariant && variantIds.length
      ? modules.product.listVariants({ id: variantIds }, { limit: variantIds.length, offset: 0 }).then((r) => r.items)
      : [],
    wantsProduct && productIds.length
      ? modules.product
          .list({ id: productIds }, { limit: productIds.length, offset: 0 }, { relations: [] })
          .then((r) => r.items)
      : [],
  ]);
  const variantById = new Map(
    variants.map((v) => [
      v.id,
      {
        id: v.id,
        title: v.title,
        sku: v.sku,
        product_id: v.product_id,
        options: v.options.map((o) => ({
          id: o.id,
          value: o.value,
          option_id: o.option_id,
          option: { id: o.option.id, title: o.option.title },
        })),
      },
    ]),
  );
  const productById = new Map(
    products.map((p) => [
      p.id,
      { id: p.id, title: p.title, handle: p.handle, subtitle: p.subtitle, thumbnail: p.thumbnail },
    ]),
  );
  return orders.map((o) => ({
    ...o,
    items: o.items.map((item) => ({
      ...item,
      ...(wantsVariant ? { variant: (item.variant_id && variantById.get(item.variant_id)) || null } : {}),
      ...(wantsProduct ? { product: (item.product_id && productById.get(item.product_id)) || null } : {}),
    })),
  }));
}
