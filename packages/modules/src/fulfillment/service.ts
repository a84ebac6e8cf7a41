import { and, asc, count, eq, isNull, notInArray, or, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import {
  builtOnce,
  groupBy,
  idList,
  inParam,
  param,
  isUniqueViolation,
  transaction,
  type Db,
  type ListPaging,
  anyOf,
  liveRecords,
  rowsByParent,
  textSearch,
  inList,
} from "@kasse/db";
import { DEFAULT_OPTION_TYPE, optionTypeOf, typeOfCode } from "./option-types";
import { priceFor } from "./price-for";
import {
  fulfillmentSet,
  geoZone,
  serviceZone,
  type FulfillmentSetCreate,
  type ServiceZoneCreate,
  type ServiceZoneUpdate,
  shippingOption,
  shippingOptionPrice,
  shippingProfile,
  shippingOptionType,
  type ShippingOptionCreate,
  type ShippingOptionFilters,
  type ShippingOptionPriceInput,
  type ShippingOptionPriceRow,
  type ShippingOptionRow,
  type ShippingOptionUpdate,
  type ShippingProfileCreate,
  type ShippingProfileRow,
} from "./schema";
import {
  geoZonesOf,
  geoZoneValues,
  inGeoZone,
  zonesOfSets,
  zonesWithSets,
  type FulfillmentSet,
  type ServiceZone,
  type ZoneAddress,
} from "./zones";

/** What {@link createFulfillmentService}'s `deleteSetsOfLocation` removed, for `restoreDeleted` to put back. */
export interface DeletedZoneRecords {
  set_ids: string[];
  zone_ids: string[];
  geo_zone_ids: string[];
  option_ids: string[];
}

/** A shipping option as the API shows it: the row plus its prices. */
export type ShippingOption = ShippingOptionRow & { prices: Array<Omit<ShippingOptionPriceRow, "rank">> };

const liveProfile = isNull(shippingProfile.deleted_at);
const liveOption = isNull(shippingOption.deleted_at);

// A cart's shipping options (listed, and chosen for a method): their rows, in the cart's region or
// none, and their prices, built once.
const optionsWhere = (inRegion: SQL) =>
  builtOnce<ShippingOptionRow[], { region_id?: string }>((db) =>
    db
      .select()
      .from(shippingOption)
      .where(and(liveOption, inRegion))
      .orderBy(shippingOption.created_at, shippingOption.id),
  );
const optionsInRegion = optionsWhere(
  or(eq(shippingOption.region_id, param("region_id")), isNull(shippingOption.region_id))!,
);
const optionsWithoutRegion = optionsWhere(isNull(shippingOption.region_id));
const pricesOfOptions = builtOnce<ShippingOptionPriceRow[], { ids: string }>((db) =>
  db
    .select()
    .from(shippingOptionPrice)
    .where(inParam(shippingOptionPrice.shipping_option_id, "ids"))
    .orderBy(asc(shippingOptionPrice.rank)),
);

/**
 * Shipping profiles and shipping options, and which options a cart can use.
 * @example
 * const fulfillment = createFulfillmentService(db);
 * const option = await fulfillment.createOption({ name: "Standard", prices: [{ currency_code: "usd", amount: 800 }] });
 */
export function createFulfillmentService(db: Db) {
  const profiles = liveRecords(db, shippingProfile, "Shipping profile", { name: shippingProfile.name });
  const optionRecords = liveRecords(db, shippingOption, "Shipping option", { name: shippingOption.name });
  const optionRows = shippingOptionRows(db);
  const sets = liveRecords(db, fulfillmentSet, "Fulfillment set");
  const zoneRecords = liveRecords(db, serviceZone, "Service zone");
  const service = {
    createProfile: (input: ShippingProfileCreate): Promise<ShippingProfileRow> =>
      profiles.insert(
        { id: generateId("sp"), name: input.name, type: input.type, metadata: input.metadata ?? null },
        `Shipping profile with name: ${input.name} already exists`,
      ),

    retrieveProfile: (id: string): Promise<ShippingProfileRow> => profiles.retrieve(id),

    listProfiles(filters: { id?: string[]; q?: string; type?: string[] }, page: ListPaging) {
      const conditions = anyOf(filters, { id: shippingProfile.id, type: shippingProfile.type });
      conditions.push(...textSearch(filters.q, [shippingProfile.name]));
      return profiles.list(conditions, page);
    },

    /** Soft delete; refused while live shipping options use the profile. */
    async deleteProfile(id: string): Promise<void> {
      await profiles.retrieve(id);
      const [used] = await db
        .select({ count: count() })
        .from(shippingOption)
        .where(and(eq(shippingOption.shipping_profile_id, id), liveOption));
      if ((used?.count ?? 0) > 0)
        throw errors.notAllowed(`Shipping profile ${id} is used by shipping options; delete them first`);
      await profiles.softDelete(id);
    },

    /**
     * The profile every product ships under: Kasse assigns no profile per product (any option may
     * ship any product), so a product's `shipping_profile` is the store's default one. Null before
     * the first option created it. Reads only.
     */
    async defaultProfile(): Promise<ShippingProfileRow | null> {
      const [existing] = await db
        .select()
        .from(shippingProfile)
        .where(and(eq(shippingProfile.type, "default"), liveProfile))
        .orderBy(shippingProfile.created_at)
        .limit(1);
      return existing ?? null;
    },

    /** The store's default profile, created on first use. */
    async getOrCreateDefaultProfile(): Promise<ShippingProfileRow> {
      const existing = await service.defaultProfile();
      if (existing) return existing;
      const [row] = await db
        .insert(shippingProfile)
        .values({ id: generateId("sp"), name: "Default Shipping Profile", type: "default" })
        .onConflictDoNothing()
        .returning();
      return row ?? (await service.getOrCreateDefaultProfile());
    },

    /** Creates an option with its prices, all or nothing. */
    async createOption(input: ShippingOptionCreate): Promise<ShippingOption> {
      return transaction(db, async (tx) => {
        const writes = shippingOptionRows(tx);
        const profileId =
          input.shipping_profile_id ?? (await createFulfillmentService(tx).getOrCreateDefaultProfile()).id;
        if (input.shipping_profile_id) await writes.existingProfile(profileId);
        const stockLocationId = await locationOfZone(tx, input);
        // An option always has a type: the one named, else the default type.
        const typeRow = input.type_id
          ? await writes.existingType(input.type_id)
          : await typeOfCode(tx, input.type ?? DEFAULT_OPTION_TYPE);
        const id = generateId("so");
        await tx.insert(shippingOption).values({
          id,
          name: input.name,
          price_type: input.price_type ?? "flat",
          region_id: input.region_id ?? null,
          stock_location_id: stockLocationId,
          service_zone_id: input.service_zone_id ?? null,
          shipping_profile_id: profileId,
          provider_id: input.provider_id ?? "manual_manual",
          data: input.data ?? null,
          rules: input.rules ?? [],
          type: optionTypeOf(typeRow),
          shipping_option_type_id: typeRow.id,
          metadata: input.metadata ?? null,
        });
        await writes.insertPrices(id, input.prices);
        return createFulfillmentService(tx).retrieveOption(id);
      });
    },

    /** Updates an option; `prices` replaces its prices. All or nothing. */
    async updateOption(id: string, input: ShippingOptionUpdate): Promise<ShippingOption> {
      return transaction(db, async (tx) => {
        const writes = shippingOptionRows(tx);
        await createFulfillmentService(tx).retrieveOption(id);
        const { prices, type_id, type, ...fields } = input;
        if (fields.shipping_profile_id) await writes.existingProfile(fields.shipping_profile_id);
        const typeRow = type_id ? await writes.existingType(type_id) : type ? await typeOfCode(tx, type) : null;
        const typed = typeRow ? { type: optionTypeOf(typeRow), shipping_option_type_id: typeRow.id } : {};
        if (fields.service_zone_id !== undefined || fields.stock_location_id !== undefined)
          fields.stock_location_id = await locationOfZone(tx, fields);
        const changes = { ...fields, ...typed };
        if (Object.keys(changes).length > 0)
          await tx.update(shippingOption).set(changes).where(eq(shippingOption.id, id));
        if (prices) {
          await tx.delete(shippingOptionPrice).where(eq(shippingOptionPrice.shipping_option_id, id));
          await writes.insertPrices(id, prices);
        }
        return createFulfillmentService(tx).retrieveOption(id);
      });
    },

    retrieveOption: async (id: string): Promise<ShippingOption> =>
      (await optionRows.attachPrices([await optionRecords.retrieve(id)]))[0]!,

    async listOptions(
      filters: ShippingOptionFilters,
      page: ListPaging,
    ): Promise<{ items: ShippingOption[]; count: number }> {
      const conditions = anyOf(filters, {
        id: shippingOption.id,
        region_id: shippingOption.region_id,
        stock_location_id: shippingOption.stock_location_id,
        shipping_profile_id: shippingOption.shipping_profile_id,
        service_zone_id: shippingOption.service_zone_id,
      });
      conditions.push(...textSearch(filters.q, [shippingOption.name]));
      const { items, count } = await optionRecords.list(conditions, page);
      return { items: await optionRows.attachPrices(items), count };
    },

    deleteOption: (id: string): Promise<void> => optionRecords.softDelete(id),

    /** Creates a fulfillment set of a stock location (checked by the caller); names are unique. */
    async createSet(stockLocationId: string, input: FulfillmentSetCreate): Promise<FulfillmentSet> {
      try {
        const [row] = await db
          .insert(fulfillmentSet)
          .values({
            id: generateId("fuset"),
            name: input.name,
            type: input.type,
            stock_location_id: stockLocationId,
            metadata: input.metadata ?? null,
          })
          .returning();
        return { ...row!, service_zones: [] };
      } catch (error) {
        if (isUniqueViolation(error)) throw errors.conflict(`Fulfillment set with name: ${input.name} already exists`);
        throw error;
      }
    },

    /** A fulfillment set with its service zones and their geo zones. */
    retrieveSet: async (id: string): Promise<FulfillmentSet> => (await zonesOfSets(db, [await sets.retrieve(id)]))[0]!,

    /**
     * The fulfillment sets of the locations (oldest first), with their service zones and, as
     * asked, the zones' geo zones and shipping options (with prices, and their shipping profile):
     * one statement per relation, whatever the number of locations.
     */
    async setsForLocations(
      locationIds: string[],
      include: { geo_zones?: boolean; shipping_options?: boolean; shipping_profile?: boolean } = {},
    ) {
      const out = new Map<string, Array<Omit<FulfillmentSet, "service_zones"> & { service_zones: ZoneTree[] }>>(
        locationIds.map((id) => [id, []]),
      );
      if (locationIds.length === 0) return out;
      const rows = await db
        .select()
        .from(fulfillmentSet)
        .where(and(inList(fulfillmentSet.stock_location_id, locationIds), sets.live))
        .orderBy(asc(fulfillmentSet.created_at), asc(fulfillmentSet.id));
      const tree = await zonesOfSets(db, rows, include.geo_zones ?? false);
      const zones = tree.flatMap((set) => set.service_zones);
      const options = include.shipping_options
        ? await optionRows.optionsOfZones(zones, include.shipping_profile)
        : undefined;
      for (const set of tree) {
        const shaped = {
          ...set,
          service_zones: set.service_zones.map(({ geo_zones, ...zone }) => ({
            ...zone,
            ...(include.geo_zones ? { geo_zones } : {}),
            ...(options ? { shipping_options: options.get(zone.id) ?? [] } : {}),
          })),
        };
        out.get(set.stock_location_id!)?.push(shaped);
      }
      return out;
    },

    /**
     * Soft-deletes a fulfillment set with its service zones, their geo zones and shipping options
     * (Medusa deletes a set's zones and their options with it).
     */
    async deleteSet(id: string): Promise<void> {
      await transaction(db, async (t) => {
        await liveRecords(t, fulfillmentSet, "Fulfillment set").retrieve(id);
        await deleteZoneRecords(t, { set_ids: [id] });
      });
    },

    /**
     * Soft-deletes every fulfillment set of a stock location (the location is being deleted), and
     * answers what it deleted so that {@link restoreDeleted} can undo it.
     */
    deleteSetsOfLocation: (stockLocationId: string): Promise<DeletedZoneRecords> =>
      transaction(db, async (t) => {
        const rows = await t
          .select({ id: fulfillmentSet.id })
          .from(fulfillmentSet)
          .where(and(eq(fulfillmentSet.stock_location_id, stockLocationId), isNull(fulfillmentSet.deleted_at)));
        return deleteZoneRecords(t, { set_ids: rows.map((r) => r.id) });
      }),

    /** Undoes a {@link deleteSetsOfLocation}: the rows it deleted are live again. */
    async restoreDeleted(deleted: DeletedZoneRecords): Promise<void> {
      await transaction(db, async (t) => {
        const live = { deleted_at: null };
        if (deleted.set_ids.length)
          await t.update(fulfillmentSet).set(live).where(inList(fulfillmentSet.id, deleted.set_ids));
        if (deleted.zone_ids.length)
          await t.update(serviceZone).set(live).where(inList(serviceZone.id, deleted.zone_ids));
        if (deleted.geo_zone_ids.length)
          await t.update(geoZone).set(live).where(inList(geoZone.id, deleted.geo_zone_ids));
        if (deleted.option_ids.length)
          await t.update(shippingOption).set(live).where(inList(shippingOption.id, deleted.option_ids));
      });
    },

    /** Adds a service zone with its geo zones to a set; zone names are unique. Answers the set. */
    async createZone(setId: string, input: ServiceZoneCreate): Promise<FulfillmentSet> {
      await transaction(db, async (t) => {
        await liveRecords(t, fulfillmentSet, "Fulfillment set").lock(setId);
        const id = generateId("serzo");
        const values = geoZoneValues(id, input.geo_zones ?? []);
        await insertZone(t, { id, name: input.name, fulfillment_set_id: setId, metadata: input.metadata ?? null });
        if (values.length) await t.insert(geoZone).values(values);
      });
      return service.retrieveSet(setId);
    },

    /** A service zone of the set with its geo zones; 404 when the set has no such live zone. */
    async retrieveZone(setId: string, zoneId: string): Promise<ServiceZone> {
      await sets.retrieve(setId);
      const zone = await zoneRecords.find(zoneId);
      if (!zone || zone.fulfillment_set_id !== setId) throw zoneRecords.notFound(zoneId);
      return { ...zone, geo_zones: (await geoZonesOf(db, [zone])).get(zone.id)! };
    },

    /**
     * Renames a zone and, with `geo_zones`, makes them its geo zones: those naming one of its ids
     * are updated, the others added, the ones left out deleted. Answers the set.
     */
    async updateZone(setId: string, zoneId: string, input: ServiceZoneUpdate): Promise<FulfillmentSet> {
      await transaction(db, async (t) => {
        const scoped = createFulfillmentService(t);
        const zone = await scoped.retrieveZone(setId, zoneId);
        const changes: Partial<ServiceZone> = {};
        if (input.name !== undefined) changes.name = input.name;
        if (input.metadata !== undefined) changes.metadata = input.metadata;
        if (Object.keys(changes).length) {
          try {
            await t.update(serviceZone).set(changes).where(eq(serviceZone.id, zoneId));
          } catch (error) {
            if (isUniqueViolation(error)) throw errors.conflict(`Service zone with name: ${input.name} already exists`);
            throw error;
          }
        }
        if (!input.geo_zones) return;
        const own = new Set(zone.geo_zones.map((g) => g.id));
        const foreign = input.geo_zones.find((g) => g.id && !own.has(g.id));
        if (foreign) throw errors.invalidData(`Geo zone with id: ${foreign.id} is not in service zone ${zoneId}`);
        const values = geoZoneValues(zoneId, input.geo_zones);
        const kept = values.filter((v) => own.has(v.id)).map((v) => v.id);
        await t
          .update(geoZone)
          .set({ deleted_at: new Date() })
          .where(
            and(
              eq(geoZone.service_zone_id, zoneId),
              isNull(geoZone.deleted_at),
              kept.length ? notInArray(geoZone.id, kept) : undefined,
            ),
          );
        for (const value of values) {
          if (own.has(value.id)) {
            const { id, ...rest } = value;
            await t.update(geoZone).set(rest).where(eq(geoZone.id, id));
          } else await t.insert(geoZone).values(value);
        }
      });
      return service.retrieveSet(setId);
    },

    /** Soft-deletes a zone of the set with its geo zones and shipping options. */
    async deleteZone(setId: string, zoneId: string): Promise<void> {
      await transaction(db, async (t) => {
        await createFulfillmentService(t).retrieveZone(setId, zoneId);
        await deleteZoneRecords(t, { set_ids: [], zone_ids: [zoneId] });
      });
    },

    /** The live zones among `ids` with their fulfillment set, by zone id (one statement). */
    zonesWithSets: (ids: string[]) => zonesWithSets(db, ids),

    /**
     * Options a cart in this region and currency can use, each with its `amount`: store-enabled,
     * not return options, in the region (or region-less) and priced there; an option of a service
     * zone only when the cart's shipping address lies in one of the zone's geo zones (none without
     * an address, as Medusa filters by the address's country). Geo zones are read only when a
     * candidate option has a zone.
     */
    async optionsForContext(context: {
      region_id: string | null;
      currency_code: string;
      address?: ZoneAddress | null;
    }): Promise<Array<ShippingOption & { amount: number }>> {
      const rows = context.region_id
        ? await optionsInRegion(db, { region_id: context.region_id })
        : await optionsWithoutRegion(db, {});
      const visible = rows.filter((row) => storeVisible(row.rules));
      const zoneIds = [...new Set(visible.flatMap((row) => (row.service_zone_id ? [row.service_zone_id] : [])))];
      const geo = zoneIds.length
        ? await geoZonesOf(
            db,
            zoneIds.map((id) => ({ id })),
          )
        : new Map<string, never[]>();
      const options = await optionRows.attachPrices(
        visible.filter(
          (row) =>
            !row.service_zone_id ||
            (geo.get(row.service_zone_id) ?? []).some((zone) => inGeoZone(zone, context.address)),
        ),
      );
      const out: Array<ShippingOption & { amount: number }> = [];
      for (const option of options) {
        const amount = priceFor(option.prices, context);
        if (amount !== undefined) out.push({ ...option, amount });
      }
      return out;
    },
  };
  return service;
}

export type FulfillmentService = ReturnType<typeof createFulfillmentService>;

/** A service zone as the stock location tree shows it: geo zones and shipping options when asked. */
type ZoneTree = Omit<ServiceZone, "geo_zones"> & {
  geo_zones?: ServiceZone["geo_zones"];
  shipping_options?: Array<ShippingOption & { shipping_profile?: ShippingProfileRow | null }>;
};

async function insertZone(tx: Db, values: typeof serviceZone.$inferInsert): Promise<void> {
  try {
    await tx.insert(serviceZone).values(values);
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.conflict(`Service zone with name: ${values.name} already exists`);
    throw error;
  }
}

/**
 * The stock location an option ships from: its service zone's set's location when it names a
 * zone (400 when the zone is unknown, or the option names another location), else the location given.
 */
async function locationOfZone(
  tx: Db,
  input: { service_zone_id?: string | null; stock_location_id?: string | null },
): Promise<string | null> {
  if (!input.service_zone_id) return input.stock_location_id ?? null;
  const zone = (await zonesWithSets(tx, [input.service_zone_id])).get(input.service_zone_id);
  if (!zone) throw errors.invalidData(`Service zone with id: ${input.service_zone_id} was not found`);
  const location = zone.fulfillment_set.stock_location_id;
  if (input.stock_location_id && input.stock_location_id !== location)
    throw errors.invalidData(
      `Service zone ${input.service_zone_id} ships from stock location ${location}, not ${input.stock_location_id}`,
    );
  return location;
}

/**
 * Soft-deletes sets, zones (those of the sets and those named), their geo zones and their shipping
 * options, one statement per table; answers the ids it deleted.
 */
async function deleteZoneRecords(
  tx: Db,
  target: { set_ids: string[]; zone_ids?: string[] },
): Promise<DeletedZoneRecords> {
  const now = new Date();
  const setIds = target.set_ids.length
    ? (
        await tx
          .update(fulfillmentSet)
          .set({ deleted_at: now })
          .where(and(inList(fulfillmentSet.id, target.set_ids), isNull(fulfillmentSet.deleted_at)))
          .returning({ id: fulfillmentSet.id })
      ).map((r) => r.id)
    : [];
  const zoneIds = (
    await tx
      .update(serviceZone)
      .set({ deleted_at: now })
      .where(
        and(
          isNull(serviceZone.deleted_at),
          or(inList(serviceZone.fulfillment_set_id, target.set_ids), inList(serviceZone.id, target.zone_ids ?? [])),
        ),
      )
      .returning({ id: serviceZone.id })
  ).map((r) => r.id);
  const geoIds = zoneIds.length
    ? (
        await tx
          .update(geoZone)
          .set({ deleted_at: now })
          .where(and(inList(geoZone.service_zone_id, zoneIds), isNull(geoZone.deleted_at)))
          .returning({ id: geoZone.id })
      ).map((r) => r.id)
    : [];
  const optionIds = zoneIds.length
    ? (
        await tx
          .update(shippingOption)
          .set({ deleted_at: now })
          .where(and(inList(shippingOption.service_zone_id, zoneIds), liveOption))
          .returning({ id: shippingOption.id })
      ).map((r) => r.id)
    : [];
  return { set_ids: setIds, zone_ids: zoneIds, geo_zone_ids: geoIds, option_ids: optionIds };
}

/**
 * The checks and price rows of shipping option writes, and the priced reads, over one handle: the
 * service's own, or the transaction of the write that uses them.
 */
function shippingOptionRows(db: Db) {
  async function existingType(id: string) {
    const type = await liveRecords(db, shippingOptionType, "Shipping option type").find(id);
    if (!type) throw errors.invalidData(`Shipping option type with id: ${id} was not found`);
    return type;
  }

  async function existingProfile(id: string): Promise<void> {
    if (!(await liveRecords(db, shippingProfile, "Shipping profile").find(id)))
      throw errors.invalidData(`Shipping profile with id: ${id} was not found`);
  }

  /** The live shipping options of the zones with their prices and, when asked, their profile; by zone id. */
  async function optionsOfZones(zones: Array<{ id: string }>, withProfile = false) {
    const byZone = await rowsByParent(db, shippingOption, "service_zone_id", zones, {
      where: liveOption,
      order: [asc(shippingOption.created_at), asc(shippingOption.id)],
    });
    const rows = [...byZone.values()].flat();
    const priced = new Map((await attachPrices(rows)).map((o) => [o.id, o]));
    const profileIds = [...new Set(rows.map((r) => r.shipping_profile_id))];
    const profiles =
      withProfile && profileIds.length
        ? new Map(
            (await db.select().from(shippingProfile).where(inList(shippingProfile.id, profileIds))).map((p) => [
              p.id,
              p,
            ]),
          )
        : undefined;
    return new Map(
      [...byZone].map(([zoneId, options]) => [
        zoneId,
        options.map((o) => ({
          ...priced.get(o.id)!,
          ...(profiles ? { shipping_profile: profiles.get(o.shipping_profile_id) ?? null } : {}),
        })),
      ]),
    );
  }

  async function insertPrices(optionId: string, prices: ShippingOptionPriceInput[]): Promise<void> {
    const seen = new Set<string>();
    const rows = prices.map((price, rank) => {
      const currency = "currency_code" in price ? price.currency_code.toLowerCase() : null;
      const region = "region_id" in price ? price.region_id : null;
      const key = currency ? `c:${currency}` : `r:${region}`;
      if (seen.has(key)) throw errors.invalidData(`Shipping option has two prices for ${currency ?? region}`);
      seen.add(key);
      return {
        id: generateId("sopr"),
        shipping_option_id: optionId,
        currency_code: currency,
        region_id: region,
        amount: price.amount,
        rank,
      };
    });
    await db.insert(shippingOptionPrice).values(rows);
  }

  async function attachPrices(rows: ShippingOptionRow[]): Promise<ShippingOption[]> {
    const ids = rows.map((row) => row.id);
    const prices = groupBy(
      ids.length ? await pricesOfOptions(db, { ids: idList(ids) }) : [],
      (p) => p.shipping_option_id,
      {
        keys: ids,
      },
    );
    return rows.map((row) => ({ ...row, prices: prices.get(row.id)!.map(({ rank: _rank, ...price }) => price) }));
  }

  return { existingType, existingProfile, insertPrices, attachPrices, optionsOfZones };
}

/** Medusa's store rules: `enabled_in_store` false hides an option, `is_return` true marks a return option. */
function storeVisible(rules: ShippingOptionRow["rules"]): boolean {
  for (const rule of rules) {
    const value = Array.isArray(rule.value) ? rule.value[0] : rule.value;
    if (rule.attribute === "enabled_in_store" && rule.operator === "eq" && value === "false") return false;
    if (rule.attribute === "is_return" && rule.operator === "eq" && value === "true") return false;
  }
  return true;
}
