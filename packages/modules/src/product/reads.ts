import { and, asc, eq, isNull } from "drizzle-orm";
import { inList, type Db } from "@kasse/db";
import {
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
  productVariantOption,
  type ProductCategoryRow,
  type ProductCollectionRow,
  type ProductImageRow,
  type ProductOptionRow,
  type ProductOptionValueRow,
  type ProductRelation,
  type ProductRow,
  type ProductTagRow,
  type ProductTypeRow,
  type ProductVariantRow,
} from "./schema";

/** A variant's value for one option, as Medusa's Admin API shows it. */
export interface VariantOptionValue {
  id: string;
  value: string;
  option_id: string;
  option: { id: string; title: string; product_id: string };
}
export type ProductVariant = ProductVariantRow & { options: VariantOptionValue[] };
export type ProductOption = ProductOptionRow & { values: ProductOptionValueRow[] };

/** A product with the relations that were asked for. */
export type Product = ProductRow & {
  variants?: ProductVariant[];
  options?: ProductOption[];
  images?: ProductImageRow[];
  tags?: ProductTagRow[];
  categories?: ProductCategoryRow[];
  collection?: ProductCollectionRow | null;
  type?: ProductTypeRow | null;
  /** Linked channel ids; the channel records belong to the sales-channel module. */
  sales_channels?: Array<{ id: string }>;
};

const group = <T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> => {
  const out = new Map<K, T[]>();
  for (const row of rows) {
    const list = out.get(key(row));
    if (list) list.push(row);
    else out.set(key(row), [row]);
  }
  return out;
};

/** The option values of `variantIds`, grouped by variant: one query. */
export async function loadVariantOptions(tx: Db, variantIds: string[]): Promise<Map<string, VariantOptionValue[]>> {
  if (variantIds.length === 0) return new Map();
  const rows = await tx
    .select({
      variant_id: productVariantOption.variant_id,
      id: productOptionValue.id,
      value: productOptionValue.value,
      option_id: productOptionValue.option_id,
      option_title: productOption.title,
      product_id: productOption.product_id,
    })
    .from(productVariantOption)
    .innerJoin(productOptionValue, eq(productOptionValue.id, productVariantOption.option_value_id))
    .innerJoin(productOption, eq(productOption.id, productOptionValue.option_id))
    .where(
      and(
        inList(productVariantOption.variant_id, variantIds),
        isNull(productOptionValue.deleted_at),
        isNull(productOption.deleted_at),
      ),
    )
    .orderBy(asc(productOption.rank), asc(productOption.created_at), asc(productOption.id));
  const out = new Map<string, VariantOptionValue[]>();
  for (const r of rows) {
    const item = {
      id: r.id,
      value: r.value,
      option_id: r.option_id,
      option: { id: r.option_id, title: r.option_title, product_id: r.product_id },
    };
    const list = out.get(r.variant_id);
    if (list) list.push(item);
    else out.set(r.variant_id, [item]);
  }
  return out;
}

/** Live variants of `productIds` with their option values: two queries. */
async function loadVariants(tx: Db, productIds: string[]): Promise<Map<string, ProductVariant[]>> {
  if (productIds.length === 0) return new Map();
  const variants = await tx
    .select()
    .from(productVariant)
    .where(and(inList(productVariant.product_id, productIds), isNull(productVariant.deleted_at)))
    .orderBy(asc(productVariant.variant_rank), asc(productVariant.created_at), asc(productVariant.id));
  const options = await loadVariantOptions(
    tx,
    variants.map((v) => v.id),
  );
  return group(
    variants.map((v) => ({ ...v, options: options.get(v.id) ?? [] })),
    (v) => v.product_id,
  );
}

/** Live options of `productIds` with their values: two queries. */
export async function loadOptions(tx: Db, productIds: string[]): Promise<Map<string, ProductOption[]>> {
  if (productIds.length === 0) return new Map();
  const options = await tx
    .select()
    .from(productOption)
    .where(and(inList(productOption.product_id, productIds), isNull(productOption.deleted_at)))
    .orderBy(asc(productOption.rank), asc(productOption.created_at), asc(productOption.id));
  const values =
    options.length === 0
      ? []
      : await tx
          .select()
          .from(productOptionValue)
          .where(
            and(
              inList(
                productOptionValue.option_id,
                options.map((o) => o.id),
              ),
              isNull(productOptionValue.deleted_at),
            ),
          )
          .orderBy(asc(productOptionValue.rank), asc(productOptionValue.created_at), asc(productOptionValue.id));
  const byOption = group(values, (v) => v.option_id);
  return group(
    options.map((o) => ({ ...o, values: byOption.get(o.id) ?? [] })),
    (o) => o.product_id,
  );
}

/**
 * Loads `relations` for a page of products, one query per relation (two for variants and
 * options) whatever the page size, and returns the products with them attached.
 */
export async function attachRelations(
  tx: Db,
  rows: ProductRow[],
  relations: ReadonlySet<ProductRelation>,
): Promise<Product[]> {
  if (rows.length === 0 || relations.size === 0) return rows;
  const ids = rows.map((r) => r.id);
  const has = (r: ProductRelation) => relations.has(r);
  const collectionIds = [...new Set(rows.map((r) => r.collection_id).filter((v): v is string => !!v))];
  const typeIds = [...new Set(rows.map((r) => r.type_id).filter((v): v is string => !!v))];
  const [variants, options, images, tags, categories, collections, types, channels] = await Promise.all([
    has("variants") ? loadVariants(tx, ids) : undefined,
    has("options") ? loadOptions(tx, ids) : undefined,
    has("images")
      ? tx
          .select()
          .from(productImage)
          .where(and(inList(productImage.product_id, ids), isNull(productImage.deleted_at)))
          .orderBy(asc(productImage.rank), asc(productImage.id))
          .then((r) => group(r, (i) => i.product_id))
      : undefined,
    has("tags")
      ? tx
          .select({ product_id: productTags.product_id, tag: productTag })
          .from(productTags)
          .innerJoin(productTag, eq(productTag.id, productTags.product_tag_id))
          .where(and(inList(productTags.product_id, ids), isNull(productTag.deleted_at)))
          .orderBy(asc(productTag.value))
          .then((r) => group(r, (t) => t.product_id))
      : undefined,
    has("categories")
      ? tx
          .select({ product_id: productCategoryProduct.product_id, category: productCategory })
          .from(productCategoryProduct)
          .innerJoin(productCategory, eq(productCategory.id, productCategoryProduct.product_category_id))
          .where(and(inList(productCategoryProduct.product_id, ids), isNull(productCategory.deleted_at)))
          .orderBy(asc(productCategory.rank), asc(productCategory.id))
          .then((r) => group(r, (c) => c.product_id))
      : undefined,
    has("collection") && collectionIds.length
      ? tx
          .select()
          .from(productCollection)
          .where(and(inList(productCollection.id, collectionIds), isNull(productCollection.deleted_at)))
          .then((r) => new Map(r.map((c) => [c.id, c])))
      : undefined,
    has("type") && typeIds.length
      ? tx
          .select()
          .from(productType)
          .where(and(inList(productType.id, typeIds), isNull(productType.deleted_at)))
          .then((r) => new Map(r.map((c) => [c.id, c])))
      : undefined,
    has("sales_channels")
      ? tx
          .select()
          .from(productSalesChannel)
          .where(inList(productSalesChannel.product_id, ids))
          .orderBy(asc(productSalesChannel.sales_channel_id))
          .then((r) => group(r, (l) => l.product_id))
      : undefined,
  ]);
  return rows.map((row) => {
    const out: Product = { ...row };
    if (variants) out.variants = variants.get(row.id) ?? [];
    if (options) out.options = options.get(row.id) ?? [];
    if (images) out.images = images.get(row.id) ?? [];
    if (tags) out.tags = (tags.get(row.id) ?? []).map((t) => t.tag);
    if (categories) out.categories = (categories.get(row.id) ?? []).map((c) => c.category);
    if (has("collection")) out.collection = (row.collection_id && collections?.get(row.collection_id)) || null;
    if (has("type")) out.type = (row.type_id && types?.get(row.type_id)) || null;
    if (channels) out.sales_channels = (channels.get(row.id) ?? []).map((l) => ({ id: l.sales_channel_id }));
    return out;
  });
}
