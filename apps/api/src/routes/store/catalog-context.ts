import type { FastifyRequest } from "fastify";
import { Type } from "@sinclair/typebox";
import { errors, isKasseError } from "@kasse/core";
import { Extend, OrNull, groupBy } from "@kasse/db";
import { CalculatedPriceView, type CalculatedPrice, type PriceContext } from "@kasse/modules/pricing";
import {
  ProductVariantView,
  ProductView,
  VariantImageView,
  type Product,
  type ProductVariant,
} from "@kasse/modules/product";
import type { App } from "../../app-type";
import { wants, type FieldSelection } from "../../http/fields";

/** What a store catalog read prices and counts stock against. */
export interface CatalogContext {
  /** Channels whose products the request may see; empty means none. */
  salesChannelIds: string[];
  /** Null when neither `region_id` nor `currency_code` was given: no `calculated_price`. */
  pricing: PriceContext | null;
}

/**
 * The request's sales channels: its publishable key's (narrowed by `sales_channel_id`, which must
 * be among them), else the enabled ones of `sales_channel_id`, else the default channel (set by
 * the publishable-key plugin, which leaves out disabled channels: a disabled channel shows nothing).
 */
export async function storeChannels(
  app: App,
  request: FastifyRequest,
  requested: string[] | undefined,
): Promise<string[]> {
  if (!requested?.length) return request.salesChannelIds;
  if (request.publishableKeyId) {
    const outside = requested.filter((id) => !request.salesChannelIds.includes(id));
    if (outside.length)
      throw errors.invalidData(`Requested sales channel is not part of the publishable key: ${outside.join(", ")}`);
    return requested;
  }
  return app.modules.salesChannel.enabled(requested);
}

/**
 * The pricing context of `region_id` / `currency_code`: the region gives the currency when none is
 * named; `customerGroupIds` (the signed-in customer's groups) select customer-group price lists.
 */
export async function pricingContext(
  app: App,
  query: { region_id?: string; currency_code?: string },
  customerGroupIds: string[],
): Promise<PriceContext | null> {
  if (!query.region_id && !query.currency_code) return null;
  let currency = query.currency_code?.toLowerCase();
  if (query.region_id) {
    const regionCurrency = await app.modules.region.currencyOf(query.region_id).catch((error: unknown) => {
      throw isKasseError(error) && error.type === "not_found"
        ? errors.invalidData(`Region with id: ${query.region_id} was not found`)
        : error;
    });
    currency ??= regionCurrency;
  }
  if (currency && !(await app.modules.currency.existing([currency])).has(currency))
    throw errors.invalidData(`Currency with code: ${currency} was not found`);
  return { currency_code: currency, region_id: query.region_id, customer_group_ids: customerGroupIds };
}

/** A variant as the Store API shows it: `calculated_price` with a pricing context, `inventory_quantity` when asked for. */
export const StoreVariantView = Extend(
  ProductVariantView,
  {
    calculated_price: OrNull(CalculatedPriceView),
    inventory_quantity: Type.Integer(),
    images: Type.Array(VariantImageView),
  },
  ["deleted_at"],
);
/** A product as the Store API shows it: variants as {@link StoreVariantView}, relations reduced to the Store's fields. */
export const StoreProductView = Extend(ProductView, { variants: Type.Array(StoreVariantView) }, [
  "deleted_at",
  "sales_channels",
]);

/** Store shape of a variant: options as `{id, value, option_id, option: {id, title}}`, plus computed extras. */
export type StoreVariant = Omit<ProductVariant, "deleted_at" | "options"> & {
  options: Array<{ id: string; value: string; option_id: string; option: { id: string; title: string } }>;
  calculated_price?: CalculatedPrice | null;
  inventory_quantity?: number;
  images?: Array<{ id: string; url: string; rank: number }>;
};

/**
 * Shapes variants for the Store and adds `calculated_price` (when a pricing context is given),
 * `inventory_quantity` and `images` (when `fields` asks for them): one batched call per module for the whole page.
 */
export async function storeVariants(
  app: App,
  variants: ProductVariant[],
  context: CatalogContext,
  selection: FieldSelection,
  prefix = "variants.",
): Promise<StoreVariant[]> {
  const ids = variants.map((v) => v.id);
  const wantsInventory = wants(selection, `${prefix}inventory_quantity`);
  const [prices, quantities, images] = await Promise.all([
    context.pricing && ids.length ? app.modules.pricing.calculatePrices(ids, context.pricing) : undefined,
    wantsInventory && ids.length
      ? app.modules.stockLocation
          .locationIdsForSalesChannels(context.salesChannelIds)
          .then((locations) => app.modules.inventory.availableQuantities(ids, locations))
      : undefined,
    wants(selection, `${prefix}images`) ? app.modules.product.variantImages(ids) : undefined,
  ]);
  return variants.map(({ deleted_at: _deleted, options, ...variant }) => {
    const out: StoreVariant = {
      ...variant,
      options: options.map((o) => ({
        id: o.id,
        value: o.value,
        option_id: o.option_id,
        option: { id: o.option.id, title: o.option.title },
      })),
    };
    if (prices) out.calculated_price = prices.get(variant.id) ?? null;
    // Variants without inventory items (manage_inventory false) have no quantity to report.
    const quantity = quantities?.get(variant.id);
    if (quantity !== undefined) out.inventory_quantity = quantity;
    // The product images chosen for the variant (none chosen: the storefront shows the product's).
    if (images) out.images = images.get(variant.id) ?? [];
    return out;
  });
}

/** Store shape of products: relations reduced to the contract's Store fields, variants priced. */
export async function storeProducts(
  app: App,
  products: Product[],
  context: CatalogContext,
  selection: FieldSelection,
): Promise<Array<Record<string, unknown>>> {
  const variants = await storeVariants(
    app,
    products.flatMap((p) => p.variants ?? []),
    context,
    selection,
  );
  const byProduct = groupBy(variants, (v) => v.product_id);
  return products.map(({ deleted_at: _deleted, sales_channels: _channels, ...p }) => ({
    ...p,
    ...(p.variants ? { variants: byProduct.get(p.id) ?? [] } : {}),
    ...(p.options
      ? {
          options: p.options.map(({ deleted_at: _d, values, ...o }) => ({
            ...o,
            values: values.map((v) => ({ id: v.id, value: v.value })),
          })),
        }
      : {}),
    ...(p.images ? { images: p.images.map((i) => ({ id: i.id, url: i.url, rank: i.rank })) } : {}),
    ...(p.collection !== undefined
      ? {
          collection: p.collection
            ? { id: p.collection.id, title: p.collection.title, handle: p.collection.handle }
            : null,
        }
      : {}),
    ...(p.categories ? { categories: p.categories.map((c) => ({ id: c.id, name: c.name, handle: c.handle })) } : {}),
    ...(p.tags ? { tags: p.tags.map((t) => ({ id: t.id, value: t.value })) } : {}),
    ...(p.type !== undefined ? { type: p.type ? { id: p.type.id, value: p.type.value } : null } : {}),
  }));
}

/**
 * The products (Store shape, no variants) the request's channels sell in each of `ids`, for a
 * collection's or category's `products` (`fields=*products`): one product query for all of them.
 * At most 1000 products in all, the largest page.
 */
async function productsByGroup(
  app: App,
  request: FastifyRequest,
  by: "collection_id" | "category_id",
  ids: string[],
): Promise<Map<string, Array<Record<string, unknown>>>> {
  const out = new Map<string, Array<Record<string, unknown>>>();
  const channels = await storeChannels(app, request, undefined);
  if (ids.length === 0 || channels.length === 0) return out;
  const { items } = await app.modules.product.list(
    { [by]: ids, status: ["published"], sales_channel_id: channels },
    { limit: 1000, offset: 0, order: "created_at" },
    { relations: by === "category_id" ? ["categories"] : [] },
  );
  const wanted = new Set(ids);
  for (const { deleted_at: _deleted, sales_channels: _channels, categories, ...p } of items) {
    const groups = by === "collection_id" ? [p.collection_id] : (categories ?? []).map((c) => c.id);
    for (const group of groups) {
      if (!group || !wanted.has(group)) continue;
      const list = out.get(group);
      if (list) list.push(p);
      else out.set(group, [p]);
    }
  }
  return out;
}

/** Each of `groups` (collections or categories) with its `products`, as {@link productsByGroup} finds them. */
export async function withGroupProducts<G extends { id: string }>(
  app: App,
  request: FastifyRequest,
  by: "collection_id" | "category_id",
  groups: G[],
): Promise<Array<G & { products: Array<Record<string, unknown>> }>> {
  const products = await productsByGroup(
    app,
    request,
    by,
    groups.map((g) => g.id),
  );
  return groups.map((g) => ({ ...g, products: products.get(g.id) ?? [] }));
}
