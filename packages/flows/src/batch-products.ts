import { writeProductsStep, type ProductCreate, type ProductUpdate } from "@kasse/modules/product";
import { workflow } from "./definitions";
import { carryVariantWrites, checkProductInput } from "./product-writes";

/** `POST /admin/products/batch`. */
export interface ProductBatch {
  create?: ProductCreate[];
  update?: Array<ProductUpdate & { id: string }>;
  delete?: string[];
}

/**
 * Creates, updates and deletes products, all or nothing: the product rows of the whole batch in
 * one step, then the prices of all its variants (pricing) and their inventory items (inventory),
 * each in one step; a failing step (one bad item, in any module) undoes the ones before it.
 * Returns the affected ids.
 */
export const batchProductsWorkflow = workflow("batch-products", async (batch: ProductBatch, ctx) => {
  const update = (batch.update ?? []).map(({ id, ...input }) => ({ id, input }));
  await checkProductInput(ctx, [...(batch.create ?? []), ...update.map((u) => u.input)]);
  const written = await ctx.run(writeProductsStep, { create: batch.create, update, delete: batch.delete });
  await carryVariantWrites(ctx, written.variants);
  return { created: written.created, updated: written.updated, deleted: written.deleted };
});
