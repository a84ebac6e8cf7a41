import { step } from "@kasse/workflows";
import { createInventoryService, type ConsumedReservation, type Reservation, type ReserveForLinesInput, type StockAdjustment } from "./service";

/** A reservation as steps journal it (JSON: no dates). */
export interface ReservedItem {
  id: string;
  inventory_item_id: string;
  location_id: string;
  quantity: number;
  line_item_id: string | null;
}
const reserved = (rows: Reservation[]): ReservedItem[] =>
  rows.map((r) => ({ id: r.id, inventory_item_id: r.inventory_item_id, location_id: r.location_id, quantity: r.quantity, line_item_id: r.line_item_id }));

// Each step builds the service over its own transaction, so its writes commit with its journal row.

/**
 * Reserves order lines at the locations given (see `reserveForLines`). Compensation releases
 * exactly the reservations this step made, by id.
 */
export const reserveLineItemsStep = step("reserve-line-items", {
  invoke: async (input: ReserveForLinesInput, ctx) => {
    const reservations = reserved(await createInventoryService(ctx.tx).reserveForLines(input, ctx.tx));
    return { output: reservations, compensateInput: reservations.map((r) => r.id) };
  },
  compensate: async (ids: string[], ctx) => {
    await createInventoryService(ctx.tx).releaseReservations(ids, ctx.tx);
  },
});

/** Releases every reservation of the line items (order canceled); compensation brings back exactly those released. */
export const releaseLineItemReservationsStep = step("release-reservations", {
  invoke: async (input: { line_item_ids: string[] }, ctx) => {
    const released = reserved(await createInventoryService(ctx.tx).releaseLineItems(input.line_item_ids, ctx.tx));
    return { output: released, compensateInput: released.map((r) => r.id) };
  },
  compensate: async (ids: string[], ctx) => {
    await createInventoryService(ctx.tx).restoreReservations(ids, ctx.tx);
  },
});

/** Fulfillment: consumes the lines' reservations and takes the units out of stock; compensation restores both. */
export const consumeLineItemsStep = step("consume-line-item-reservations", {
  invoke: async (input: Array<{ line_item_id: string; variant_id: string; quantity: number }>, ctx) => {
    const consumed = await createInventoryService(ctx.tx).consumeLineItems(input, ctx.tx);
    return { output: consumed, compensateInput: consumed };
  },
  compensate: async (consumed: ConsumedReservation[], ctx) => {
    await createInventoryService(ctx.tx).restoreConsumed(consumed, ctx.tx);
  },
});

/** A return received: adds the variants' items to stock at a location; compensation takes them back out. */
export const receiveVariantsStep = step("receive-variant-stock", {
  invoke: async (input: Array<{ variant_id: string; location_id: string; quantity: number }>, ctx) => {
    const adjustments = await createInventoryService(ctx.tx).receiveVariants(input, ctx.tx);
    return { output: adjustments, compensateInput: adjustments };
  },
  compensate: async (adjustments: StockAdjustment[], ctx) => {
    await createInventoryService(ctx.tx).adjustStock(negate(adjustments), ctx.tx, { allowBelowReserved: true });
  },
});

const negate = (adjustments: StockAdjustment[]) => adjustments.map((a) => ({ ...a, adjustment: -a.adjustment }));
