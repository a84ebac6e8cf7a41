import { and, asc, eq, isNotNull, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import {
  db,
  first,
  inFilters,
  inList,
  insertRows,
  likePattern,
  listPage,
  liveRecords,
  orderBy,
  readRows,
  restoreRows,
  rowsOf,
  statement,
  type ListPaging,
  type Paging,
  type Placeholders,
  type RowSnapshot,
} from "@kasse/db";
import {
  inventoryItem,
  inventoryItemVariant,
  inventoryLevel,
  inventorySearchText,
  reservationItem,
  type InventoryItemRow,
  type InventoryItemVariantRow,
  type InventoryLevelRow,
  type ReservationRow,
} from "./schema";
import type { InventoryItemFilters, ReservationFilters } from "./shapes";

// The inventory module's SQL (items, levels, reservations, variant links): the only file of the
// module that imports drizzle and its tables.

const items = liveRecords(inventoryItem, "Inventory item", { sku: inventoryItem.sku, title: inventoryItem.title });
const liveItem = isNull(inventoryItem.deleted_at);
const liveLevel = isNull(inventoryLevel.deleted_at);
const liveReservation = isNull(reservationItem.deleted_at);

/** The live level of an item at a location (`item`, `location`: its placeholders or values). */
const levelAt = (item: SQL | string, location: SQL | string) =>
  and(eq(inventoryLevel.inventory_item_id, item), eq(inventoryLevel.location_id, location), liveLevel);

/** `column` plus (`sign` 1) or minus (-1) `quantity`. */
const moved = (column: AnyPgColumn, sign: 1 | -1, quantity: SQL) =>
  sign > 0 ? sql`${column} + ${quantity}` : sql`${column} - ${quantity}`;

/**
 * Moves `quantity` units into (1) or out of (-1) the live level's stock and reserved units, as `move`
 * names them, where the `guards` (given the quantity) hold; answers the level, if it moved.
 */
const moveAtLevel = (move: { stocked?: 1 | -1; reserved?: 1 | -1 }, guards: (quantity: SQL) => SQL[] = () => []) =>
  first(
    statement((v: Placeholders<{ item: string; location: string; quantity: number; now: Date }>) =>
      db
        .update(inventoryLevel)
        .set({
          ...(move.stocked && { stocked_quantity: moved(inventoryLevel.stocked_quantity, move.stocked, v.quantity) }),
          ...(move.reserved && {
            reserved_quantity: moved(inventoryLevel.reserved_quantity, move.reserved, v.quantity),
          }),
          updated_at: v.now,
        })
        .where(and(levelAt(v.item, v.location), ...guards(v.quantity)))
        .returning(),
    ),
  );

/** The live reservation `id`, locked for the rest of the transaction when `lock`. */
const reservationById = (lock: boolean) =>
  first(
    statement((v: Placeholders<{ id: string }>) => {
      const read = db
        .select()
        .from(reservationItem)
        .where(and(eq(reservationItem.id, v.id), liveReservation));
      return lock ? read.for("update") : read;
    }),
  );

/** Per variant and linked item: its required quantity and the available quantity at the levels `atLocations` keeps. */
const availableOf = (variants: SQL, atLocations: SQL) =>
  db
    .select({
      variant_id: inventoryItemVariant.variant_id,
      required_quantity: inventoryItemVariant.required_quantity,
      available: sql<string | number>`coalesce(sum(${inventoryLevel.available_quantity}), 0)`,
    })
    .from(inventoryItemVariant)
    .innerJoin(inventoryItem, and(eq(inventoryItem.id, inventoryItemVariant.inventory_item_id), liveItem))
    .leftJoin(
      inventoryLevel,
      and(eq(inventoryLevel.inventory_item_id, inventoryItemVariant.inventory_item_id), liveLevel, atLocations),
    )
    .where(inList(inventoryItemVariant.variant_id, variants))
    .groupBy(
      inventoryItemVariant.variant_id,
      inventoryItemVariant.inventory_item_id,
      inventoryItemVariant.required_quantity,
    );

/** The filters of an item list as conditions. */
function itemConditions(filters: InventoryItemFilters): SQL[] {
  const out = inFilters(filters, { id: inventoryItem.id, sku: inventoryItem.sku });
  if (filters.location_id?.length)
    out.push(
      sql`exists (select 1 from ${inventoryLevel} where ${inventoryLevel.inventory_item_id} = ${inventoryItem.id} and ${inventoryLevel.deleted_at} is null and ${inList(inventoryLevel.location_id, filters.location_id)})`,
    );
  if (filters.q) out.push(sql`${inventorySearchText()} ilike ${likePattern(filters.q)}`);
  return out;
}

/**
 * Named statements on the inventory tables, run on the current handle. Checkout reserves through
 * `levelsAt`, `addReserved…`, `insertReservations` and the variant reads: each is built once.
 */
export const inventoryQueries = {
  // --- items
  retrieveItem: items.retrieve,
  /** The live item `id`, locked for the rest of the transaction; `not_found` when there is none. */
  lockItem: items.lock,
  existingItems: items.existing,
  updateItem: items.update,
  listItems: items.listBy(itemConditions),
  /** Inserts items (their ids given) in one statement. */
  insertItems: insertRows(inventoryItem),
  /** The live levels of the items, oldest first. */
  levelsOfItems: rowsOf(inventoryLevel, inventoryLevel.inventory_item_id, {
    where: liveLevel,
    order: [asc(inventoryLevel.created_at), asc(inventoryLevel.id)],
  }),
  /** Locks the item's live levels (in id order) for the rest of the transaction. */
  lockLevelsOfItem: statement((v: Placeholders<{ id: string }>) =>
    db
      .select({ id: inventoryLevel.id })
      .from(inventoryLevel)
      .where(and(eq(inventoryLevel.inventory_item_id, v.id), liveLevel))
      .orderBy(inventoryLevel.id)
      .for("update"),
  ),
  /** One live reservation of the item, if it has any. */
  reservationOfItem: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .select({ id: reservationItem.id })
        .from(reservationItem)
        .where(and(eq(reservationItem.inventory_item_id, v.id), liveReservation))
        .limit(1),
    ),
  ),
  /** Soft-deletes the item's live levels. */
  deleteLevelsOfItem: statement((v: Placeholders<{ id: string; now: Date }>) =>
    db
      .update(inventoryLevel)
      .set({ deleted_at: v.now, updated_at: v.now })
      .where(and(eq(inventoryLevel.inventory_item_id, v.id), liveLevel)),
  ),
  /** Removes the item's variant links. */
  deleteLinksOfItem: statement((v: Placeholders<{ id: string }>) =>
    db.delete(inventoryItemVariant).where(eq(inventoryItemVariant.inventory_item_id, v.id)),
  ),
  /** Soft-deletes the item. */
  deleteItem: statement((v: Placeholders<{ id: string; now: Date }>) =>
    db.update(inventoryItem).set({ deleted_at: v.now, updated_at: v.now }).where(eq(inventoryItem.id, v.id)),
  ),

  // --- levels
  /** Inserts levels (their ids given) in one statement and answers them. */
  insertLevels: insertRows<InventoryLevelRow[]>(inventoryLevel, { returning: true }),
  /** The live level of the item at the location. */
  levelAt: first(
    statement((v: Placeholders<{ item: string; location: string }>) =>
      db.select().from(inventoryLevel).where(levelAt(v.item, v.location)),
    ),
  ),
  /** The live levels of the items at the locations. */
  levelsAt: statement((v: Placeholders<{ items: string[]; locations: string[] }>) =>
    db
      .select()
      .from(inventoryLevel)
      .where(
        and(
          inList(inventoryLevel.inventory_item_id, v.items),
          inList(inventoryLevel.location_id, v.locations),
          liveLevel,
        ),
      ),
  ),
  /** The item's live levels whose id or location is among `refs`. */
  levelsByRef: statement((v: Placeholders<{ item: string; refs: string[] }>) =>
    db
      .select({ id: inventoryLevel.id, location_id: inventoryLevel.location_id })
      .from(inventoryLevel)
      .where(
        and(
          eq(inventoryLevel.inventory_item_id, v.item),
          liveLevel,
          or(inList(inventoryLevel.id, v.refs), inList(inventoryLevel.location_id, v.refs)),
        ),
      ),
  ),
  /** A page of the item's live levels (at `locationIds`, when given), oldest first. */
  listLevels: (itemId: string, locationIds: string[] | undefined, page: Paging) =>
    listPage(
      inventoryLevel,
      and(
        eq(inventoryLevel.inventory_item_id, itemId),
        liveLevel,
        locationIds?.length ? inList(inventoryLevel.location_id, locationIds) : undefined,
      ),
      [asc(inventoryLevel.created_at), asc(inventoryLevel.id)],
      page,
    ),
  /**
   * Sets `changes` on the live level and answers it; with `stocked`, only where the new stock is not
   * below what is reserved, or is not lower than the current stock (undefined when refused).
   */
  updateLevel: async (
    item: string,
    location: string,
    changes: Partial<InventoryLevelRow>,
    stocked: number | undefined,
  ): Promise<InventoryLevelRow | undefined> =>
    (
      await db
        .update(inventoryLevel)
        .set(changes)
        .where(
          and(
            levelAt(item, location),
            stocked === undefined
              ? undefined
              : or(
                  sql`${stocked} >= ${inventoryLevel.reserved_quantity}`,
                  sql`${stocked} >= ${inventoryLevel.stocked_quantity}`,
                ),
          ),
        )
        .returning()
    )[0],
  /** Soft-deletes the level unless it holds reservations (the guard is in the statement); answers it. */
  deleteLevel: first(
    statement((v: Placeholders<{ item: string; location: string; now: Date }>) =>
      db
        .update(inventoryLevel)
        .set({ deleted_at: v.now, updated_at: v.now })
        .where(and(levelAt(v.item, v.location), eq(inventoryLevel.reserved_quantity, 0)))
        .returning(),
    ),
  ),
  /** Row-locks the live level of the item at the location. */
  lockLevel: statement((v: Placeholders<{ item: string; location: string }>) =>
    db.select({ id: inventoryLevel.id }).from(inventoryLevel).where(levelAt(v.item, v.location)).for("update"),
  ),
  /**
   * The `inventory-item.updated` payloads of the live levels of these (item, location) pairs: one
   * statement, its text per number of pairs.
   */
  levelEvents: (pairs: ReadonlyArray<{ inventory_item_id: string; location_id: string }>) =>
    db
      .select({
        id: inventoryLevel.inventory_item_id,
        location_id: inventoryLevel.location_id,
        stocked_quantity: inventoryLevel.stocked_quantity,
        reserved_quantity: inventoryLevel.reserved_quantity,
      })
      .from(inventoryLevel)
      .where(
        and(
          liveLevel,
          or(
            ...pairs.map((p) =>
              and(
                eq(inventoryLevel.inventory_item_id, p.inventory_item_id),
                eq(inventoryLevel.location_id, p.location_id),
              ),
            ),
          ),
        ),
      ),

  // --- reservations and stock movements
  /** Adds `quantity` to the level's reserved units, if that many are available. */
  addReservedIfAvailable: moveAtLevel({ reserved: 1 }, (n) => [sql`${inventoryLevel.available_quantity} >= ${n}`]),
  /** Adds `quantity` to the level's reserved units, available or not (a backorder). */
  addReservedAnyway: moveAtLevel({ reserved: 1 }),
  /** Gives reserved units back; the CHECK on `reserved_quantity` makes an over-release fail loudly. */
  removeReserved: moveAtLevel({ reserved: -1 }),
  /** Inserts reservations (their ids given) in one statement and answers them. */
  insertReservations: insertRows<ReservationRow[]>(reservationItem, { returning: true }),
  /** The live reservation `id`. */
  reservation: reservationById(false),
  /** The live reservation `id`, locked for the rest of the transaction. */
  lockReservation: reservationById(true),
  /** Sets a reservation's location and quantity, its description and metadata unless undefined; answers it. */
  updateReservation: first(
    statement(
      (
        v: Placeholders<{
          id: string;
          location_id: string;
          quantity: number;
          description?: string | null;
          metadata?: Record<string, unknown> | null;
          now: Date;
        }>,
      ) =>
        db
          .update(reservationItem)
          .set({
            location_id: v.location_id,
            quantity: v.quantity,
            description: v.description,
            metadata: v.metadata,
            updated_at: v.now,
          })
          .where(eq(reservationItem.id, v.id))
          .returning(),
    ),
  ),
  /** Soft-deletes the live reservations among `ids` and answers them. */
  releaseReservations: statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
    db
      .update(reservationItem)
      .set({ deleted_at: v.now, updated_at: v.now })
      .where(and(inList(reservationItem.id, v.ids), liveReservation))
      .returning(),
  ),
  /** Makes the released reservations among `ids` live again and answers them. */
  unreleaseReservations: statement((v: Placeholders<{ ids: string[]; now: Date }>) =>
    db
      .update(reservationItem)
      .set({ deleted_at: null, updated_at: v.now })
      .where(and(inList(reservationItem.id, v.ids), isNotNull(reservationItem.deleted_at)))
      .returning(),
  ),
  /** The ids of the live reservations of the line items `ids`. */
  reservationIdsOfLines: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ id: reservationItem.id })
      .from(reservationItem)
      .where(and(inList(reservationItem.line_item_id, v.ids), liveReservation)),
  ),
  /** The live reservations among `ids`, locked in id order. */
  lockReservations: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select()
      .from(reservationItem)
      .where(and(inList(reservationItem.id, v.ids), liveReservation))
      .orderBy(reservationItem.id)
      .for("update"),
  ),
  /** The live reservations of the line items `ids`, locked, oldest first. */
  lockReservationsOfLines: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select()
      .from(reservationItem)
      .where(and(inList(reservationItem.line_item_id, v.ids), liveReservation))
      .orderBy(reservationItem.created_at, reservationItem.id)
      .for("update"),
  ),
  /** Soft-deletes a reservation (used up: `deleted_at` a time) or makes it live again (null). */
  setReservationDeleted: statement((v: Placeholders<{ id: string; deleted_at: Date | null; now: Date }>) =>
    db.update(reservationItem).set({ deleted_at: v.deleted_at, updated_at: v.now }).where(eq(reservationItem.id, v.id)),
  ),
  /** Adds `quantity` (negative: takes) to a reservation's units. */
  addToReservation: statement((v: Placeholders<{ id: string; quantity: number; now: Date }>) =>
    db
      .update(reservationItem)
      .set({ quantity: sql`${reservationItem.quantity} + ${v.quantity}`, updated_at: v.now })
      .where(eq(reservationItem.id, v.id)),
  ),
  /** Fulfillment: takes units out of the level's stock and reserved units, if both hold that many (never below zero). */
  takeFromLevel: moveAtLevel({ stocked: -1, reserved: -1 }, (n) => [
    sql`${inventoryLevel.stocked_quantity} >= ${n}`,
    sql`${inventoryLevel.reserved_quantity} >= ${n}`,
  ]),
  /** Puts units back in the level's stock and reserved units. */
  putBackInLevel: moveAtLevel({ stocked: 1, reserved: 1 }),
  /** Adds `quantity` (negative: removes) to the level's stock, never below zero nor below what is reserved. */
  adjustStockedAboveReserved: moveAtLevel({ stocked: 1 }, (n) => [
    sql`${inventoryLevel.stocked_quantity} + ${n} >= 0`,
    sql`${inventoryLevel.available_quantity} + ${n} >= 0`,
  ]),
  /** Adds `quantity` (negative: removes) to the level's stock, never below zero. */
  adjustStockedAboveZero: moveAtLevel({ stocked: 1 }, (n) => [sql`${inventoryLevel.stocked_quantity} + ${n} >= 0`]),
  /** A page of the live reservations matching the filters. */
  listReservations: (filters: ReservationFilters, page: ListPaging) => {
    const { id, inventory_item_id, location_id, line_item_id } = reservationItem;
    return listPage(
      reservationItem,
      and(liveReservation, ...inFilters(filters, { id, inventory_item_id, location_id, line_item_id })),
      orderBy(
        page.order,
        {
          created_at: reservationItem.created_at,
          updated_at: reservationItem.updated_at,
          quantity: reservationItem.quantity,
        },
        reservationItem.id,
      ),
      page,
    );
  },

  // --- variant links
  insertLinks: insertRows(inventoryItemVariant),
  /** Inserts the links not stored yet. */
  insertMissingLinks: insertRows(inventoryItemVariant, { onConflictDoNothing: true }),
  /** The live items of the variants `ids`, with their required quantities: read by every line added and by checkout. */
  itemsOfVariants: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({
        variant_id: inventoryItemVariant.variant_id,
        inventory_item_id: inventoryItemVariant.inventory_item_id,
        required_quantity: inventoryItemVariant.required_quantity,
      })
      .from(inventoryItemVariant)
      .innerJoin(inventoryItem, and(eq(inventoryItem.id, inventoryItemVariant.inventory_item_id), liveItem))
      .where(inList(inventoryItemVariant.variant_id, v.ids))
      .orderBy(inventoryItemVariant.created_at, inventoryItemVariant.inventory_item_id),
  ),
  /** Per variant and linked item, the available quantity at every location. */
  availableEverywhere: statement((v: Placeholders<{ variants: string[] }>) => availableOf(v.variants, sql`true`)),
  /** Per variant and linked item, the available quantity at the locations (none given: nothing). */
  availableAt: statement((v: Placeholders<{ variants: string[]; locations: string[] }>) =>
    availableOf(v.variants, inList(inventoryLevel.location_id, v.locations)),
  ),
  /** Removes the links of the variants `ids` and answers them. */
  unlinkVariants: statement((v: Placeholders<{ ids: string[] }>) =>
    db.delete(inventoryItemVariant).where(inList(inventoryItemVariant.variant_id, v.ids)).returning({
      variant_id: inventoryItemVariant.variant_id,
      inventory_item_id: inventoryItemVariant.inventory_item_id,
      required_quantity: inventoryItemVariant.required_quantity,
    }),
  ),
  /** The variants linked to the item. */
  variantsOfItem: statement((v: Placeholders<{ id: string }>) =>
    db
      .select({ variant_id: inventoryItemVariant.variant_id })
      .from(inventoryItemVariant)
      .where(eq(inventoryItemVariant.inventory_item_id, v.id)),
  ),
  /** The variants' links, locked, as {@link restoreDetached} puts them back. */
  readLinks: (variantIds: string[]): Promise<Array<RowSnapshot<InventoryItemVariantRow>>> =>
    readRows(db, inventoryItemVariant, inList(inventoryItemVariant.variant_id, variantIds), { lock: true }),
  /** The live item and its live levels, as {@link restoreDetached} puts them back. */
  async readItem(
    id: string,
  ): Promise<{ item: RowSnapshot<InventoryItemRow> | undefined; levels: Array<RowSnapshot<InventoryLevelRow>> }> {
    const [item] = await readRows(db, inventoryItem, and(eq(inventoryItem.id, id), liveItem));
    if (!item) return { item, levels: [] };
    return {
      item,
      levels: await readRows(db, inventoryLevel, and(eq(inventoryLevel.inventory_item_id, id), liveLevel)),
    };
  },
  /** Writes back items, levels and links as they were read. */
  async restoreDetached(detached: {
    items: Array<RowSnapshot<InventoryItemRow>>;
    levels: Array<RowSnapshot<InventoryLevelRow>>;
    links: Array<RowSnapshot<InventoryItemVariantRow>>;
  }): Promise<void> {
    await restoreRows(db, inventoryItem, detached.items);
    await restoreRows(db, inventoryLevel, detached.levels);
    await restoreRows(db, inventoryItemVariant, detached.links);
  },

  // --- integrity (`kasse check`)
  /** Levels with a negative quantity, or a reserved quantity other than their live reservations' sum, by id. */
  badLevels: statement((v: Placeholders<{ limit: number }>) => {
    const held = db
      .select({
        inventory_item_id: reservationItem.inventory_item_id,
        location_id: reservationItem.location_id,
        total: sql<number>`sum(${reservationItem.quantity})`.as("total"),
      })
      .from(reservationItem)
      .where(liveReservation)
      .groupBy(reservationItem.inventory_item_id, reservationItem.location_id)
      .as("r");
    return db
      .select({
        id: inventoryLevel.id,
        stocked: inventoryLevel.stocked_quantity,
        reserved: inventoryLevel.reserved_quantity,
        reservations: sql<number>`coalesce(${held.total}, 0)::int`,
      })
      .from(inventoryLevel)
      .leftJoin(
        held,
        and(
          eq(held.inventory_item_id, inventoryLevel.inventory_item_id),
          eq(held.location_id, inventoryLevel.location_id),
        ),
      )
      .where(
        and(
          liveLevel,
          or(
            lt(inventoryLevel.stocked_quantity, 0),
            lt(inventoryLevel.reserved_quantity, 0),
            ne(inventoryLevel.reserved_quantity, sql`coalesce(${held.total}, 0)`),
          ),
        ),
      )
      .orderBy(inventoryLevel.id)
      .limit(v.limit);
  }),
  /** The units the live reservations of each of the line items `ids` hold. */
  reservedForLines: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({
        line_item_id: sql<string>`${reservationItem.line_item_id}`,
        quantity: sql<number>`sum(${reservationItem.quantity})::int`,
      })
      .from(reservationItem)
      .where(and(liveReservation, inList(reservationItem.line_item_id, v.ids)))
      .groupBy(reservationItem.line_item_id),
  ),
  /** One page (by id) of live reservations made for a line item. */
  reservationLinesPage: statement((v: Placeholders<{ after: string; limit: number }>) =>
    db
      .select({ id: reservationItem.id, line_item_id: sql<string>`${reservationItem.line_item_id}` })
      .from(reservationItem)
      .where(and(liveReservation, isNotNull(reservationItem.line_item_id), sql`${reservationItem.id} > ${v.after}`))
      .orderBy(reservationItem.id)
      .limit(v.limit),
  ),
};
