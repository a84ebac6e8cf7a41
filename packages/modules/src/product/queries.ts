import { and, asc, eq, gte, ilike, inArray, isNull, like, max, ne, not, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  db,
  inList,
  insertRows,
  likePattern,
  listPage,
  liveRecords,
  orderBy,
  readRows,
  restoreRows,
  rowsOf,
  statement,
  textSearch,
  type ListPaging,
  type Placeholders,
  type ListFilters,
} from "@kasse/db";
import {
  product,
  productCategory,
  productCategoryProduct,
  productCollection,
  productImage,
  productOption,
  productOptionValue,
  productSalesChannel,
  productSearchText,
  productTag,
  productTags,
  productType,
  productVariant,
  productVariantImage,
  productVariantOption,
  type ProductCategoryRow,
  type ProductOptionRow,
  type ProductRow,
  type ProductVariantRow,
} from "./schema";
import type { ProductFilters, ProductSnapshot } from "./shapes";

// The product module's SQL (products, options, variants, images, links, collections, categories,
// tags, types): the only file of the module that imports drizzle and its tables. A cart line reads
// its variant through `variantForSale`, checkout through `saleStatus` and `inventoryFlags`, and a
// page of products its relations through the statements of "relations": each is built once.

const liveProduct = isNull(product.deleted_at);
const liveVariant = isNull(productVariant.deleted_at);
const liveCategory = isNull(productCategory.deleted_at);

// --- checkout's reads

/** Whether each live variant of `ids` manages inventory and allows backorders. */
export const variantFlags = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({
      id: productVariant.id,
      manage_inventory: productVariant.manage_inventory,
      allow_backorder: productVariant.allow_backorder,
    })
    .from(productVariant)
    .where(and(inList(productVariant.id, v.ids), liveVariant)),
);

/** The live variant `id` with its live product and the product's tag, category and channel ids. */
export const variantForSale = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({
      variant: productVariant,
      product,
      tag_ids: sql<
        string[]
      >`coalesce((select json_agg(t.id order by t.value) from ${productTags} pt join ${productTag} t on t.id = pt.product_tag_id where pt.product_id = ${product.id} and t.deleted_at is null), '[]'::json)`,
      category_ids: sql<
        string[]
      >`coalesce((select json_agg(c.id order by c.rank, c.id) from ${productCategoryProduct} pc join ${productCategory} c on c.id = pc.product_category_id where pc.product_id = ${product.id} and c.deleted_at is null), '[]'::json)`,
      sales_channel_ids: sql<
        string[]
      >`coalesce((select json_agg(ps.sales_channel_id order by ps.sales_channel_id) from ${productSalesChannel} ps where ps.product_id = ${product.id}), '[]'::json)`,
    })
    .from(productVariant)
    .leftJoin(product, and(eq(product.id, productVariant.product_id), liveProduct))
    .where(and(eq(productVariant.id, v.id), liveVariant)),
);

/** For each live variant of `ids`: its product's status (null once deleted) and whether the product is in `channel`. */
export const saleStatus = statement((v: Placeholders<{ ids: string[]; channel: string }>) =>
  db
    .select({
      id: productVariant.id,
      product_status: product.status,
      in_channel: sql<boolean>`exists (select 1 from ${productSalesChannel} ps where ps.product_id = ${productVariant.product_id} and ps.sales_channel_id = ${v.channel})`,
    })
    .from(productVariant)
    .leftJoin(product, and(eq(product.id, productVariant.product_id), liveProduct))
    .where(and(inList(productVariant.id, v.ids), liveVariant)),
);

// --- relations (a page of products reads each in one statement)

/** The live option values of `ids` (variants), with their option's title and product. */
export const variantOptionsOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
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
        inList(productVariantOption.variant_id, v.ids),
        isNull(productOptionValue.deleted_at),
        isNull(productOption.deleted_at),
      ),
    )
    .orderBy(asc(productOption.rank), asc(productOption.created_at), asc(productOption.id)),
);

/** The live variants of `ids` (products), in rank order. */
export const variantsOf = rowsOf(productVariant, productVariant.product_id, {
  where: liveVariant,
  order: [asc(productVariant.variant_rank), asc(productVariant.created_at), asc(productVariant.id)],
});

/** The live options of `ids` (products), in rank order. */
export const optionsOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(productOption)
    .where(and(inList(productOption.product_id, v.ids), isNull(productOption.deleted_at)))
    .orderBy(asc(productOption.rank), asc(productOption.created_at), asc(productOption.id)),
);

/** The live values of `ids` (options), in rank order. */
export const optionValuesOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(productOptionValue)
    .where(and(inList(productOptionValue.option_id, v.ids), isNull(productOptionValue.deleted_at)))
    .orderBy(asc(productOptionValue.rank), asc(productOptionValue.created_at), asc(productOptionValue.id)),
);

/** The live images of `ids` (products), in rank order. */
export const imagesOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(productImage)
    .where(and(inList(productImage.product_id, v.ids), isNull(productImage.deleted_at)))
    .orderBy(asc(productImage.rank), asc(productImage.id)),
);

/** The live tags of `ids` (products), by value. */
export const tagsOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ product_id: productTags.product_id, tag: productTag })
    .from(productTags)
    .innerJoin(productTag, eq(productTag.id, productTags.product_tag_id))
    .where(and(inList(productTags.product_id, v.ids), isNull(productTag.deleted_at)))
    .orderBy(asc(productTag.value)),
);

/** The live categories of `ids` (products), by rank. */
export const categoriesOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ product_id: productCategoryProduct.product_id, category: productCategory })
    .from(productCategoryProduct)
    .innerJoin(productCategory, eq(productCategory.id, productCategoryProduct.product_category_id))
    .where(and(inList(productCategoryProduct.product_id, v.ids), liveCategory))
    .orderBy(asc(productCategory.rank), asc(productCategory.id)),
);

/** The live collections among `ids`. */
export const collectionsByIds = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(productCollection)
    .where(and(inList(productCollection.id, v.ids), isNull(productCollection.deleted_at))),
);

/** The live types among `ids`. */
export const typesByIds = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(productType)
    .where(and(inList(productType.id, v.ids), isNull(productType.deleted_at))),
);

/** The sales channel links of `ids` (products), by channel id. */
export const channelsOf = rowsOf(productSalesChannel, productSalesChannel.product_id, {
  order: [asc(productSalesChannel.sales_channel_id)],
});

/** The live images each of `ids` (variants) is shown with, in the product's image order. */
export const variantImagesOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({
      variant_id: productVariantImage.variant_id,
      id: productImage.id,
      url: productImage.url,
      rank: productImage.rank,
    })
    .from(productVariantImage)
    .innerJoin(productImage, eq(productImage.id, productVariantImage.image_id))
    .where(and(inList(productVariantImage.variant_id, v.ids), isNull(productImage.deleted_at)))
    .orderBy(asc(productImage.rank), asc(productImage.id)),
);

// --- product lists

const PRODUCT_ORDER = {
  created_at: product.created_at,
  updated_at: product.updated_at,
  title: product.title,
  handle: product.handle,
  status: product.status,
};
const OPTION_ORDER = {
  title: productOption.title,
  created_at: productOption.created_at,
  updated_at: productOption.updated_at,
};
const VARIANT_ORDER = {
  created_at: productVariant.created_at,
  updated_at: productVariant.updated_at,
  title: productVariant.title,
  sku: productVariant.sku,
  variant_rank: productVariant.variant_rank,
};

/** `column = any(values)` when `values` is a non-empty list, else no condition. */
const anyIn = (column: AnyPgColumn, values: readonly string[] | undefined) =>
  values?.length ? inList(column, values) : undefined;

/**
 * `product.id in (select product_id from <link> [join …] where …)`: the products that the rows of
 * `link` (joined to `join`) matching `where` point at.
 */
function linkedProducts(
  link: PgTable & { product_id: AnyPgColumn },
  where: SQL | undefined,
  join?: { table: PgTable; on: SQL },
): SQL {
  const rows = db.select({ id: link.product_id }).from(link).$dynamic();
  return inArray(product.id, (join ? rows.innerJoin(join.table, join.on) : rows).where(where));
}

/**
 * The conditions of a product list; `categoryIds` are the categories `filters.category_id` stands
 * for (their descendants included when asked), resolved by the caller.
 */
function productConditions(filters: ProductFilters, categoryIds: string[] | undefined): Array<SQL | undefined> {
  const out: Array<SQL | undefined> = [
    liveProduct,
    anyIn(product.id, filters.id),
    anyIn(product.handle, filters.handle),
    anyIn(product.status, filters.status),
    anyIn(product.collection_id, filters.collection_id),
    anyIn(product.type_id, filters.type_id),
  ];
  if (filters.is_giftcard !== undefined) out.push(eq(product.is_giftcard, filters.is_giftcard));
  if (filters.q) {
    // A UNION of two trigram-indexed lookups, so neither side needs a sequential scan.
    const pattern = likePattern(filters.q);
    out.push(
      inArray(
        product.id,
        sql`(select "id" from "product" where ${productSearchText("product")} ilike ${pattern} union select "product_id" from "product_variant" where "sku" ilike ${pattern} and "deleted_at" is null)`,
      ),
    );
  }
  if (categoryIds?.length)
    out.push(linkedProducts(productCategoryProduct, inList(productCategoryProduct.product_category_id, categoryIds)));
  if (filters.tag_id?.length) out.push(linkedProducts(productTags, inList(productTags.product_tag_id, filters.tag_id)));
  if (filters.option_value_id?.length)
    out.push(
      linkedProducts(
        productVariant,
        and(inList(productVariantOption.option_value_id, filters.option_value_id), liveVariant),
        { table: productVariantOption, on: eq(productVariant.id, productVariantOption.variant_id) },
      ),
    );
  if (filters.tag_value?.length)
    out.push(
      linkedProducts(productTags, and(inList(productTag.value, filters.tag_value), isNull(productTag.deleted_at)), {
        table: productTag,
        on: eq(productTag.id, productTags.product_tag_id),
      }),
    );
  if (filters.variant_id)
    out.push(linkedProducts(productVariant, and(inList(productVariant.id, filters.variant_id), liveVariant)));
  if (filters.sales_channel_id?.length)
    out.push(
      linkedProducts(productSalesChannel, inList(productSalesChannel.sales_channel_id, filters.sales_channel_id)),
    );
  return out;
}

/** A page of the live products matching `filters`, and how many match. */
export function productsPage(
  filters: ProductFilters,
  categoryIds: string[] | undefined,
  page: ListPaging,
): Promise<{ items: ProductRow[]; count: number }> {
  return listPage(
    product,
    and(...productConditions(filters, categoryIds)),
    orderBy(page.order, PRODUCT_ORDER, product.id),
    page,
  );
}

/** The live product with id or handle `idOrHandle` that matches `filters`, if any. */
export async function productByIdOrHandle(
  idOrHandle: string,
  filters: ProductFilters,
  categoryIds: string[] | undefined,
): Promise<ProductRow | undefined> {
  const [row] = await db
    .select()
    .from(product)
    .where(
      and(...productConditions(filters, categoryIds), or(eq(product.id, idOrHandle), eq(product.handle, idOrHandle))),
    )
    .limit(1);
  return row;
}

/** At most one live product's id. */
export const anyProduct = statement(() => db.select({ id: product.id }).from(product).where(liveProduct).limit(1));

/** The ids among `ids` that are live products. */
const liveProductIds = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ id: product.id })
    .from(product)
    .where(and(inList(product.id, v.ids), liveProduct)),
);
/** The ids among `ids` that are live products. */
export const existingProducts = async (ids: string[]): Promise<Set<string>> =>
  ids.length ? new Set((await liveProductIds({ ids })).map((r) => r.id)) : new Set<string>();

/** A page of the live options of the products matching `filters.product`, by id, title or `q`. */
export function optionsPage(
  filters: { product: ProductFilters; id?: string[]; title?: string[]; q?: string },
  categoryIds: string[] | undefined,
  page: ListPaging,
): Promise<{ items: ProductOptionRow[]; count: number }> {
  const products = db
    .select({ id: product.id })
    .from(product)
    .where(and(...productConditions(filters.product, categoryIds)));
  const where = and(
    isNull(productOption.deleted_at),
    inArray(productOption.product_id, products),
    anyIn(productOption.id, filters.id),
    anyIn(productOption.title, filters.title),
    filters.q ? ilike(productOption.title, likePattern(filters.q)) : undefined,
  );
  return listPage(productOption, where, orderBy(page.order, OPTION_ORDER, productOption.id), page);
}

/** A page of the live variants matching the filters. */
export function variantsPage(
  filters: { id?: string[]; product_id?: string[]; sku?: string[]; q?: string },
  page: ListPaging,
): Promise<{ items: ProductVariantRow[]; count: number }> {
  const where = and(
    liveVariant,
    anyIn(productVariant.id, filters.id),
    anyIn(productVariant.product_id, filters.product_id),
    anyIn(productVariant.sku, filters.sku),
    filters.q
      ? or(ilike(productVariant.title, likePattern(filters.q)), ilike(productVariant.sku, likePattern(filters.q)))
      : undefined,
  );
  return listPage(productVariant, where, orderBy(page.order, VARIANT_ORDER, productVariant.id), page);
}

// --- product writes

/** The live product with handle `handle`, if any. */
export const productWithHandle = statement((v: Placeholders<{ handle: string }>) =>
  db
    .select({ id: product.id })
    .from(product)
    .where(and(liveProduct, eq(product.handle, v.handle)))
    .limit(1),
);

/** The handles of live products that are `base` or `base-…` (`pattern`: `base-%`). */
export const productHandlesLike = statement((v: Placeholders<{ base: string; pattern: string }>) =>
  db
    .select({ handle: product.handle })
    .from(product)
    .where(and(liveProduct, or(eq(product.handle, v.base), like(product.handle, v.pattern)))),
);

/** Inserts a product row. */
export async function insertProduct(row: typeof product.$inferInsert): Promise<void> {
  await db.insert(product).values(row);
}

/** Sets the given fields of product `id` (its `updated_at` with them). */
export async function updateProduct(id: string, patch: Partial<typeof product.$inferInsert>): Promise<void> {
  await db.update(product).set(patch).where(eq(product.id, id));
}

/** Marks product `id` updated (a write to its options, variants or links alone). */
export const touchProduct = statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
  db.update(product).set({ updated_at: v.updated_at }).where(eq(product.id, v.id)),
);

/** The live product `id`, locked for the rest of the transaction. */
export const lockProduct = statement((v: Placeholders<{ id: string }>) =>
  db
    .select()
    .from(product)
    .where(and(eq(product.id, v.id), liveProduct))
    .for("update"),
);

/** The live products among `ids`, locked. */
export const lockProducts = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ id: product.id })
    .from(product)
    .where(and(inList(product.id, v.ids), liveProduct))
    .for("update"),
);

/** Soft-deletes products `ids`. */
export const softDeleteProducts = statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
  db.update(product).set({ deleted_at: v.now, updated_at: v.now }).where(inList(product.id, v.ids)),
);

/** The ids of the live variants of `ids` (products). */
export const variantIdsOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ id: productVariant.id })
    .from(productVariant)
    .where(and(inList(productVariant.product_id, v.ids), liveVariant)),
);

/** The ids of the live options of `ids` (products). */
export const optionIdsOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select({ id: productOption.id })
    .from(productOption)
    .where(and(inList(productOption.product_id, v.ids), isNull(productOption.deleted_at))),
);

// --- links

export const deleteProductTags = statement((v: Placeholders<{ id: string }>) =>
  db.delete(productTags).where(eq(productTags.product_id, v.id)),
);
export const insertProductTags = insertRows(productTags);

export const deleteProductCategories = statement((v: Placeholders<{ id: string }>) =>
  db.delete(productCategoryProduct).where(eq(productCategoryProduct.product_id, v.id)),
);
export const insertProductCategories = insertRows(productCategoryProduct);

export const deleteProductChannels = statement((v: Placeholders<{ id: string }>) =>
  db.delete(productSalesChannel).where(eq(productSalesChannel.product_id, v.id)),
);
export const insertProductChannels = insertRows(productSalesChannel);

/** Links products to a channel; a link that exists is left alone. */
export const linkChannelProducts = insertRows(productSalesChannel, { onConflictDoNothing: true });

/** Unlinks `ids` (products) from `channel`. */
export const unlinkChannelProducts = statement((v: Placeholders<{ channel: string; ids: string[] }>) =>
  db
    .delete(productSalesChannel)
    .where(and(eq(productSalesChannel.sales_channel_id, v.channel), inList(productSalesChannel.product_id, v.ids))),
);

// --- images

/** The ids of every image of product `id`. */
export const imageIdsOf = statement((v: Placeholders<{ id: string }>) =>
  db.select({ id: productImage.id }).from(productImage).where(eq(productImage.product_id, v.id)),
);

export const deleteImages = statement((v: Placeholders<{ ids: string[] }>) =>
  db.delete(productImage).where(inList(productImage.id, v.ids)),
);

/** Inserts images, or sets url, rank and metadata of those that exist (by id). */
export async function upsertImages(rows: Array<typeof productImage.$inferInsert>): Promise<void> {
  await db
    .insert(productImage)
    .values(rows)
    .onConflictDoUpdate({
      target: productImage.id,
      set: { url: sql`excluded.url`, rank: sql`excluded.rank`, metadata: sql`excluded.metadata` },
    });
}

/** The ids among `ids` that are live images of product `product`. */
export const imagesOfProductAmong = statement((v: Placeholders<{ product: string; ids: string[] }>) =>
  db
    .select({ id: productImage.id })
    .from(productImage)
    .where(
      and(inList(productImage.id, v.ids), eq(productImage.product_id, v.product), isNull(productImage.deleted_at)),
    ),
);

/** Unshows images `ids` on variant `variant`. */
export const unlinkVariantImages = statement((v: Placeholders<{ variant: string; ids: string[] }>) =>
  db
    .delete(productVariantImage)
    .where(and(eq(productVariantImage.variant_id, v.variant), inList(productVariantImage.image_id, v.ids))),
);

/** Shows images on variants; a link that exists is left alone. */
export const linkVariantImages = insertRows(productVariantImage, { onConflictDoNothing: true });

// --- options

export const insertOptionRows = insertRows(productOption);
export const insertOptionValueRows = insertRows(productOptionValue);

/** The live values of option `id`. */
export const liveValuesOfOption = statement((v: Placeholders<{ id: string }>) =>
  db
    .select()
    .from(productOptionValue)
    .where(and(eq(productOptionValue.option_id, v.id), isNull(productOptionValue.deleted_at))),
);

/** Drops the variant links of values `ids`. */
export const unlinkValues = statement((v: Placeholders<{ ids: string[] }>) =>
  db.delete(productVariantOption).where(inList(productVariantOption.option_value_id, v.ids)),
);

/** Soft-deletes values `ids`. */
export const softDeleteValues = statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
  db
    .update(productOptionValue)
    .set({ deleted_at: v.now, updated_at: v.now })
    .where(inList(productOptionValue.id, v.ids)),
);

/** Sets value `id`'s rank. */
export const rankValue = statement((v: Placeholders<{ id: string; rank: number; updated_at: Date }>) =>
  db.update(productOptionValue).set({ rank: v.rank, updated_at: v.updated_at }).where(eq(productOptionValue.id, v.id)),
);

/** Drops the variant links of every value of options `ids`. */
export const unlinkOptionValues = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .delete(productVariantOption)
    .where(
      inArray(
        productVariantOption.option_value_id,
        db
          .select({ id: productOptionValue.id })
          .from(productOptionValue)
          .where(inList(productOptionValue.option_id, v.ids)),
      ),
    ),
);

/** Soft-deletes the live values of options `ids`. */
export const softDeleteValuesOfOptions = statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
  db
    .update(productOptionValue)
    .set({ deleted_at: v.now, updated_at: v.now })
    .where(and(inList(productOptionValue.option_id, v.ids), isNull(productOptionValue.deleted_at))),
);

/** Soft-deletes options `ids`. */
export const softDeleteOptions = statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
  db.update(productOption).set({ deleted_at: v.now, updated_at: v.now }).where(inList(productOption.id, v.ids)),
);

/** Sets the given fields of option `id` (its `updated_at` with them). */
export async function updateOption(id: string, patch: Partial<typeof productOption.$inferInsert>): Promise<void> {
  await db.update(productOption).set(patch).where(eq(productOption.id, id));
}

// --- variants

/** The highest rank among the live variants of product `id` (null without any). */
export const maxVariantRank = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ max: max(productVariant.variant_rank) })
    .from(productVariant)
    .where(and(eq(productVariant.product_id, v.id), liveVariant)),
);

/** The ids and titles of the live variants of product `id`. */
export const variantTitlesOf = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ id: productVariant.id, title: productVariant.title })
    .from(productVariant)
    .where(and(eq(productVariant.product_id, v.id), liveVariant)),
);

/** The live variants holding any of `skus`. */
export const variantsWithSkus = statement((v: Placeholders<{ skus: string[] }>) =>
  db
    .select({ id: productVariant.id, sku: productVariant.sku })
    .from(productVariant)
    .where(and(inList(productVariant.sku, v.skus), liveVariant)),
);

export const insertVariantRows = insertRows<ProductVariantRow[]>(productVariant, { returning: true });
export const insertVariantOptions = insertRows(productVariantOption);

/** Sets the given fields of variant `id` and answers it. */
export function updateVariant(
  id: string,
  patch: Partial<typeof productVariant.$inferInsert>,
): Promise<ProductVariantRow[]> {
  return db.update(productVariant).set(patch).where(eq(productVariant.id, id)).returning();
}

export const variantById = statement((v: Placeholders<{ id: string }>) =>
  db.select().from(productVariant).where(eq(productVariant.id, v.id)),
);

/** Drops variant `id`'s option links. */
export const unlinkVariantOptions = statement((v: Placeholders<{ id: string }>) =>
  db.delete(productVariantOption).where(eq(productVariantOption.variant_id, v.id)),
);

/** Drops the option links of variants `ids`. */
export const unlinkVariantsOptions = statement((v: Placeholders<{ ids: string[] }>) =>
  db.delete(productVariantOption).where(inList(productVariantOption.variant_id, v.ids)),
);

/** Soft-deletes variants `ids`. */
export const softDeleteVariants = statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
  db.update(productVariant).set({ deleted_at: v.now, updated_at: v.now }).where(inList(productVariant.id, v.ids)),
);

// --- snapshot and restore

/** The live rows of the live products among `ids` (unknown ids are left out), the products locked. */
export async function snapshotProducts(ids: string[]): Promise<ProductSnapshot> {
  const products = ids.length
    ? await readRows(db, product, and(inList(product.id, [...new Set(ids)]), liveProduct), { lock: true })
    : [];
  const found = products.map((p) => p.id);
  if (found.length === 0)
    return {
      products,
      options: [],
      values: [],
      variants: [],
      variantOptions: [],
      images: [],
      variantImages: [],
      tags: [],
      categories: [],
      salesChannels: [],
    };
  const liveOptions = and(inList(productOption.product_id, found), isNull(productOption.deleted_at));
  const liveVariants = and(inList(productVariant.product_id, found), liveVariant);
  const optionIds = db.select({ id: productOption.id }).from(productOption).where(liveOptions);
  const variantIds = db.select({ id: productVariant.id }).from(productVariant).where(liveVariants);
  return {
    products,
    options: await readRows(db, productOption, liveOptions),
    values: await readRows(
      db,
      productOptionValue,
      and(inArray(productOptionValue.option_id, optionIds), isNull(productOptionValue.deleted_at)),
    ),
    variants: await readRows(db, productVariant, liveVariants),
    variantOptions: await db
      .select()
      .from(productVariantOption)
      .where(inArray(productVariantOption.variant_id, variantIds)),
    images: await readRows(
      db,
      productImage,
      and(inList(productImage.product_id, found), isNull(productImage.deleted_at)),
    ),
    variantImages: await db
      .select()
      .from(productVariantImage)
      .where(inArray(productVariantImage.variant_id, variantIds)),
    tags: await db.select().from(productTags).where(inList(productTags.product_id, found)),
    categories: await db.select().from(productCategoryProduct).where(inList(productCategoryProduct.product_id, found)),
    salesChannels: await db.select().from(productSalesChannel).where(inList(productSalesChannel.product_id, found)),
  };
}

/**
 * Puts the snapshot's products back as they were: their rows and links as read, and what the write
 * added since (variants, options, values) soft-deleted, images removed, as the module removes them.
 * Every live row of the products is first marked deleted, so restoring never trips over a unique
 * handle, sku, option title or value the write moved from one row to another.
 */
export async function restoreProducts(snapshot: ProductSnapshot): Promise<void> {
  const ids = snapshot.products.map((p) => p.id);
  if (ids.length === 0) return;
  const now = new Date();
  const live = await db
    .select({ id: productVariant.id })
    .from(productVariant)
    .where(and(inList(productVariant.product_id, ids), liveVariant));
  const variantIds = [...new Set([...snapshot.variants.map((v) => v.id), ...live.map((v) => v.id)])];
  if (variantIds.length) {
    await db.delete(productVariantOption).where(inList(productVariantOption.variant_id, variantIds));
    await db.delete(productVariantImage).where(inList(productVariantImage.variant_id, variantIds));
  }
  await db.delete(productTags).where(inList(productTags.product_id, ids));
  await db.delete(productCategoryProduct).where(inList(productCategoryProduct.product_id, ids));
  await db.delete(productSalesChannel).where(inList(productSalesChannel.product_id, ids));
  const keptImages = snapshot.images.map((i) => i.id);
  await db
    .delete(productImage)
    .where(
      and(
        inList(productImage.product_id, ids),
        keptImages.length ? not(inList(productImage.id, keptImages)) : undefined,
      ),
    );
  const options = db.select({ id: productOption.id }).from(productOption).where(inList(productOption.product_id, ids));
  const marks = [
    { table: productOptionValue, of: inArray(productOptionValue.option_id, options) },
    { table: productOption, of: inList(productOption.product_id, ids) },
    { table: productVariant, of: inList(productVariant.product_id, ids) },
    { table: product, of: inList(product.id, ids) },
  ];
  for (const { table, of } of marks)
    await db
      .update(table)
      .set({ deleted_at: now })
      .where(and(of, isNull(table.deleted_at)));
  await restoreRows(db, product, snapshot.products);
  await restoreRows(db, productOption, snapshot.options);
  await restoreRows(db, productOptionValue, snapshot.values);
  await restoreRows(db, productVariant, snapshot.variants);
  await restoreRows(db, productImage, snapshot.images);
  await restoreRows(db, productVariantOption, snapshot.variantOptions);
  await restoreRows(db, productVariantImage, snapshot.variantImages);
  await restoreRows(db, productTags, snapshot.tags);
  await restoreRows(db, productCategoryProduct, snapshot.categories);
  await restoreRows(db, productSalesChannel, snapshot.salesChannels);
}

// --- collections

export const collections = liveRecords(productCollection, "Product collection", {
  title: productCollection.title,
  handle: productCollection.handle,
});

/** The live collection with id or handle `key`. */
export const collectionByIdOrHandle = statement((v: Placeholders<{ key: string }>) =>
  db
    .select()
    .from(productCollection)
    .where(
      and(
        isNull(productCollection.deleted_at),
        or(eq(productCollection.id, v.key), eq(productCollection.handle, v.key)),
      ),
    ),
);

/** The conditions of a collection list. */
export function collectionConditions(filters: {
  id?: string[];
  handle?: string[];
  title?: string[];
  q?: string;
}): Array<SQL | undefined> {
  return [
    anyIn(productCollection.id, filters.id),
    anyIn(productCollection.handle, filters.handle),
    anyIn(productCollection.title, filters.title),
    filters.q
      ? or(
          ilike(productCollection.title, likePattern(filters.q)),
          ilike(productCollection.handle, likePattern(filters.q)),
        )
      : undefined,
  ];
}

/** Detaches collection `id` from its products. */
export const detachCollection = statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
  db.update(product).set({ collection_id: null, updated_at: v.updated_at }).where(eq(product.collection_id, v.id)),
);

/** Soft-deletes collection `id`. */
export const softDeleteCollection = statement((v: Placeholders<{ id: string; now: Date }>) =>
  db.update(productCollection).set({ deleted_at: v.now, updated_at: v.now }).where(eq(productCollection.id, v.id)),
);

/** The handles of live collections that are `base` or `base-…` (`pattern`: `base-%`). */
export const collectionHandlesLike = statement((v: Placeholders<{ base: string; pattern: string }>) =>
  db
    .select({ handle: productCollection.handle })
    .from(productCollection)
    .where(
      and(
        isNull(productCollection.deleted_at),
        or(eq(productCollection.handle, v.base), like(productCollection.handle, v.pattern)),
      ),
    ),
);

// --- categories

export const categories = liveRecords(productCategory, "Product category");

/** The handles of live categories that are `base` or `base-…` (`pattern`: `base-%`). */
export const categoryHandlesLike = statement((v: Placeholders<{ base: string; pattern: string }>) =>
  db
    .select({ handle: productCategory.handle })
    .from(productCategory)
    .where(and(liveCategory, or(eq(productCategory.handle, v.base), like(productCategory.handle, v.pattern)))),
);

/** Filters of category lists. */
export interface CategoryFilters extends ListFilters {
  handle?: string[];
  name?: string[];
  /** `null` matches top-level categories. */
  parent_category_id?: Array<string | null>;
  is_active?: boolean;
  is_internal?: boolean;
}

function categoryConditions(filters: CategoryFilters): Array<SQL | undefined> {
  const out: Array<SQL | undefined> = [
    liveCategory,
    anyIn(productCategory.id, filters.id),
    anyIn(productCategory.handle, filters.handle),
    anyIn(productCategory.name, filters.name),
  ];
  if (filters.is_active !== undefined) out.push(eq(productCategory.is_active, filters.is_active));
  if (filters.is_internal !== undefined) out.push(eq(productCategory.is_internal, filters.is_internal));
  if (filters.q)
    out.push(
      or(ilike(productCategory.name, likePattern(filters.q)), ilike(productCategory.handle, likePattern(filters.q))),
    );
  if (filters.parent_category_id?.length) {
    const ids = filters.parent_category_id.filter((v): v is string => v !== null);
    const top = filters.parent_category_id.includes(null);
    out.push(
      or(
        ...(ids.length ? [inList(productCategory.parent_category_id, ids)] : []),
        ...(top ? [isNull(productCategory.parent_category_id)] : []),
      ),
    );
  }
  return out;
}

/** The live category with id or handle `idOrHandle` that matches `filters`, if any. */
export async function categoryByIdOrHandle(
  idOrHandle: string,
  filters: CategoryFilters,
): Promise<ProductCategoryRow | undefined> {
  const [row] = await db
    .select()
    .from(productCategory)
    .where(
      and(
        or(eq(productCategory.id, idOrHandle), eq(productCategory.handle, idOrHandle)),
        ...categoryConditions(filters),
      ),
    );
  return row;
}

const CATEGORY_ORDER = {
  created_at: productCategory.created_at,
  updated_at: productCategory.updated_at,
  name: productCategory.name,
  handle: productCategory.handle,
  rank: productCategory.rank,
};

/** A page of the live categories matching `filters` (by rank unless ordered otherwise). */
export function categoriesPage(
  filters: CategoryFilters,
  page: ListPaging,
): Promise<{ items: ProductCategoryRow[]; count: number }> {
  return listPage(
    productCategory,
    and(...categoryConditions(filters)),
    orderBy(page.order, CATEGORY_ORDER, productCategory.id, "rank"),
    page,
  );
}

/**
 * The live categories below `rows` (every descendant, or the children alone), optionally only
 * active or public ones, by rank.
 */
export function categoriesBelow(
  rows: Array<Pick<ProductCategoryRow, "id" | "mpath">>,
  descendants: boolean,
  only: { is_active?: boolean; is_internal?: boolean } = {},
): Promise<ProductCategoryRow[]> {
  const below = descendants
    ? or(...rows.map((r) => like(productCategory.mpath, `${r.mpath}.%`)))
    : inList(
        productCategory.parent_category_id,
        rows.map((r) => r.id),
      );
  return db
    .select()
    .from(productCategory)
    .where(
      and(
        below,
        liveCategory,
        only.is_active !== undefined ? eq(productCategory.is_active, only.is_active) : undefined,
        only.is_internal !== undefined ? eq(productCategory.is_internal, only.is_internal) : undefined,
      ),
    )
    .orderBy(asc(productCategory.rank), asc(productCategory.id));
}

/** The live categories among `ids`. */
export const categoriesByIds = rowsOf(productCategory, productCategory.id, { where: liveCategory });

/** The ids of the live categories below any of `roots` (their paths). */
export function categoryIdsBelow(roots: Array<{ mpath: string }>): Promise<Array<{ id: string }>> {
  return db
    .select({ id: productCategory.id })
    .from(productCategory)
    .where(and(liveCategory, or(...roots.map((r) => like(productCategory.mpath, `${r.mpath}.%`)))));
}

/** One live child of category `id`, if it has any. */
export const childOfCategory = statement((v: Placeholders<{ id: string }>) =>
  db
    .select({ id: productCategory.id })
    .from(productCategory)
    .where(and(eq(productCategory.parent_category_id, v.id), liveCategory))
    .limit(1),
);

/** Unlinks category `id` from its products. */
export const unlinkCategory = statement((v: Placeholders<{ id: string }>) =>
  db.delete(productCategoryProduct).where(eq(productCategoryProduct.product_category_id, v.id)),
);

/** Soft-deletes category `id`. */
export const softDeleteCategory = statement((v: Placeholders<{ id: string; now: Date }>) =>
  db.update(productCategory).set({ deleted_at: v.now, updated_at: v.now }).where(eq(productCategory.id, v.id)),
);

/** Moves the descendants of a category whose path was `from` below its new path `to`. */
export async function moveDescendants(from: string, to: string): Promise<void> {
  await db
    .update(productCategory)
    .set({ mpath: sql`${to} || substr(${productCategory.mpath}, ${from.length + 1})` })
    .where(like(productCategory.mpath, `${from}.%`));
}

const siblingsOf = (parentId: string | null): SQL =>
  parentId ? eq(productCategory.parent_category_id, parentId) : isNull(productCategory.parent_category_id);

/** Shifts the ranks of the children of `parentId` from `rank` on by `by` (1 or -1), `exceptId` left alone. */
export async function shiftSiblingRanks(
  parentId: string | null,
  rank: number,
  by: 1 | -1,
  exceptId?: string,
): Promise<void> {
  await db
    .update(productCategory)
    .set({ rank: by === 1 ? sql`${productCategory.rank} + 1` : sql`${productCategory.rank} - 1` })
    .where(
      and(
        liveCategory,
        siblingsOf(parentId),
        gte(productCategory.rank, rank),
        exceptId ? ne(productCategory.id, exceptId) : undefined,
      ),
    );
}

/** The highest rank among the children of `parentId` (`exceptId` left out), null without any. */
export async function maxSiblingRank(parentId: string | null, exceptId?: string): Promise<number | null> {
  const [last] = await db
    .select({ max: max(productCategory.rank) })
    .from(productCategory)
    .where(and(liveCategory, siblingsOf(parentId), exceptId ? ne(productCategory.id, exceptId) : undefined));
  return last?.max ?? null;
}

// --- tags and types

const VALUE_TABLES = {
  tag: productTag,
  // Tags and types have the same columns, so one implementation serves both tables.
  type: productType as unknown as typeof productTag,
};

/** The live records of tags or types. */
export const valueRecords = {
  tag: liveRecords(VALUE_TABLES.tag, "Product tag", { value: productTag.value }),
  type: liveRecords(VALUE_TABLES.type, "Product type", { value: VALUE_TABLES.type.value }),
};

/** The conditions of a tag or type list. */
export function valueConditions(
  kind: keyof typeof VALUE_TABLES,
  filters: { id?: string[]; value?: string[]; q?: string },
): Array<SQL | undefined> {
  const table = VALUE_TABLES[kind];
  return [anyIn(table.id, filters.id), anyIn(table.value, filters.value), ...textSearch(filters.q, [table.value])];
}

/** Unlinks tag `id` from its products. */
export const unlinkTag = statement((v: Placeholders<{ id: string }>) =>
  db.delete(productTags).where(eq(productTags.product_tag_id, v.id)),
);

/** Clears type `id` on its products. */
export const clearType = statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
  db.update(product).set({ type_id: null, updated_at: v.updated_at }).where(eq(product.type_id, v.id)),
);
