import { Type, type Static } from "@sinclair/typebox";
import {
  Amount,
  Code,
  Count,
  CountryCode,
  CurrencyCode,
  Id,
  LongText,
  OptionalMetadata,
  ProviderData,
  Title,
  Strict,
} from "@kasse/core";
import { Extend, AnyJson, OrNull, RowView, View, type ListFilters } from "@kasse/db";
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
} from "./schema";
import { ShippingOptionRule, FulfillmentLabelInput } from "./column-shapes";

/** Body of `POST /admin/stock-locations/{id}/fulfillment-sets`. */
export const FulfillmentSetCreate = Strict({
  name: Title({ minLength: 1 }),
  type: Code({ minLength: 1 }),
  metadata: OptionalMetadata(),
});
export type FulfillmentSetCreate = Static<typeof FulfillmentSetCreate>;

/** The levels of a geo zone, each naming one more part of an address than the one before. */
export const GEO_ZONE_TYPES = ["country", "province", "city", "zip"] as const;

const geoZoneFields = {
  type: Type.Union(GEO_ZONE_TYPES.map((type) => Type.Literal(type))),
  country_code: CountryCode(),
  province_code: Type.Optional(Type.Union([Code({ minLength: 1 }), Type.Null()])),
  city: Type.Optional(Type.Union([Title({ minLength: 1 }), Type.Null()])),
  postal_expression: Type.Optional(Type.Union([ProviderData(), Type.Null()])),
  metadata: OptionalMetadata(),
};

/**
 * A geo zone of a service zone. The parts its `type` needs are checked by the module (a `province`
 * needs `province_code`, a `city` also `city`, a `zip` also `postal_expression`).
 */
export const GeoZoneInput = Strict(geoZoneFields);
export type GeoZoneInput = Static<typeof GeoZoneInput>;

/** A geo zone in a service zone update: with the `id` of one of the zone's, it updates that one. */
export const GeoZoneUpdateInput = Strict({ id: Type.Optional(Id({ minLength: 1 })), ...geoZoneFields });
export type GeoZoneUpdateInput = Static<typeof GeoZoneUpdateInput>;

/** Body of `POST /admin/fulfillment-sets/{id}/service-zones`. */
export const ServiceZoneCreate = Strict({
  name: Title({ minLength: 1 }),
  geo_zones: Type.Optional(Type.Array(GeoZoneInput, { maxItems: 1000 })),
  metadata: OptionalMetadata(),
});
export type ServiceZoneCreate = Static<typeof ServiceZoneCreate>;

/**
 * Body of `POST /admin/fulfillment-sets/{id}/service-zones/{zone_id}`: `geo_zones` is the zone's
 * whole list (those with an `id` are updated, those without are added, the others removed).
 */
export const ServiceZoneUpdate = Strict({
  name: Type.Optional(Title({ minLength: 1 })),
  geo_zones: Type.Optional(Type.Array(GeoZoneUpdateInput, { maxItems: 1000 })),
  metadata: OptionalMetadata(),
});
export type ServiceZoneUpdate = Static<typeof ServiceZoneUpdate>;

/** Body of `POST /admin/shipping-option-types`. */
export const ShippingOptionTypeCreate = Strict({
  label: Title({ minLength: 1 }),
  code: Code({ minLength: 1 }),
  description: Type.Optional(Type.Union([LongText(), Type.Null()])),
});
export type ShippingOptionTypeCreate = Static<typeof ShippingOptionTypeCreate>;

/** Body of `POST /admin/shipping-option-types/{id}`. */
export const ShippingOptionTypeUpdate = Type.Partial(ShippingOptionTypeCreate, { additionalProperties: false });
export type ShippingOptionTypeUpdate = Static<typeof ShippingOptionTypeUpdate>;

/** Body of `POST /admin/shipping-profiles`: a name and a type, as a fulfillment set's. */
export const ShippingProfileCreate = Strict(FulfillmentSetCreate.properties);
export type ShippingProfileCreate = Static<typeof ShippingProfileCreate>;

/** A price is for a currency or for a region: exactly one of the two. */
export const ShippingOptionPriceInput = Type.Union([
  Strict({ currency_code: CurrencyCode(), amount: Amount() }),
  Strict({ region_id: Id({ minLength: 1 }), amount: Amount() }),
]);
export type ShippingOptionPriceInput = Static<typeof ShippingOptionPriceInput>;

const optionFields = {
  name: Title({ minLength: 1 }),
  price_type: Type.Optional(Type.Literal("flat")),
  prices: Type.Array(ShippingOptionPriceInput, { minItems: 1 }),
  region_id: Type.Optional(Type.Union([Id({ minLength: 1 }), Type.Null()])),
  stock_location_id: Type.Optional(Type.Union([Id({ minLength: 1 }), Type.Null()])),
  service_zone_id: Type.Optional(Type.Union([Id({ minLength: 1 }), Type.Null()])),
  shipping_profile_id: Type.Optional(Id({ minLength: 1 })),
  provider_id: Type.Optional(Id({ minLength: 1 })),
  data: Type.Optional(Type.Union([ProviderData(), Type.Null()])),
  rules: Type.Optional(Type.Array(ShippingOptionRule)),
  metadata: OptionalMetadata(),
  /** A shipping option type's id (Medusa's dashboard picks one); the option's `type` becomes that type. */
  type_id: Type.Optional(Id({ minLength: 1 })),
  // Medusa clients send a `type` object ({label, description, code}): the live type of that code, created if none.
  type: Type.Optional(Strict({ label: Title(), description: Type.Optional(LongText()), code: Code() })),
};

/** Body of `POST /admin/shipping-options`. */
export const ShippingOptionCreate = Strict(optionFields);
export type ShippingOptionCreate = Static<typeof ShippingOptionCreate>;

/** Filters of `GET /admin/shipping-option-types`. */
export interface ShippingOptionTypeFilters extends ListFilters {
  code?: string[];
  label?: string[];
}

/** Body of `POST /admin/shipping-options/{id}`: all optional; `prices` replaces the prices. */
export const ShippingOptionUpdate = Type.Partial(Type.Object(optionFields), { additionalProperties: false });
export type ShippingOptionUpdate = Static<typeof ShippingOptionUpdate>;

export interface ShippingOptionFilters extends ListFilters {
  region_id?: string[];
  stock_location_id?: string[];
  shipping_profile_id?: string[];
  service_zone_id?: string[];
}

/**
 * Body of `POST /admin/orders/{id}/fulfillments/{fulfillment_id}/shipments`: Medusa's clients list
 * the fulfillment's `items` (a fulfillment ships whole, so they must be exactly its items), the
 * carrier's `labels`, and `no_notification`.
 */
export const ShipmentCreate = Strict({
  items: Type.Optional(
    Type.Array(Strict({ id: Id({ minLength: 1 }), quantity: Count({ minimum: 1 }) }), { maxItems: 1000 }),
  ),
  labels: Type.Optional(Type.Array(FulfillmentLabelInput, { maxItems: 100 })),
  /** Ship without the shipment notice to the customer. */
  no_notification: Type.Optional(Type.Boolean()),
});
export type ShipmentCreate = Static<typeof ShipmentCreate>;

// ---- Responses ------------------------------------------------------------------------------

/** A shipping option type. */
export const ShippingOptionTypeView = RowView(shippingOptionType);
/** A shipping profile. */
export const ShippingProfileView = RowView(shippingProfile);
/** A shipping option's price. */
export const ShippingOptionPriceView = RowView(shippingOptionPrice);
/** A shipping option with its prices, rules and type. */
export const ShippingOptionView = RowView(shippingOption, {
  rules: Type.Array(View({ attribute: Type.String(), operator: Type.String(), value: AnyJson() })),
  type: OrNull(
    View({ id: Type.String(), code: Type.String(), label: Type.String(), description: OrNull(Type.String()) }),
  ),
  prices: Type.Array(ShippingOptionPriceView),
});
/** A geo zone. */
export const GeoZoneView = RowView(geoZone);
/** A service zone with, when asked, its geo zones and shipping options (with their shipping profile). */
export const ServiceZoneView = RowView(serviceZone, {
  geo_zones: Type.Array(GeoZoneView),
  shipping_options: Type.Array(Extend(ShippingOptionView, { shipping_profile: OrNull(ShippingProfileView) })),
});
/** A fulfillment set with its service zones. */
export const FulfillmentSetView = RowView(fulfillmentSet, { service_zones: Type.Array(ServiceZoneView) });
/** An item of a fulfillment. */
export const FulfillmentItemView = RowView(fulfillmentItem);
/** A fulfillment with its items and labels. */
export const FulfillmentView = RowView(fulfillment, { items: Type.Array(FulfillmentItemView) });

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export {
  type FulfillmentItemRow,
  type FulfillmentLabel,
  type FulfillmentRow,
  type FulfillmentSetRow,
  type GeoZoneRow,
  type ServiceZoneRow,
  type ShippingOptionPriceRow,
  type ShippingOptionRow,
  type ShippingOptionTypeRow,
  type ShippingProfileRow,
} from "./schema";

export { ShippingOptionRule, FulfillmentLabelInput } from "./column-shapes";
