import { and, asc, count, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import {
  db,
  first,
  groupBy,
  inFilters,
  inList,
  insertRows,
  liveRecords,
  rowsOf,
  statement,
  textSearch,
  type Placeholders,
} from "@kasse/db";
import {
  fulfillment,
  fulfillmentItem,
  fulfillmentSet,
  geoZone,
  serviceZone,
  shippingOption,
  shippingOptionPrice,
  shippingOptionType,
  shippingProfile,
  type FulfillmentRow,
  type ShippingOptionRow,
  type FulfillmentDate,
} from "./schema";
import type { ShippingOptionFilters, ShippingOptionTypeFilters } from "./shapes";

// The fulfillment module's SQL (profiles, options and their prices, option types, sets, service and
// geo zones, fulfillment records): the only file of the module that imports drizzle and its tables.

const profiles = liveRecords(shippingProfile, "Shipping profile", { name: shippingProfile.name });
const options = liveRecords(shippingOption, "Shipping option", { name: shippingOption.name });
const types = liveRecords(shippingOptionType, "Shipping option type", {
  label: shippingOptionType.label,
  code: shippingOptionType.code,
});
const sets = liveRecords(fulfillmentSet, "Fulfillment set");
const zones = liveRecords(serviceZone, "Service zone");

const liveOption = options.live;
const liveZone = zones.live;
const liveGeoZone = isNull(geoZone.deleted_at);
const liveFulfillment = isNull(fulfillment.deleted_at);

// A cart's shipping options (listed, and chosen for a method): their rows, in the cart's region (none:
// null) or none, and their prices.
const optionsInRegion = statement((v: Placeholders<{ region_id: string | null }>) =>
  db
    .select()
    .from(shippingOption)
    .where(and(liveOption, or(eq(shippingOption.region_id, v.region_id), isNull(shippingOption.region_id))))
    .orderBy(shippingOption.created_at, shippingOption.id),
);
/** The rows `read` gives of the parents `ids` by parent id (every id has an entry; no statement without ids). */
const byParent =
  <R>(read: (ids: readonly string[]) => Promise<R[]>, parent: (row: R) => string) =>
  async (ids: string[]): Promise<Map<string, R[]>> =>
    groupBy(ids.length ? await read(ids) : [], parent, { keys: ids });

/** The tables whose rows deleting a location's sets soft-deletes, and restoring it brings back. */
type ZoneTable = typeof fulfillmentSet | typeof serviceZone | typeof geoZone | typeof shippingOption;

/** Makes the rows `ids` of the table live again. */
const restoreRowsOf = (table: ZoneTable) =>
  statement((v: Placeholders<{ ids: string[]; at: Date }>) =>
    db.update(table).set({ deleted_at: null, updated_at: v.at }).where(inList(table.id, v.ids)),
  );
/** Soft-deletes the live rows of the table that `where` picks; the ids deleted. */
const softDeleteRowsOf = <V extends Record<string, unknown>>(
  table: ZoneTable,
  where: (v: Placeholders<V>) => SQL | undefined,
) =>
  statement((v: Placeholders<V & { at: Date }>) =>
    db
      .update(table)
      .set({ deleted_at: v.at, updated_at: v.at })
      .where(and(where(v), isNull(table.deleted_at)))
      .returning({ id: table.id }),
  );
const restoreSets = restoreRowsOf(fulfillmentSet);
const restoreZones = restoreRowsOf(serviceZone);
const restoreGeoZones = restoreRowsOf(geoZone);
const restoreOptions = restoreRowsOf(shippingOption);

/** The filters of a profile list as conditions. */
function profileConditions(filters: { id?: string[]; q?: string; type?: string[] }): SQL[] {
  const conditions = inFilters(filters, { id: shippingProfile.id, type: shippingProfile.type });
  return [...conditions, ...textSearch(filters.q, [shippingProfile.name])];
}

/** The filters of a shipping option type list as conditions. */
function typeConditions(filters: ShippingOptionTypeFilters): SQL[] {
  const { id, code, label, description } = shippingOptionType;
  return [...inFilters(filters, { id, code, label }), ...textSearch(filters.q, [label, code, description])];
}

function optionConditions(filters: ShippingOptionFilters): SQL[] {
  return [
    ...inFilters(filters, {
      id: shippingOption.id,
      region_id: shippingOption.region_id,
      stock_location_id: shippingOption.stock_location_id,
      shipping_profile_id: shippingOption.shipping_profile_id,
      service_zone_id: shippingOption.service_zone_id,
    }),
    ...textSearch(filters.q, [shippingOption.name]),
  ];
}

/** The columns of a geo zone an update sets (all of them: a zone's geo zones are given whole). */
type GeoZoneValues = Omit<typeof geoZone.$inferInsert, "id" | "created_at" | "updated_at" | "deleted_at">;

/** Named statements on the fulfillment tables, run on the current handle. */
export const fulfillmentQueries = {
  // --- profiles
  insertProfile: profiles.insert,
  retrieveProfile: profiles.retrieve,
  findProfile: profiles.find,
  softDeleteProfile: profiles.softDelete,
  listProfiles: profiles.listBy(profileConditions),
  /** How many live shipping options use the profile. */
  profileUses: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .select({ count: count() })
        .from(shippingOption)
        .where(and(eq(shippingOption.shipping_profile_id, v.id), liveOption)),
    ),
  ),
  /** The oldest live profile of type `default`. */
  defaultProfile: first(
    statement(() =>
      db
        .select()
        .from(shippingProfile)
        .where(and(eq(shippingProfile.type, "default"), profiles.live))
        .orderBy(shippingProfile.created_at)
        .limit(1),
    ),
  ),
  /** Inserts a default profile unless one conflicts; the row inserted, if any. */
  insertDefaultProfile: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .insert(shippingProfile)
        .values({ id: v.id, name: "Default Shipping Profile", type: "default" })
        .onConflictDoNothing()
        .returning(),
    ),
  ),
  /** The profiles `ids` (deleted ones too). */
  profilesByIds: rowsOf(shippingProfile, shippingProfile.id),

  // --- options
  retrieveOption: options.retrieve,
  softDeleteOption: options.softDelete,
  listOptions: options.listBy(optionConditions),
  /** The live options of the region (or of none, without one), oldest first. */
  optionsInRegion: (regionId: string | null): Promise<ShippingOptionRow[]> => optionsInRegion({ region_id: regionId }),
  /** The live options of the zones `ids`, oldest first, by zone id (every zone has an entry). */
  optionsOfZones: byParent(
    rowsOf(shippingOption, shippingOption.service_zone_id, {
      where: liveOption,
      order: [asc(shippingOption.created_at), asc(shippingOption.id)],
    }),
    (o) => o.service_zone_id!,
  ),
  /** The prices of the options `ids` by option id, in rank order (every option has an entry). */
  pricesOf: byParent(
    rowsOf(shippingOptionPrice, shippingOptionPrice.shipping_option_id, { order: [asc(shippingOptionPrice.rank)] }),
    (p) => p.shipping_option_id,
  ),
  insertOptions: insertRows(shippingOption),
  updateOption: options.update,
  insertPrices: insertRows(shippingOptionPrice),
  deletePricesOf: statement((v: Placeholders<{ id: string }>) =>
    db.delete(shippingOptionPrice).where(eq(shippingOptionPrice.shipping_option_id, v.id)),
  ),

  // --- option types
  insertType: types.insert,
  retrieveType: types.retrieve,
  findType: types.find,
  updateType: types.update,
  softDeleteType: types.softDelete,
  listTypes: types.listBy(typeConditions),
  /** The live type of `code`. */
  typeOfCode: first(
    statement((v: Placeholders<{ code: string }>) =>
      db
        .select()
        .from(shippingOptionType)
        .where(and(eq(shippingOptionType.code, v.code), types.live))
        .limit(1),
    ),
  ),
  /** Inserts a type unless its code is taken; the row inserted, if any. */
  insertTypeIfAbsent: first(
    statement((v: Placeholders<{ id: string; label: string; code: string; description: string | null }>) =>
      db
        .insert(shippingOptionType)
        .values({ id: v.id, label: v.label, code: v.code, description: v.description })
        .onConflictDoNothing()
        .returning(),
    ),
  ),
  /** Sets `type` on every option created with the type `type_id`. */
  setTypeOfOptions: statement(
    (v: Placeholders<{ type_id: string; type: ShippingOptionRow["type"]; updated_at: Date }>) =>
      db
        .update(shippingOption)
        .set({ type: v.type, updated_at: v.updated_at })
        .where(eq(shippingOption.shipping_option_type_id, v.type_id)),
  ),
  /** A live option of the type, if there is one. */
  optionOfType: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .select({ id: shippingOption.id })
        .from(shippingOption)
        .where(and(eq(shippingOption.shipping_option_type_id, v.id), liveOption))
        .limit(1),
    ),
  ),

  // --- sets and zones
  insertSet: sets.insert,
  retrieveSet: sets.retrieve,
  lockSet: sets.lock,
  /** The live sets of the stock locations, oldest first. */
  setsOfLocations: rowsOf(fulfillmentSet, fulfillmentSet.stock_location_id, {
    where: sets.live,
    order: [asc(fulfillmentSet.created_at), asc(fulfillmentSet.id)],
  }),
  /** The live zones of the sets `ids`, oldest first, by set id (every set has an entry). */
  zonesOfSets: byParent(
    rowsOf(serviceZone, serviceZone.fulfillment_set_id, {
      where: liveZone,
      order: [asc(serviceZone.created_at), asc(serviceZone.id)],
    }),
    (z) => z.fulfillment_set_id,
  ),
  /** The live geo zones of the zones `ids`, oldest first (those added together by country), by zone id. */
  geoZonesOf: byParent(
    rowsOf(geoZone, geoZone.service_zone_id, {
      where: liveGeoZone,
      order: [asc(geoZone.created_at), asc(geoZone.country_code), asc(geoZone.id)],
    }),
    (g) => g.service_zone_id,
  ),
  /** The live zones among `ids` whose set is live, each with its set. */
  zonesWithSets: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select({ zone: serviceZone, set: fulfillmentSet })
      .from(serviceZone)
      .innerJoin(fulfillmentSet, eq(fulfillmentSet.id, serviceZone.fulfillment_set_id))
      .where(and(inList(serviceZone.id, v.ids), liveZone, sets.live)),
  ),
  /** The live sets of the stock location `id`. */
  liveSetsOfLocation: statement((v: Placeholders<{ id: string }>) =>
    db
      .select({ id: fulfillmentSet.id })
      .from(fulfillmentSet)
      .where(and(eq(fulfillmentSet.stock_location_id, v.id), sets.live)),
  ),
  /** Soft-deletes the live sets `ids`; the ids deleted. */
  deleteSets: softDeleteRowsOf(fulfillmentSet, (v: Placeholders<{ ids: string[] }>) =>
    inList(fulfillmentSet.id, v.ids),
  ),
  /** Soft-deletes the live zones of the sets `set_ids` and those of `zone_ids`; the ids deleted. */
  deleteZones: softDeleteRowsOf(serviceZone, (v: Placeholders<{ set_ids: string[]; zone_ids: string[] }>) =>
    or(inList(serviceZone.fulfillment_set_id, v.set_ids), inList(serviceZone.id, v.zone_ids)),
  ),
  /** Soft-deletes the live geo zones of the zones `ids`; the ids deleted. */
  deleteGeoZonesOf: softDeleteRowsOf(geoZone, (v: Placeholders<{ ids: string[] }>) =>
    inList(geoZone.service_zone_id, v.ids),
  ),
  /** Soft-deletes the live options of the zones `ids`; the ids deleted. */
  deleteOptionsOfZones: softDeleteRowsOf(shippingOption, (v: Placeholders<{ ids: string[] }>) =>
    inList(shippingOption.service_zone_id, v.ids),
  ),
  /** Makes the rows deleted live again. */
  async restore(ids: { set_ids: string[]; zone_ids: string[]; geo_zone_ids: string[]; option_ids: string[] }) {
    const at = new Date();
    if (ids.set_ids.length) await restoreSets({ ids: ids.set_ids, at });
    if (ids.zone_ids.length) await restoreZones({ ids: ids.zone_ids, at });
    if (ids.geo_zone_ids.length) await restoreGeoZones({ ids: ids.geo_zone_ids, at });
    if (ids.option_ids.length) await restoreOptions({ ids: ids.option_ids, at });
  },
  insertZone: zones.insert,
  findZone: zones.find,
  zoneNotFound: zones.notFound,
  updateZone: zones.update,
  insertGeoZones: insertRows(geoZone),
  /** Soft-deletes the zone's live geo zones but those `kept` (an empty list keeps none). */
  deleteGeoZonesBut: softDeleteRowsOf(geoZone, (v: Placeholders<{ zone_id: string; kept: string[] }>) =>
    and(eq(geoZone.service_zone_id, v.zone_id), sql`not ${inList(geoZone.id, v.kept)}`),
  ),
  /** Sets every column of the geo zone. */
  updateGeoZone: statement((v: Placeholders<GeoZoneValues & { id: string; updated_at: Date }>) =>
    db
      .update(geoZone)
      .set({
        type: v.type,
        country_code: v.country_code,
        province_code: v.province_code,
        city: v.city,
        postal_expression: v.postal_expression,
        service_zone_id: v.service_zone_id,
        metadata: v.metadata,
        updated_at: v.updated_at,
      })
      .where(eq(geoZone.id, v.id)),
  ),

  // --- fulfillment records
  insertFulfillments: insertRows(fulfillment),
  insertFulfillmentItems: insertRows(fulfillmentItem),
  /** The live fulfillment `id`. */
  fulfillment: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .select()
        .from(fulfillment)
        .where(and(eq(fulfillment.id, v.id), liveFulfillment)),
    ),
  ),
  /** The live fulfillment `id` of the order, locked for the rest of the transaction. */
  lockFulfillmentOfOrder: first(
    statement((v: Placeholders<{ id: string; order_id: string }>) =>
      db
        .select()
        .from(fulfillment)
        .where(and(eq(fulfillment.id, v.id), eq(fulfillment.order_id, v.order_id), liveFulfillment))
        .for("update"),
    ),
  ),
  /** The live fulfillments of the orders, oldest first. */
  fulfillmentsOfOrders: rowsOf(fulfillment, fulfillment.order_id, {
    where: liveFulfillment,
    order: [asc(fulfillment.created_at), asc(fulfillment.id)],
  }),
  /** The items of the fulfillments `ids` by fulfillment id (every fulfillment has an entry). */
  itemsOf: byParent(
    rowsOf(fulfillmentItem, fulfillmentItem.fulfillment_id, { order: [asc(fulfillmentItem.id)] }),
    (i) => i.fulfillment_id,
  ),
  /** Sets one of a fulfillment's dates (a time or null) and, with `labels`, its labels. */
  markFulfillment: async (
    id: string,
    field: FulfillmentDate,
    at: Date | null,
    labels?: FulfillmentRow["labels"],
  ): Promise<void> => {
    await db
      .update(fulfillment)
      .set({ [field]: at, ...(labels ? { labels } : {}) })
      .where(eq(fulfillment.id, id));
  },
  deleteFulfillment: statement((v: Placeholders<{ id: string }>) =>
    db.delete(fulfillment).where(eq(fulfillment.id, v.id)),
  ),
};
