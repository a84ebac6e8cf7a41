import { and, asc, eq, isNull } from "drizzle-orm";
import { groupBy, groupByParent, inList, rowsByParent, type Db } from "@kasse/db";
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

/** The option values of `variantIds`, grouped by variant: one query. */
export async function loadVariantOptions(tx: Db, variantIds: string[]): Promise<Map<string, VariantOptionValue[]>> {
  return groupByParent(
    variantIds,
    (ids) =>
      tx
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
            inList(productVariantOption.variant_id, ids),
            isNull(productOptionValue.deleted_at),
            isNull(productOption.deleted_at),
          ),
        )
        .orderBy(asc(productOption.rank), asc(productOption.created_at), asc(productOption.id)),
    (r) => r.variant_id,
    {
      value: (r) => ({
        id: r.id,
        value: r.value,
        option_id: r.option_id,
        option: { id: r.option_id, title: r.option_title, product_id: r.product_id },
      }),
    },
  );
}

/** Live variants of `productIds` with their option values: two queries. */
async function loadVariants(tx: Db, productIds: string[]): Promise<Map<string, ProductVariant[]>> {
  return groupByParent(
    productIds,
    async (ids) => {
      const variants = await tx
        .select()
        .from(productVariant)
        .where(and(inList(productVariant.product_id, ids), isNull(productVariant.deleted_at)))
        .orderBy(asc(productVariant.variant_rank), asc(productVariant.created_at), asc(productVariant.id));
      const options = await loadVariantOptions(
        tx,
        variants.map((v) => v.id),
      );
      return variants.map((v) => ({ ...v, options: options.get(v.id) ?? [] }));
    },
    (v) => v.product_id,
  );
}

/** Live options of `productIds` with their values: two queries. */
export async function loadOptions(tx: Db, productIds: string[]): Promise<Map<string, ProductOption[]>> {
  return groupByParent(
    productIds,
    async (ids) => {
      const options = await tx
        .select()
        .from(productOption)
        .where(and(inList(productOption.product_id, ids), isNull(productOption.deleted_at)))
        .orderBy(asc(productOption.rank), asc(productOption.created_at), asc(productOption.id));
      const values = await rowsByParent(tx, productOptionValue, "option_id", options, {
        where: isNull(productOptionValue.deleted_at),
        order: [asc(productOptionValue.rank), asc(productOptionValue.created_at), asc(productOptionValue.id)],
      });
      return options.map((o) => ({ ...o, values: values.get(o.id) ?? [] }));
    },
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
      ? rowsByParent(tx, productImage, "product_id", rows, {
          where: isNull(productImage.deleted_at),
          order: [asc(productImage.rank), asc(productImage.id)],
        })
      : undefined,
    has("tags")
      ? tx
          .select({ product_id: productTags.product_id, tag: productTag })
          .from(productTags)
          .innerJoin(productTag, eq(productTag.id, productTags.product_tag_id))
          .where(and(inList(productTags.product_id, ids), isNull(productTag.deleted_at)))
          .orderBy(asc(productTag.value))
          .then((r) => groupBy(r, (t) => t.product_id))
      : undefined,
    has("categories")
      ? tx
          .select({ product_id: productCategoryProduct.product_id, category: productCategory })
          .from(productCategoryProduct)
          .innerJoin(productCategory, eq(productCategory.id, productCategoryProduct.product_category_id))
          .where(and(inList(productCategoryProduct.product_id, ids), isNull(productCategory.deleted_at)))
          .orderBy(asc(productCategory.rank), asc(productCategory.id))
          .then((r) => groupBy(r, (c) => c.product_id))
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
      ? rowsByParent(tx, productSalesChannel, "product_id", rows, {
          order: [asc(productSalesChannel.sales_channel_id)],
        })
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
