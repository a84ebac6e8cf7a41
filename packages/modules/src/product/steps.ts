import { step } from "@kasse/workflows";
import type { ProductCreate } from "./schema";
import type { ProductWrite } from "./service";

/**
 * Creates products with their options, variants, images and links (`product.created` each, released
 * with the workflow). Compensation deletes them (soft: invisible to every read, handles and skus freed).
 */
export const createProductsStep = step("create-products", {
  invoke: async (input: ProductCreate[], ctx) => {
    const writes: ProductWrite[] = [];
    for (const product of input) {
      const write = await ctx.modules.product.create(product);
      await ctx.emit("product.created", { id: write.id });
      writes.push(write);
    }
    return { output: writes, compensateInput: writes.map((w) => w.id) };
  },
  compensate: async (ids: string[], ctx) => {
    await ctx.modules.product.delete(ids);
  },
});
