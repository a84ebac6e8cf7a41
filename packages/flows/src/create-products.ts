import type { Modules } from "@kasse/modules";
import { recordEvent } from "@kasse/modules/event";
import { createVariantInventoryItemsStep } from "@kasse/modules/inventory";
import { setNewVariantPricesStep } from "@kasse/modules/pricing";
import { createProductsStep, type ProductCreate, type VariantWrite } from "@kasse/modules/product";
import { step, workflow } from "@kasse/workflows";
import { applyVariantWrites, assertSalesChannels } from "./product-writes";

/** The sales channels the products name must be live (400 naming the missing ones). Reads only. */
const checkSalesChannelsStep = step("check-product-sales-channels", {
  invoke: async (input: ProductCreate[], ctx) => {
    await assertSalesChannels(
      ctx.modules,
      input.flatMap((p) => p.sales_channels ?? []),
    );
    return { output: null };
  },
});

/**
 * Creates products across the three modules that own them: the rows, options, variants and links
 * (product), the new variants' prices (pricing) and an inventory item for each variant that
 * manages inventory (inventory), each in its own step. A failing step undoes the ones before it,
 * so a failure leaves no product, no price and no item; `product.created` is released only when
 * all of it succeeded. Returns the new product ids in input order.
 */
export const createProductsWorkflow = workflow("create-products", async (input: { products: ProductCreate[] }, ctx) => {
  await ctx.run(checkSalesChannelsStep, input.products);
  const writes = await ctx.run(createProductsStep, input.products);
  const created: VariantWrite[] = writes.flatMap((w) => w.created);
  const priced = created.flatMap((v) => (v.prices ? [{ variant_id: v.id, prices: v.prices }] : []));
  if (priced.length) await ctx.run(setNewVariantPricesStep, priced);
  const managed = created
    .filter((v) => v.manage_inventory)
    .map((v) => ({ variant_id: v.id, sku: v.sku, title: v.title }));
  if (managed.length) await ctx.run(createVariantInventoryItemsStep, managed);
  return writes.map((w) => w.id);
});

/**
 * Creates products inside `tx`, for writes that must be all or nothing with more than products:
 * a product batch (`batchProducts`) and the demo store's seed.
 */
export async function createProductsIn(m: Modules, inputs: ProductCreate[]): Promise<string[]> {
  const ids: string[] = [];
  for (const input of inputs) {
    await assertSalesChannels(m, input.sales_channels);
    const write = await m.product.create(input);
    await applyVariantWrites(m, write);
    await recordEvent(m.db, "product.created", { id: write.id });
    ids.push(write.id);
  }
  return ids;
}
