import { errors } from "@kasse/core";
import type { Modules } from "@kasse/modules";
import { updateVariantInventoryStep } from "@kasse/modules/inventory";
import { replaceVariantPricesStep, type PriceInput } from "@kasse/modules/pricing";
import type { VariantWrite, VariantWrites } from "@kasse/modules/product";
import { step, type FlowContext } from "./definitions";

/**
 * Carries a product write's variants over to the modules that own the rest of a variant, each in
 * its own step: prices of created and re-priced variants, and removed variants' prices (pricing);
 * an inventory item for each new variant that manages inventory, and removed variants' items
 * (inventory). A step with nothing to do is not run.
 */
export async function carryVariantWrites(ctx: FlowContext, variants: VariantWrites): Promise<void> {
  const set = [...variants.created, ...variants.updated].flatMap((v) =>
    v.prices ? [{ variant_id: v.id, prices: v.prices }] : [],
  );
  if (set.length || variants.deleted.length) await ctx.run(replaceVariantPricesStep, { set, remove: variants.deleted });
  const create = managedItems(variants.created);
  if (create.length || variants.deleted.length)
    await ctx.run(updateVariantInventoryStep, { create, remove: variants.deleted });
}

/** The inventory items new variants that manage inventory get (same sku and title). */
const managedItems = (created: VariantWrite[]) =>
  created.filter((v) => v.manage_inventory).map((v) => ({ variant_id: v.id, sku: v.sku, title: v.title }));

/**
 * Gives products created inside the caller's transaction their prices and inventory items, so
 * they commit together (the demo store's seed, which is all or nothing with more than products).
 */
export async function applyCreatedVariants(m: Modules, created: VariantWrite[]): Promise<void> {
  for (const variant of created) {
    if (variant.prices) await m.pricing.setVariantPrices(variant.id, variant.prices);
  }
  const managed = managedItems(created);
  if (managed.length) await m.inventory.createItemsForVariants(managed);
}

/** Rejects sales channel ids that are not live channels (400 naming them). */
export async function assertSalesChannels(m: Modules, refs: Array<{ id: string }> | undefined): Promise<void> {
  const ids = [...new Set((refs ?? []).map((r) => r.id))];
  if (ids.length === 0) return;
  const found = await m.salesChannel.existing(ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw errors.invalidData(`Sales channel with id: ${missing.join(", ")} was not found`);
}

/** Rejects shipping profile ids that are not live profiles (400 naming them). */
async function assertShippingProfiles(m: Modules, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const { items } = await m.fulfillment.listProfiles({ id: ids }, { limit: ids.length, offset: 0 });
  const found = new Set(items.map((p) => p.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw errors.invalidData(`Shipping profile with id: ${missing.join(", ")} was not found`);
}

/** What a product write names in other modules: sales channels, a shipping profile, and variants' prices. */
type ProductInput = {
  sales_channels?: Array<{ id: string }>;
  shipping_profile_id?: string | null;
  variants?: ReadonlyArray<{ prices?: PriceInput[] }>;
};

/**
 * Checks what product writes name in other modules before anything is written, so a refused
 * write (400) changes nothing: the sales channels and the shipping profile must be live, the
 * variants' prices writable.
 */
export async function checkProductInput(ctx: FlowContext, products: ProductInput[]): Promise<void> {
  const input = {
    sales_channels: products.flatMap((p) => p.sales_channels ?? []),
    shipping_profiles: [...new Set(products.flatMap((p) => p.shipping_profile_id ?? []))],
    prices: products.flatMap((p) => (p.variants ?? []).flatMap((v) => v.prices ?? [])),
  };
  if (input.sales_channels.length || input.shipping_profiles.length || input.prices.length)
    await ctx.run(checkProductInputStep, input);
}

/** The checks of {@link checkProductInput}. Reads only. */
const checkProductInputStep = step("check-product-input", {
  invoke: async (
    input: { sales_channels: Array<{ id: string }>; shipping_profiles?: string[]; prices: PriceInput[] },
    ctx,
  ) => {
    await assertSalesChannels(ctx.modules, input.sales_channels);
    await assertShippingProfiles(ctx.modules, input.shipping_profiles ?? []);
    ctx.modules.pricing.validate(input.prices);
    return { output: null };
  },
});
