import { and, inArray, isNull, notInArray } from "drizzle-orm";
import { readRows, restoreRows, type Db, type RowSnapshot } from "@kasse/db";
import {
  product,
  productCategoryProduct,
  productImage,
  productOption,
  productOptionValue,
  productSalesChannel,
  productTags,
  productVariant,
  productVariantImage,
  productVariantOption,
  type ProductImageRow,
  type ProductOptionRow,
  type ProductOptionValueRow,
  type ProductRow,
  type ProductVariantRow,
} from "./schema";

/**
 * Every live row of some products in the product module (the product, its options and their
 * values, variants, images and links), as read before a write: what a saga step journals so its
 * compensation can put the products back exactly as they were ({@link restoreProducts}).
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

/** The live rows of the live products among `ids` (unknown ids are left out), the products locked. */
export async function snapshotProducts(db: Db, ids: string[]): Promise<ProductSnapshot> {
  const products = ids.length
    ? await readRows(db, product, and(inArray(product.id, [...new Set(ids)]), isNull(product.deleted_at)), {
        lock: true,
      })
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
  const liveOptions = and(inArray(productOption.product_id, found), isNull(productOption.deleted_at));
  const liveVariants = and(inArray(productVariant.product_id, found), isNull(productVariant.deleted_at));
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
      and(inArray(productImage.product_id, found), isNull(productImage.deleted_at)),
    ),
    variantImages: await db
      .select()
      .from(productVariantImage)
      .where(inArray(productVariantImage.variant_id, variantIds)),
    tags: await db.select().from(productTags).where(inArray(productTags.product_id, found)),
    categories: await db.select().from(productCategoryProduct).where(inArray(productCategoryProduct.product_id, found)),
    salesChannels: await db.select().from(productSalesChannel).where(inArray(productSalesChannel.product_id, found)),
  };
}

/**
 * Puts the snapshot's products back as they were: their rows and links as read, and what the write
 * added since (variants, options, values) soft-deleted, images removed, as the module removes them.
 * Every live row of the products is first marked deleted, so restoring never trips over a unique
 * handle, sku, option title or value the write moved from one row to another.
 */
export async function restoreProducts(db: Db, snapshot: ProductSnapshot): Promise<void> {
  const ids = snapshot.products.map((p) => p.id);
  if (ids.length === 0) return;
  const now = new Date();
  const live = await db
    .select({ id: productVariant.id })
    .from(productVariant)
    .where(and(inArray(productVariant.product_id, ids), isNull(productVariant.deleted_at)));
  const variantIds = [...new Set([...snapshot.variants.map((v) => v.id), ...live.map((v) => v.id)])];
  if (variantIds.length) {
    await db.delete(productVariantOption).where(inArray(productVariantOption.variant_id, variantIds));
    await db.delete(productVariantImage).where(inArray(productVariantImage.variant_id, variantIds));
  }
  await db.delete(productTags).where(inArray(productTags.product_id, ids));
  await db.delete(productCategoryProduct).where(inArray(productCategoryProduct.product_id, ids));
  await db.delete(productSalesChannel).where(inArray(productSalesChannel.product_id, ids));
  const keptImages = snapshot.images.map((i) => i.id);
  await db
    .delete(productImage)
    .where(
      and(
        inArray(productImage.product_id, ids),
        keptImages.length ? notInArray(productImage.id, keptImages) : undefined,
      ),
    );
  const options = db.select({ id: productOption.id }).from(productOption).where(inArray(productOption.product_id, ids));
  const marks = [
    { table: productOptionValue, of: inArray(productOptionValue.option_id, options) },
    { table: productOption, of: inArray(productOption.product_id, ids) },
    { table: productVariant, of: inArray(productVariant.product_id, ids) },
    { table: product, of: inArray(product.id, ids) },
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
