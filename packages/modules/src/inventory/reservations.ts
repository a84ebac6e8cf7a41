import { errors, generateId, isKasseError } from "@kasse/core";
import { inTransaction, transaction, type ListPaging } from "@kasse/db";
import { assertItem, levelMethods } from "./levels";
import { inventoryQueries as q } from "./queries";
import { key, level, perLevel, reservation } from "./rows";
import type { ReservationFilters, ReservationUpdate } from "./shapes";
import type {
  ConsumedReservation,
  InventoryLevel,
  Reservation,
  ReserveForLinesInput,
  ReserveInput,
  StockAdjustment,
} from "./types";
import { variantLinkMethods } from "./variant-links";

/**
 * Reservations and stock movements: reserve (guarded, per level in a fixed order), release,
 * consume on fulfillment, receive on return, adjust; each with its exact undo.
 */
export const reservationMethods = {
  /**
   * Reserves every input in one transaction. Quantities are summed per (item, location) first,
   * so two lines of one item never both pass against the same stock; each sum is taken with
   * one guarded `UPDATE` (no read-then-write), in sorted order so concurrent callers cannot
   * deadlock. Throws `invalid_data` "Insufficient inventory …" and writes nothing when one fails.
   */
  async reserve(inputs: ReserveInput[]): Promise<Reservation[]> {
    if (inputs.length === 0) return [];
    for (const i of inputs)
      if (!Number.isSafeInteger(i.quantity) || i.quantity < 1)
        throw errors.invalidData(`Reservation quantity must be a positive integer, got ${i.quantity}`);
    const levels = perLevel(inputs);
    const write = async () => {
      for (const g of levels) await addReserved(g.item, g.location, g.quantity, g.backorder);
      const rows = await q.insertReservations(
        inputs.map((i) => ({
          id: generateId("resitem"),
          inventory_item_id: i.inventory_item_id,
          location_id: i.location_id,
          quantity: i.quantity,
          line_item_id: i.line_item_id ?? null,
          description: i.description ?? null,
          created_by: i.created_by ?? null,
          allow_backorder: i.allow_backorder ?? false,
          metadata: i.metadata ?? null,
        })),
      );
      return rows.map(reservation);
    };
    // A refused level must leave nothing written: a savepoint undoes the levels updated before
    // it. With one level there is none before it, and in a transaction already (a checkout's
    // step) the savepoint, a statement and a round trip, is left out.
    if (levels.length === 1 && inTransaction()) return write();
    return transaction(write, { savepoint: true });
  },

  /**
   * Reserves the inventory items of order lines at the given locations (a sales channel's,
   * in preference order). `single_location_first` (default) serves the whole order from the
   * first location that can, else each item from the first location that can; `per_item`
   * goes straight to the second. Needs are summed per item over all lines (times each
   * variant's `required_quantity`); the reservation itself is {@link reserve}'s guarded update.
   * Lines whose variant has no inventory item are not reserved.
   */
  async reserveForLines(input: ReserveForLinesInput): Promise<Reservation[]> {
    const links = await variantLinkMethods.listVariantInventoryItems([
      ...new Set(input.lines.map((l) => l.variant_id)),
    ]);
    const entries = input.lines.flatMap((line) =>
      (links.get(line.variant_id) ?? []).map((link) => ({
        line,
        item: link.inventory_item_id,
        quantity: line.quantity * link.required_quantity,
      })),
    );
    if (entries.length === 0) return [];
    if (input.location_ids.length === 0)
      throw errors.invalidData("Insufficient inventory: no stock location serves this sales channel");
    const needs = new Map<string, { quantity: number; backorder: boolean }>();
    for (const e of entries) {
      const need = needs.get(e.item) ?? { quantity: 0, backorder: true };
      need.quantity += e.quantity;
      need.backorder &&= e.line.allow_backorder === true;
      needs.set(e.item, need);
    }
    // The plan reads availability; the guarded update decides. When another order took the
    // stock between the two, plan again on fresh numbers (the failed attempt wrote nothing).
    for (let attempt = 1; ; attempt++) {
      const levels = new Map(
        (await levelMethods.levelsAt([...needs.keys()], input.location_ids)).map((l) => [
          key(l.inventory_item_id, l.location_id),
          l,
        ]),
      );
      const fits = (item: string, location: string, backorder: boolean) => {
        const lv = levels.get(key(item, location));
        return lv !== undefined && (backorder || lv.available_quantity >= needs.get(item)!.quantity);
      };
      const chosen = new Map<string, string>();
      const whole =
        input.strategy === "per_item"
          ? undefined
          : input.location_ids.find((loc) => [...needs.keys()].every((item) => fits(item, loc, false)));
      for (const [item, need] of needs) {
        const location =
          whole ??
          input.location_ids.find((loc) => fits(item, loc, false)) ??
          (need.backorder ? input.location_ids.find((loc) => fits(item, loc, true)) : undefined);
        if (!location)
          throw errors.invalidData(
            `Insufficient inventory: no stock location of the sales channel has ${need.quantity} of item ${item} available`,
          );
        chosen.set(item, location);
      }
      try {
        return await reservationMethods.reserve(
          entries.map((e) => ({
            inventory_item_id: e.item,
            location_id: chosen.get(e.item)!,
            quantity: e.quantity,
            line_item_id: e.line.line_item_id,
            allow_backorder: e.line.allow_backorder === true,
          })),
        );
      } catch (error) {
        if (attempt >= PLAN_ATTEMPTS || !(isKasseError(error) && error.type === "invalid_data")) throw error;
      }
    }
  },

  /** Brings released reservations back (undoes {@link releaseReservations}), re-checked against stock. */
  async restoreReservations(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await transaction(async () => {
      const rows = await q.unreleaseReservations({ ids: [...new Set(ids)], now: new Date() });
      for (const g of perLevel(rows)) await addReserved(g.item, g.location, g.quantity, g.backorder);
    });
  },

  async retrieveReservation(id: string): Promise<Reservation> {
    const row = await q.reservation({ id });
    if (!row) throw errors.notFound(`Reservation with id: ${id} was not found`);
    return reservation(row);
  },

  async listReservations(
    filters: ReservationFilters,
    page: ListPaging,
  ): Promise<{ items: Reservation[]; count: number }> {
    const { items: rows, count } = await q.listReservations(filters, page);
    return { items: rows.map(reservation), count };
  },

  /** Changes quantity, location or details; a larger quantity or a new location is re-checked against stock. */
  async updateReservation(id: string, input: ReservationUpdate): Promise<Reservation> {
    return transaction(async () => {
      const current = await q.lockReservation({ id });
      if (!current) throw errors.notFound(`Reservation with id: ${id} was not found`);
      const location = input.location_id ?? current.location_id;
      const quantity = input.quantity ?? current.quantity;
      const item = current.inventory_item_id;
      const now = new Date();
      if (location !== current.location_id) {
        // Lock both levels in a fixed order (no deadlock between movers), then move the quantity.
        for (const at of [location, current.location_id].sort()) await q.lockLevel({ item, location: at });
        await addReserved(item, location, quantity, current.allow_backorder);
        await q.removeReserved({ item, location: current.location_id, quantity: current.quantity, now });
      } else if (quantity > current.quantity) {
        await addReserved(item, location, quantity - current.quantity, current.allow_backorder);
      } else if (quantity < current.quantity) {
        await q.removeReserved({ item, location, quantity: current.quantity - quantity, now });
      }
      const row = await q.updateReservation({
        id,
        location_id: location,
        quantity,
        description: input.description,
        metadata: input.metadata,
        now,
      });
      return reservation(row!);
    });
  },

  /**
   * Deletes reservations and gives their quantities back to the levels, in one transaction.
   * Already released ids are skipped, so releasing twice releases once. Returns what it released.
   */
  async releaseReservations(ids: string[]): Promise<Reservation[]> {
    if (ids.length === 0) return [];
    return transaction(async () => {
      const now = new Date();
      const rows = await q.releaseReservations({ ids: [...new Set(ids)], now });
      for (const { item, location, quantity } of perLevel(rows))
        await q.removeReserved({ item, location, quantity, now });
      return rows.map(reservation);
    });
  },

  /** Releases every live reservation of the given line items (order cancel, cart abandon). */
  async releaseLineItems(lineItemIds: string[]): Promise<Reservation[]> {
    if (lineItemIds.length === 0) return [];
    const rows = await q.reservationIdsOfLines({ ids: lineItemIds });
    return reservationMethods.releaseReservations(rows.map((r) => r.id));
  },

  /**
   * Fulfillment: takes `quantity` (default: all) of each reservation out of stock: the
   * reservation shrinks (or goes when used up) and the level's stocked and reserved both drop.
   */
  async consumeReservations(
    inputs: Array<{ reservation_id: string; quantity?: number }>,
  ): Promise<ConsumedReservation[]> {
    if (inputs.length === 0) return [];
    return transaction(async () => {
      const ids = [...new Set(inputs.map((i) => i.reservation_id))].sort();
      if (ids.length !== inputs.length) throw errors.invalidData("Each reservation may be consumed once per call");
      const rows = await q.lockReservations({ ids });
      const byId = new Map(rows.map((r) => [r.id, r]));
      const consumed: ConsumedReservation[] = [];
      for (const input of inputs) {
        if (input.quantity !== undefined && !Number.isSafeInteger(input.quantity))
          throw errors.invalidData(`Consumed quantity must be an integer, got ${input.quantity}`);
        const row = byId.get(input.reservation_id);
        if (!row) throw errors.notFound(`Reservation with id: ${input.reservation_id} was not found`);
        const quantity = input.quantity ?? row.quantity;
        if (quantity < 1 || quantity > row.quantity)
          throw errors.invalidData(`Cannot consume ${quantity} of reservation ${row.id}, which holds ${row.quantity}`);
        consumed.push({
          reservation_id: row.id,
          inventory_item_id: row.inventory_item_id,
          location_id: row.location_id,
          quantity,
          deleted: quantity === row.quantity,
        });
      }
      const now = new Date();
      for (const c of consumed) {
        if (c.deleted) await q.deleteReservation({ id: c.reservation_id, now });
        else await q.addToReservation({ id: c.reservation_id, quantity: -c.quantity, now });
      }
      for (const g of perLevel(consumed)) {
        if (!(await q.takeFromLevel({ item: g.item, location: g.location, quantity: g.quantity, now })))
          throw errors.invalidData(
            `Insufficient inventory: item ${g.item} at location ${g.location} has less than ${g.quantity} in stock to fulfill`,
          );
      }
      return consumed;
    });
  },

  /**
   * Fulfillment of order lines: consumes, for each line, `quantity` × `required_quantity` of each
   * of its variant's items from the line's reservations (oldest first). A line whose variant
   * has no inventory item consumes nothing; a line reserved short is `invalid_data`.
   */
  async consumeLineItems(
    lines: Array<{ line_item_id: string; variant_id: string; quantity: number }>,
  ): Promise<ConsumedReservation[]> {
    if (lines.length === 0) return [];
    for (const l of lines)
      if (!Number.isSafeInteger(l.quantity) || l.quantity < 1)
        throw errors.invalidData(`Fulfilled quantity must be a positive integer, got ${l.quantity}`);
    return transaction(async () => {
      const links = await variantLinkMethods.listVariantInventoryItems([...new Set(lines.map((l) => l.variant_id))]);
      const rows = await q.lockReservationsOfLines({ ids: [...new Set(lines.map((l) => l.line_item_id))] });
      const left = new Map(rows.map((r) => [r.id, r.quantity]));
      const take = new Map<string, number>();
      for (const line of lines) {
        for (const link of links.get(line.variant_id) ?? []) {
          let units = line.quantity * link.required_quantity;
          for (const r of rows) {
            if (units === 0) break;
            if (r.line_item_id !== line.line_item_id || r.inventory_item_id !== link.inventory_item_id) continue;
            const n = Math.min(units, left.get(r.id)!);
            if (n === 0) continue;
            left.set(r.id, left.get(r.id)! - n);
            take.set(r.id, (take.get(r.id) ?? 0) + n);
            units -= n;
          }
          if (units > 0)
            throw errors.invalidData(
              `Line item ${line.line_item_id} has ${units} units of item ${link.inventory_item_id} fewer reserved than it fulfills`,
            );
        }
      }
      return reservationMethods.consumeReservations(
        [...take].map(([reservation_id, quantity]) => ({ reservation_id, quantity })),
      );
    });
  },

  /** A return received: adds `quantity` × `required_quantity` of each variant's items to stock at the location. */
  async receiveVariants(
    lines: Array<{ variant_id: string; location_id: string; quantity: number }>,
  ): Promise<StockAdjustment[]> {
    const links = await variantLinkMethods.listVariantInventoryItems([...new Set(lines.map((l) => l.variant_id))]);
    const adjustments = lines.flatMap((line) =>
      (links.get(line.variant_id) ?? []).map((link) => ({
        inventory_item_id: link.inventory_item_id,
        location_id: line.location_id,
        adjustment: line.quantity * link.required_quantity,
      })),
    );
    await reservationMethods.adjustStock(adjustments);
    return adjustments;
  },

  /** Undoes {@link consumeReservations} exactly: stock and reservations come back. */
  async restoreConsumed(consumed: ConsumedReservation[]): Promise<void> {
    if (consumed.length === 0) return;
    await transaction(async () => {
      const now = new Date();
      for (const { item, location, quantity } of perLevel(consumed))
        await q.putBackInLevel({ item, location, quantity, now });
      for (const c of consumed) {
        if (c.deleted) await q.undeleteReservation({ id: c.reservation_id, now });
        else await q.addToReservation({ id: c.reservation_id, quantity: c.quantity, now });
      }
    });
  },

  /**
   * Changes stocked quantities (a return received: positive). A decrease may not take stock
   * below zero, nor below what is reserved unless `allowBelowReserved` (used to undo a receipt).
   */
  async adjustStock(
    adjustments: StockAdjustment[],
    options: { allowBelowReserved?: boolean } = {},
  ): Promise<InventoryLevel[]> {
    if (adjustments.length === 0) return [];
    for (const a of adjustments)
      if (!Number.isSafeInteger(a.adjustment))
        throw errors.invalidData(`Stock adjustment must be an integer, got ${a.adjustment}`);
    return transaction(async () => {
      const out: InventoryLevel[] = [];
      const now = new Date();
      for (const g of perLevel(adjustments.map((a) => ({ ...a, quantity: a.adjustment })))) {
        const adjust =
          g.quantity < 0 && !options.allowBelowReserved ? q.adjustStockedAboveReserved : q.adjustStockedAboveZero;
        const row = await adjust({ item: g.item, location: g.location, quantity: g.quantity, now });
        if (!row) {
          await levelMethods.retrieveLevel(g.item, g.location);
          throw errors.invalidData(
            `Insufficient inventory: cannot remove ${-g.quantity} of item ${g.item} at location ${g.location}`,
          );
        }
        out.push(level(row));
      }
      return out;
    });
  },
};

/** How many times `reserveForLines` plans again when the stock it chose was taken meanwhile. */
const PLAN_ATTEMPTS = 3;

/** The one guarded write that reserves (a backorder: unguarded): refuses (writes nothing) when the stock is not there. */
async function addReserved(item: string, location: string, quantity: number, backorder: boolean): Promise<void> {
  const add = backorder ? q.addReservedAnyway : q.addReservedIfAvailable;
  if (await add({ item, location, quantity, now: new Date() })) return;
  await assertItem(item);
  if (!(await q.levelAt({ item, location })))
    throw errors.invalidData(`Item ${item} is not stocked at location ${location}`);
  throw errors.invalidData(
    `Insufficient inventory: item ${item} at location ${location} has fewer than ${quantity} available`,
  );
}
