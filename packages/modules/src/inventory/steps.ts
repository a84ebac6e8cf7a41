import { definitions, type StepContext } from "@kasse/workflows";
import type {
  InventoryService,
  ConsumedReservation,
  DetachedVariants,
  Reservation,
  ReserveForLinesInput,
  StockAdjustment,
} from "./service";

/** The module services this module's steps read as `ctx.modules` (the process's container has them all). */
type StepModules = { inventory: InventoryService };

const { step } = definitions<StepModules>();

/** A reservation as steps journal it (JSON: no dates). */
export type ReservedItem = Pick<Reservation, "id" | "inventory_item_id" | "location_id" | "quantity" | "line_item_id">;
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
  ctx: StepContext<StepModules>,
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

/** An order line whose quantity an edit changes: by how many units (`delta`), and the ids its reservations carry. */
export interface LineQuantityChange {
  /** The id a new reservation is made under: the one fulfilment reads (the cart line's, else the order line's). */
  line_item_id: string;
  /** Every id the line's reservations may carry: the order line's and the cart line's it came from. */
  reservation_line_ids: string[];
  variant_id: string;
  delta: number;
}

/**
 * An order edit's stock: reserves only the units added (at the location the line's reservation is
 * at, else the first of `location_ids` with stock) and releases only the units taken off (a
 * reservation shrinks: released, and its remainder reserved again at its location). A line whose
 * quantity does not move is not touched. Compensation releases what it reserved and restores
 * what it released.
 */
export const adjustLineReservationsStep = step("adjust-line-reservations", {
  invoke: async (input: { lines: LineQuantityChange[]; location_ids: string[] }, ctx) => {
    const inventory = ctx.modules.inventory;
    const moving = input.lines.filter((l) => l.delta !== 0);
    const made: string[] = [];
    const released: string[] = [];
    if (moving.length === 0) return { output: { reserved: made, released }, compensateInput: { made, released } };
    const ids = moving.flatMap((l) => l.reservation_line_ids);
    const [{ items: existing }, links] = await Promise.all([
      inventory.listReservations({ line_item_id: ids }, { limit: Math.max(100, ids.length * 10), offset: 0 }),
      inventory.listVariantInventoryItems([...new Set(moving.map((l) => l.variant_id))]),
    ]);
    for (const line of moving) {
      const own = existing.filter((r) => r.line_item_id !== null && line.reservation_line_ids.includes(r.line_item_id));
      if (line.delta > 0) {
        const location_ids = [...new Set([...own.map((r) => r.location_id), ...input.location_ids])];
        const rows = await inventory.reserveForLines({
          lines: [{ line_item_id: line.line_item_id, variant_id: line.variant_id, quantity: line.delta }],
          location_ids,
        });
        made.push(...rows.map((r) => r.id));
        continue;
      }
      for (const link of links.get(line.variant_id) ?? []) {
        let units = -line.delta * link.required_quantity;
        for (const r of own.filter((o) => o.inventory_item_id === link.inventory_item_id)) {
          if (units <= 0) break;
          const take = Math.min(units, r.quantity);
          units -= take;
          await inventory.releaseReservations([r.id]);
          released.push(r.id);
          if (r.quantity > take) {
            const [rest] = await inventory.reserve([
              {
                inventory_item_id: r.inventory_item_id,
                location_id: r.location_id,
                quantity: r.quantity - take,
                line_item_id: r.line_item_id,
                description: r.description,
              },
            ]);
            made.push(rest!.id);
          }
        }
      }
    }
    return { output: { reserved: made, released }, compensateInput: { made, released } };
  },
  compensate: async (undo: { made: string[]; released: string[] }, ctx) => {
    await ctx.modules.inventory.releaseReservations(undo.made);
    await ctx.modules.inventory.restoreReservations(undo.released);
  },
});
