import { and, asc, eq, gte, inArray, isNull, like, max, ne, not, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  db,
  first,
  inFilters,
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

/** Live products; a list sorts by these columns besides the timestamps. */
const products = liveRecords(product, "Product", {
  title: product.title,
  handle: product.handle,
  status: product.status,
});
const liveProduct = products.live;
const liveVariant = isNull(productVariant.deleted_at);
const liveCategory = isNull(productCategory.deleted_at);
const liveOption = isNull(productOption.deleted_at);
const liveValue = isNull(productOptionValue.deleted_at);
const liveImage = isNull(productImage.deleted_at);
const liveTag = isNull(productTag.deleted_at);

/** Live options and variants; their lists sort by these columns besides the timestamps. */
const options = liveRecords(productOption, "Product option", { title: productOption.title });
const variants = liveRecords(productVariant, "Variant", {
  title: productVariant.title,
  sku: productVariant.sku,
  variant_rank: productVariant.variant_rank,
});

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
    ...inFilters(filters, {
      id: product.id,
      handle: product.handle,
      status: product.status,
      collection_id: product.collection_id,
      type_id: product.type_id,
    }),
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
      linkedProducts(productTags, and(inList(productTag.value, filters.tag_value), liveTag), {
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

/** The handles of live rows of `table` that are `base` or `base-…` (`pattern`: `base-%`). */
function handlesLike(table: typeof product | typeof productCollection | typeof productCategory) {
  return statement((v: Placeholders<{ base: string; pattern: string }>) =>
    db
      .select({ handle: table.handle })
      .from(table)
      .where(and(isNull(table.deleted_at), or(eq(table.handle, v.base), like(table.handle, v.pattern)))),
  );
}

/** Soft-deletes the rows `ids` of `table`. */
function softDeleter(table: typeof product | typeof productOption | typeof productOptionValue | typeof productVariant) {
  return statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
    db.update(table).set({ deleted_at: v.now, updated_at: v.now }).where(inList(table.id, v.ids)),
  );
}

/** Replaces a product's rows of the link `table` with links to `ids` (each once) in `column`. */
function linkSetter(table: PgTable & { product_id: AnyPgColumn }, column: string) {
  const unlink = statement((v: Placeholders<{ id: string }>) => db.delete(table).where(eq(table.product_id, v.id)));
  const link = insertRows(table);
  return async (productId: string, ids: string[]): Promise<void> => {
    await unlink({ id: productId });
    const unique = [...new Set(ids)];
    if (unique.length) await link(unique.map((id) => ({ product_id: productId, [column]: id })));
  };
}

/** Filters of collection lists. */
export interface CollectionFilters extends ListFilters {
  handle?: string[];
  title?: string[];
}

/** Filters of category lists. */
export interface CategoryFilters extends ListFilters {
  handle?: string[];
  name?: string[];
  /** `null` matches top-level categories. */
  parent_category_id?: Array<string | null>;
  is_active?: boolean;
  is_internal?: boolean;
}

const collectionRecords = liveRecords(productCollection, "Product collection", {
  title: productCollection.title,
  handle: productCollection.handle,
});

/** Live collections; a list filters by id, handle, title and `q`. */
const collections = {
  ...collectionRecords,
  list: collectionRecords.listBy((filters: CollectionFilters) => [
    ...inFilters(filters, {
      id: productCollection.id,
      handle: productCollection.handle,
      title: productCollection.title,
    }),
    ...textSearch(filters.q, [productCollection.title, productCollection.handle]),
  ]),
  /** The live collection with id or handle `key`. */
  byIdOrHandle: first(
    statement((v: Placeholders<{ key: string }>) =>
      db
        .select()
        .from(productCollection)
        .where(and(collectionRecords.live, or(eq(productCollection.id, v.key), eq(productCollection.handle, v.key)))),
    ),
  ),
};

const categories = liveRecords(productCategory, "Product category");

function categoryConditions(filters: CategoryFilters): Array<SQL | undefined> {
  const out: Array<SQL | undefined> = [
    liveCategory,
    ...inFilters(filters, { id: productCategory.id, handle: productCategory.handle, name: productCategory.name }),
    ...textSearch(filters.q, [productCategory.name, productCategory.handle]),
  ];
  if (filters.is_active !== undefined) out.push(eq(productCategory.is_active, filters.is_active));
  if (filters.is_internal !== undefined) out.push(eq(productCategory.is_internal, filters.is_internal));
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

const CATEGORY_ORDER = {
  created_at: productCategory.created_at,
  updated_at: productCategory.updated_at,
  name: productCategory.name,
  handle: productCategory.handle,
  rank: productCategory.rank,
};

const siblingsOf = (parentId: string | null): SQL =>
  parentId ? eq(productCategory.parent_category_id, parentId) : isNull(productCategory.parent_category_id);

const VALUE_TABLES = {
  tag: productTag,
  // Tags and types have the same columns, so one implementation serves both tables.
  type: productType as unknown as typeof productTag,
};

/** The live records of tags or types. */
const valueRecords = {
  tag: liveRecords(VALUE_TABLES.tag, "Product tag", { value: productTag.value }),
  type: liveRecords(VALUE_TABLES.type, "Product type", { value: VALUE_TABLES.type.value }),
};

/** Named statements of the product module, run on the current handle. */
export const productQueries = {
  products,

  // --- checkout's reads

  /** Whether each live variant of `ids` manages inventory and allows backorders. */
  variantFlags: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({
        id: productVariant.id,
        manage_inventory: productVariant.manage_inventory,
        allow_backorder: productVariant.allow_backorder,
      })
      .from(productVariant)
      .where(and(inList(productVariant.id, v.ids), liveVariant)),
  ),
  /** The live variant `id` with its live product and the product's tag, category and channel ids. */
  variantForSale: first(
    statement((v: Placeholders<{ id: string }>) =>
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
    ),
  ),
  /** For each live variant of `ids`: its product's status (null once deleted) and whether the product is in `channel`. */
  saleStatus: statement((v: Placeholders<{ ids: string[]; channel: string }>) =>
    db
      .select({
        id: productVariant.id,
        product_status: product.status,
        in_channel: sql<boolean>`exists (select 1 from ${productSalesChannel} ps where ps.product_id = ${productVariant.product_id} and ps.sales_channel_id = ${v.channel})`,
      })
      .from(productVariant)
      .leftJoin(product, and(eq(product.id, productVariant.product_id), liveProduct))
      .where(and(inList(productVariant.id, v.ids), liveVariant)),
  ),
  // --- relations (a page of products reads each in one statement)

  /** The live option values of `ids` (variants), with their option's title and product. */
  variantOptionsOf: statement((v: Placeholders<{ ids: string[] }>) =>
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
      .where(and(inList(productVariantOption.variant_id, v.ids), liveValue, liveOption))
      .orderBy(asc(productOption.rank), asc(productOption.created_at), asc(productOption.id)),
  ),
  /** The live variants of `ids` (products), in rank order. */
  variantsOf: rowsOf(productVariant, productVariant.product_id, {
    where: liveVariant,
    order: [asc(productVariant.variant_rank), asc(productVariant.created_at), asc(productVariant.id)],
  }),
  /** The live options of `ids` (products), in rank order. */
  optionsOf: rowsOf(productOption, productOption.product_id, {
    where: liveOption,
    order: [asc(productOption.rank), asc(productOption.created_at), asc(productOption.id)],
  }),
  /** The live values of `ids` (options), in rank order. */
  optionValuesOf: rowsOf(productOptionValue, productOptionValue.option_id, {
    where: liveValue,
    order: [asc(productOptionValue.rank), asc(productOptionValue.created_at), asc(productOptionValue.id)],
  }),
  /** The live images of `ids` (products), in rank order. */
  imagesOf: rowsOf(productImage, productImage.product_id, {
    where: liveImage,
    order: [asc(productImage.rank), asc(productImage.id)],
  }),
  /** The live tags of `ids` (products), by value. */
  tagsOf: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ product_id: productTags.product_id, tag: productTag })
      .from(productTags)
      .innerJoin(productTag, eq(productTag.id, productTags.product_tag_id))
      .where(and(inList(productTags.product_id, v.ids), liveTag))
      .orderBy(asc(productTag.value)),
  ),
  /** The live categories of `ids` (products), by rank. */
  categoriesOf: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ product_id: productCategoryProduct.product_id, category: productCategory })
      .from(productCategoryProduct)
      .innerJoin(productCategory, eq(productCategory.id, productCategoryProduct.product_category_id))
      .where(and(inList(productCategoryProduct.product_id, v.ids), liveCategory))
      .orderBy(asc(productCategory.rank), asc(productCategory.id)),
  ),
  /** The live collections among `ids`. */
  collectionsByIds: rowsOf(productCollection, productCollection.id, { where: collectionRecords.live }),
  /** The live types among `ids`. */
  typesByIds: rowsOf(productType, productType.id, { where: isNull(productType.deleted_at) }),
  /** The sales channel links of `ids` (products), by channel id. */
  channelsOf: rowsOf(productSalesChannel, productSalesChannel.product_id, {
    order: [asc(productSalesChannel.sales_channel_id)],
  }),
  /** The live images each of `ids` (variants) is shown with, in the product's image order. */
  variantImagesOf: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({
        variant_id: productVariantImage.variant_id,
        id: productImage.id,
        url: productImage.url,
        rank: productImage.rank,
      })
      .from(productVariantImage)
      .innerJoin(productImage, eq(productImage.id, productVariantImage.image_id))
      .where(and(inList(productVariantImage.variant_id, v.ids), liveImage))
      .orderBy(asc(productImage.rank), asc(productImage.id)),
  ),
  /** A page of the live products matching `filters`, and how many match. */
  productsPage(
    filters: ProductFilters,
    categoryIds: string[] | undefined,
    page: ListPaging,
  ): Promise<{ items: ProductRow[]; count: number }> {
    return products.list(productConditions(filters, categoryIds), page);
  },
  /** The live product with id or handle `idOrHandle` that matches `filters`, if any. */
  async productByIdOrHandle(
    idOrHandle: string,
    filters: ProductFilters,
    categoryIds: string[] | undefined,
  ): Promise<ProductRow | undefined> {
    const [row] = await db
      .select()
      .from(product)
      .where(
        and(
          liveProduct,
          ...productConditions(filters, categoryIds),
          or(eq(product.id, idOrHandle), eq(product.handle, idOrHandle)),
        ),
      )
      .limit(1);
    return row;
  },
  /** A page of the live options of the products matching `filters.product`, by id, title or `q`. */
  optionsPage(
    filters: { product: ProductFilters; id?: string[]; title?: string[]; q?: string },
    categoryIds: string[] | undefined,
    page: ListPaging,
  ): Promise<{ items: ProductOptionRow[]; count: number }> {
    const ofProducts = db
      .select({ id: product.id })
      .from(product)
      .where(and(liveProduct, ...productConditions(filters.product, categoryIds)));
    return options.list(
      [
        inArray(productOption.product_id, ofProducts),
        ...inFilters(filters, { id: productOption.id, title: productOption.title }),
        ...textSearch(filters.q, [productOption.title]),
      ],
      page,
    );
  },
  /** A page of the live variants matching the filters. */
  variantsPage: variants.listBy((filters: { id?: string[]; product_id?: string[]; sku?: string[]; q?: string }) => [
    ...inFilters(filters, { id: productVariant.id, product_id: productVariant.product_id, sku: productVariant.sku }),
    ...textSearch(filters.q, [productVariant.title, productVariant.sku]),
  ]),

  // --- product writes

  /** Soft-deletes the products, options, values or variants `ids`. */
  softDelete: {
    products: softDeleter(product),
    options: softDeleter(productOption),
    values: softDeleter(productOptionValue),
    variants: softDeleter(productVariant),
  },

  /** The live product with handle `handle`, if any. */
  productWithHandle: first(
    statement((v: Placeholders<{ handle: string }>) =>
      db
        .select({ id: product.id })
        .from(product)
        .where(and(liveProduct, eq(product.handle, v.handle)))
        .limit(1),
    ),
  ),
  /** The handles of live products that are `base` or `base-…`. */
  productHandlesLike: handlesLike(product),
  /** Marks product `id` updated (a write to its options, variants or links alone). */
  touchProduct: statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
    db.update(product).set({ updated_at: v.updated_at }).where(eq(product.id, v.id)),
  ),
  /** The live products among `ids`, locked. */
  lockProducts: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ id: product.id })
      .from(product)
      .where(and(inList(product.id, v.ids), liveProduct))
      .for("update"),
  ),
  /** The ids and titles of the live variants of `ids` (products). */
  variantIdsOf: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ id: productVariant.id, title: productVariant.title })
      .from(productVariant)
      .where(and(inList(productVariant.product_id, v.ids), liveVariant)),
  ),
  /** The ids of the live options of `ids` (products). */
  optionIdsOf: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ id: productOption.id })
      .from(productOption)
      .where(and(inList(productOption.product_id, v.ids), liveOption)),
  ),
  // --- links
  /** Sets a product's tags, categories or sales channels to the ids given. */
  setLinks: {
    tags: linkSetter(productTags, "product_tag_id"),
    categories: linkSetter(productCategoryProduct, "product_category_id"),
    salesChannels: linkSetter(productSalesChannel, "sales_channel_id"),
  },
  /** Links products to a channel; a link that exists is left alone. */
  linkChannelProducts: insertRows(productSalesChannel, { onConflictDoNothing: true }),
  /** Unlinks `ids` (products) from `channel`. */
  unlinkChannelProducts: statement((v: Placeholders<{ channel: string; ids: string[] }>) =>
    db
      .delete(productSalesChannel)
      .where(and(eq(productSalesChannel.sales_channel_id, v.channel), inList(productSalesChannel.product_id, v.ids))),
  ),
  // --- images

  /** The ids of every image of product `id`. */
  imageIdsOf: statement((v: Placeholders<{ id: string }>) =>
    db.select({ id: productImage.id }).from(productImage).where(eq(productImage.product_id, v.id)),
  ),
  deleteImages: statement((v: Placeholders<{ ids: string[] }>) =>
    db.delete(productImage).where(inList(productImage.id, v.ids)),
  ),
  /** Inserts images, or sets url, rank and metadata of those that exist (by id). */
  async upsertImages(rows: Array<typeof productImage.$inferInsert>): Promise<void> {
    await db
      .insert(productImage)
      .values(rows)
      .onConflictDoUpdate({
        target: productImage.id,
        set: { url: sql`excluded.url`, rank: sql`excluded.rank`, metadata: sql`excluded.metadata` },
      });
  },
  /** The ids among `ids` that are live images of product `product`. */
  imagesOfProductAmong: statement((v: Placeholders<{ product: string; ids: string[] }>) =>
    db
      .select({ id: productImage.id })
      .from(productImage)
      .where(and(inList(productImage.id, v.ids), eq(productImage.product_id, v.product), liveImage)),
  ),
  /** Unshows images `ids` on variant `variant`. */
  unlinkVariantImages: statement((v: Placeholders<{ variant: string; ids: string[] }>) =>
    db
      .delete(productVariantImage)
      .where(and(eq(productVariantImage.variant_id, v.variant), inList(productVariantImage.image_id, v.ids))),
  ),
  /** Shows images on variants; a link that exists is left alone. */
  linkVariantImages: insertRows(productVariantImage, { onConflictDoNothing: true }),
  // --- options

  insertOptionRows: insertRows(productOption),
  insertOptionValueRows: insertRows(productOptionValue),
  /** The live values of option `id`. */
  liveValuesOfOption: statement((v: Placeholders<{ id: string }>) =>
    db
      .select()
      .from(productOptionValue)
      .where(and(eq(productOptionValue.option_id, v.id), liveValue)),
  ),
  /** Drops the variant links of values `ids`. */
  unlinkValues: statement((v: Placeholders<{ ids: string[] }>) =>
    db.delete(productVariantOption).where(inList(productVariantOption.option_value_id, v.ids)),
  ),
  /** Sets value `id`'s rank. */
  rankValue: statement((v: Placeholders<{ id: string; rank: number; updated_at: Date }>) =>
    db
      .update(productOptionValue)
      .set({ rank: v.rank, updated_at: v.updated_at })
      .where(eq(productOptionValue.id, v.id)),
  ),
  /** Drops the variant links of every value of options `ids`. */
  unlinkOptionValues: statement((v: Placeholders<{ ids: string[] }>) =>
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
  ),
  /** Soft-deletes the live values of options `ids`. */
  softDeleteValuesOfOptions: statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
    db
      .update(productOptionValue)
      .set({ deleted_at: v.now, updated_at: v.now })
      .where(and(inList(productOptionValue.option_id, v.ids), liveValue)),
  ),
  updateOption: options.update,
  // --- variants

  /** The highest rank among the live variants of product `id` (null without any). */
  maxVariantRank: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .select({ max: max(productVariant.variant_rank) })
        .from(productVariant)
        .where(and(eq(productVariant.product_id, v.id), liveVariant)),
    ),
  ),

  /** The live variants holding any of `skus`. */
  variantsWithSkus: statement((v: Placeholders<{ skus: string[] }>) =>
    db
      .select({ id: productVariant.id, sku: productVariant.sku })
      .from(productVariant)
      .where(and(inList(productVariant.sku, v.skus), liveVariant)),
  ),
  insertVariantRows: insertRows<ProductVariantRow[]>(productVariant, { returning: true }),
  insertVariantOptions: insertRows(productVariantOption),
  updateVariant: variants.update,
  /** Variant `id`, live or not. */
  variantById: first(
    statement((v: Placeholders<{ id: string }>) => db.select().from(productVariant).where(eq(productVariant.id, v.id))),
  ),

  /** Drops the option links of variants `ids`. */
  unlinkVariantsOptions: statement((v: Placeholders<{ ids: string[] }>) =>
    db.delete(productVariantOption).where(inList(productVariantOption.variant_id, v.ids)),
  ),
  // --- snapshot and restore

  /** The live rows of the live products among `ids` (unknown ids are left out), the products locked. */
  async snapshotProducts(ids: string[]): Promise<ProductSnapshot> {
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
    const liveOptions = and(inList(productOption.product_id, found), liveOption);
    const liveVariants = and(inList(productVariant.product_id, found), liveVariant);
    const optionIds = db.select({ id: productOption.id }).from(productOption).where(liveOptions);
    const variantIds = db.select({ id: productVariant.id }).from(productVariant).where(liveVariants);
    return {
      products,
      options: await readRows(db, productOption, liveOptions),
      values: await readRows(db, productOptionValue, and(inArray(productOptionValue.option_id, optionIds), liveValue)),
      variants: await readRows(db, productVariant, liveVariants),
      variantOptions: await db
        .select()
        .from(productVariantOption)
        .where(inArray(productVariantOption.variant_id, variantIds)),
      images: await readRows(db, productImage, and(inList(productImage.product_id, found), liveImage)),
      variantImages: await db
        .select()
        .from(productVariantImage)
        .where(inArray(productVariantImage.variant_id, variantIds)),
      tags: await db.select().from(productTags).where(inList(productTags.product_id, found)),
      categories: await db
        .select()
        .from(productCategoryProduct)
        .where(inList(productCategoryProduct.product_id, found)),
      salesChannels: await db.select().from(productSalesChannel).where(inList(productSalesChannel.product_id, found)),
    };
  },
  /**
   * Puts the snapshot's products back as they were: their rows and links as read, and what the write
   * added since (variants, options, values) soft-deleted, images removed, as the module removes them.
   * Every live row of the products is first marked deleted, so restoring never trips over a unique
   * handle, sku, option title or value the write moved from one row to another.
   */
  async restoreProducts(snapshot: ProductSnapshot): Promise<void> {
    const ids = snapshot.products.map((p) => p.id);
    if (ids.length === 0) return;
    const now = new Date();
    const live = await db
      .select({ id: productVariant.id })
      .from(productVariant)
      .where(and(inList(productVariant.product_id, ids), liveVariant));
    const variantIds = [...new Set([...snapshot.variants.map((v) => v.id), ...live.map((v) => v.id)])];
    if (variantIds.length)
      for (const link of [productVariantOption, productVariantImage])
        await db.delete(link).where(inList(link.variant_id, variantIds));
    for (const link of [productTags, productCategoryProduct, productSalesChannel])
      await db.delete(link).where(inList(link.product_id, ids));
    const keptImages = snapshot.images.map((i) => i.id);
    await db
      .delete(productImage)
      .where(
        and(
          inList(productImage.product_id, ids),
          keptImages.length ? not(inList(productImage.id, keptImages)) : undefined,
        ),
      );
    const options = db
      .select({ id: productOption.id })
      .from(productOption)
      .where(inList(productOption.product_id, ids));
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
  },

  // --- collections
  collections,
  /** Detaches collection `id` from its products. */
  detachCollection: statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
    db.update(product).set({ collection_id: null, updated_at: v.updated_at }).where(eq(product.collection_id, v.id)),
  ),
  /** The handles of live collections that are `base` or `base-…`. */
  collectionHandlesLike: handlesLike(productCollection),

  // --- categories
  categories,
  /** The handles of live categories that are `base` or `base-…`. */
  categoryHandlesLike: handlesLike(productCategory),
  /** The live category with id or handle `idOrHandle` that matches `filters`, if any. */
  async categoryByIdOrHandle(idOrHandle: string, filters: CategoryFilters): Promise<ProductCategoryRow | undefined> {
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
  },
  /** A page of the live categories matching `filters` (by rank unless ordered otherwise). */
  categoriesPage(filters: CategoryFilters, page: ListPaging): Promise<{ items: ProductCategoryRow[]; count: number }> {
    return listPage(
      productCategory,
      and(...categoryConditions(filters)),
      orderBy(page.order, CATEGORY_ORDER, productCategory.id, "rank"),
      page,
    );
  },
  /**
   * The live categories below `rows` (every descendant, or the children alone), optionally only
   * active or public ones, by rank.
   */
  categoriesBelow(
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
      .where(and(below, ...categoryConditions(only)))
      .orderBy(asc(productCategory.rank), asc(productCategory.id));
  },
  /** The live categories among `ids`. */
  categoriesByIds: rowsOf(productCategory, productCategory.id, { where: liveCategory }),

  /** One live child of category `id`, if it has any. */
  childOfCategory: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .select({ id: productCategory.id })
        .from(productCategory)
        .where(and(eq(productCategory.parent_category_id, v.id), liveCategory))
        .limit(1),
    ),
  ),
  /** Unlinks category `id` from its products. */
  unlinkCategory: statement((v: Placeholders<{ id: string }>) =>
    db.delete(productCategoryProduct).where(eq(productCategoryProduct.product_category_id, v.id)),
  ),
  /** Moves the descendants of a category whose path was `from` below its new path `to`. */
  async moveDescendants(from: string, to: string): Promise<void> {
    await db
      .update(productCategory)
      .set({ mpath: sql`${to} || substr(${productCategory.mpath}, ${from.length + 1})` })
      .where(like(productCategory.mpath, `${from}.%`));
  },
  /** Shifts the ranks of the children of `parentId` from `rank` on by `by` (1 or -1), `exceptId` left alone. */
  async shiftSiblingRanks(parentId: string | null, rank: number, by: 1 | -1, exceptId?: string): Promise<void> {
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
  },
  /** The highest rank among the children of `parentId` (`exceptId` left out), null without any. */
  async maxSiblingRank(parentId: string | null, exceptId?: string): Promise<number | null> {
    const [last] = await db
      .select({ max: max(productCategory.rank) })
      .from(productCategory)
      .where(and(liveCategory, siblingsOf(parentId), exceptId ? ne(productCategory.id, exceptId) : undefined));
    return last?.max ?? null;
  },

  // --- tags and types
  valueRecords,
  /** The conditions of a tag or type list. */
  valueConditions(kind: keyof typeof VALUE_TABLES, filters: { id?: string[]; value?: string[]; q?: string }): SQL[] {
    const table = VALUE_TABLES[kind];
    return [...inFilters(filters, { id: table.id, value: table.value }), ...textSearch(filters.q, [table.value])];
  },
  /** Unlinks tag `id` from its products. */
  unlinkTag: statement((v: Placeholders<{ id: string }>) =>
    db.delete(productTags).where(eq(productTags.product_tag_id, v.id)),
  ),
  /** Clears type `id` on its products. */
  clearType: statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
    db.update(product).set({ type_id: null, updated_at: v.updated_at }).where(eq(product.type_id, v.id)),
  ),
};
