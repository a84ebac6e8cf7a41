import type { Db } from "@kasse/db";
import { recordEvent } from "@kasse/modules/event";
import { withEvents } from "./events";
import { createProductService } from "@kasse/modules/product";
import { applyVariantWrites } from "./product-writes";

/** Soft-deletes products inside `tx`, dropping their variants' prices and inventory links. */
export async function deleteProductsIn(tx: Db, ids: string[]): Promise<string[]> {
  const { variantIds } = await createProductService(tx).delete(ids);
  await applyVariantWrites(tx, { created: [], updated: [], deleted: variantIds });
  for (const id of ids) await recordEvent(tx, "product.deleted", { id });
  return ids;
}

/**
 * Soft-deletes products (unknown ids: 404, nothing deleted) in one transaction; their handles
 * and skus become free for new products.
 */
export function deleteProducts(db: Db, ids: string[]): Promise<string[]> {
  return withEvents(db, (tx) => deleteProductsIn(tx, ids));
}
