import type { Modules } from "@kasse/modules";
import { recordEvent } from "@kasse/modules/event";
import { withEvents } from "./events";
import type { PriceInput } from "@kasse/modules/pricing";
import type { OptionCreate, OptionUpdate, ProductUpdate, VariantCreate, VariantUpdate } from "@kasse/modules/product";
import { applyVariantWrites, assertSalesChannels } from "./product-writes";

/** Updates products inside `tx`; nested `options`/`variants` replace their sets. */
export async function updateProductsIn(
  m: Modules,
  updates: Array<{ id: string; input: ProductUpdate }>,
): Promise<string[]> {
  for (const { id, input } of updates) {
    await assertSalesChannels(m, input.sales_channels);
    const write = await m.product.update(id, input);
    await applyVariantWrites(m, write);
    await recordEvent(m.db, "product.updated", { id });
  }
  return updates.map((u) => u.id);
}

/**
 * Updates products (fields, links, options, variants with their prices) in one transaction.
 * @example
 * await updateProducts(app.modules, [{ id, input: { status: "published" } }]);
 */
export function updateProducts(m: Modules, updates: Array<{ id: string; input: ProductUpdate }>): Promise<string[]> {
  return withEvents(m, (t) => updateProductsIn(t, updates));
}

/** Adds variants (with prices and inventory items) to a product in one transaction. */
export function createProductVariants(m: Modules, productId: string, variants: VariantCreate[]): Promise<string[]> {
  return withEvents(m, async (t) => {
    const created = await t.product.createVariants(productId, variants);
    await applyVariantWrites(t, { created, updated: [], deleted: [] });
    await recordEvent(t.db, "product.updated", { id: productId });
    return created.map((v) => v.id);
  });
}

/** Updates one variant and, when given, replaces its prices, in one transaction. */
export function updateProductVariant(
  m: Modules,
  productId: string,
  variantId: string,
  input: VariantUpdate,
): Promise<void> {
  return withEvents(m, async (t) => {
    const updated = await t.product.updateVariant(productId, variantId, input);
    await applyVariantWrites(t, { created: [], updated: [updated], deleted: [] });
    await recordEvent(t.db, "product.updated", { id: productId });
  });
}

/** Removes one variant with its prices and inventory links, in one transaction. */
export function deleteProductVariant(m: Modules, productId: string, variantId: string): Promise<void> {
  return withEvents(m, async (t) => {
    await t.product.deleteVariant(productId, variantId);
    await applyVariantWrites(t, { created: [], updated: [], deleted: [variantId] });
    await recordEvent(t.db, "product.updated", { id: productId });
  });
}

/** Replaces a variant's base prices after checking it belongs to the product. */
export function setProductVariantPrices(
  m: Modules,
  productId: string,
  variantId: string,
  prices: PriceInput[],
): Promise<void> {
  return withEvents(m, async (t) => {
    await t.product.retrieveVariant(productId, variantId);
    await t.pricing.setVariantPrices(variantId, prices);
    await recordEvent(t.db, "product.updated", { id: productId });
  });
}

/** Option writes touch only the product module; they are here so routes call one place for product writes. */
export const productOptions = {
  create: (m: Modules, productId: string, input: OptionCreate) =>
    withEvents(m, async (t) => withUpdated(t, productId, await t.product.createOption(productId, input))),
  update: (m: Modules, productId: string, optionId: string, input: OptionUpdate) =>
    withEvents(m, async (t) => withUpdated(t, productId, await t.product.updateOption(productId, optionId, input))),
  delete: (m: Modules, productId: string, optionId: string) =>
    withEvents(m, async (t) => withUpdated(t, productId, await t.product.deleteOption(productId, optionId))),
};

/** Records `product.updated` for a write's product and passes its result on. */
async function withUpdated<T>(m: Modules, productId: string, result: T): Promise<T> {
  await recordEvent(m.db, "product.updated", { id: productId });
  return result;
}
