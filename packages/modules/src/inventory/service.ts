import { and, asc, count, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { errors, generateId, isKasseError, isUniqueViolation, orderBy, queryRows, transaction, type Db, type Paging } from "@kasse/db";
import {
  inventoryItem,
  inventoryItemVariant,
  inventorySearchText,
  inventoryLevel,
  reservationItem,
  type InventoryItemCreate,
  type InventoryItemFilters,
  type InventoryItemRow,
  type InventoryItemUpdate,
  type InventoryLevelBatch,
  type InventoryLevelCreate,
  type InventoryLevelRow,
  type InventoryLevelUpdate,
  type ReservationCreate,
  type ReservationFilters,
  type ReservationRow,
  type ReservationUpdate,
} from "./schema";

/** A location level as the API shows it. */
export type InventoryLevel = Omit<InventoryLevelRow, "deleted_at">;
/** An inventory item with its levels and its totals over them. */
export type InventoryItem = Omit<InventoryItemRow, "deleted_at"> & { location_levels: InventoryLevel[]; stocked_quantity: number; reserved_quantity: number };
/** A reservation as the API shows it. */
export type Reservation = Omit<ReservationRow, "deleted_at" | "allow_backorder">;

/** One reservation to make: `allow_backorder` is the variant's flag, passed in by the caller. */
export type ReserveInput = ReservationCreate & { allow_backorder?: boolean; created_by?: string | null };
/** What consuming a reservation took, so that it can be restored exactly. */
export interface ConsumedReservation {
  reservation_id: string;
  inventory_item_id: string;
  location_id: string;
  quantity: number;
  /** The reservation was used up and deleted. */
  deleted: boolean;
}
/** Order lines to reserve, and where: the locations of the order's sales channel, in preference order. */
export interface ReserveForLinesInput {
  lines: Array<{ line_item_id: string; variant_id: string; quantity: number; allow_backorder?: boolean }>;
  location_ids: string[];
  strategy?: "single_location_first" | "per_item";
}
/** A change of stocked quantity at a location (positive: received, negative: removed). */
export interface StockAdjustment {
  inventory_item_id: string;
  location_id: string;
  adjustment: number;
}

/** How many times `reserveForLines` plans again when the stock it chose was taken meanwhile. */
const PLAN_ATTEMPTS = 3;
const liveItem = isNull(inventoryItem.deleted_at);
const liveLevel = isNull(inventoryLevel.deleted_at);
const liveReservation = isNull(reservationItem.deleted_at);
const key = (itemId: string, locationId: string) => `${itemId}\u0000${locationId}`;

/**
 * Inventory: items, their stock per location, reservations, and the links to product variants.
 * Stock integrity: quantities are CHECKed non-negative, `available_quantity` is a generated
 * column, and every reservation goes through one guarded `UPDATE … WHERE available_quantity >= q`
 * per (item, location) in a fixed order, in the same transaction as the reservation rows.
 * @example
 * const inventory = createInventoryService(db);
 * const [reservation] = await inventory.reserve([{ inventory_item_id, location_id, quantity: 2 }]);
 */
export function createInventoryService(db: Db) {
  const service = {
    async create(input: InventoryItemCreate, tx: Db = db): Promise<InventoryItem> {
      return transaction(tx, async (t) => {
        const { location_levels, ...fields } = input;
        const id = generateId("iitem");
        await insertItems(t, [{ ...itemValues(fields), id }]);
        if (location_levels?.length) await service.createLevels(id, location_levels, t);
        return service.retrieve(id, t);
      });
    },

    async retrieve(id: string, tx: Db = db): Promise<InventoryItem> {
      const [row] = await tx.select().from(inventoryItem).where(and(eq(inventoryItem.id, id), liveItem));
      if (!row) throw errors.notFound(`Inventory item with id: ${id} was not found`);
      return (await withLevels(tx, [row]))[0]!;
    },

    async list(filters: InventoryItemFilters, page: Paging & { order?: string }, tx: Db = db): Promise<{ items: InventoryItem[]; count: number }> {
      const where = and(liveItem, ...itemConditions(filters));
      const [rows, [total]] = await Promise.all([
        tx
          .select()
          .from(inventoryItem)
          .where(where)
          .orderBy(
            ...orderBy(page.order, { created_at: inventoryItem.created_at, updated_at: inventoryItem.updated_at, sku: inventoryItem.sku, title: inventoryItem.title }, inventoryItem.id),
          )
          .limit(page.limit)
          .offset(page.offset),
        tx.select({ count: count() }).from(inventoryItem).where(where),
      ]);
      return { items: await withLevels(tx, rows), count: total?.count ?? 0 };
    },

    async update(id: string, input: InventoryItemUpdate, tx: Db = db): Promise<InventoryItem> {
      const changes = itemValues(input);
      if (Object.keys(changes).length) {
        try {
          const [row] = await tx.update(inventoryItem).set(changes).where(and(eq(inventoryItem.id, id), liveItem)).returning({ id: inventoryItem.id });
          if (!row) throw errors.notFound(`Inventory item with id: ${id} was not found`);
        } catch (error) {
          throw skuConflict(error, input.sku);
        }
      }
      return service.retrieve(id, tx);
    },

    /** Soft delete with its levels and variant links; refused while the item holds reservations. */
    async delete(id: string, tx: Db = db): Promise<void> {
      await transaction(tx, async (t) => {
        const [row] = await t.select({ id: inventoryItem.id }).from(inventoryItem).where(and(eq(inventoryItem.id, id), liveItem)).for("update");
        if (!row) throw errors.notFound(`Inventory item with id: ${id} was not found`);
        // Reserving updates the level row before inserting the reservation: holding the level
        // locks makes the check below see every reservation committed before or after us.
        await t.select({ id: inventoryLevel.id }).from(inventoryLevel).where(and(eq(inventoryLevel.inventory_item_id, id), liveLevel)).orderBy(inventoryLevel.id).for("update");
        const [held] = await t.select({ id: reservationItem.id }).from(reservationItem).where(and(eq(reservationItem.inventory_item_id, id), liveReservation)).limit(1);
        if (held) throw errors.invalidData(`Cannot delete inventory item ${id}: it has reservations`);
        const now = new Date();
        await t.update(inventoryLevel).set({ deleted_at: now }).where(and(eq(inventoryLevel.inventory_item_id, id), liveLevel));
        await t.delete(inventoryItemVariant).where(eq(inventoryItemVariant.inventory_item_id, id));
        await t.update(inventoryItem).set({ deleted_at: now }).where(eq(inventoryItem.id, id));
      });
    },

    /** The ids among `ids` that are live items. */
    async existing(ids: string[], tx: Db = db): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await tx.select({ id: inventoryItem.id }).from(inventoryItem).where(and(inArray(inventoryItem.id, ids), liveItem));
      return new Set(rows.map((r) => r.id));
    },

    // ---- location levels -------------------------------------------------------------

    /** Creates levels of an item (location ids already checked by the caller); one per location. */
    async createLevels(itemId: string, inputs: InventoryLevelCreate[], tx: Db = db): Promise<InventoryLevel[]> {
      await service.retrieve(itemId, tx);
      const locations = inputs.map((i) => i.location_id);
      if (new Set(locations).size !== locations.length) throw errors.invalidData("A location may have only one level per inventory item");
      try {
        const rows = await tx
          .insert(inventoryLevel)
          .values(
            inputs.map((i) => ({
              id: generateId("ilev"),
              inventory_item_id: itemId,
              location_id: i.location_id,
              stocked_quantity: i.stocked_quantity ?? 0,
              incoming_quantity: i.incoming_quantity ?? 0,
              metadata: i.metadata ?? null,
            })),
          )
          .returning();
        return rows.map(level);
      } catch (error) {
        if (isUniqueViolation(error)) throw errors.conflict(`Inventory item ${itemId} already has a level at one of the locations ${locations.join(", ")}`);
        throw error;
      }
    },

    async retrieveLevel(itemId: string, locationId: string, tx: Db = db): Promise<InventoryLevel> {
      const [row] = await tx
        .select()
        .from(inventoryLevel)
        .where(and(eq(inventoryLevel.inventory_item_id, itemId), eq(inventoryLevel.location_id, locationId), liveLevel));
      if (!row) throw errors.notFound(`Inventory level for item ${itemId} at location ${locationId} was not found`);
      return level(row);
    },

    /** The levels of one item, paged. */
    async listLevels(itemId: string, filters: { location_id?: string[] }, page: Paging, tx: Db = db): Promise<{ items: InventoryLevel[]; count: number }> {
      await service.retrieve(itemId, tx);
      const where = and(eq(inventoryLevel.inventory_item_id, itemId), liveLevel, ...(filters.location_id?.length ? [inArray(inventoryLevel.location_id, filters.location_id)] : []));
      const [rows, [total]] = await Promise.all([
        tx.select().from(inventoryLevel).where(where).orderBy(asc(inventoryLevel.created_at), asc(inventoryLevel.id)).limit(page.limit).offset(page.offset),
        tx.select({ count: count() }).from(inventoryLevel).where(where),
      ]);
      return { items: rows.map(level), count: total?.count ?? 0 };
    },

    /**
     * Sets stocked/incoming quantities. Lowering stock below what is reserved is refused (it
     * would oversell); raising it is always allowed, even while backorders keep it below.
     */
    async updateLevel(itemId: string, locationId: string, input: InventoryLevelUpdate, tx: Db = db): Promise<InventoryLevel> {
      const changes: Partial<InventoryLevelRow> = {};
      if (input.incoming_quantity !== undefined) changes.incoming_quantity = input.incoming_quantity;
      if (input.metadata !== undefined) changes.metadata = input.metadata;
      const at = and(eq(inventoryLevel.inventory_item_id, itemId), eq(inventoryLevel.location_id, locationId), liveLevel);
      const guard: SQL[] = [];
      if (input.stocked_quantity !== undefined) {
        changes.stocked_quantity = input.stocked_quantity;
        guard.push(or(sql`${input.stocked_quantity} >= ${inventoryLevel.reserved_quantity}`, sql`${input.stocked_quantity} >= ${inventoryLevel.stocked_quantity}`)!);
      }
      if (Object.keys(changes).length === 0) return service.retrieveLevel(itemId, locationId, tx);
      const [row] = await tx.update(inventoryLevel).set(changes).where(and(at, ...guard)).returning();
      if (row) return level(row);
      const current = await service.retrieveLevel(itemId, locationId, tx);
      throw errors.invalidData(
        `Stocked quantity ${input.stocked_quantity} of item ${itemId} at location ${locationId} cannot be lower than its reserved quantity ${current.reserved_quantity}`,
      );
    },

    /** Deletes a level; refused while it holds reservations (the guard is in the UPDATE). */
    async deleteLevel(itemId: string, locationId: string, tx: Db = db): Promise<InventoryLevel> {
      const [row] = await tx
        .update(inventoryLevel)
        .set({ deleted_at: new Date() })
        .where(and(eq(inventoryLevel.inventory_item_id, itemId), eq(inventoryLevel.location_id, locationId), liveLevel, eq(inventoryLevel.reserved_quantity, 0)))
        .returning();
      if (row) return level(row);
      const current = await service.retrieveLevel(itemId, locationId, tx);
      throw errors.invalidData(`Cannot delete the level of item ${itemId} at location ${locationId}: ${current.reserved_quantity} units are reserved`);
    },

    /**
     * Creates, updates and deletes levels of one item in one transaction (all or nothing), with
     * the same rules as the single operations. `delete` names locations or level ids.
     */
    async batchLevels(itemId: string, input: InventoryLevelBatch, tx: Db = db): Promise<{ created: InventoryLevel[]; updated: InventoryLevel[]; deleted: string[] }> {
      return transaction(tx, async (t) => {
        await service.retrieve(itemId, t);
        const deleted: string[] = [];
        if (input.delete?.length) {
          const rows = await t
            .select({ id: inventoryLevel.id, location_id: inventoryLevel.location_id })
            .from(inventoryLevel)
            .where(and(eq(inventoryLevel.inventory_item_id, itemId), liveLevel, or(inArray(inventoryLevel.id, input.delete), inArray(inventoryLevel.location_id, input.delete))));
          const unknown = input.delete.filter((ref) => !rows.some((r) => r.id === ref || r.location_id === ref));
          if (unknown.length) throw errors.notFound(`Inventory item ${itemId} has no level for: ${unknown.join(", ")}`);
          for (const row of rows) deleted.push((await service.deleteLevel(itemId, row.location_id, t)).id);
        }
        const created = input.create?.length ? await service.createLevels(itemId, input.create, t) : [];
        const updated: InventoryLevel[] = [];
        for (const { location_id, ...changes } of input.update ?? []) updated.push(await service.updateLevel(itemId, location_id, changes, t));
        return { created, updated, deleted };
      });
    },

    /** Live levels of the given items at the given locations (one query), for location picking. */
    async levelsAt(itemIds: string[], locationIds: string[], tx: Db = db): Promise<InventoryLevel[]> {
      if (itemIds.length === 0 || locationIds.length === 0) return [];
      const rows = await tx
        .select()
        .from(inventoryLevel)
        .where(and(inArray(inventoryLevel.inventory_item_id, itemIds), inArray(inventoryLevel.location_id, locationIds), liveLevel));
      return rows.map(level);
    },

    // ---- reservations ----------------------------------------------------------------

    /**
     * Reserves every input in one transaction. Quantities are summed per (item, location) first,
     * so two lines of one item never both pass against the same stock; each sum is taken with
     * one guarded `UPDATE` (no read-then-write), in sorted order so concurrent callers cannot
     * deadlock. Throws `invalid_data` "Insufficient inventory …" and writes nothing when one fails.
     */
    async reserve(inputs: ReserveInput[], tx: Db = db): Promise<Reservation[]> {
      if (inputs.length === 0) return [];
      for (const i of inputs) if (!Number.isSafeInteger(i.quantity) || i.quantity < 1) throw errors.invalidData(`Reservation quantity must be a positive integer, got ${i.quantity}`);
      return transaction(tx, async (t) => {
        const groups = new Map<string, { item: string; location: string; quantity: number; backorder: boolean }>();
        for (const input of inputs) {
          const k = key(input.inventory_item_id, input.location_id);
          const group = groups.get(k) ?? { item: input.inventory_item_id, location: input.location_id, quantity: 0, backorder: true };
          group.quantity += input.quantity;
          group.backorder &&= input.allow_backorder === true;
          groups.set(k, group);
        }
        for (const k of [...groups.keys()].sort()) {
          const g = groups.get(k)!;
          await addReserved(t, g.item, g.location, g.quantity, g.backorder);
        }
        const rows = await t
          .insert(reservationItem)
          .values(
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
          )
          .returning();
        return rows.map(reservation);
      });
    },

    /**
     * Reserves the inventory items of order lines at the given locations (a sales channel's,
     * in preference order). `single_location_first` (default) serves the whole order from the
     * first location that can, else each item from the first location that can; `per_item`
     * goes straight to the second. Needs are summed per item over all lines (times each
     * variant's `required_quantity`); the reservation itself is {@link reserve}'s guarded update.
     * Lines whose variant has no inventory item are not reserved.
     */
    async reserveForLines(input: ReserveForLinesInput, tx: Db = db): Promise<Reservation[]> {
      const links = await service.listVariantInventoryItems([...new Set(input.lines.map((l) => l.variant_id))], tx);
      const entries = input.lines.flatMap((line) =>
        (links.get(line.variant_id) ?? []).map((link) => ({ line, item: link.inventory_item_id, quantity: line.quantity * link.required_quantity })),
      );
      if (entries.length === 0) return [];
      if (input.location_ids.length === 0) throw errors.invalidData("Insufficient inventory: no stock location serves this sales channel");
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
        const levels = new Map((await service.levelsAt([...needs.keys()], input.location_ids, tx)).map((l) => [key(l.inventory_item_id, l.location_id), l]));
        const fits = (item: string, location: string, backorder: boolean) => {
          const lv = levels.get(key(item, location));
          return lv !== undefined && (backorder || lv.available_quantity >= needs.get(item)!.quantity);
        };
        const chosen = new Map<string, string>();
        const whole = input.strategy === "per_item" ? undefined : input.location_ids.find((loc) => [...needs.keys()].every((item) => fits(item, loc, false)));
        for (const [item, need] of needs) {
          const location = whole ?? input.location_ids.find((loc) => fits(item, loc, false)) ?? (need.backorder ? input.location_ids.find((loc) => fits(item, loc, true)) : undefined);
          if (!location) throw errors.invalidData(`Insufficient inventory: no stock location of the sales channel has ${need.quantity} of item ${item} available`);
          chosen.set(item, location);
        }
        try {
          return await service.reserve(
            entries.map((e) => ({
              inventory_item_id: e.item,
              location_id: chosen.get(e.item)!,
              quantity: e.quantity,
              line_item_id: e.line.line_item_id,
              allow_backorder: e.line.allow_backorder === true,
            })),
            tx,
          );
        } catch (error) {
          if (attempt >= PLAN_ATTEMPTS || !(isKasseError(error) && error.type === "invalid_data")) throw error;
        }
      }
    },

    /** Brings released reservations back (undoes {@link releaseReservations}), re-checked against stock. */
    async restoreReservations(ids: string[], tx: Db = db): Promise<void> {
      if (ids.length === 0) return;
      await transaction(tx, async (t) => {
        const rows = await t
          .update(reservationItem)
          .set({ deleted_at: null })
          .where(and(inArray(reservationItem.id, [...new Set(ids)]), sql`${reservationItem.deleted_at} is not null`))
          .returning();
        const backorder = new Map<string, boolean>();
        for (const r of rows) backorder.set(key(r.inventory_item_id, r.location_id), (backorder.get(key(r.inventory_item_id, r.location_id)) ?? true) && r.allow_backorder);
        for (const g of groupByLevel(rows)) await addReserved(t, g.item, g.location, g.quantity, backorder.get(key(g.item, g.location))!);
      });
    },

    async retrieveReservation(id: string, tx: Db = db): Promise<Reservation> {
      const [row] = await tx.select().from(reservationItem).where(and(eq(reservationItem.id, id), liveReservation));
      if (!row) throw errors.notFound(`Reservation with id: ${id} was not found`);
      return reservation(row);
    },

    async listReservations(filters: ReservationFilters, page: Paging & { order?: string }, tx: Db = db): Promise<{ items: Reservation[]; count: number }> {
      const conditions: SQL[] = [liveReservation];
      if (filters.id?.length) conditions.push(inArray(reservationItem.id, filters.id));
      if (filters.inventory_item_id?.length) conditions.push(inArray(reservationItem.inventory_item_id, filters.inventory_item_id));
      if (filters.location_id?.length) conditions.push(inArray(reservationItem.location_id, filters.location_id));
      if (filters.line_item_id?.length) conditions.push(inArray(reservationItem.line_item_id, filters.line_item_id));
      const where = and(...conditions);
      const [rows, [total]] = await Promise.all([
        tx
          .select()
          .from(reservationItem)
          .where(where)
          .orderBy(
            ...orderBy(page.order, { created_at: reservationItem.created_at, updated_at: reservationItem.updated_at, quantity: reservationItem.quantity }, reservationItem.id),
          )
          .limit(page.limit)
          .offset(page.offset),
        tx.select({ count: count() }).from(reservationItem).where(where),
      ]);
      return { items: rows.map(reservation), count: total?.count ?? 0 };
    },

    /** Changes quantity, location or details; a larger quantity or a new location is re-checked against stock. */
    async updateReservation(id: string, input: ReservationUpdate, tx: Db = db): Promise<Reservation> {
      return transaction(tx, async (t) => {
        const [current] = await t.select().from(reservationItem).where(and(eq(reservationItem.id, id), liveReservation)).for("update");
        if (!current) throw errors.notFound(`Reservation with id: ${id} was not found`);
        const location = input.location_id ?? current.location_id;
        const quantity = input.quantity ?? current.quantity;
        const item = current.inventory_item_id;
        if (location !== current.location_id) {
          // Lock both levels in a fixed order, then move the quantity.
          await lockLevels(t, item, [location, current.location_id]);
          await addReserved(t, item, location, quantity, current.allow_backorder);
          await removeReserved(t, item, current.location_id, current.quantity);
        } else if (quantity > current.quantity) {
          await addReserved(t, item, location, quantity - current.quantity, current.allow_backorder);
        } else if (quantity < current.quantity) {
          await removeReserved(t, item, location, current.quantity - quantity);
        }
        const changes: Partial<ReservationRow> = { location_id: location, quantity };
        if (input.description !== undefined) changes.description = input.description;
        if (input.metadata !== undefined) changes.metadata = input.metadata;
        const [row] = await t.update(reservationItem).set(changes).where(eq(reservationItem.id, id)).returning();
        return reservation(row!);
      });
    },

    /**
     * Deletes reservations and gives their quantities back to the levels, in one transaction.
     * Already released ids are skipped, so releasing twice releases once. Returns what it released.
     */
    async releaseReservations(ids: string[], tx: Db = db): Promise<Reservation[]> {
      if (ids.length === 0) return [];
      return transaction(tx, async (t) => {
        const rows = await t
          .update(reservationItem)
          .set({ deleted_at: new Date() })
          .where(and(inArray(reservationItem.id, [...new Set(ids)]), liveReservation))
          .returning();
        const groups = new Map<string, { item: string; location: string; quantity: number }>();
        for (const r of rows) {
          const k = key(r.inventory_item_id, r.location_id);
          const g = groups.get(k) ?? { item: r.inventory_item_id, location: r.location_id, quantity: 0 };
          g.quantity += r.quantity;
          groups.set(k, g);
        }
        for (const k of [...groups.keys()].sort()) {
          const g = groups.get(k)!;
          await removeReserved(t, g.item, g.location, g.quantity);
        }
        return rows.map(reservation);
      });
    },

    /** Releases every live reservation of the given line items (order cancel, cart abandon). */
    async releaseLineItems(lineItemIds: string[], tx: Db = db): Promise<Reservation[]> {
      if (lineItemIds.length === 0) return [];
      const rows = await tx.select({ id: reservationItem.id }).from(reservationItem).where(and(inArray(reservationItem.line_item_id, lineItemIds), liveReservation));
      return service.releaseReservations(rows.map((r) => r.id), tx);
    },

    /**
     * Fulfillment: takes `quantity` (default: all) of each reservation out of stock: the
     * reservation shrinks (or goes when used up) and the level's stocked and reserved both drop.
     */
    async consumeReservations(inputs: Array<{ reservation_id: string; quantity?: number }>, tx: Db = db): Promise<ConsumedReservation[]> {
      if (inputs.length === 0) return [];
      return transaction(tx, async (t) => {
        const ids = [...new Set(inputs.map((i) => i.reservation_id))].sort();
        if (ids.length !== inputs.length) throw errors.invalidData("Each reservation may be consumed once per call");
        const rows = await t.select().from(reservationItem).where(and(inArray(reservationItem.id, ids), liveReservation)).orderBy(reservationItem.id).for("update");
        const byId = new Map(rows.map((r) => [r.id, r]));
        const consumed: ConsumedReservation[] = [];
        for (const input of inputs) {
          if (input.quantity !== undefined && !Number.isSafeInteger(input.quantity)) throw errors.invalidData(`Consumed quantity must be an integer, got ${input.quantity}`);
          const row = byId.get(input.reservation_id);
          if (!row) throw errors.notFound(`Reservation with id: ${input.reservation_id} was not found`);
          const quantity = input.quantity ?? row.quantity;
          if (quantity < 1 || quantity > row.quantity) throw errors.invalidData(`Cannot consume ${quantity} of reservation ${row.id}, which holds ${row.quantity}`);
          consumed.push({ reservation_id: row.id, inventory_item_id: row.inventory_item_id, location_id: row.location_id, quantity, deleted: quantity === row.quantity });
        }
        for (const c of consumed) {
          if (c.deleted) await t.update(reservationItem).set({ deleted_at: new Date() }).where(eq(reservationItem.id, c.reservation_id));
          else await t.update(reservationItem).set({ quantity: sql`${reservationItem.quantity} - ${c.quantity}` }).where(eq(reservationItem.id, c.reservation_id));
        }
        for (const g of groupByLevel(consumed)) {
          const [row] = await t
            .update(inventoryLevel)
            .set({ stocked_quantity: sql`${inventoryLevel.stocked_quantity} - ${g.quantity}`, reserved_quantity: sql`${inventoryLevel.reserved_quantity} - ${g.quantity}` })
            .where(and(levelAt(g.item, g.location), sql`${inventoryLevel.stocked_quantity} >= ${g.quantity}`, sql`${inventoryLevel.reserved_quantity} >= ${g.quantity}`))
            .returning({ id: inventoryLevel.id });
          if (!row) throw errors.invalidData(`Insufficient inventory: item ${g.item} at location ${g.location} has less than ${g.quantity} in stock to fulfill`);
        }
        return consumed;
      });
    },

    /**
     * Fulfillment of order lines: consumes, for each line, `quantity` × `required_quantity` of each
     * of its variant's items from the line's reservations (oldest first). A line whose variant
     * has no inventory item consumes nothing; a line reserved short is `invalid_data`.
     */
    async consumeLineItems(lines: Array<{ line_item_id: string; variant_id: string; quantity: number }>, tx: Db = db): Promise<ConsumedReservation[]> {
      if (lines.length === 0) return [];
      for (const l of lines) if (!Number.isSafeInteger(l.quantity) || l.quantity < 1) throw errors.invalidData(`Fulfilled quantity must be a positive integer, got ${l.quantity}`);
      return transaction(tx, async (t) => {
        const links = await service.listVariantInventoryItems([...new Set(lines.map((l) => l.variant_id))], t);
        const rows = await t
          .select()
          .from(reservationItem)
          .where(and(inArray(reservationItem.line_item_id, [...new Set(lines.map((l) => l.line_item_id))]), liveReservation))
          .orderBy(reservationItem.created_at, reservationItem.id)
          .for("update");
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
            if (units > 0) throw errors.invalidData(`Line item ${line.line_item_id} has ${units} units of item ${link.inventory_item_id} fewer reserved than it fulfills`);
          }
        }
        return service.consumeReservations([...take].map(([reservation_id, quantity]) => ({ reservation_id, quantity })), t);
      });
    },

    /** A return received: adds `quantity` × `required_quantity` of each variant's items to stock at the location. */
    async receiveVariants(lines: Array<{ variant_id: string; location_id: string; quantity: number }>, tx: Db = db): Promise<StockAdjustment[]> {
      const links = await service.listVariantInventoryItems([...new Set(lines.map((l) => l.variant_id))], tx);
      const adjustments = lines.flatMap((line) =>
        (links.get(line.variant_id) ?? []).map((link) => ({ inventory_item_id: link.inventory_item_id, location_id: line.location_id, adjustment: line.quantity * link.required_quantity })),
      );
      await service.adjustStock(adjustments, tx);
      return adjustments;
    },

    /** Undoes {@link consumeReservations} exactly: stock and reservations come back. */
    async restoreConsumed(consumed: ConsumedReservation[], tx: Db = db): Promise<void> {
      if (consumed.length === 0) return;
      await transaction(tx, async (t) => {
        for (const g of groupByLevel(consumed)) {
          await t
            .update(inventoryLevel)
            .set({ stocked_quantity: sql`${inventoryLevel.stocked_quantity} + ${g.quantity}`, reserved_quantity: sql`${inventoryLevel.reserved_quantity} + ${g.quantity}` })
            .where(levelAt(g.item, g.location));
        }
        for (const c of consumed) {
          if (c.deleted) await t.update(reservationItem).set({ deleted_at: null }).where(eq(reservationItem.id, c.reservation_id));
          else await t.update(reservationItem).set({ quantity: sql`${reservationItem.quantity} + ${c.quantity}` }).where(eq(reservationItem.id, c.reservation_id));
        }
      });
    },

    /**
     * Changes stocked quantities (a return received: positive). A decrease may not take stock
     * below zero, nor below what is reserved unless `allowBelowReserved` (used to undo a receipt).
     */
    async adjustStock(adjustments: StockAdjustment[], tx: Db = db, options: { allowBelowReserved?: boolean } = {}): Promise<InventoryLevel[]> {
      if (adjustments.length === 0) return [];
      for (const a of adjustments) if (!Number.isSafeInteger(a.adjustment)) throw errors.invalidData(`Stock adjustment must be an integer, got ${a.adjustment}`);
      return transaction(tx, async (t) => {
        const sums = new Map<string, StockAdjustment>();
        for (const a of adjustments) {
          const k = key(a.inventory_item_id, a.location_id);
          const s = sums.get(k) ?? { inventory_item_id: a.inventory_item_id, location_id: a.location_id, adjustment: 0 };
          s.adjustment += a.adjustment;
          sums.set(k, s);
        }
        const out: InventoryLevel[] = [];
        for (const k of [...sums.keys()].sort()) {
          const a = sums.get(k)!;
          const guard = [sql`${inventoryLevel.stocked_quantity} + ${a.adjustment} >= 0`];
          if (a.adjustment < 0 && !options.allowBelowReserved) guard.push(sql`${inventoryLevel.available_quantity} + ${a.adjustment} >= 0`);
          const [row] = await t
            .update(inventoryLevel)
            .set({ stocked_quantity: sql`${inventoryLevel.stocked_quantity} + ${a.adjustment}` })
            .where(and(levelAt(a.inventory_item_id, a.location_id), ...guard))
            .returning();
          if (!row) {
            await service.retrieveLevel(a.inventory_item_id, a.location_id, t);
            throw errors.invalidData(`Insufficient inventory: cannot remove ${-a.adjustment} of item ${a.inventory_item_id} at location ${a.location_id}`);
          }
          out.push(level(row));
        }
        return out;
      });
    },

    // ---- product variant links -------------------------------------------------------

    /** One inventory item per variant (same sku and title), linked with `required_quantity` 1. */
    async createItemsForVariants(variants: Array<{ variant_id: string; sku: string | null; title: string }>, tx: Db = db): Promise<Array<{ variant_id: string; inventory_item_id: string }>> {
      if (variants.length === 0) return [];
      return transaction(tx, async (t) => {
        const links = variants.map((v) => ({ variant_id: v.variant_id, inventory_item_id: generateId("iitem") }));
        await insertItems(t, variants.map((v, i) => ({ id: links[i]!.inventory_item_id, sku: v.sku, title: v.title })));
        await t.insert(inventoryItemVariant).values(links.map((l) => ({ ...l, required_quantity: 1 })));
        return links;
      });
    },

    /** Links variants to existing items (e.g. to undo {@link unlinkVariants}). */
    async linkVariants(links: Array<{ variant_id: string; inventory_item_id: string; required_quantity?: number }>, tx: Db = db): Promise<void> {
      if (links.length === 0) return;
      const known = await service.existing([...new Set(links.map((l) => l.inventory_item_id))], tx);
      const missing = links.find((l) => !known.has(l.inventory_item_id));
      if (missing) throw errors.notFound(`Inventory item with id: ${missing.inventory_item_id} was not found`);
      await tx
        .insert(inventoryItemVariant)
        .values(links.map((l) => ({ variant_id: l.variant_id, inventory_item_id: l.inventory_item_id, required_quantity: l.required_quantity ?? 1 })))
        .onConflictDoNothing();
    },

    /** Removes the links of the variants (the items stay); returns the removed links. */
    async unlinkVariants(variantIds: string[], tx: Db = db): Promise<Array<{ variant_id: string; inventory_item_id: string; required_quantity: number }>> {
      if (variantIds.length === 0) return [];
      return tx
        .delete(inventoryItemVariant)
        .where(inArray(inventoryItemVariant.variant_id, variantIds))
        .returning({ variant_id: inventoryItemVariant.variant_id, inventory_item_id: inventoryItemVariant.inventory_item_id, required_quantity: inventoryItemVariant.required_quantity });
    },

    /** The live inventory items of each variant, in one query. */
    async listVariantInventoryItems(variantIds: string[], tx: Db = db): Promise<Map<string, Array<{ inventory_item_id: string; required_quantity: number }>>> {
      const out = new Map<string, Array<{ inventory_item_id: string; required_quantity: number }>>();
      if (variantIds.length === 0) return out;
      const rows = await tx
        .select({ variant_id: inventoryItemVariant.variant_id, inventory_item_id: inventoryItemVariant.inventory_item_id, required_quantity: inventoryItemVariant.required_quantity })
        .from(inventoryItemVariant)
        .innerJoin(inventoryItem, and(eq(inventoryItem.id, inventoryItemVariant.inventory_item_id), liveItem))
        .where(inArray(inventoryItemVariant.variant_id, variantIds))
        .orderBy(inventoryItemVariant.created_at, inventoryItemVariant.inventory_item_id);
      for (const r of rows) {
        const list = out.get(r.variant_id) ?? [];
        list.push({ inventory_item_id: r.inventory_item_id, required_quantity: r.required_quantity });
        out.set(r.variant_id, list);
      }
      return out;
    },

    /**
     * Refuses (`invalid_data`) when an inventory item of one of the variants has no level at the
     * location: stock could not be put back there (a return is checked before it is requested).
     */
    async assertVariantsStockedAt(variantIds: string[], locationId: string, tx: Db = db): Promise<void> {
      const links = await service.listVariantInventoryItems([...new Set(variantIds)], tx);
      const itemIds = [...new Set([...links.values()].flat().map((l) => l.inventory_item_id))];
      const stocked = new Set((await service.levelsAt(itemIds, [locationId], tx)).map((l) => l.inventory_item_id));
      const missing = itemIds.find((id) => !stocked.has(id));
      if (missing) throw errors.invalidData(`Inventory item ${missing} is not stocked at location ${locationId}`);
    },

    /** The variants linked to an item (e.g. to read their backorder flag). */
    async variantIdsForItem(itemId: string, tx: Db = db): Promise<string[]> {
      const rows = await tx.select({ variant_id: inventoryItemVariant.variant_id }).from(inventoryItemVariant).where(eq(inventoryItemVariant.inventory_item_id, itemId));
      return rows.map((r) => r.variant_id);
    },

    /**
     * Sellable quantity per variant over the given locations (`"all"`: every location), in one query for a whole page:
     * for each linked item, the sum of `available_quantity` at those locations divided by its
     * `required_quantity` (rounded down), and the smallest over the items. Variants without
     * inventory items are absent from the map.
     */
    async availableQuantities(variantIds: string[], locationIds: string[] | "all", tx: Db = db): Promise<Map<string, number>> {
      const out = new Map<string, number>();
      if (variantIds.length === 0) return out;
      const variants = sql.join(variantIds.map((id) => sql`${id}`), sql`, `);
      // "all": every location's stock (the Admin's view of a variant); else only those given (none: nothing).
      const atLocations =
        locationIds === "all" ? sql`true` : locationIds.length ? sql`lv.location_id in (${sql.join(locationIds.map((id) => sql`${id}`), sql`, `)})` : sql`false`;
      const rows = await queryRows<{ variant_id: string; required_quantity: number; available: string | number }>(
        tx,
        sql`select l.variant_id, l.required_quantity, coalesce(sum(lv.available_quantity), 0) as available
            from ${inventoryItemVariant} l
            join ${inventoryItem} i on i.id = l.inventory_item_id and i.deleted_at is null
            left join ${inventoryLevel} lv on lv.inventory_item_id = l.inventory_item_id and lv.deleted_at is null
              and ${atLocations}
            where l.variant_id in (${variants})
            group by l.variant_id, l.inventory_item_id, l.required_quantity`,
      );
      for (const r of rows) {
        const sellable = Math.floor(Number(r.available) / r.required_quantity);
        const current = out.get(r.variant_id);
        out.set(r.variant_id, current === undefined ? sellable : Math.min(current, sellable));
      }
      return out;
    },
  };
  return service;
}

export type InventoryService = ReturnType<typeof createInventoryService>;

const levelAt = (itemId: string, locationId: string) => and(eq(inventoryLevel.inventory_item_id, itemId), eq(inventoryLevel.location_id, locationId), liveLevel);

/** The one guarded write that reserves: refuses (writes nothing) when the stock is not there. */
async function addReserved(tx: Db, itemId: string, locationId: string, quantity: number, allowBackorder: boolean): Promise<void> {
  const guard = allowBackorder ? [] : [sql`${inventoryLevel.available_quantity} >= ${quantity}`];
  const [row] = await tx
    .update(inventoryLevel)
    .set({ reserved_quantity: sql`${inventoryLevel.reserved_quantity} + ${quantity}` })
    .where(and(levelAt(itemId, locationId), ...guard))
    .returning({ id: inventoryLevel.id });
  if (row) return;
  const [item] = await tx.select({ id: inventoryItem.id }).from(inventoryItem).where(and(eq(inventoryItem.id, itemId), liveItem));
  if (!item) throw errors.notFound(`Inventory item with id: ${itemId} was not found`);
  const [existing] = await tx.select({ id: inventoryLevel.id }).from(inventoryLevel).where(levelAt(itemId, locationId));
  if (!existing) throw errors.invalidData(`Item ${itemId} is not stocked at location ${locationId}`);
  throw errors.invalidData(`Insufficient inventory: item ${itemId} at location ${locationId} has fewer than ${quantity} available`);
}

/** Gives reserved units back; the CHECK on `reserved_quantity` makes an over-release fail loudly. */
async function removeReserved(tx: Db, itemId: string, locationId: string, quantity: number): Promise<void> {
  await tx
    .update(inventoryLevel)
    .set({ reserved_quantity: sql`${inventoryLevel.reserved_quantity} - ${quantity}` })
    .where(and(eq(inventoryLevel.inventory_item_id, itemId), eq(inventoryLevel.location_id, locationId), liveLevel));
}

/** Row-locks an item's levels at the locations in sorted order (no deadlock between movers). */
async function lockLevels(tx: Db, itemId: string, locationIds: string[]): Promise<void> {
  for (const locationId of [...new Set(locationIds)].sort()) {
    await tx.select({ id: inventoryLevel.id }).from(inventoryLevel).where(levelAt(itemId, locationId)).for("update");
  }
}

function groupByLevel(entries: Array<{ inventory_item_id: string; location_id: string; quantity: number }>) {
  const groups = new Map<string, { item: string; location: string; quantity: number }>();
  for (const e of entries) {
    const k = key(e.inventory_item_id, e.location_id);
    const g = groups.get(k) ?? { item: e.inventory_item_id, location: e.location_id, quantity: 0 };
    g.quantity += e.quantity;
    groups.set(k, g);
  }
  return [...groups.keys()].sort().map((k) => groups.get(k)!);
}

function itemValues(input: InventoryItemUpdate): Partial<InventoryItemRow> {
  const out: Partial<InventoryItemRow> = {};
  for (const [field, value] of Object.entries(input)) if (value !== undefined) (out as Record<string, unknown>)[field] = value;
  if (typeof out.origin_country === "string") out.origin_country = out.origin_country.toLowerCase();
  return out;
}

async function insertItems(tx: Db, values: Array<Partial<InventoryItemRow> & { id: string }>): Promise<void> {
  try {
    await tx.insert(inventoryItem).values(values);
  } catch (error) {
    throw skuConflict(error, values.map((v) => v.sku).filter(Boolean).join(", "));
  }
}

function skuConflict(error: unknown, sku: string | null | undefined): unknown {
  return isUniqueViolation(error, "inventory_item_sku_uq") ? errors.conflict(`An inventory item with sku: ${sku} already exists`) : error;
}

const level = ({ deleted_at: _deleted, ...row }: InventoryLevelRow): InventoryLevel => row;
const reservation = ({ deleted_at: _deleted, allow_backorder: _backorder, ...row }: ReservationRow): Reservation => row;

/** Adds each item's live levels (one query for the page) and its totals. */
async function withLevels(tx: Db, rows: InventoryItemRow[]): Promise<InventoryItem[]> {
  if (rows.length === 0) return [];
  const levels = await tx
    .select()
    .from(inventoryLevel)
    .where(and(inArray(inventoryLevel.inventory_item_id, rows.map((r) => r.id)), liveLevel))
    .orderBy(asc(inventoryLevel.created_at), asc(inventoryLevel.id));
  return rows.map(({ deleted_at: _deleted, ...row }) => {
    const own = levels.filter((l) => l.inventory_item_id === row.id).map(level);
    return {
      ...row,
      location_levels: own,
      stocked_quantity: own.reduce((sum, l) => sum + l.stocked_quantity, 0),
      reserved_quantity: own.reduce((sum, l) => sum + l.reserved_quantity, 0),
    };
  });
}

function itemConditions(filters: InventoryItemFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id?.length) out.push(inArray(inventoryItem.id, filters.id));
  if (filters.sku?.length) out.push(inArray(inventoryItem.sku, filters.sku));
  if (filters.location_id?.length) {
    const locations = sql.join(filters.location_id.map((id) => sql`${id}`), sql`, `);
    out.push(sql`exists (select 1 from ${inventoryLevel} where ${inventoryLevel.inventory_item_id} = ${inventoryItem.id} and ${inventoryLevel.deleted_at} is null and ${inventoryLevel.location_id} in (${locations}))`);
  }
  if (filters.q) {
    const pattern = `%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    out.push(sql`${inventorySearchText()} ilike ${pattern}`);
  }
  return out;
}
