import { Type } from "@sinclair/typebox";
import { FileUrlView, MoneyView } from "@kasse/core";
import { Extend, OrNull, View } from "@kasse/db";
import { CustomerResponse } from "@kasse/modules/customer";
import { VariantInventoryItemView } from "@kasse/modules/inventory";
import { ProductVariantView } from "@kasse/modules/product";
import { PromotionResponse } from "@kasse/modules/promotion";
import { RegionView } from "@kasse/modules/region";
import { SalesChannelView } from "@kasse/modules/sales-channel";
import type { Modules } from "@kasse/modules";
import { wants, type FieldSelection } from "../http/fields";
import { OrderDetailView, type orderView } from "./view";
import { ShippingProfileView } from "@kasse/modules/fulfillment";
import { creditLineTotal, lineShare } from "@kasse/modules/order";

type OrderView = Awaited<ReturnType<typeof orderView>>;

const detailProperties = (OrderDetailView as unknown as { properties: Record<string, { items?: unknown }> }).properties;
const LineView = detailProperties.items!.items as Parameters<typeof Extend>[0];

/** The bought variant as it is now (it may have changed or gone since): options, product, inventory links. */
const OrderVariantView = Extend(ProductVariantView, {
  product: Type.Optional(
    OrNull(
      View({
        id: Type.String(),
        title: Type.String(),
        handle: Type.String(),
        thumbnail: OrNull(FileUrlView()),
        status: Type.String(),
        shipping_profile: Type.Optional(OrNull(ShippingProfileView)),
      }),
    ),
  ),
  inventory_items: Type.Optional(Type.Array(VariantInventoryItemView)),
});

/** A promotion the order used at checkout, with what it gave the order (`amount`, in the order's currency). */
const OrderPromotionView = Extend(PromotionResponse, { amount: MoneyView() }, [
  "application_method",
  "rules",
  "campaign",
]);

/**
 * An order as the Admin API shows it: {@link OrderDetailView} plus what Medusa's dashboard reads:
 * the totals before discounts (`original_*`), `refundable_total`, what its credit lines credit
 * (`credit_line_total`), and on request `customer`, `sales_channel`, `region`
 * and each line's `variant`.
 */
export const AdminOrderView = Extend(OrderDetailView, {
  items: Type.Array(
    Extend(LineView, {
      variant: Type.Optional(OrNull(OrderVariantView)),
      /** What the units asked back and not received yet are worth (Medusa's line total). */
      return_requested_total: MoneyView(),
    }),
  ),
  /** What the units asked back and not received yet are worth, over the lines. */
  return_requested_total: MoneyView(),
  original_item_tax_total: MoneyView(),
  original_shipping_tax_total: MoneyView(),
  original_tax_total: MoneyView(),
  original_total: MoneyView(),
  refundable_total: MoneyView(),
  credit_line_total: MoneyView(),
  customer: Type.Optional(OrNull(CustomerResponse)),
  sales_channel: Type.Optional(OrNull(SalesChannelView)),
  region: Type.Optional(OrNull(RegionView)),
  promotions: Type.Optional(Type.Array(OrderPromotionView)),
});

type Line = { subtotal: number; discount_total: number; tax_total: number; variant_id: string | null };

type ReturnLine = {
  quantity: number;
  total: number;
  return_requested_quantity: number;
  return_received_quantity: number;
};

/** What a line's units asked back and not received yet are worth: its total's share for them. */
const requestedTotal = (item: ReturnLine): number =>
  lineShare(item, item.return_requested_quantity - item.return_received_quantity);

/**
 * Each line's `return_requested_total` (its total's share for the units asked back and not yet
 * received) and their sum, as Medusa's order totals carry them.
 */
export function withReturnRequestedTotals<T extends { items: ReturnLine[] }>(order: T) {
  const items = order.items.map((item) => ({ ...item, return_requested_total: requestedTotal(item) }));
  return { ...order, items, return_requested_total: items.reduce((sum, i) => sum + i.return_requested_total, 0) };
}
type Method = { subtotal: number; discount_total: number; tax_total: number };

/**
 * Tax before discounts: a line's tax is charged on its discounted amount at one rate, so the tax
 * on the undiscounted amount scales by subtotal / (subtotal − discount). A line discounted to
 * zero carries no tax to scale from, so its original tax is taken as its tax (zero).
 */
function originalTax(rows: Array<{ subtotal: number; discount_total: number; tax_total: number }>): number {
  return rows.reduce((sum, r) => {
    const taxed = r.subtotal - r.discount_total;
    if (r.discount_total === 0 || taxed <= 0) return sum + r.tax_total;
    return sum + Math.round((r.tax_total * r.subtotal) / taxed);
  }, 0);
}

/**
 * Adds the admin extras to a page of order views: computed totals always, related records only
 * when `fields` asks for them (one query per module for the whole page, never one per order).
 */
export async function adminOrderViews<T extends OrderView>(modules: Modules, orders: T[], selection: FieldSelection) {
  const all = selection.root.all && selection.named.size === 0;
  const want = (path: string) => !all && wants(selection, path);
  const ids = (pick: (o: T) => Array<string | null | undefined>) => [
    ...new Set(orders.flatMap(pick).filter((x): x is string => typeof x === "string")),
  ];
  const customerIds = want("customer") ? ids((o) => [o.customer_id]) : [];
  const channelIds = want("sales_channel") ? ids((o) => [o.sales_channel_id]) : [];
  const regionIds = want("region") ? ids((o) => [o.region_id]) : [];
  const variantIds = want("items.variant") ? ids((o) => (o.items as Line[]).map((i) => i.variant_id)) : [];
  const page = (n: number) => ({ limit: n, offset: 0 });
  const [customers, channels, regions, variants, links, promotions] = await Promise.all([
    customerIds.length ? modules.customer.list({ id: customerIds }, page(customerIds.length)).then((r) => r.items) : [],
    channelIds.length
      ? modules.salesChannel.list({ id: channelIds }, page(channelIds.length)).then((r) => r.items)
      : [],
    regionIds.length ? modules.region.list({ id: regionIds }, page(regionIds.length)).then((r) => r.items) : [],
    variantIds.length
      ? modules.product.listVariants({ id: variantIds }, page(variantIds.length)).then((r) => r.items)
      : [],
    variantIds.length && wants(selection, "items.variant.inventory_items")
      ? modules.inventory.listVariantInventoryItems(variantIds)
      : undefined,
    want("promotions")
      ? orderPromotions(
          modules,
          orders.map((o) => o.id),
        )
      : undefined,
  ]);
  const productIds = [...new Set(variants.map((v) => v.product_id))];
  const wantsProducts = productIds.length > 0 && wants(selection, "items.variant.product");
  const [productRows, profile] = await Promise.all([
    wantsProducts
      ? modules.product.list({ id: productIds }, page(productIds.length), { relations: [] }).then((r) => r.items)
      : [],
    wantsProducts && wants(selection, "items.variant.product.shipping_profile")
      ? modules.fulfillment.defaultProfile()
      : undefined,
  ]);
  const products = wantsProducts
    ? new Map(
        productRows.map((p) => [
          p.id,
          {
            id: p.id,
            title: p.title,
            handle: p.handle,
            thumbnail: p.thumbnail,
            status: p.status,
            ...(profile !== undefined ? { shipping_profile: profile } : {}),
          },
        ]),
      )
    : undefined;
  const byId = <R extends { id: string }>(rows: R[]) => new Map(rows.map((r) => [r.id, r]));
  const [customerById, channelById, regionById, variantById] = [
    byId(customers),
    byId(channels),
    byId(regions),
    byId(variants),
  ];

  return orders.map((o) => {
    const lines = o.items as Line[];
    const methods = o.shipping_methods as Method[];
    const original_item_tax_total = originalTax(lines);
    const original_shipping_tax_total = originalTax(methods);
    const original_tax_total = original_item_tax_total + original_shipping_tax_total;
    const paid = o.summary.paid_total - o.summary.refunded_total;
    // Each order and line is copied once, with every extra ({@link withReturnRequestedTotals}'s
    // totals too); the extras go before the spread, as in `orderViews` (the views carry none of them).
    let return_requested_total = 0;
    const items = o.items.map((item) => {
      const total = requestedTotal(item);
      return_requested_total += total;
      if (!variantIds.length) return { return_requested_total: total, ...item };
      const variant = item.variant_id ? variantById.get(item.variant_id) : undefined;
      if (!variant) return { variant: null, return_requested_total: total, ...item };
      return {
        variant: {
          ...variant,
          ...(products ? { product: products.get(variant.product_id) ?? null } : {}),
          ...(links ? { inventory_items: links.get(variant.id) ?? [] } : {}),
        },
        return_requested_total: total,
        ...item,
      };
    });
    return {
      original_item_tax_total,
      original_shipping_tax_total,
      original_tax_total,
      // The total with the discounts given back and the tax they took off.
      original_total: o.total + o.discount_total + (original_tax_total - o.tax_total),
      refundable_total: Math.max(0, paid),
      credit_line_total: creditLineTotal(o),
      ...(customerIds.length || want("customer")
        ? { customer: o.customer_id ? (customerById.get(o.customer_id) ?? null) : null }
        : {}),
      ...(channelIds.length || want("sales_channel")
        ? { sales_channel: o.sales_channel_id ? (channelById.get(o.sales_channel_id) ?? null) : null }
        : {}),
      ...(regionIds.length || want("region")
        ? { region: o.region_id ? (regionById.get(o.region_id) ?? null) : null }
        : {}),
      ...(promotions ? { promotions: promotions.get(o.id) ?? [] } : {}),
      return_requested_total,
      ...o,
      items,
    };
  });
}

/**
 * The promotions each order used at checkout (`fields=*promotions`), each with what it gave the
 * order: the order module's record of the use, joined to the promotions still live (a deleted
 * promotion is no longer shown, as Medusa drops its link). A fixed number of queries for the whole page, whatever its size.
 */
async function orderPromotions(modules: Modules, orderIds: string[]) {
  return promotionUses(modules, await modules.order.promotionsOf(orderIds));
}

/** Each order's promotion uses (`promotion_id`, `amount`) as the views of the promotions still live, with their `amount`. */
export async function promotionUses(
  modules: Modules,
  uses: Map<string, Array<{ promotion_id: string; amount: number }>>,
) {
  const ids = [...new Set([...uses.values()].flat().map((u) => u.promotion_id))];
  const found = ids.length ? (await modules.promotion.list({ id: ids }, { limit: ids.length, offset: 0 })).items : [];
  const byId = new Map(
    found.map(({ application_method: _m, rules: _r, campaign: _c, ...promotion }) => [promotion.id, promotion]),
  );
  return new Map(
    [...uses].map(([orderId, list]) => [
      orderId,
      list.flatMap(({ promotion_id, amount }) => {
        const promotion = byId.get(promotion_id);
        return promotion ? [{ ...promotion, amount }] : [];
      }),
    ]),
  );
}
