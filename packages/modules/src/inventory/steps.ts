import { step, type StepContext } from "@kasse/workflows";
import type {
  ConsumedReservation,
  DetachedVariants,
  Reservation,
  ReserveForLinesInput,
  StockAdjustment,
} from "./types";

/** A reservation as steps journal it (JSON: no dates). */
export interface ReservedItem {
  id: string;
  inventory_item_id: string;
  location_id: string;
  quantity: number;
  line_item_id: string | null;
}
const reserved = (rows: Reservation[]): ReservedItem[] =>
  rows.map((r) => ({
    id: r.id,
    inventory_item_id: r.inventory_item_id,
    location_id: r.location_id,
    quantity: r.quantity,
    line_item_id: r.line_item_id,
  }));

// Each step runs in its own transaction (ambient), so its writes commit with its journal row.

/** Records `inventory-item.updated` with the new levels of the (item, location) pairs whose stock changed. */
async function emitLevels(
  ctx: StepContext,
  pairs: ReadonlyArray<{ inventory_item_id: string; location_id: string }>,
): Promise<void> {
  for (const level of await ctx.modules.inventory.levelEvents(pairs)) await ctx.emit("inventory-item.updated", level);
}

/**
 * Reserves order lines at the locations given (see `reserveForLines`). Compensation releases
 * exactly the reservations this step made, by id.
 */
export const reserveLineItemsStep = step("reserve-line-items", {
  invoke: async (input: ReserveForLinesInput, ctx) => {
    const reservations = reserved(await ctx.modules.inventory.reserveForLines(input));
    return { output: reservations, compensateInput: reservations.map((r) => r.id) };
  },
  compensate: async (ids: string[], ctx) => {
    await ctx.modules.inventory.releaseReservations(ids);
  },
});

/** Releases every reservation of the line items (order canceled); compensation brings back exactly those released. */
export const releaseLineItemReservationsStep = step("release-reservations", {
  invoke: async (input: { line_item_ids: string[] }, ctx) => {
    const released = reserved(await ctx.modules.inventory.releaseLineItems(input.line_item_ids));
    return { output: released, compensateInput: released.map((r) => r.id) };
  },
  compensate: async (ids: string[], ctx) => {
    await ctx.modules.inventory.restoreReservations(ids);
  },
});

/** Fulfillment: consumes the lines' reservations and takes the units out of stock; compensation restores both. */
export const consumeLineItemsStep = step("consume-line-item-reservations", {
  invoke: async (input: Array<{ line_item_id: string; variant_id: string; quantity: number }>, ctx) => {
    const consumed = await ctx.modules.inventory.consumeLineItems(input);
    await emitLevels(ctx, consumed);
    return { output: consumed, compensateInput: consumed };
  },
  compensate: async (consumed: ConsumedReservation[], ctx) => {
    await ctx.modules.inventory.restoreConsumed(consumed);
  },
});

/** A return received: adds the variants' items to stock at a location; compensation takes them back out. */
export const receiveVariantsStep = step("receive-variant-stock", {
  invoke: async (input: Array<{ variant_id: string; location_id: string; quantity: number }>, ctx) => {
    const adjustments = await ctx.modules.inventory.receiveVariants(input);
    await emitLevels(ctx, adjustments);
    return { output: adjustments, compensateInput: adjustments };
  },
  compensate: async (adjustments: StockAdjustment[], ctx) => {
    await ctx.modules.inventory.adjustStock(negate(adjustments), { allowBelowReserved: true });
  },
});

const negate = (adjustments: StockAdjustment[]) => adjustments.map((a) => ({ ...a, adjustment: -a.adjustment }));

/**
 * Carries variant writes over to inventory: an inventory item for each new variant that manages
 * inventory, linked to it, and removed variants detached (their links, and items no other variant
 * uses). Compensation deletes the new items (new and unreserved, so nothing refuses it) and puts
 * back what was detached, as it was.
 */
export const updateVariantInventoryStep = step("update-variant-inventory", {
  invoke: async (
    input: { create: Array<{ variant_id: string; sku: string | null; title: string }>; remove: string[] },
    ctx,
  ) => {
    const created = await ctx.modules.inventory.createItemsForVariants(input.create);
    const detached = await ctx.modules.inventory.detachVariants(input.remove);
    return { output: created, compensateInput: { created, detached } };
  },
  compensate: async (
    undo: { created: Array<{ variant_id: string; inventory_item_id: string }>; detached: DetachedVariants },
    ctx,
  ) => {
    await ctx.modules.inventory.unlinkVariants(undo.created.map((l) => l.variant_id));
    for (const { inventory_item_id } of undo.created) await ctx.modules.inventory.delete(inventory_item_id);
    await ctx.modules.inventory.reattachVariants(undo.detached);
  },
});
