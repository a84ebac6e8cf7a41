import type { Modules } from "@kasse/modules";
import { recordEvent } from "@kasse/modules/event";
import type { PriceInput } from "@kasse/modules/pricing";
import {
  writeProductsStep,
  writeProductVariantsStep,
  type OptionCreate,
  type OptionUpdate,
  type ProductUpdate,
  type ProductVariantWrites,
} from "@kasse/modules/product";
import { workflow } from "./definitions";
import { writeWithEvents } from "./events";
import { carryVariantWrites, checkProductInput } from "./product-writes";

/**
 * Updates products (fields, links, options, variants with their prices; nested `options`/`variants`
 * replace their sets) across product, pricing and inventory, each in its own step. A failing step
 * undoes the ones before it: the products, their prices and inventory links are put back as they
 * were. Returns the ids.
 * @example
 * await engine.execute(updateProductsWorkflow, { products: [{ id, input: { status: "published" } }] });
 */
export const updateProductsWorkflow = workflow(
  "update-products",
  async (input: { products: Array<{ id: string; input: ProductUpdate }> }, ctx) => {
    await checkProductInput(
      ctx,
      input.products.map((p) => p.input),
    );
    const written = await ctx.run(writeProductsStep, { update: input.products });
    await carryVariantWrites(ctx, written.variants);
    return written.updated;
  },
);

/**
 * Adds, changes (with their prices when given) and removes variants of one product, as
 * {@link updateProductsWorkflow} does for products: new variants get their prices and inventory
 * items, removed ones lose theirs, and a failing step puts everything back. Returns the ids of the
 * variants it created.
 */
export const writeProductVariantsWorkflow = workflow(
  "write-product-variants",
  async (input: ProductVariantWrites, ctx) => {
    await checkProductInput(ctx, [
      { variants: [...(input.create ?? []), ...(input.update ?? []).map((u) => u.input)] },
    ]);
    const variants = await ctx.run(writeProductVariantsStep, input);
    await carryVariantWrites(ctx, variants);
    return variants.created.map((v) => v.id);
  },
);

/**
 * Replaces a variant's base prices after checking it belongs to the product: a pricing write
 * (the product is only read), so one transaction.
 */
export function setProductVariantPrices(
  m: Modules,
  productId: string,
  variantId: string,
  prices: PriceInput[],
): Promise<void> {
  return writeWithEvents(async () => {
    await m.product.retrieveVariant(productId, variantId);
    await m.pricing.setVariantPrices(variantId, prices);
    await recordEvent("product.updated", { id: productId });
  });
}

/** Option writes touch only the product module (one transaction); they are here so routes call one place for product writes. */
export const productOptions = {
  create: (m: Modules, productId: string, input: OptionCreate) =>
    writeWithEvents(async () => withUpdated(productId, await m.product.createOption(productId, input))),
  update: (m: Modules, productId: string, optionId: string, input: OptionUpdate) =>
    writeWithEvents(async () => withUpdated(productId, await m.product.updateOption(productId, optionId, input))),
  delete: (m: Modules, productId: string, optionId: string) =>
    writeWithEvents(async () => withUpdated(productId, await m.product.deleteOption(productId, optionId))),
};

/** Records `product.updated` for a write's product and passes its result on. */
async function withUpdated<T>(productId: string, result: T): Promise<T> {
  await recordEvent("product.updated", { id: productId });
  return result;
}
