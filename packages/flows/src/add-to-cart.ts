import type { Modules } from "@kasse/modules";
import { errors } from "@kasse/core";
import type { CartState, LineItemCreate, LineItemInsert, LineItemUpdate } from "@kasse/modules/cart";
import type { ProductVariantRow } from "@kasse/modules/product";
import { withLine, writeCart, type CartActor } from "./cart-write";
import type { CartResult } from "./cart-result";

/**
 * Adds a variant to the cart, or adds to the quantity of its line when the cart has one (Medusa
 * merges lines of one variant). The variant must exist, belong to a published product in the
 * cart's sales channel, have a price in the cart's currency, and, when it manages inventory
 * without backorders, be available in the channel's stock locations for the line's whole
 * quantity; otherwise 400 `invalid_data` and nothing changes.
 * @example
 * const result = await addToCart(app.modules, cartId, { customer_id: null }, { variant_id, quantity: 2 });
 */
export function addToCart(m: Modules, cartId: string, actor: CartActor, input: LineItemCreate): Promise<CartResult> {
  return writeCart(m, cartId, actor, async (state) => {
    // The channel's stock locations are read with the variant (one round trip): availability needs both.
    const [variant, locations] = await Promise.all([
      sellableVariant(m, state, input.variant_id),
      channelLocations(m, state),
    ]);
    const existing = state.items.find((i) => i.variant_id === input.variant_id);
    const quantity = (existing?.quantity ?? 0) + input.quantity;
    await assertAvailable(m, variant.variant, quantity, locations);
    const line = existing
      ? await m.cart.updateItem(cartId, existing.id, {
          quantity,
          ...(input.metadata !== undefined
            ? { metadata: { ...(existing.metadata ?? {}), ...(input.metadata ?? {}) } }
            : {}),
        })
      : await m.cart.addItem(cartId, { ...variant.snapshot, quantity, metadata: input.metadata ?? null });
    return { state: { ...state, items: withLine(state.items, line) } };
  });
}

/** Sets a line's quantity (0 removes the line, as in Medusa), re-checking inventory. */
export function updateLineItem(
  m: Modules,
  cartId: string,
  lineId: string,
  actor: CartActor,
  input: LineItemUpdate,
): Promise<CartResult> {
  return writeCart(m, cartId, actor, async (state) => {
    const line = state.items.find((i) => i.id === lineId);
    if (!line) throw errors.notFound(`Line item with id: ${lineId} was not found`);
    if (input.quantity === 0) {
      await m.cart.deleteItem(cartId, lineId);
      return { state: { ...state, items: state.items.filter((i) => i.id !== lineId) } };
    }
    if (input.quantity > line.quantity) {
      const [variant, locations] = await Promise.all([
        sellableVariant(m, state, line.variant_id),
        channelLocations(m, state),
      ]);
      await assertAvailable(m, variant.variant, input.quantity, locations);
    }
    const updated = await m.cart.updateItem(cartId, lineId, {
      quantity: input.quantity,
      ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
    });
    return { state: { ...state, items: withLine(state.items, updated) } };
  });
}

/** Removes a line. */
export function deleteLineItem(m: Modules, cartId: string, lineId: string, actor: CartActor): Promise<CartResult> {
  return writeCart(m, cartId, actor, async (state) => {
    await m.cart.deleteItem(cartId, lineId);
    return { state: { ...state, items: state.items.filter((i) => i.id !== lineId) } };
  });
}

/** The variant and the snapshot a new line keeps of it, after checking it may be sold in this cart. */
async function sellableVariant(
  m: Modules,
  state: CartState,
  variantId: string,
): Promise<{ variant: ProductVariantRow; snapshot: Omit<LineItemInsert, "quantity" | "metadata"> }> {
  const found = await m.product.variantForSale(variantId);
  const product = found?.product;
  if (!found || !product) throw errors.invalidData(`Variant with id: ${variantId} was not found`);
  const { variant } = found;
  if (product.status !== "published")
    throw errors.invalidData(`Variant with id: ${variantId} belongs to a product that is not published`);
  if (!state.cart.sales_channel_id || !found.sales_channel_ids.includes(state.cart.sales_channel_id)) {
    throw errors.invalidData(`Variant with id: ${variantId} is not available in the cart's sales channel`);
  }
  return {
    variant,
    snapshot: {
      variant_id: variant.id,
      product_id: product.id,
      // Medusa's line: the variant's title, the product's as subtitle.
      title: variant.title,
      subtitle: product.title,
      thumbnail: product.thumbnail,
      // The refresh that follows every write prices the line.
      unit_price: 0,
      is_tax_inclusive: false,
      is_discountable: product.discountable,
      requires_shipping: true,
      variant_title: variant.title,
      variant_sku: variant.sku,
      product_title: product.title,
      product_handle: product.handle,
      product_collection_id: product.collection_id,
      product_type_id: product.type_id,
      product_category_ids: found.category_ids,
      product_tag_ids: found.tag_ids,
    },
  };
}

/** The stock locations of the cart's sales channel. */
function channelLocations(m: Modules, state: CartState): Promise<string[]> {
  return m.stockLocation.locationIdsForSalesChannels(state.cart.sales_channel_id ? [state.cart.sales_channel_id] : []);
}

/** A variant that manages inventory without backorders needs `quantity` available in the channel's `locations`. */
async function assertAvailable(
  m: Modules,
  variant: Pick<ProductVariantRow, "id" | "manage_inventory" | "allow_backorder">,
  quantity: number,
  locations: string[],
): Promise<void> {
  if (!variant.manage_inventory || variant.allow_backorder) return;
  const available = (await m.inventory.availableQuantities([variant.id], locations)).get(variant.id) ?? 0;
  if (available < quantity)
    throw errors.invalidData(`Insufficient inventory for variant ${variant.id}: ${quantity} requested`);
}
