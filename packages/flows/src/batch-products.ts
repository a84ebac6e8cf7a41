import type { Modules } from "@kasse/modules";
import { withEvents } from "./events";
import type { ProductCreate, ProductUpdate } from "@kasse/modules/product";
import { createProductsIn } from "./create-products";
import { deleteProductsIn } from "./delete-products";
import { updateProductsIn } from "./update-products";

/** `POST /admin/products/batch`. */
export interface ProductBatch {
  create?: ProductCreate[];
  update?: Array<ProductUpdate & { id: string }>;
  delete?: string[];
}

/**
 * Creates, updates and deletes products in ONE transaction: one bad item rolls back the whole
 * batch. Returns the affected ids.
 */
export function batchProducts(
  m: Modules,
  batch: ProductBatch,
): Promise<{ created: string[]; updated: string[]; deleted: string[] }> {
  return withEvents(m, async (t) => {
    const created = await createProductsIn(t, batch.create ?? []);
    const updated = await updateProductsIn(
      t,
      (batch.update ?? []).map(({ id, ...input }) => ({ id, input })),
    );
    const deleted = batch.delete?.length ? await deleteProductsIn(t, batch.delete) : [];
    return { created, updated, deleted };
  });
}
