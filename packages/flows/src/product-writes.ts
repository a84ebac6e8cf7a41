import { errors, isKasseError } from "@kasse/db";
import type { Modules } from "@kasse/modules";
import type { ProductWrite, VariantWrite } from "@kasse/modules/product";

/**
 * Carries a product write over to the modules that own the rest of a variant: prices of
 * created and re-priced variants (pricing), an inventory item for each new variant that
 * manages inventory (inventory), and cleanup of removed variants. Runs in the caller's
 * transaction so the product rows and these writes commit together.
 */
export async function applyVariantWrites(
  m: Modules,
  write: Pick<ProductWrite, "created" | "updated" | "deleted">,
): Promise<void> {
  const { pricing, inventory } = m;
  for (const variant of [...write.created, ...write.updated] as VariantWrite[]) {
    if (variant.prices) await pricing.setVariantPrices(variant.id, variant.prices);
  }
  const managed = write.created.filter((v) => v.manage_inventory);
  if (managed.length)
    await inventory.createItemsForVariants(managed.map((v) => ({ variant_id: v.id, sku: v.sku, title: v.title })));
  if (write.deleted.length) {
    await pricing.deleteVariantPrices(write.deleted);
    const unlinked = await inventory.unlinkVariants(write.deleted);
    // As Medusa does, an inventory item used by no other variant goes with its variant (its sku
    // becomes free). One still holding reservations stays, unlinked, for the orders that hold it.
    for (const itemId of new Set(unlinked.map((l) => l.inventory_item_id))) {
      if ((await inventory.variantIdsForItem(itemId)).length > 0) continue;
      try {
        await inventory.delete(itemId);
      } catch (error) {
        if (!(isKasseError(error) && error.type === "invalid_data")) throw error;
      }
    }
  }
}

/** Rejects sales channel ids that are not live channels (400 naming them). */
export async function assertSalesChannels(m: Modules, refs: Array<{ id: string }> | undefined): Promise<void> {
  const ids = [...new Set((refs ?? []).map((r) => r.id))];
  if (ids.length === 0) return;
  const found = await m.salesChannel.existing(ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw errors.invalidData(`Sales channel with id: ${missing.join(", ")} was not found`);
}
