import { errors, generateId, isKasseError } from "@kasse/core";
import { groupBy, inTransaction, isUniqueViolation, transaction, viewPage, type ListPaging } from "@kasse/db";
import { inventoryQueries as q } from "./queries";
import type { InventoryItemRow, InventoryLevelRow, ReservationRow } from "./schema";
import type {
  InventoryItemCreate,
  InventoryItemFilters,
  InventoryItemUpdate,
  InventoryLevelBatch,
  InventoryLevelCreate,
  InventoryLevelUpdate,
  ReservationCreate,
  ReservationFilters,
  ReservationUpdate,
} from "./shapes";

/** A location level as the API shows it. */
export type InventoryLevel = Omit<InventoryLevelRow, "deleted_at">;
/** An inventory item with its levels and its totals over them. */
export type InventoryItem = Omit<InventoryItemRow, "deleted_at"> & {
  location_levels: InventoryLevel[];
  stocked_quantity: number;
  reserved_quantity: number;
};
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
/**
 * What `detachVariants` removed (the links, and the items that went with their last variant with
 * their levels, as they were), for `reattachVariants` to put back.
 */
export type DetachedVariants = Parameters<typeof q.restoreDetached>[0];

const key = (itemId: string, locationId: string) => `${itemId}\u0000${locationId}`;

const level = ({ deleted_at: _deleted, ...row }: InventoryLevelRow): InventoryLevel => row;
const reservation = ({ deleted_at: _deleted, allow_backorder: _backorder, ...row }: ReservationRow): Reservation => row;

/**
 * Entries summed per (item, location), in sorted order: writers that take level locks in this
 * order cannot deadlock each other. `backorder`: every entry of the group allows a backorder.
 */
function perLevel(
  entries: Array<{ inventory_item_id: string; location_id: string; quantity: number; allow_backorder?: boolean }>,
): Array<{ item: string; location: string; quantity: number; backorder: boolean }> {
  const groups = groupBy(entries, (e) => key(e.inventory_item_id, e.location_id));
  return [...groups.keys()].sort().map((k) => {
    const group = groups.get(k)!;
    return {
      item: group[0]!.inventory_item_id,
      location: group[0]!.location_id,
      quantity: group.reduce((sum, e) => sum + e.quantity, 0),
      backorder: group.every((e) => e.allow_backorder === true),
    };
  });
}

/** A unique violation of the live sku index as `conflict` naming the sku; any other error as it is. */
function skuConflict(error: unknown, sku: string | null | undefined): unknown {
  return isUniqueViolation(error, "inventory_item_sku_uq")
    ? errors.conflict(`An inventory item with sku: ${sku} already exists`)
    : error;
}

/** An item's stock per location (its levels): create, read, update, delete, batch. */
const levelMethods = {
  /** Creates levels of an item (location ids already checked by the caller); one per location. */
  async createLevels(itemId: string, inputs: InventoryLevelCreate[]): Promise<InventoryLevel[]> {
    await q.retrieveItem(itemId);
    const locations = inputs.map((i) => i.location_id);
    if (new Set(locations).size !== locations.length)
      throw errors.invalidData("A location may have only one level per inventory item");
    try {
      const rows = await q.insertLevels(
        inputs.map((i) => ({
          id: generateId("ilev"),
          inventory_item_id: itemId,
          location_id: i.location_id,
          stocked_quantity: i.stocked_quantity ?? 0,
          incoming_quantity: i.incoming_quantity ?? 0,
          metadata: i.metadata ?? null,
        })),
      );
      return rows.map(level);
    } catch (error) {
      if (isUniqueViolation(error))
        throw errors.conflict(
          `Inventory item ${itemId} already has a level at one of the locations ${locations.join(", ")}`,
        );
      throw error;
    }
  },

  async retrieveLevel(itemId: string, locationId: string): Promise<InventoryLevel> {
    const row = await q.levelAt({ item: itemId, location: locationId });
    if (!row) throw errors.notFound(`Inventory level for item ${itemId} at location ${locationId} was not found`);
    return level(row);
  },

  /** The levels of one item, paged. */
  async listLevels(
    itemId: string,
    filters: { location_id?: string[] },
    page: ListPaging,
  ): Promise<{ items: InventoryLevel[]; count: number }> {
    await q.retrieveItem(itemId);
    return viewPage(q.listLevels(itemId, filters.location_id, page), (rows) => rows.map(level));
  },

  /**
   * Sets stocked/incoming quantities. Lowering stock below what is reserved is refused (it
   * would oversell); raising it is always allowed, even while backorders keep it below.
   */
  async updateLevel(itemId: string, locationId: string, input: InventoryLevelUpdate): Promise<InventoryLevel> {
    const changes: Partial<InventoryLevelRow> = {};
    if (input.incoming_quantity !== undefined) changes.incoming_quantity = input.incoming_quantity;
    if (input.metadata !== undefined) changes.metadata = input.metadata;
    if (input.stocked_quantity !== undefined) changes.stocked_quantity = input.stocked_quantity;
    if (Object.keys(changes).length === 0) return levelMethods.retrieveLevel(itemId, locationId);
    const row = await q.updateLevel(itemId, locationId, changes, input.stocked_quantity);
    if (row) return level(row);
    const current = await levelMethods.retrieveLevel(itemId, locationId);
    throw errors.invalidData(
      `Stocked quantity ${input.stocked_quantity} of item ${itemId} at location ${locationId} cannot be lower than its reserved quantity ${current.reserved_quantity}`,
    );
  },

  /** Deletes a level; refused while it holds reservations (the guard is in the UPDATE). */
  async deleteLevel(itemId: string, locationId: string): Promise<InventoryLevel> {
    const row = await q.deleteLevel({ item: itemId, location: locationId, now: new Date() });
    if (row) return level(row);
    const current = await levelMethods.retrieveLevel(itemId, locationId);
    throw errors.invalidData(
      `Cannot delete the level of item ${itemId} at location ${locationId}: ${current.reserved_quantity} units are reserved`,
    );
  },

  /**
   * Creates, updates and deletes levels of one item in one transaction (all or nothing), with
   * the same rules as the single operations. `delete` names locations or level ids.
   */
  async batchLevels(
    itemId: string,
    input: InventoryLevelBatch,
  ): Promise<{ created: InventoryLevel[]; updated: InventoryLevel[]; deleted: string[] }> {
    return transaction(async () => {
      await q.retrieveItem(itemId);
      const deleted: string[] = [];
      if (input.delete?.length) {
        const rows = await q.levelsByRef({ item: itemId, refs: input.delete });
        const unknown = input.delete.filter((ref) => !rows.some((r) => r.id === ref || r.location_id === ref));
        if (unknown.length) throw errors.notFound(`Inventory item ${itemId} has no level for: ${unknown.join(", ")}`);
        for (const row of rows) deleted.push((await levelMethods.deleteLevel(itemId, row.location_id)).id);
      }
      const created = input.create?.length ? await levelMethods.createLevels(itemId, input.create) : [];
      const updated: InventoryLevel[] = [];
      for (const { location_id, ...changes } of input.update ?? [])
        updated.push(await levelMethods.updateLevel(itemId, location_id, changes));
      return { created, updated, deleted };
    });
  },

  /** Live levels of the given items at the given locations (one query), for location picking. */
  async levelsAt(itemIds: string[], locationIds: string[]): Promise<InventoryLevel[]> {
    if (itemIds.length === 0 || locationIds.length === 0) return [];
    return (await q.levelsAt({ items: itemIds, locations: locationIds })).map(level);
  },
};

/** Adds each item's live levels (one query for the page) and its totals. */
async function withLevels(rows: InventoryItemRow[]): Promise<InventoryItem[]> {
  if (rows.length === 0) return [];
  const levels = groupBy(await q.levelsOfItems(rows.map((r) => r.id)), (l) => l.inventory_item_id, { value: level });
  return rows.map(({ deleted_at: _deleted, ...row }) => {
    const own = levels.get(row.id) ?? [];
    return {
      ...row,
      location_levels: own,
      stocked_quantity: own.reduce((sum, l) => sum + l.stocked_quantity, 0),
      reserved_quantity: own.reduce((sum, l) => sum + l.reserved_quantity, 0),
    };
  });
}

/** Inserts items, a taken sku as `conflict`. */
async function insertItems(values: Array<Partial<InventoryItemRow> & { id: string }>): Promise<void> {
  try {
    await q.insertItems(values);
  } catch (error) {
    throw skuConflict(
      error,
      values
        .map((v) => v.sku)
        .filter(Boolean)
        .join(", "),
    );
  }
}

/** Inventory items: create, read, list, update and delete (with their levels and variant links). */
const itemMethods = {
  async create(input: InventoryItemCreate): Promise<InventoryItem> {
    return transaction(async () => {
      const { location_levels, ...fields } = input;
      const id = generateId("iitem");
      await insertItems([{ ...itemValues(fields), id }]);
      if (location_levels?.length) await levelMethods.createLevels(id, location_levels);
      return itemMethods.retrieve(id);
    });
  },

  retrieve: async (id: string): Promise<InventoryItem> => (await withLevels([await q.retrieveItem(id)]))[0]!,

  list: (filters: InventoryItemFilters, page: ListPaging): Promise<{ items: InventoryItem[]; count: number }> =>
    viewPage(q.listItems(filters, page), withLevels),

  async update(id: string, input: InventoryItemUpdate): Promise<InventoryItem> {
    const changes = itemValues(input);
    if (Object.keys(changes).length) {
      try {
        await q.updateItem(id, changes);
      } catch (error) {
        throw skuConflict(error, input.sku);
      }
    }
    return itemMethods.retrieve(id);
  },

  /** Soft delete with its levels and variant links; refused while the item holds reservations. */
  async delete(id: string): Promise<void> {
    await transaction(async () => {
      await q.lockItem(id);
      // Reserving updates the level row before inserting the reservation: holding the level
      // locks makes the check below see every reservation committed before or after us.
      await q.lockLevelsOfItem({ id });
      if (await q.reservationOfItem({ id }))
        throw errors.invalidData(`Cannot delete inventory item ${id}: it has reservations`);
      const now = new Date();
      await q.deleteLevelsOfItem({ id, now });
      await q.deleteLinksOfItem({ id });
      await q.deleteItem({ id, now });
    });
  },

  /** The ids among `ids` that are live items. */
  existing: q.existingItems,
};

function itemValues(input: InventoryItemUpdate): Partial<InventoryItemRow> {
  const out: Partial<InventoryItemRow> = {};
  for (const [field, value] of Object.entries(input))
    if (value !== undefined) (out as Record<string, unknown>)[field] = value;
  if (typeof out.origin_country === "string") out.origin_country = out.origin_country.toLowerCase();
  return out;
}

/** The links between product variants and inventory items, and what a variant can sell. */
const variantLinkMethods = {
  /** One inventory item per variant (same sku and title), linked with `required_quantity` 1. */
  async createItemsForVariants(
    variants: Array<{ variant_id: string; sku: string | null; title: string }>,
  ): Promise<Array<{ variant_id: string; inventory_item_id: string }>> {
    if (variants.length === 0) return [];
    return transaction(async () => {
      const links = variants.map((v) => ({ variant_id: v.variant_id, inventory_item_id: generateId("iitem") }));
      await insertItems(variants.map((v, i) => ({ id: links[i]!.inventory_item_id, sku: v.sku, title: v.title })));
      await q.insertLinks(links.map((l) => ({ ...l, required_quantity: 1 })));
      return links;
    });
  },

  /** Links variants to existing items (e.g. to undo {@link unlinkVariants}). */
  async linkVariants(
    links: Array<{ variant_id: string; inventory_item_id: string; required_quantity?: number }>,
  ): Promise<void> {
    if (links.length === 0) return;
    const known = await itemMethods.existing([...new Set(links.map((l) => l.inventory_item_id))]);
    const missing = links.find((l) => !known.has(l.inventory_item_id));
    if (missing) throw errors.notFound(`Inventory item with id: ${missing.inventory_item_id} was not found`);
    await q.insertMissingLinks(links.map((l) => ({ ...l, required_quantity: l.required_quantity ?? 1 })));
  },

  /** Removes the links of the variants (the items stay); returns the removed links. */
  async unlinkVariants(
    variantIds: string[],
  ): Promise<Array<{ variant_id: string; inventory_item_id: string; required_quantity: number }>> {
    if (variantIds.length === 0) return [];
    return q.unlinkVariants({ ids: variantIds });
  },

  /**
   * Removed variants: their links go and, as Medusa does, an inventory item used by no other
   * variant goes with its variant (its sku becomes free). One still holding reservations stays,
   * unlinked, for the orders that hold it. Returns what it removed, as it was.
   */
  async detachVariants(variantIds: string[]): Promise<DetachedVariants> {
    const detached: DetachedVariants = { links: [], items: [], levels: [] };
    if (variantIds.length === 0) return detached;
    detached.links = await q.readLinks(variantIds);
    await q.unlinkVariants({ ids: variantIds });
    for (const itemId of new Set(detached.links.map((l) => l.inventory_item_id))) {
      if ((await variantLinkMethods.variantIdsForItem(itemId)).length > 0) continue;
      const { item, levels } = await q.readItem(itemId);
      if (!item) continue;
      try {
        await itemMethods.delete(itemId);
      } catch (error) {
        if (!(isKasseError(error) && error.type === "invalid_data")) throw error;
        continue;
      }
      detached.items.push(item);
      detached.levels.push(...levels);
    }
    return detached;
  },

  /** Puts back what {@link detachVariants} removed: the items with their levels, then the links. */
  reattachVariants: (detached: DetachedVariants): Promise<void> => q.restoreDetached(detached),

  /** The live inventory items of each variant, in one query. */
  async listVariantInventoryItems(
    variantIds: string[],
  ): Promise<Map<string, Array<{ inventory_item_id: string; required_quantity: number }>>> {
    if (variantIds.length === 0) return new Map();
    return groupBy(await q.itemsOfVariants({ ids: variantIds }), (r) => r.variant_id, {
      value: ({ variant_id: _variant, ...link }) => link,
    });
  },

  /**
   * Refuses (`invalid_data`) when an inventory item of one of the variants has no level at the
   * location: stock could not be put back there (a return is checked before it is requested).
   */
  async assertVariantsStockedAt(variantIds: string[], locationId: string): Promise<void> {
    const links = await variantLinkMethods.listVariantInventoryItems([...new Set(variantIds)]);
    const itemIds = [...new Set([...links.values()].flat().map((l) => l.inventory_item_id))];
    const stocked = new Set((await levelMethods.levelsAt(itemIds, [locationId])).map((l) => l.inventory_item_id));
    const missing = itemIds.find((id) => !stocked.has(id));
    if (missing) throw errors.invalidData(`Inventory item ${missing} is not stocked at location ${locationId}`);
  },

  /** The variants linked to an item (e.g. to read their backorder flag). */
  variantIdsForItem: async (itemId: string): Promise<string[]> =>
    (await q.variantsOfItem({ id: itemId })).map((r) => r.variant_id),

  /**
   * Sellable quantity per variant over the given locations (`"all"`: every location), in one query for a whole page:
   * for each linked item, the sum of `available_quantity` at those locations divided by its
   * `required_quantity` (rounded down), and the smallest over the items. Variants without
   * inventory items are absent from the map.
   */
  async availableQuantities(variantIds: string[], locationIds: string[] | "all"): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (variantIds.length === 0) return out;
    // "all": every location's stock (the Admin's view of a variant); else only those given (none: nothing).
    const rows =
      locationIds === "all"
        ? await q.availableEverywhere({ variants: variantIds })
        : await q.availableAt({ variants: variantIds, locations: locationIds });
    for (const r of rows) {
      const sellable = Math.floor(Number(r.available) / r.required_quantity);
      const current = out.get(r.variant_id);
      out.set(r.variant_id, current === undefined ? sellable : Math.min(current, sellable));
    }
    return out;
  },
};

/**
 * Reservations and stock movements: reserve (guarded, per level in a fixed order), release,
 * consume on fulfillment, receive on return, adjust; each with its exact undo.
 */
const reservationMethods = {
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
    return viewPage(q.listReservations(filters, page), (rows) => rows.map(reservation));
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
        if (c.deleted) await q.setReservationDeleted({ id: c.reservation_id, deleted_at: now, now });
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
        if (c.deleted) await q.setReservationDeleted({ id: c.reservation_id, deleted_at: null, now });
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
  await q.retrieveItem(item);
  if (!(await q.levelAt({ item, location })))
    throw errors.invalidData(`Item ${item} is not stocked at location ${location}`);
  throw errors.invalidData(
    `Insufficient inventory: item ${item} at location ${location} has fewer than ${quantity} available`,
  );
}

/**
 * Inventory: items, their stock per location, reservations, and the links to product variants.
 * Stock integrity: quantities are CHECKed non-negative, `available_quantity` is a generated
 * column, and every reservation goes through one guarded `UPDATE … WHERE available_quantity >= q`
 * per (item, location) in a fixed order, in the same transaction as the reservation rows.
 * One object a section above (items, levels, reservations and stock movements, variant links;
 * `kasse check`'s integrity checks here), each plain functions over `queries.ts`. Built once per
 * process; every method runs in the transaction in progress, if any.
 * @example
 * const inventory = createInventoryService();
 * const [reservation] = await inventory.reserve([{ inventory_item_id, location_id, quantity: 2 }]);
 */
export function createInventoryService() {
  return {
    ...itemMethods,
    ...levelMethods,
    ...variantLinkMethods,
    ...reservationMethods,

    /**
     * The stock of these (item, location) pairs' live levels as `inventory-item.updated` carries it
     * (`id`: the item), ordered by item and location: what a step records after moving stock.
     */
    async levelEvents(
      pairs: ReadonlyArray<{ inventory_item_id: string; location_id: string }>,
    ): Promise<Array<{ id: string; location_id: string; stocked_quantity: number; reserved_quantity: number }>> {
      const unique = [...new Map(pairs.map((p) => [`${p.inventory_item_id}|${p.location_id}`, p])).values()];
      if (unique.length === 0) return [];
      const levels = await q.levelEvents(unique);
      return levels.sort((a, b) => `${a.id}|${a.location_id}`.localeCompare(`${b.id}|${b.location_id}`));
    },

    // Read-only invariant checks of the inventory's own tables, for `kasse check` (aggregate SQL, capped).
    /**
     * Levels breaking the stock invariants: a negative quantity, or a `reserved_quantity` that is not
     * the sum of the live reservations at that item and location (each reservation is counted there).
     */
    async checkLevels(limit = 50): Promise<Array<{ id: string; problem: string }>> {
      return (await q.badLevels({ limit })).map((r) => ({
        id: r.id,
        problem:
          r.stocked < 0 || r.reserved < 0
            ? `negative quantity (stocked ${r.stocked}, reserved ${r.reserved})`
            : `reserved ${r.reserved} but its reservations hold ${r.reservations}`,
      }));
    },

    /** The units the live reservations of each of these line items hold (over every item and location). */
    async reservedForLines(lineIds: string[]): Promise<Map<string, number>> {
      if (!lineIds.length) return new Map();
      return new Map((await q.reservedForLines({ ids: lineIds })).map((r) => [r.line_item_id, r.quantity]));
    },

    /** One page (by id) of live reservations made for a line item: their ids and line item ids. */
    reservationLinesPage: (after: string, limit: number): Promise<Array<{ id: string; line_item_id: string }>> =>
      q.reservationLinesPage({ after, limit }),
  };
}

export type InventoryService = ReturnType<typeof createInventoryService>;
