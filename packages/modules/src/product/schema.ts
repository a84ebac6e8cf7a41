import { boolean, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "@kasse/db";
import {
  fileUrl,
  metadata,
  entityTable,
  parentId,
  indexes,
  liveUniqueIndex,
  searchText,
  trigramIndex,
  indexWhere,
} from "@kasse/db";

/** Product status values (docs/CONTRACT.md "States"). */
export const PRODUCT_STATUSES = ["draft", "proposed", "published", "rejected"] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** Physical and customs attributes shared by products and variants. */
const physical = () => ({
  weight: doublePrecision("weight"),
  length: doublePrecision("length"),
  height: doublePrecision("height"),
  width: doublePrecision("width"),
  hs_code: text("hs_code"),
  mid_code: text("mid_code"),
  origin_country: text("origin_country"),
  material: text("material"),
});

/**
 * The text `q` matches against. The trigram index is on this expression (`table` empty), and
 * queries use the same expression qualified with the table name so the planner can use it.
 */
export const productSearchText = (table?: string) => searchText(["title", "subtitle", "description", "handle"], table);

/** Products. `q` searches title, subtitle, description and handle through one trigram index. */
export const product = entityTable(
  "product",
  {
    title: text("title").notNull(),
    subtitle: text("subtitle"),
    description: text("description"),
    handle: text("handle").notNull(),
    status: text("status").$type<ProductStatus>().notNull().default("draft"),
    is_giftcard: boolean("is_giftcard").notNull().default(false),
    discountable: boolean("discountable").notNull().default(true),
    thumbnail: fileUrl("thumbnail"),
    external_id: text("external_id"),
    collection_id: text("collection_id"),
    type_id: text("type_id"),
    // Medusa's product-to-profile link, kept and answered; which options ship a product does not depend on it.
    shipping_profile_id: text("shipping_profile_id"),
    ...physical(),
    metadata: metadata(),
  },
  (t) => [
    // A handle is unique among live products only, so a deleted product's handle can be reused.
    liveUniqueIndex("product_handle_uq").on(t.handle),
    ...indexes("product", {
      status: t.status,
      collection: t.collection_id,
      type: t.type_id,
      is_giftcard: t.is_giftcard,
      created_at: t.created_at,
    }),
    trigramIndex("product_search_trgm_idx", productSearchText()),
  ],
);

export const productOption = entityTable(
  "product_option",
  {
    product_id: parentId("product_id", () => product.id),
    title: text("title").notNull(),
    // Keeps options in the order they were given.
    rank: integer("rank").notNull().default(0),
    metadata: metadata(),
  },
  (t) => [
    index("product_option_product_idx").on(t.product_id),
    liveUniqueIndex("product_option_title_uq").on(t.product_id, t.title),
  ],
);

export const productOptionValue = entityTable(
  "product_option_value",
  {
    option_id: parentId("option_id", () => productOption.id),
    value: text("value").notNull(),
    // Keeps values in the order they were given.
    rank: integer("rank").notNull().default(0),
    metadata: metadata(),
  },
  (t) => [
    index("product_option_value_option_idx").on(t.option_id),
    liveUniqueIndex("product_option_value_uq").on(t.option_id, t.value),
  ],
);

export const productVariant = entityTable(
  "product_variant",
  {
    product_id: parentId("product_id", () => product.id),
    title: text("title").notNull(),
    sku: text("sku"),
    barcode: text("barcode"),
    ean: text("ean"),
    upc: text("upc"),
    allow_backorder: boolean("allow_backorder").notNull().default(false),
    manage_inventory: boolean("manage_inventory").notNull().default(true),
    variant_rank: integer("variant_rank").notNull().default(0),
    ...physical(),
    metadata: metadata(),
  },
  (t) => [
    index("product_variant_product_idx").on(t.product_id),
    uniqueIndex("product_variant_sku_uq").on(t.sku).where(indexWhere("deleted_at is null and sku is not null")),
    index("product_variant_sku_trgm_idx").using("gin", t.sku.op("gin_trgm_ops")),
  ],
);

/** Which option value a variant has for each option. */
export const productVariantOption = pgTable(
  "product_variant_option",
  {
    variant_id: parentId("variant_id", () => productVariant.id),
    option_value_id: parentId("option_value_id", () => productOptionValue.id),
  },
  (t) => [
    primaryKey({ columns: [t.variant_id, t.option_value_id] }),
    index("product_variant_option_value_idx").on(t.option_value_id),
  ],
);

export const productImage = entityTable(
  "product_image",
  {
    product_id: parentId("product_id", () => product.id),
    url: fileUrl("url").notNull(),
    rank: integer("rank").notNull().default(0),
    metadata: metadata(),
  },
  (t) => [index("product_image_product_idx").on(t.product_id)],
);

/** Which of its product's images show a variant (Medusa's variant images); removed with the image. */
export const productVariantImage = pgTable(
  "product_variant_image",
  {
    variant_id: parentId("variant_id", () => productVariant.id),
    image_id: parentId("image_id", () => productImage.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.variant_id, t.image_id] }), index("product_variant_image_image_idx").on(t.image_id)],
);

export const productCollection = entityTable(
  "product_collection",
  {
    title: text("title").notNull(),
    handle: text("handle").notNull(),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("product_collection_handle_uq").on(t.handle),
    ...indexes("product_collection", { title: t.title, created_at: t.created_at }),
  ],
);

/**
 * Categories form a tree. `mpath` is the dot-joined chain of ids from the root to this
 * category, so descendants are one indexed `LIKE 'root.child.%'` and cycles are detectable.
 */
export const productCategory = entityTable(
  "product_category",
  {
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    handle: text("handle").notNull(),
    mpath: text("mpath").notNull(),
    is_active: boolean("is_active").notNull().default(false),
    is_internal: boolean("is_internal").notNull().default(false),
    rank: integer("rank").notNull().default(0),
    parent_category_id: text("parent_category_id"),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("product_category_handle_uq").on(t.handle),
    ...indexes("product_category", { parent: t.parent_category_id, name: t.name }),
    index("product_category_mpath_idx").on(t.mpath.op("text_pattern_ops")),
  ],
);

export const productTag = entityTable(
  "product_tag",
  {
    value: text("value").notNull(),
    metadata: metadata(),
  },
  (t) => [liveUniqueIndex("product_tag_value_uq").on(t.value)],
);

export const productType = entityTable(
  "product_type",
  {
    value: text("value").notNull(),
    metadata: metadata(),
  },
  (t) => [liveUniqueIndex("product_type_value_uq").on(t.value)],
);

export const productTags = pgTable(
  "product_tags",
  {
    product_id: parentId("product_id", () => product.id),
    product_tag_id: parentId("product_tag_id", () => productTag.id),
  },
  (t) => [
    primaryKey({ columns: [t.product_id, t.product_tag_id] }),
    index("product_tags_tag_idx").on(t.product_tag_id),
  ],
);

export const productCategoryProduct = pgTable(
  "product_category_product",
  {
    product_id: parentId("product_id", () => product.id),
    product_category_id: parentId("product_category_id", () => productCategory.id),
  },
  (t) => [
    primaryKey({ columns: [t.product_id, t.product_category_id] }),
    index("product_category_product_category_idx").on(t.product_category_id),
  ],
);

/** Product ↔ sales channel link; `sales_channel_id` is a plain id (the channel is another module's). */
export const productSalesChannel = pgTable(
  "product_sales_channel",
  {
    product_id: parentId("product_id", () => product.id),
    sales_channel_id: text("sales_channel_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.product_id, t.sales_channel_id] }),
    index("product_sales_channel_channel_idx").on(t.sales_channel_id),
  ],
);
export type ProductRow = typeof product.$inferSelect;
export type ProductOptionRow = typeof productOption.$inferSelect;
export type ProductOptionValueRow = typeof productOptionValue.$inferSelect;
export type ProductVariantRow = typeof productVariant.$inferSelect;
export type ProductImageRow = typeof productImage.$inferSelect;
export type ProductCollectionRow = typeof productCollection.$inferSelect;
export type ProductCategoryRow = typeof productCategory.$inferSelect;
export type ProductTagRow = typeof productTag.$inferSelect;
export type ProductTypeRow = typeof productType.$inferSelect;
