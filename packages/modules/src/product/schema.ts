import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { Type, type Static, type TUnsafe } from "@sinclair/typebox";
import {
  Amount,
  Code,
  Count,
  CurrencyCode,
  BlankableHandle,
  Handle,
  Id,
  LongText,
  MAX_LENGTH,
  OptionalMetadata,
  Title,
  FileUrl,
  FileUrlView,
  Strict,
  LinkChanges,
} from "@kasse/core";
import {
  fileUrl,
  metadata,
  OrNull,
  RowView,
  View,
  entityTable,
  parentId,
  indexes,
  liveUniqueIndex,
  type RowSnapshot,
  type ListFilters,
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
export const productSearchText = (table = "") => {
  const c = (name: string) => (table ? sql`${sql.identifier(table)}.${sql.identifier(name)}` : sql.identifier(name));
  return sql`(coalesce(${c("title")}, '') || ' ' || coalesce(${c("subtitle")}, '') || ' ' || coalesce(${c("description")}, '') || ' ' || coalesce(${c("handle")}, ''))`;
};

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
    index("product_search_trgm_idx").using("gin", sql`${productSearchText()} gin_trgm_ops`),
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
    uniqueIndex("product_variant_sku_uq")
      .on(t.sku)
      .where(sql`deleted_at is null and sku is not null`),
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

/** Body of `POST /admin/products/{id}/variants/{variant_id}/images/batch`: image ids of the product to show the variant with, or not. */
export const VariantImagesBatch = LinkChanges(100);
export type VariantImagesBatch = Static<typeof VariantImagesBatch>;

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

/**
 * Every live row of some products in the product module (the product, its options and their
 * values, variants, images and links), as read before a write: what a saga step journals so its
 * compensation can put the products back exactly as they were.
 */
export interface ProductSnapshot {
  products: Array<RowSnapshot<ProductRow>>;
  options: Array<RowSnapshot<ProductOptionRow>>;
  values: Array<RowSnapshot<ProductOptionValueRow>>;
  variants: Array<RowSnapshot<ProductVariantRow>>;
  variantOptions: Array<typeof productVariantOption.$inferSelect>;
  images: Array<RowSnapshot<ProductImageRow>>;
  variantImages: Array<typeof productVariantImage.$inferSelect>;
  tags: Array<typeof productTags.$inferSelect>;
  categories: Array<typeof productCategoryProduct.$inferSelect>;
  salesChannels: Array<typeof productSalesChannel.$inferSelect>;
}

// ---- Request bodies -------------------------------------------------------------------------

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Optional = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Optional(Nullable(schema));
const Measure = () => Type.Optional(Nullable(Type.Number({ minimum: 0 })));
const IdRef = Strict({ id: Id({ minLength: 1 }) });

/** A variant price as the Admin API takes it; amounts are integer minor units. */
export const VariantPriceInput = Strict({
  currency_code: CurrencyCode(),
  amount: Amount(),
  min_quantity: Type.Optional(Nullable(Count())),
  max_quantity: Type.Optional(Nullable(Count())),
  rules: Type.Optional(Strict({ region_id: Type.Optional(Id({ minLength: 1 })) })),
});
export type VariantPriceInput = Static<typeof VariantPriceInput>;

const variantFields = {
  title: Title({ minLength: 1 }),
  sku: Optional(Code()),
  barcode: Optional(Code()),
  ean: Optional(Code()),
  upc: Optional(Code()),
  allow_backorder: Type.Optional(Type.Boolean()),
  manage_inventory: Type.Optional(Type.Boolean()),
  variant_rank: Type.Optional(Count()),
  weight: Measure(),
  length: Measure(),
  height: Measure(),
  width: Measure(),
  hs_code: Optional(Code()),
  mid_code: Optional(Code()),
  origin_country: Optional(Code()),
  material: Optional(Title()),
  metadata: OptionalMetadata(),
  /** Option title → chosen value. */
  options: Type.Optional(Type.Record(Type.String(), Title(), { propertyNames: { maxLength: MAX_LENGTH.title } })),
};

/** A variant in a product create body, or `POST /admin/products/{id}/variants`. */
export const VariantCreate = Strict({
  ...variantFields,
  prices: Type.Array(VariantPriceInput),
  // Medusa's inventory kits (a variant made of existing items); Kasse gives each managed variant its own item, so none may be named.
  inventory_items: Type.Optional(
    Type.Array(Strict({ inventory_item_id: Id(), required_quantity: Count() }), {
      maxItems: 0,
    }),
  ),
});
export type VariantCreate = Static<typeof VariantCreate>;

/** `POST /admin/products/{id}/variants/{variant_id}`: the create fields, all optional. */
export const VariantUpdate = Type.Partial(Type.Object({ ...variantFields, prices: Type.Array(VariantPriceInput) }), {
  additionalProperties: false,
});
export type VariantUpdate = Static<typeof VariantUpdate>;

/** A variant inside a product update: with `id` it is updated, without it is created. */
export const VariantUpsert = Type.Partial(
  Type.Object({ id: Id({ minLength: 1 }), ...variantFields, prices: Type.Array(VariantPriceInput) }),
  {
    additionalProperties: false,
  },
);
export type VariantUpsert = Static<typeof VariantUpsert>;

/** `POST /admin/products/{id}/options` and the options of a product create body. */
export const OptionCreate = Strict({
  title: Title({ minLength: 1 }),
  values: Type.Array(Title({ minLength: 1 }), { minItems: 1 }),
  metadata: OptionalMetadata(),
  // Medusa's flag for an option of this product alone, which every Kasse option is (none is shared).
  is_exclusive: Type.Optional(Type.Literal(true)),
});
export type OptionCreate = Static<typeof OptionCreate>;

/** `POST /admin/products/{id}/options/{option_id}`. */
export const OptionUpdate = Type.Partial(OptionCreate, { additionalProperties: false });
export type OptionUpdate = Static<typeof OptionUpdate>;

/** An option inside a product update: with `id` it is updated, else matched by title or created. */
export const OptionUpsert = Strict({
  id: Type.Optional(Id({ minLength: 1 })),
  title: Title({ minLength: 1 }),
  values: Type.Array(Title({ minLength: 1 }), { minItems: 1 }),
  metadata: OptionalMetadata(),
});
export type OptionUpsert = Static<typeof OptionUpsert>;

const productFields = {
  title: Title({ minLength: 1 }),
  subtitle: Optional(Title()),
  description: Optional(LongText()),
  handle: Type.Optional(Handle()),
  status: Type.Optional(Type.Union(PRODUCT_STATUSES.map((s) => Type.Literal(s)))),
  is_giftcard: Type.Optional(Type.Boolean()),
  discountable: Type.Optional(Type.Boolean()),
  thumbnail: Optional(FileUrl()),
  external_id: Optional(Id()),
  // An image with the `id` of one of the product's images is that image kept (with the variants shown with it); others are new.
  images: Type.Optional(
    Type.Array(
      Strict({ id: Type.Optional(Id({ minLength: 1 })), url: FileUrl({ minLength: 1 }), metadata: OptionalMetadata() }),
    ),
  ),
  collection_id: Optional(Id()),
  type_id: Optional(Id()),
  shipping_profile_id: Optional(Id()),
  categories: Type.Optional(Type.Array(IdRef)),
  tags: Type.Optional(Type.Array(IdRef)),
  sales_channels: Type.Optional(Type.Array(IdRef)),
  weight: Measure(),
  length: Measure(),
  height: Measure(),
  width: Measure(),
  hs_code: Optional(Code()),
  mid_code: Optional(Code()),
  origin_country: Optional(Code()),
  material: Optional(Title()),
  metadata: OptionalMetadata(),
};

/** Body of `POST /admin/products`. */
export const ProductCreate = Strict({
  ...productFields,
  handle: Type.Optional(BlankableHandle()),
  options: Type.Array(OptionCreate, { minItems: 1 }),
  variants: Type.Optional(Type.Array(VariantCreate)),
});
export type ProductCreate = Static<typeof ProductCreate>;

/** Body of `POST /admin/products/{id}`: every field optional; `options`/`variants` replace the sets. */
export const ProductUpdate = Type.Partial(
  Type.Object({ ...productFields, options: Type.Array(OptionUpsert), variants: Type.Array(VariantUpsert) }),
  {
    additionalProperties: false,
  },
);
export type ProductUpdate = Static<typeof ProductUpdate>;

/** An update item of `POST /admin/products/batch`: the update fields plus the product's `id`. */
export const ProductBatchUpdate = Strict({ ...ProductUpdate.properties, id: Id({ minLength: 1 }) });
export type ProductBatchUpdate = Static<typeof ProductBatchUpdate>;

/** Body of `POST /admin/collections`. */
export const CollectionCreate = Strict({
  title: Title({ minLength: 1 }),
  handle: Type.Optional(BlankableHandle()),
  metadata: OptionalMetadata(),
});
export type CollectionCreate = Static<typeof CollectionCreate>;
export const CollectionUpdate = Type.Partial(
  Strict({ title: Title({ minLength: 1 }), handle: Type.Optional(Handle()), metadata: OptionalMetadata() }),
  { additionalProperties: false },
);
export type CollectionUpdate = Static<typeof CollectionUpdate>;

const categoryFields = {
  name: Title({ minLength: 1 }),
  description: Type.Optional(LongText()),
  handle: Type.Optional(Handle()),
  parent_category_id: Optional(Id()),
  is_active: Type.Optional(Type.Boolean()),
  is_internal: Type.Optional(Type.Boolean()),
  rank: Type.Optional(Count()),
  metadata: OptionalMetadata(),
};

/** Body of `POST /admin/product-categories`. */
export const CategoryCreate = Strict({ ...categoryFields, handle: Type.Optional(BlankableHandle()) });
export type CategoryCreate = Static<typeof CategoryCreate>;
export const CategoryUpdate = Type.Partial(Type.Object(categoryFields), { additionalProperties: false });
export type CategoryUpdate = Static<typeof CategoryUpdate>;

/** Body of `POST /admin/product-tags` and `/admin/product-types`. */
export const TagCreate = Strict({ value: Title({ minLength: 1 }), metadata: OptionalMetadata() });
export type TagCreate = Static<typeof TagCreate>;
export const TagUpdate = Type.Partial(TagCreate, { additionalProperties: false });
export type TagUpdate = Static<typeof TagUpdate>;

/** Filters of product lists (Admin and Store). */
export interface ProductFilters extends ListFilters {
  handle?: string[];
  status?: ProductStatus[];
  collection_id?: string[];
  category_id?: string[];
  /** With `category_id`: also match products in the categories' descendants. */
  include_category_descendants?: boolean;
  /** Tag ids. */
  tag_id?: string[];
  /** Tag values (the Store's `tags`). */
  tag_value?: string[];
  /** Option value ids: products with a variant having any of them. */
  option_value_id?: string[];
  type_id?: string[];
  sales_channel_id?: string[];
  is_giftcard?: boolean;
  /** Products with any of these live variants (the Admin's `price_list_id` filter resolves to them). */
  variant_id?: string[];
}

/** Relations a product read can load, each with one query for the whole page. */
export const PRODUCT_RELATIONS = [
  "variants",
  "options",
  "images",
  "tags",
  "categories",
  "collection",
  "type",
  "sales_channels",
] as const;
export type ProductRelation = (typeof PRODUCT_RELATIONS)[number];

// ---- Responses ------------------------------------------------------------------------------

/** A product option value. */
export const ProductOptionValueView = RowView(productOptionValue);
/** A product option with its values. */
export const ProductOptionView = RowView(productOption, { values: Type.Array(ProductOptionValueView) });
/** A variant's value for one option, with the option. */
export const VariantOptionValueView = View({
  id: Type.String(),
  value: Type.String(),
  option_id: Type.String(),
  option: View({ id: Type.String(), title: Type.String(), product_id: Type.String() }),
});
/** A variant with its option values (the API adds prices, stock and calculated prices: see the product routes). */
export const ProductVariantView = RowView(productVariant, { options: Type.Array(VariantOptionValueView) });
/** A product image. */
export const ProductImageView = RowView(productImage);
/** One of the product's images chosen to show a variant (Medusa's variant images), in the product's image order. */
export const VariantImageView = View({ id: Type.String(), url: FileUrlView(), rank: Type.Integer() });
/** A product collection. */
export const ProductCollectionView = RowView(productCollection);
/** A product tag. */
export const ProductTagView = RowView(productTag);
/** A product type. */
export const ProductTypeView = RowView(productType);

/** A category with its parent and children, nested `depth` levels (deeper children are listed as plain objects). */
const categoryView = (depth: number): TUnsafe<unknown> =>
  RowView(productCategory, {
    category_children: Type.Array(depth > 0 ? categoryView(depth - 1) : Type.Unsafe<unknown>({ type: "object" })),
    parent_category: OrNull(depth > 0 ? categoryView(depth - 1) : Type.Unsafe<unknown>({ type: "object" })),
  });
/** A product category with its parent and children (three levels of each listed). */
export const ProductCategoryView = categoryView(3);

/** A product with the relations of the product module (variants as {@link ProductVariantView}). */
export const ProductView = RowView(product, {
  variants: Type.Array(ProductVariantView),
  options: Type.Array(ProductOptionView),
  images: Type.Array(ProductImageView),
  tags: Type.Array(ProductTagView),
  categories: Type.Array(RowView(productCategory)),
  collection: OrNull(ProductCollectionView),
  type: OrNull(ProductTypeView),
  sales_channels: Type.Array(View({ id: Type.String() })),
});
