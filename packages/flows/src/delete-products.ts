import type { Modules } from "@kasse/modules";
import { recordEvent } from "@kasse/modules/event";
import { withEvents } from "./events";
import { applyVariantWrites } from "./product-writes";

/** Soft-deletes products inside `tx`, dropping their variants' prices and inventory links. */
export async function deleteProductsIn(m: Modules, ids: string[]): Promise<string[]> {
  const { variantIds } = await m.product.delete(ids);
  await applyVariantWrites(m, { created: [], updated: [], deleted: variantIds });
  for (const id of ids) await recordEvent(m.db, "product.deleted", { id });
  return ids;
}

/**
 * Soft-deletes products (unknown ids: 404, nothing deleted) in one transaction; their handles
 * and skus become free for new products.
 */
export function deleteProducts(m: Modules, ids: string[]): Promise<string[]> {
  return withEvents(m, (t) => deleteProductsIn(t, ids));
}
