import { index, integer, jsonb, pgTable, text } from "@kasse/db";
import { metadata, money, entityTable, parentId, indexes, liveUniqueIndex, timestamptz } from "@kasse/db";
import type { FulfillmentLabelInput, ShippingOptionRule } from "./column-shapes";

/** Shipping profiles group products that ship the same way; a store always has a `default` one. */
export const shippingProfile = entityTable(
  "shipping_profile",
  {
    name: text("name").notNull(),
    type: text("type").notNull(),
    metadata: metadata(),
  },
  (t) => [liveUniqueIndex("shipping_profile_name_uq").on(t.name)],
);

/**
 * A way a stock location fulfills (Medusa's `shipping` or `pickup`). `stock_location_id` is the
 * stock-location module's id (a plain column: modules don't reference each other), set by the flow
 * that checked the location.
 */
export const fulfillmentSet = entityTable(
  "fulfillment_set",
  {
    name: text("name").notNull(),
    type: text("type").notNull(),
    stock_location_id: text("stock_location_id"),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("fulfillment_set_name_uq").on(t.name),
    index("fulfillment_set_location_idx").on(t.stock_location_id),
  ],
);

/** An area a fulfillment set serves, made of geo zones; shipping options belong to one. */
export const serviceZone = entityTable(
  "service_zone",
  {
    name: text("name").notNull(),
    fulfillment_set_id: parentId("fulfillment_set_id", () => fulfillmentSet.id, { onDelete: "cascade" }),
    metadata: metadata(),
  },
  (t) => [liveUniqueIndex("service_zone_name_uq").on(t.name), index("service_zone_set_idx").on(t.fulfillment_set_id)],
);

/**
 * One area of a service zone, as precise as its `type`: a country, a province of it, a city of
 * that province, or postal codes there (`postal_expression`, free JSON as Medusa keeps it).
 */
export const geoZone = entityTable(
  "geo_zone",
  {
    type: text("type").notNull(),
    country_code: text("country_code").notNull(),
    province_code: text("province_code"),
    city: text("city"),
    postal_expression: jsonb("postal_expression").$type<Record<string, unknown>>(),
    service_zone_id: parentId("service_zone_id", () => serviceZone.id, { onDelete: "cascade" }),
    metadata: metadata(),
  },
  (t) => [index("geo_zone_service_zone_idx").on(t.service_zone_id), index("geo_zone_country_idx").on(t.country_code)],
);

/** A kind of shipping option a merchant names (Medusa's shipping option types: "Standard", "Express"). */
export const shippingOptionType = entityTable(
  "shipping_option_type",
  {
    label: text("label").notNull(),
    code: text("code").notNull(),
    description: text("description"),
  },
  (t) => [
    liveUniqueIndex("shipping_option_type_code_uq").on(t.code),
    index("shipping_option_type_created_at_idx").on(t.created_at),
  ],
);

/** A way to ship a cart: flat-priced per currency or per region. */
export const shippingOption = entityTable(
  "shipping_option",
  {
    name: text("name").notNull(),
    price_type: text("price_type").notNull().default("flat"),
    region_id: text("region_id"),
    stock_location_id: text("stock_location_id"),
    service_zone_id: text("service_zone_id"),
    shipping_profile_id: text("shipping_profile_id").notNull(),
    provider_id: text("provider_id").notNull().default("manual_manual"),
    data: jsonb("data").$type<Record<string, unknown>>(),
    rules: jsonb("rules").$type<ShippingOptionRule[]>().notNull().default([]),
    type: jsonb("type").$type<{ id?: string; label: string; description?: string | null; code: string }>(),
    /** The shipping option type it was created with (`type` then holds that type's label, code and description). */
    shipping_option_type_id: text("shipping_option_type_id"),
    metadata: metadata(),
  },
  (t) => [
    ...indexes("shipping_option", {
      region: t.region_id,
      type: t.shipping_option_type_id,
      profile: t.shipping_profile_id,
      location: t.stock_location_id,
      service_zone: t.service_zone_id,
      created_at: t.created_at,
    }),
  ],
);

/** One price of a shipping option: for a currency, or for a region (`region_id` set). */
export const shippingOptionPrice = pgTable(
  "shipping_option_price",
  {
    id: text("id").primaryKey(),
    shipping_option_id: parentId("shipping_option_id", () => shippingOption.id, { onDelete: "cascade" }),
    currency_code: text("currency_code"),
    region_id: text("region_id"),
    amount: money("amount").notNull(),
    rank: integer("rank").notNull().default(0),
  },
  (t) => [index("shipping_option_price_option_idx").on(t.shipping_option_id)],
);
export type ShippingProfileRow = typeof shippingProfile.$inferSelect;
export type ShippingOptionRow = typeof shippingOption.$inferSelect;
export type ShippingOptionPriceRow = typeof shippingOptionPrice.$inferSelect;
export type FulfillmentSetRow = typeof fulfillmentSet.$inferSelect;
export type ServiceZoneRow = typeof serviceZone.$inferSelect;
export type GeoZoneRow = typeof geoZone.$inferSelect;

/**
 * A fulfillment: units of an order's lines packed at a stock location, then shipped and delivered.
 * `order_id` is the order module's id (a plain column: modules don't reference each other).
 */
export const fulfillment = entityTable(
  "fulfillment",
  {
    order_id: text("order_id").notNull(),
    location_id: text("location_id").notNull(),
    provider_id: text("provider_id").notNull().default("manual_manual"),
    shipped_at: timestamptz("shipped_at"),
    delivered_at: timestamptz("delivered_at"),
    canceled_at: timestamptz("canceled_at"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    /** The carrier's labels given at shipment (tracking number and links), as Medusa's `labels`. */
    labels: jsonb("labels").$type<FulfillmentLabel[]>().notNull().default([]),
    /** The reservations this fulfillment consumed (the inventory module's record), restored on cancel. */
    inventory_consumed: jsonb("inventory_consumed")
      .$type<
        Array<{
          reservation_id: string;
          inventory_item_id: string;
          location_id: string;
          quantity: number;
          deleted: boolean;
        }>
      >()
      .notNull()
      .default([]),
    metadata: metadata(),
  },
  (t) => [index("fulfillment_order_idx").on(t.order_id), index("fulfillment_location_idx").on(t.location_id)],
);

/** One order line's units in a fulfillment. */
export const fulfillmentItem = entityTable(
  "fulfillment_item",
  {
    fulfillment_id: parentId("fulfillment_id", () => fulfillment.id, { onDelete: "cascade" }),
    line_item_id: text("line_item_id").notNull(),
    title: text("title").notNull(),
    sku: text("sku"),
    quantity: integer("quantity").notNull(),
  },
  (t) => [...indexes("fulfillment_item", { fulfillment: t.fulfillment_id, line: t.line_item_id })],
);
export type FulfillmentRow = typeof fulfillment.$inferSelect;
/** The dates of a fulfillment's moves, which `mark` sets or clears. */
export type FulfillmentDate = "shipped_at" | "delivered_at" | "canceled_at";
export type FulfillmentLabel = FulfillmentLabelInput & { id: string };
export type FulfillmentItemRow = typeof fulfillmentItem.$inferSelect;
export type ShippingOptionTypeRow = typeof shippingOptionType.$inferSelect;
