import { transaction, type Db } from "@kasse/db";
import { createPricingService, type PriceInput } from "@kasse/modules/pricing";
import { createProductService, type OptionCreate, type OptionUpdate, type ProductUpdate, type VariantCreate, type VariantUpdate } from "@kasse/modules/product";
import { applyVariantWrites, assertSalesChannels } from "./product-writes";

/** Updates products inside `tx`; nested `options`/`variants` replace their sets. */
export async function updateProductsIn(tx: Db, updates: Array<{ id: string; input: ProductUpdate }>): Promise<string[]> {
  const products = createProductService(tx);
  for (const { id, input } of updates) {
    await assertSalesChannels(tx, input.sales_channels);
    const write = await products.update(id, input, tx);
    await applyVariantWrites(tx, write);
  }
  return updates.map((u) => u.id);
}

/**
 * Updates products (fields, links, options, variants with their prices) in one transaction.
 * @example
 * await updateProducts(db, [{ id, input: { status: "published" } }]);
 */
export function updateProducts(db: Db, updates: Array<{ id: string; input: ProductUpdate }>): Promise<string[]> {
  return transaction(db, (tx) => updateProductsIn(tx, updates));
}

/** Adds variants (with prices and inventory items) to a product in one transaction. */
export function createProductVariants(db: Db, productId: string, variants: VariantCreate[]): Promise<string[]> {
  return transaction(db, async (tx) => {
    const created = await createProductService(tx).createVariants(productId, variants, tx);
    await applyVariantWrites(tx, { created, updated: [], deleted: [] });
    return created.map((v) => v.id);
  });
}

/** Updates one variant and, when given, replaces its prices, in one transaction. */
export function updateProductVariant(db: Db, productId: string, variantId: string, input: VariantUpdate): Promise<void> {
  return transaction(db, async (tx) => {
    const updated = await createProductService(tx).updateVariant(productId, variantId, input, tx);
    await applyVariantWrites(tx, { created: [], updated: [updated], deleted: [] });
  });
}

/** Removes one variant with its prices and inventory links, in one transaction. */
export function deleteProductVariant(db: Db, productId: string, variantId: string): Promise<void> {
  return transaction(db, async (tx) => {
    await createProductService(tx).deleteVariant(productId, variantId, tx);
    await applyVariantWrites(tx, { created: [], updated: [], deleted: [variantId] });
  });
}

/** Replaces a variant's base prices after checking it belongs to the product. */
export function setProductVariantPrices(db: Db, productId: string, variantId: string, prices: PriceInput[]): Promise<void> {
  return transaction(db, async (tx) => {
    await createProductService(tx).retrieveVariant(productId, variantId, tx);
    await createPricingService(tx).setVariantPrices(variantId, prices, tx);
  });
}

/** Option writes touch only the product module; they are here so routes call one place for product writes. */
export const productOptions = {
  create: (db: Db, productId: string, input: OptionCreate) => transaction(db, (tx) => createProductService(tx).createOption(productId, input, tx)),
  update: (db: Db, productId: string, optionId: string, input: OptionUpdate) =>
    transaction(db, (tx) => createProductService(tx).updateOption(productId, optionId, input, tx)),
  delete: (db: Db, productId: string, optionId: string) => transaction(db, (tx) => createProductService(tx).deleteOption(productId, optionId, tx)),
};
