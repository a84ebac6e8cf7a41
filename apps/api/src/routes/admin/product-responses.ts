import { Type } from "@sinclair/typebox";
import { Extend, OrNull } from "@kasse/db";
import { ShippingProfileView } from "@kasse/modules/fulfillment";
import { InventoryItemView, VariantInventoryItemView } from "@kasse/modules/inventory";
import { PriceView } from "@kasse/modules/pricing";
import {
  PRODUCT_RELATIONS,
  ProductVariantView,
  ProductView,
  VariantImageView,
  type Product,
  type ProductRelation,
  type ProductVariant,
} from "@kasse/modules/product";
import { SalesChannelView } from "@kasse/modules/sales-channel";
import type { App } from "../../app-type";
import { wants, type FieldNode, type FieldSelection } from "../../http/fields";

/** A variant as the Admin API shows it: with its prices and inventory item links. */
const AdminVariantView = Extend(ProductVariantView, {
  prices: Type.Array(PriceView),
  inventory_items: Type.Array(VariantInventoryItemView),
});
/** A product as the Admin API shows it: variants as {@link AdminVariantView}, sales channel records. */
export const AdminProductView = Extend(ProductView, {
  variants: Type.Array(AdminVariantView),
  sales_channels: Type.Array(SalesChannelView),
  shipping_profile: Type.Optional(OrNull(ShippingProfileView)),
});

/** The product relations a `fields` selection needs: all by default, else only those named. */
export function relationsFor(selection: FieldSelection): ProductRelation[] {
  const root = selection.root;
  return PRODUCT_RELATIONS.filter((r) => (root.all ? !root.removed.has(r) : root.children.has(r)));
}

const wantsChild = (node: FieldNode | undefined, key: string): boolean =>
  !node || (node.all ? !node.removed.has(key) : node.children.has(key));

/**
 * Completes a page of products the way Medusa's Admin API shows them: variant `prices`
 * (pricing), variant `inventory_items` (inventory), `sales_channels` records, and the
 * `shipping_profile` when `fields` names it (the product's `shipping_profile_id`, else the store's
 * default one: which options ship a product does not depend on it).
 * One query per module for the whole page, never one per product.
 */
export async function adminProducts(app: App, products: Product[], selection: FieldSelection): Promise<Product[]> {
  const variantsNode = selection.root.children.get("variants");
  const variantIds = products.flatMap((p) => (p.variants ?? []).map((v) => v.id));
  const channelIds = [...new Set(products.flatMap((p) => (p.sales_channels ?? []).map((c) => c.id)))];
  const [prices, inventoryItems, channels, profile] = await Promise.all([
    variantIds.length && wantsChild(variantsNode, "prices")
      ? app.modules.pricing.listVariantPrices(variantIds)
      : undefined,
    variantIds.length && wantsChild(variantsNode, "inventory_items")
      ? app.modules.inventory.listVariantInventoryItems(variantIds)
      : undefined,
    channelIds.length
      ? app.modules.salesChannel
          .list({ id: channelIds }, { limit: channelIds.length, offset: 0 })
          .then((r) => new Map(r.items.map((c) => [c.id, c])))
      : undefined,
    products.length && wants(selection, "shipping_profile") ? shippingProfiles(app, products) : undefined,
  ]);
  return products.map((p) => ({
    ...p,
    ...(p.variants
      ? {
          variants: p.variants.map((v) => ({
            ...v,
            ...(prices ? { prices: prices.get(v.id) ?? [] } : {}),
            ...(inventoryItems ? { inventory_items: inventoryItems.get(v.id) ?? [] } : {}),
          })),
        }
      : {}),
    ...(p.sales_channels
      ? { sales_channels: p.sales_channels.map((c) => channels?.get(c.id)).filter((c) => c !== undefined) }
      : {}),
    ...(profile !== undefined ? { shipping_profile: profile(p) } : {}),
  }));
}

/** Each product's shipping profile: its own (one query for the page), else the default one (null before any exists). */
async function shippingProfiles(app: App, products: Product[]) {
  const ids = [...new Set(products.flatMap((p) => p.shipping_profile_id ?? []))];
  const [fallback, own] = await Promise.all([
    app.modules.fulfillment.defaultProfile(),
    ids.length ? app.modules.fulfillment.listProfiles({ id: ids }, { limit: ids.length, offset: 0 }) : { items: [] },
  ]);
  const byId = new Map(own.items.map((profile) => [profile.id, profile]));
  return (product: Product) => (product.shipping_profile_id && byId.get(product.shipping_profile_id)) || fallback;
}

/** One product by id as the Admin API shows it (404 when missing or deleted). */
export async function adminProduct(app: App, id: string, selection: FieldSelection): Promise<Product> {
  const product = await app.modules.product.retrieve(id, { relations: relationsFor(selection), filters: { id: [id] } });
  return (await adminProducts(app, [product], selection))[0]!;
}

/**
 * A variant in the Admin's variant lists and detail: with `inventory_quantity` (what can be sold
 * from every location), each inventory link's `inventory` item with its location levels, and the
 * images chosen for it, when asked for.
 */
export const AdminVariantListView = Extend(AdminVariantView, {
  inventory_quantity: Type.Optional(Type.Integer()),
  images: Type.Optional(Type.Array(VariantImageView)),
  inventory_items: Type.Array(Extend(VariantInventoryItemView, { inventory: Type.Optional(InventoryItemView) })),
  /** Medusa's variant-to-item link read the other way: the variant's inventory items, with their location levels. */
  inventory: Type.Optional(Type.Array(InventoryItemView)),
});

/**
 * Completes a page of variants: `prices`, `inventory_items` (with `inventory` when
 * `inventory_items.inventory` is named), `inventory` (the items themselves, as Medusa's
 * order forms ask for `*inventory.location_levels`), `inventory_quantity` and `images` (when
 * named). One query per module for the page (the items with their levels: two), never one per variant.
 */
export async function variantExtras(app: App, variants: ProductVariant[], selection: FieldSelection) {
  const ids = variants.map((v) => v.id);
  const named = (path: string) => selection.named.size > 0 && wants(selection, path);
  const [prices, links, quantities, images] = await Promise.all([
    app.modules.pricing.listVariantPrices(ids),
    app.modules.inventory.listVariantInventoryItems(ids),
    named("inventory_quantity") ? app.modules.inventory.availableQuantities(ids, "all") : undefined,
    named("images") ? app.modules.product.variantImages(ids) : undefined,
  ]);
  const itemIds = [...new Set([...links.values()].flat().map((l) => l.inventory_item_id))];
  const inventory = named("inventory");
  const items =
    (named("inventory_items.inventory") || inventory) && itemIds.length
      ? new Map(
          (await app.modules.inventory.list({ id: itemIds }, { limit: itemIds.length, offset: 0 })).items.map((i) => [
            i.id,
            i,
          ]),
        )
      : undefined;
  return variants.map((v) => ({
    ...v,
    prices: prices.get(v.id) ?? [],
    inventory_items: (links.get(v.id) ?? []).map((link) =>
      items ? { ...link, inventory: items.get(link.inventory_item_id) } : link,
    ),
    ...(inventory
      ? { inventory: (links.get(v.id) ?? []).flatMap((link) => items?.get(link.inventory_item_id) ?? []) }
      : {}),
    ...(quantities ? { inventory_quantity: quantities.get(v.id) ?? 0 } : {}),
    ...(images ? { images: images.get(v.id) ?? [] } : {}),
  }));
}
