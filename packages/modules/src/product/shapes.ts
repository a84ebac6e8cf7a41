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
import { OrNull, RowView, View, type RowSnapshot, type ListFilters } from "@kasse/db";
import {
  PRODUCT_STATUSES,
  type ProductImageRow,
  type ProductOptionRow,
  type ProductOptionValueRow,
  type ProductRow,
  type ProductStatus,
  type ProductVariantRow,
  product,
  productCategory,
  productCategoryProduct,
  productCollection,
  productImage,
  productOption,
  productOptionValue,
  productSalesChannel,
  productTag,
  productTags,
  productType,
  productVariant,
  productVariantImage,
  productVariantOption,
} from "./schema";

/** Body of `POST /admin/products/{id}/variants/{variant_id}/images/batch`: image ids of the product to show the variant with, or not. */
export const VariantImagesBatch = LinkChanges(100);
export type VariantImagesBatch = Static<typeof VariantImagesBatch>;

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

/** The physical and customs attributes products and variants share, and their metadata. */
const physicalFields = {
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

const variantFields = {
  title: Title({ minLength: 1 }),
  sku: Optional(Code()),
  barcode: Optional(Code()),
  ean: Optional(Code()),
  upc: Optional(Code()),
  allow_backorder: Type.Optional(Type.Boolean()),
  manage_inventory: Type.Optional(Type.Boolean()),
  variant_rank: Type.Optional(Count()),
  ...physicalFields,
  /** Option title → chosen value. */
  options: Type.Optional(Type.Record(Type.String(), Title(), { propertyNames: { maxLength: MAX_LENGTH.title } })),
};

/** A variant's fields with its prices, as every variant write takes them. */
const variantWrite = { ...variantFields, prices: Type.Array(VariantPriceInput) };

/** A variant in a product create body, or `POST /admin/products/{id}/variants`. */
export const VariantCreate = Strict({
  ...variantWrite,
  // Medusa's inventory kits (a variant made of existing items); Kasse gives each managed variant its own item, so none may be named.
  inventory_items: Type.Optional(
    Type.Array(Strict({ inventory_item_id: Id(), required_quantity: Count() }), {
      maxItems: 0,
    }),
  ),
});
export type VariantCreate = Static<typeof VariantCreate>;

/** `POST /admin/products/{id}/variants/{variant_id}`: the create fields, all optional. */
export const VariantUpdate = Type.Partial(Type.Object(variantWrite), { additionalProperties: false });
export type VariantUpdate = Static<typeof VariantUpdate>;

/** A variant inside a product update: with `id` it is updated, without it is created. */
export const VariantUpsert = Type.Partial(Type.Object({ id: Id({ minLength: 1 }), ...variantWrite }), {
  additionalProperties: false,
});
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
  ...Type.Omit(OptionCreate, ["is_exclusive"]).properties,
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
  ...physicalFields,
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
  { additionalProperties: false },
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
export const CollectionUpdate = Type.Partial(Strict({ ...CollectionCreate.properties, handle: Handle() }), {
  additionalProperties: false,
});
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

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export {
  PRODUCT_STATUSES,
  type ProductCategoryRow,
  type ProductCollectionRow,
  type ProductImageRow,
  type ProductOptionRow,
  type ProductOptionValueRow,
  type ProductRow,
  type ProductStatus,
  type ProductTagRow,
  type ProductTypeRow,
  type ProductVariantRow,
} from "./schema";
