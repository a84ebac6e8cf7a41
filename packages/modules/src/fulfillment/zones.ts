import { errors, generateId } from "@kasse/core";
import { fulfillmentQueries as q } from "./queries";
import type { FulfillmentSetRow, GeoZoneRow, ServiceZoneRow } from "./schema";
import type { GeoZoneInput } from "./shapes";

/** A service zone as the API shows it: the row with its geo zones. */
export type ServiceZone = ServiceZoneRow & { geo_zones: GeoZoneRow[] };
/** A fulfillment set as the API shows it: the row with its service zones and their geo zones. */
export type FulfillmentSet = FulfillmentSetRow & { service_zones: ServiceZone[] };

/** The parts of a cart's shipping address a geo zone is matched against (null or absent when not given). */
export interface ZoneAddress {
  country_code?: string | null;
  province?: string | null;
  city?: string | null;
  postal_code?: string | null;
}

/** What each geo zone type needs beyond `country_code`, as Medusa requires it. */
const NEEDS: Record<GeoZoneInput["type"], Array<"province_code" | "city" | "postal_expression">> = {
  country: [],
  province: ["province_code"],
  city: ["province_code", "city"],
  zip: ["province_code", "city", "postal_expression"],
};

/** The rows of a zone's geo zones, each checked for the parts its type needs (400 naming the first missing one). */
export function geoZoneValues(serviceZoneId: string, inputs: Array<GeoZoneInput & { id?: string }>) {
  return inputs.map((input) => {
    const missing = NEEDS[input.type].find((part) => input[part] === undefined || input[part] === null);
    if (missing) throw errors.invalidData(`A geo zone of type ${input.type} needs ${missing}`);
    return {
      id: input.id ?? generateId("fgz"),
      type: input.type,
      country_code: input.country_code.toLowerCase(),
      province_code: input.province_code ?? null,
      city: input.city ?? null,
      postal_expression: input.postal_expression ?? null,
      service_zone_id: serviceZoneId,
      metadata: input.metadata ?? null,
    };
  });
}

/** The service zones of the sets (live, oldest first) with their geo zones: two statements whatever the count. */
export async function zonesOfSets(sets: FulfillmentSetRow[], withGeoZones = true): Promise<FulfillmentSet[]> {
  const zones = await q.zonesOfSets(sets.map((set) => set.id));
  const allZones = [...zones.values()].flat();
  const geo = withGeoZones ? await q.geoZonesOf(allZones.map((zone) => zone.id)) : undefined;
  return sets.map((set) => ({
    ...set,
    service_zones: zones.get(set.id)!.map((zone) => ({ ...zone, geo_zones: geo?.get(zone.id) ?? [] })),
  }));
}

/** The live zones among `ids` with their set (one statement), by zone id. */
export async function zonesWithSets(
  ids: string[],
): Promise<Map<string, ServiceZoneRow & { fulfillment_set: FulfillmentSetRow }>> {
  if (ids.length === 0) return new Map();
  const rows = await q.zonesWithSets({ ids });
  return new Map(rows.map(({ zone, set }) => [zone.id, { ...zone, fulfillment_set: set }]));
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();
const postal = (code: string) => code.replace(/\s+/g, "").toUpperCase();

/**
 * Whether an address lies in a geo zone: the country always, then the province (the address's
 * `province` against the zone's `province_code`), the city and the postal code as far as the
 * zone's type goes. Names compare without case, since shoppers type them. A `zip` zone's
 * `postal_expression` lists its postal codes as its values (`{"codes": ["10115", "10117"]}`).
 * Without a country an address lies in no zone.
 */
export function inGeoZone(zone: GeoZoneRow, address: ZoneAddress | null | undefined): boolean {
  if (!address || !same(zone.country_code, address.country_code)) return false;
  if (zone.type === "country") return true;
  if (!same(zone.province_code, address.province)) return false;
  if (zone.type === "province") return true;
  if (!same(zone.city, address.city)) return false;
  if (zone.type === "city") return true;
  if (!address.postal_code) return false;
  const wanted = postal(address.postal_code);
  const values = Object.values(zone.postal_expression ?? {}).flat();
  return values.some((value) => typeof value === "string" && postal(value) === wanted);
}
