import { transaction, type Db } from "@kasse/db";
import { createProductService } from "@kasse/modules/product";
import { applyVariantWrites } from "./product-writes";

/** Soft-deletes products inside `tx`, dropping their variants' prices and inventory links. */
export async function deleteProductsIn(tx: Db, ids: string[]): Promise<string[]> {
  const { variantIds } = await createProductService(tx).delete(ids, tx);
  await applyVariantWrites(tx, { created: [], updated: [], deleted: variantIds });
  return ids;
}

/**
 * Soft-deletes products (unknown ids: 404, nothing deleted) in one transaction; their handles
 * and skus become free for new products.
 */
export function deleteProducts(db: Db, ids: string[]): Promise<string[]> {
  return transaction(db, (tx) => deleteProductsIn(tx, ids));
}
