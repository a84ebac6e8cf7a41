import { writeProductsStep } from "@kasse/modules/product";
import { workflow } from "./definitions";
import { carryVariantWrites } from "./product-writes";

/**
 * Soft-deletes products (unknown ids: 404, nothing deleted; their handles and skus become free),
 * then their variants' prices (pricing) and inventory links and items (inventory), each in its own
 * step; a failing step puts the products, prices and items back. Returns the ids.
 */
export const deleteProductsWorkflow = workflow("delete-products", async (input: { ids: string[] }, ctx) => {
  const written = await ctx.run(writeProductsStep, { delete: input.ids });
  await carryVariantWrites(ctx, written.variants);
  return written.deleted;
});
