import type { Modules } from "@kasse/modules";
import { recordEvent } from "@kasse/modules/event";
import { writeProductsStep, type ProductCreate } from "@kasse/modules/product";
import { workflow } from "./definitions";
import { applyCreatedVariants, assertSalesChannels, carryVariantWrites, checkProductInput } from "./product-writes";

/**
 * Creates products across the three modules that own them: the rows, options, variants and links
 * (product), the new variants' prices (pricing) and an inventory item for each variant that
 * manages inventory (inventory), each in its own step. A failing step undoes the ones before it,
 * so a failure leaves no product, no price and no item; `product.created` is released only when
 * all of it succeeded. Returns the new product ids in input order.
 */
export const createProductsWorkflow = workflow("create-products", async (input: { products: ProductCreate[] }, ctx) => {
  await checkProductInput(ctx, input.products);
  const written = await ctx.run(writeProductsStep, { create: input.products });
  await carryVariantWrites(ctx, written.variants);
  return written.created;
});

/**
 * Creates products inside the caller's transaction, for a write that must be all or nothing with
 * more than products: the demo store's seed.
 */
export async function createProductsIn(m: Modules, inputs: ProductCreate[]): Promise<string[]> {
  const ids: string[] = [];
  for (const input of inputs) {
    await assertSalesChannels(m, input.sales_channels);
    const write = await m.product.create(input);
    await applyCreatedVariants(m, write.created);
    await recordEvent("product.created", { id: write.id });
    ids.push(write.id);
  }
  return ids;
}
