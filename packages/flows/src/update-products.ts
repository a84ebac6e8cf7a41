import type { Db } from "@kasse/db";
import { recordEvent } from "@kasse/modules/event";
import { withEvents } from "./events";
import { createPricingService, type PriceInput } from "@kasse/modules/pricing";
import { createProductService, type OptionCreate, type OptionUpdate, type ProductUpdate, type VariantCreate, type VariantUpdate } from "@kasse/modules/product";
import { applyVariantWrites, assertSalesChannels } from "./product-writes";

/** Updates products inside `tx`; nested `options`/`variants` replace their sets. */
export async function updateProductsIn(tx: Db, updates: Array<{ id: string; input: ProductUpdate }>): Promise<string[]> {
  const products = createProductService(tx);
  for (const { id, input } of updates) {
    await assertSalesChannels(tx, input.sales_channels);
    const write = await products.update(id, input);
    await applyVariantWrites(tx, write);
    await recordEvent(tx, "product.updated", { id });
  }
  return updates.map((u) => u.id);
}

/**
 * Updates products (fields, links, options, variants with their prices) in one transaction.
 * @example
 * await updateProducts(db, [{ id, input: { status: "published" } }]);
 */
export function updateProducts(db: Db, updates: Array<{ id: string; input: ProductUpdate }>): Promise<string[]> {
  return withEvents(db, (tx) => updateProductsIn(tx, updates));
}

/** Adds variants (with prices and inventory items) to a product in one transaction. */
export function createProductVariants(db: Db, productId: string, variants: VariantCreate[]): Promise<string[]> {
  return withEvents(db, async (tx) => {
    const created = await createProductService(tx).createVariants(productId, variants);
    await applyVariantWrites(tx, { created, updated: [], deleted: [] });
    await recordEvent(tx, "product.updated", { id: productId });
    return created.map((v) => v.id);
  });
}

/** Updates one variant and, when given, replaces its prices, in one transaction. */
export function updateProductVariant(db: Db, productId: string, variantId: string, input: VariantUpdate): Promise<void> {
  return withEvents(db, async (tx) => {
    const updated = await createProductService(tx).updateVariant(productId, variantId, input);
    await applyVariantWrites(tx, { created: [], updated: [updated], deleted: [] });
    await recordEvent(tx, "product.updated", { id: productId });
  });
}

/** Removes one variant with its prices and inventory links, in one transaction. */
export function deleteProductVariant(db: Db, productId: string, variantId: string): Promise<void> {
  return withEvents(db, async (tx) => {
    await createProductService(tx).deleteVariant(productId, variantId);
    await applyVariantWrites(tx, { created: [], updated: [], deleted: [variantId] });
    await recordEvent(tx, "product.updated", { id: productId });
  });
}

/** Replaces a variant's base prices after checking it belongs to the product. */
export function setProductVariantPrices(db: Db, productId: string, variantId: string, prices: PriceInput[]): Promise<void> {
  return withEvents(db, async (tx) => {
    await createProductService(tx).retrieveVariant(productId, variantId);
    await createPricingService(tx).setVariantPrices(variantId, prices);
    await recordEvent(tx, "product.updated", { id: productId });
  });
}

/** Option writes touch only the product module; they are here so routes call one place for product writes. */
export const productOptions = {
  create: (db: Db, productId: string, input: OptionCreate) => withEvents(db, async (tx) => withUpdated(tx, productId, await createProductService(tx).createOption(productId, input))),
  update: (db: Db, productId: string, optionId: string, input: OptionUpdate) =>
    withEvents(db, async (tx) => withUpdated(tx, productId, await createProductService(tx).updateOption(productId, optionId, input))),
  delete: (db: Db, productId: string, optionId: string) => withEvents(db, async (tx) => withUpdated(tx, productId, await createProductService(tx).deleteOption(productId, optionId))),
};

/** Records `product.updated` for a write's product and passes its result on. */
async function withUpdated<T>(tx: Db, productId: string, result: T): Promise<T> {
  await recordEvent(tx, "product.updated", { id: productId });
  return result;
}
