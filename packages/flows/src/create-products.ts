import type { Db } from "@kasse/db";
import { recordEvent } from "@kasse/modules/event";
import { withEvents } from "./events";
import { createProductService, type ProductCreate } from "@kasse/modules/product";
import { applyVariantWrites, assertSalesChannels } from "./product-writes";

/** Creates products inside `tx`: rows, links, variant prices and inventory items. */
export async function createProductsIn(tx: Db, inputs: ProductCreate[]): Promise<string[]> {
  const products = createProductService(tx);
  const ids: string[] = [];
  for (const input of inputs) {
    await assertSalesChannels(tx, input.sales_channels);
    const write = await products.create(input);
    await applyVariantWrites(tx, write);
    await recordEvent(tx, "product.created", { id: write.id });
    ids.push(write.id);
  }
  return ids;
}

/**
 * Creates products with their options, variants, prices, inventory items and sales channel
 * links in one transaction: all of them or none. Returns the new product ids in input order.
 * @example
 * const [id] = await createProducts(db, [{ title: "Shirt", options: [{ title: "Size", values: ["M"] }] }]);
 */
export function createProducts(db: Db, inputs: ProductCreate[]): Promise<string[]> {
  return withEvents(db, (tx) => createProductsIn(tx, inputs));
}
