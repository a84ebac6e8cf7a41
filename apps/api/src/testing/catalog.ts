import type { ProductCreate } from "@kasse/modules/product";
import type { TestApp } from "./app";

/** A variant to create in a test product: its option value and its base prices. */
export interface FixtureVariant {
  title: string;
  sku?: string;
  size: string;
  prices: Array<{ currency_code: string; amount: number; min_quantity?: number; rules?: { region_id?: string } }>;
  stock?: number;
}

/**
 * Creates a product through the module services the way the product flow does (product, then
 * base prices, then inventory items and levels at `locationId`), for store read tests.
 */
export async function createFixtureProduct(
  t: TestApp,
  input: Omit<ProductCreate, "options" | "variants"> & { variants: FixtureVariant[] },
  locationId?: string,
): Promise<{ id: string; variantIds: string[] }> {
  const { variants, ...fields } = input;
  const modules = t.app.modules;
  const write = await modules.product.create({
    ...fields,
    options: [{ title: "Size", values: variants.map((v) => v.size) }],
    variants: variants.map((v) => ({ title: v.title, sku: v.sku, options: { Size: v.size }, prices: v.prices })),
  });
  const variantIds: string[] = [];
  for (const [i, created] of write.created.entries()) {
    const spec = variants.find((v) => v.title === created.title) ?? variants[i]!;
    variantIds.push(created.id);
    await modules.pricing.setVariantPrices(created.id, spec.prices);
    if (locationId && spec.stock !== undefined) {
      const [link] = await modules.inventory.createItemsForVariants([
        { variant_id: created.id, sku: created.sku, title: created.title },
      ]);
      await modules.inventory.createLevels(link!.inventory_item_id, [
        { location_id: locationId, stocked_quantity: spec.stock },
      ]);
    }
  }
  return { id: write.id, variantIds };
}
