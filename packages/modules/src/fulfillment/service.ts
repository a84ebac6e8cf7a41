import { errors, generateId } from "@kasse/core";
import { transaction, viewPage, type ListPaging } from "@kasse/db";
import { DEFAULT_OPTION_TYPE, optionTypeOf, typeOfCode } from "./option-types";
import { priceFor } from "./price-for";
import { fulfillmentQueries as q } from "./queries";
import type { ShippingOptionPriceRow, ShippingOptionRow, ShippingProfileRow } from "./schema";
import type {
  FulfillmentSetCreate,
  ServiceZoneCreate,
  ServiceZoneUpdate,
  ShippingOptionCreate,
  ShippingOptionFilters,
  ShippingOptionPriceInput,
  ShippingOptionUpdate,
  ShippingProfileCreate,
} from "./shapes";
import {
  geoZoneValues,
  inGeoZone,
  zonesOfSets,
  zonesWithSets,
  type FulfillmentSet,
  type ServiceZone,
  type ZoneAddress,
} from "./zones";

/** What {@link createFulfillmentService}'s `deleteSetsOfLocation` removed, for `restoreDeleted` to put back. */
export type DeletedZoneRecords = Parameters<typeof q.restore>[0];

/** A shipping option as the API shows it: the row plus its prices. */
export type ShippingOption = ShippingOptionRow & { prices: Array<Omit<ShippingOptionPriceRow, "rank">> };

/**
 * Shipping profiles and shipping options, and which options a cart can use. Built once per process;
 * every method runs in the transaction in progress, if any.
 * @example
 * const fulfillment = createFulfillmentService();
 * const option = await fulfillment.createOption({ name: "Standard", prices: [{ currency_code: "usd", amount: 800 }] });
 */
export function createFulfillmentService() {
  const service = {
    createProfile: (input: ShippingProfileCreate): Promise<ShippingProfileRow> =>
      q.insertProfile(
        { id: generateId("sp"), name: input.name, type: input.type, metadata: input.metadata ?? null },
        `Shipping profile with name: ${input.name} already exists`,
      ),

    retrieveProfile: q.retrieveProfile,

    listProfiles: q.listProfiles,

    /** Soft delete; refused while live shipping options use the profile. */
    async deleteProfile(id: string): Promise<void> {
      await q.retrieveProfile(id);
      if (((await q.profileUses({ id }))?.count ?? 0) > 0)
        throw errors.notAllowed(`Shipping profile ${id} is used by shipping options; delete them first`);
      await q.softDeleteProfile(id);
    },

    /**
     * The profile every product ships under: Kasse assigns no profile per product (any option may
     * ship any product), so a product's `shipping_profile` is the store's default one. Null before
     * the first option created it. Reads only.
     */
    async defaultProfile(): Promise<ShippingProfileRow | null> {
      return (await q.defaultProfile()) ?? null;
    },

    /** The store's default profile, created on first use. */
    async getOrCreateDefaultProfile(): Promise<ShippingProfileRow> {
      const existing = await service.defaultProfile();
      if (existing) return existing;
      const row = await q.insertDefaultProfile({ id: generateId("sp") });
      return row ?? (await service.getOrCreateDefaultProfile());
    },

    /** Creates an option with its prices, all or nothing. */
    async createOption(input: ShippingOptionCreate): Promise<ShippingOption> {
      return transaction(async () => {
        const profileId = input.shipping_profile_id ?? (await service.getOrCreateDefaultProfile()).id;
        if (input.shipping_profile_id) await existingProfile(profileId);
        const stockLocationId = await locationOfZone(input);
        // An option always has a type: the one named, else the default type.
        const typeRow = input.type_id
          ? await existingType(input.type_id)
          : await typeOfCode(input.type ?? DEFAULT_OPTION_TYPE);
        const id = generateId("so");
        await q.insertOptions([
          {
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
          },
        ]);
        await insertPrices(id, input.prices);
        return service.retrieveOption(id);
      });
    },

    /** Updates an option; `prices` replaces its prices. All or nothing. */
    async updateOption(id: string, input: ShippingOptionUpdate): Promise<ShippingOption> {
      return transaction(async () => {
        await service.retrieveOption(id);
        const { prices, type_id, type, ...fields } = input;
        if (fields.shipping_profile_id) await existingProfile(fields.shipping_profile_id);
        const typeRow = type_id ? await existingType(type_id) : type ? await typeOfCode(type) : null;
        const typed = typeRow ? { type: optionTypeOf(typeRow), shipping_option_type_id: typeRow.id } : {};
        if (fields.service_zone_id !== undefined || fields.stock_location_id !== undefined)
          fields.stock_location_id = await locationOfZone(fields);
        const changes = { ...fields, ...typed };
        if (Object.keys(changes).length > 0) await q.updateOption(id, changes);
        if (prices) {
          await q.deletePricesOf({ id });
          await insertPrices(id, prices);
        }
        return service.retrieveOption(id);
      });
    },

    retrieveOption: async (id: string): Promise<ShippingOption> =>
      (await attachPrices([await q.retrieveOption(id)]))[0]!,

    listOptions: (filters: ShippingOptionFilters, page: ListPaging) =>
      viewPage(q.listOptions(filters, page), attachPrices),

    deleteOption: q.softDeleteOption,

    /** Creates a fulfillment set of a stock location (checked by the caller); names are unique. */
    async createSet(stockLocationId: string, input: FulfillmentSetCreate): Promise<FulfillmentSet> {
      const row = await q.insertSet(
        {
          id: generateId("fuset"),
          name: input.name,
          type: input.type,
          stock_location_id: stockLocationId,
          metadata: input.metadata ?? null,
        },
        `Fulfillment set with name: ${input.name} already exists`,
      );
      return { ...row, service_zones: [] };
    },

    /** A fulfillment set with its service zones and their geo zones. */
    retrieveSet: async (id: string): Promise<FulfillmentSet> => (await zonesOfSets([await q.retrieveSet(id)]))[0]!,

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
      const rows = await q.setsOfLocations(locationIds);
      const tree = await zonesOfSets(rows, include.geo_zones ?? false);
      const zones = tree.flatMap((set) => set.service_zones);
      const options = include.shipping_options ? await optionsOfZones(zones, include.shipping_profile) : undefined;
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
      await transaction(async () => {
        await q.retrieveSet(id);
        await deleteZoneRecords({ set_ids: [id] });
      });
    },

    /**
     * Soft-deletes every fulfillment set of a stock location (the location is being deleted), and
     * answers what it deleted so that {@link restoreDeleted} can undo it.
     */
    deleteSetsOfLocation: (stockLocationId: string): Promise<DeletedZoneRecords> =>
      transaction(async () => deleteZoneRecords({ set_ids: ids(await q.liveSetsOfLocation({ id: stockLocationId })) })),

    /** Undoes a {@link deleteSetsOfLocation}: the rows it deleted are live again. */
    async restoreDeleted(deleted: DeletedZoneRecords): Promise<void> {
      await transaction(() => q.restore(deleted));
    },

    /** Adds a service zone with its geo zones to a set; zone names are unique. Answers the set. */
    async createZone(setId: string, input: ServiceZoneCreate): Promise<FulfillmentSet> {
      await transaction(async () => {
        await q.lockSet(setId);
        const id = generateId("serzo");
        const values = geoZoneValues(id, input.geo_zones ?? []);
        await q.insertZone(
          { id, name: input.name, fulfillment_set_id: setId, metadata: input.metadata ?? null },
          `Service zone with name: ${input.name} already exists`,
        );
        if (values.length) await q.insertGeoZones(values);
      });
      return service.retrieveSet(setId);
    },

    /** A service zone of the set with its geo zones; 404 when the set has no such live zone. */
    async retrieveZone(setId: string, zoneId: string): Promise<ServiceZone> {
      await q.retrieveSet(setId);
      const zone = await q.findZone(zoneId);
      if (!zone || zone.fulfillment_set_id !== setId) throw q.zoneNotFound(zoneId);
      return { ...zone, geo_zones: (await q.geoZonesOf([zone.id])).get(zone.id)! };
    },

    /**
     * Renames a zone and, with `geo_zones`, makes them its geo zones: those naming one of its ids
     * are updated, the others added, the ones left out deleted. Answers the set.
     */
    async updateZone(setId: string, zoneId: string, input: ServiceZoneUpdate): Promise<FulfillmentSet> {
      await transaction(async () => {
        const zone = await service.retrieveZone(setId, zoneId);
        const changes: Partial<ServiceZone> = {};
        if (input.name !== undefined) changes.name = input.name;
        if (input.metadata !== undefined) changes.metadata = input.metadata;
        if (Object.keys(changes).length)
          await q.updateZone(zoneId, changes, `Service zone with name: ${input.name} already exists`);
        if (!input.geo_zones) return;
        const own = new Set(zone.geo_zones.map((g) => g.id));
        const foreign = input.geo_zones.find((g) => g.id && !own.has(g.id));
        if (foreign) throw errors.invalidData(`Geo zone with id: ${foreign.id} is not in service zone ${zoneId}`);
        const values = geoZoneValues(zoneId, input.geo_zones);
        const kept = values.filter((v) => own.has(v.id)).map((v) => v.id);
        await q.deleteGeoZonesBut({ zone_id: zoneId, kept, at: new Date() });
        for (const value of values) {
          if (own.has(value.id)) {
            await q.updateGeoZone({ ...value, updated_at: new Date() });
          } else await q.insertGeoZones([value]);
        }
      });
      return service.retrieveSet(setId);
    },

    /** Soft-deletes a zone of the set with its geo zones and shipping options. */
    async deleteZone(setId: string, zoneId: string): Promise<void> {
      await transaction(async () => {
        await service.retrieveZone(setId, zoneId);
        await deleteZoneRecords({ set_ids: [], zone_ids: [zoneId] });
      });
    },

    /** The live zones among `ids` with their fulfillment set, by zone id (one statement). */
    zonesWithSets,

    /**
     * Return options (Medusa's `is_return` rule) an order in this region and currency can send
     * items back with, each with its `amount` there (unpriced ones left out).
     */
    async returnOptionsFor(context: {
      region_id: string | null;
      currency_code: string;
    }): Promise<Array<ShippingOption & { amount: number }>> {
      return priced(await attachPrices((await q.optionsInRegion(context.region_id)).filter(isReturnOption)), context);
    },

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
      const rows = await q.optionsInRegion(context.region_id);
      const visible = rows.filter((row) => storeVisible(row.rules));
      const zoneIds = [...new Set(visible.flatMap((row) => (row.service_zone_id ? [row.service_zone_id] : [])))];
      const geo = await q.geoZonesOf(zoneIds);
      const options = await attachPrices(
        visible.filter(
          (row) =>
            !row.service_zone_id ||
            (geo.get(row.service_zone_id) ?? []).some((zone) => inGeoZone(zone, context.address)),
        ),
      );
      return priced(options, context);
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

/**
 * The stock location an option ships from: its service zone's set's location when it names a
 * zone (400 when the zone is unknown, or the option names another location), else the location given.
 */
async function locationOfZone(input: {
  service_zone_id?: string | null;
  stock_location_id?: string | null;
}): Promise<string | null> {
  if (!input.service_zone_id) return input.stock_location_id ?? null;
  const zone = (await zonesWithSets([input.service_zone_id])).get(input.service_zone_id);
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
async function deleteZoneRecords(target: { set_ids: string[]; zone_ids?: string[] }): Promise<DeletedZoneRecords> {
  const now = new Date();
  const setIds = target.set_ids.length ? ids(await q.deleteSets({ ids: target.set_ids, at: now })) : [];
  const zoneIds = ids(await q.deleteZones({ set_ids: target.set_ids, zone_ids: target.zone_ids ?? [], at: now }));
  const geoIds = zoneIds.length ? ids(await q.deleteGeoZonesOf({ ids: zoneIds, at: now })) : [];
  const optionIds = zoneIds.length ? ids(await q.deleteOptionsOfZones({ ids: zoneIds, at: now })) : [];
  return { set_ids: setIds, zone_ids: zoneIds, geo_zone_ids: geoIds, option_ids: optionIds };
}

const ids = (rows: Array<{ id: string }>): string[] => rows.map((r) => r.id);

async function existingType(id: string) {
  const type = await q.findType(id);
  if (!type) throw errors.invalidData(`Shipping option type with id: ${id} was not found`);
  return type;
}

async function existingProfile(id: string): Promise<void> {
  if (!(await q.findProfile(id))) throw errors.invalidData(`Shipping profile with id: ${id} was not found`);
}

/** The live shipping options of the zones with their prices and, when asked, their profile; by zone id. */
async function optionsOfZones(zones: Array<{ id: string }>, withProfile = false) {
  const byZone = await q.optionsOfZones(zones.map((z) => z.id));
  const rows = [...byZone.values()].flat();
  const priced = new Map((await attachPrices(rows)).map((o) => [o.id, o]));
  const profileIds = [...new Set(rows.map((r) => r.shipping_profile_id))];
  const profiles =
    withProfile && profileIds.length ? new Map((await q.profilesByIds(profileIds)).map((p) => [p.id, p])) : undefined;
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
  await q.insertPrices(rows);
}

/** The options priced in the context's region or currency, each with its `amount` there (unpriced ones left out). */
function priced(
  options: ShippingOption[],
  context: { region_id: string | null; currency_code: string },
): Array<ShippingOption & { amount: number }> {
  return options.flatMap((option) => {
    const amount = priceFor(option.prices, context);
    return amount === undefined ? [] : [{ ...option, amount }];
  });
}

async function attachPrices(rows: ShippingOptionRow[]): Promise<ShippingOption[]> {
  const prices = await q.pricesOf(rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, prices: prices.get(row.id)!.map(({ rank: _rank, ...price }) => price) }));
}

/** Whether a rule says `attribute` eq `value` (Medusa's rules keep the value as a string, or a list of one). */
const ruleSays = (rule: ShippingOptionRow["rules"][number], attribute: string, value: string) =>
  rule.attribute === attribute &&
  rule.operator === "eq" &&
  (Array.isArray(rule.value) ? rule.value[0] : rule.value) === value;

/** A return option: Medusa's `is_return` rule is true (what a shopper sends items back with). */
export function isReturnOption(option: Pick<ShippingOptionRow, "rules">): boolean {
  return option.rules.some((rule) => ruleSays(rule, "is_return", "true"));
}

/** Medusa's store rules: `enabled_in_store` false hides an option, `is_return` true marks a return option. */
function storeVisible(rules: ShippingOptionRow["rules"]): boolean {
  return !isReturnOption({ rules }) && !rules.some((rule) => ruleSays(rule, "enabled_in_store", "false"));
}
