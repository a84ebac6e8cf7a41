import { index, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { Type, type Static } from "@sinclair/typebox";
import { CountryCode, OptionalMetadata, Title, Strict, LinkChanges } from "@kasse/core";
import {
  indexes,
  metadata,
  timestamps,
  MetadataView,
  OrNull,
  RowView,
  TimestampView,
  View,
  entityTable,
  parentId,
  createdAt,
  type ListFilters,
} from "@kasse/db";

/** Stock locations: warehouses and stores holding inventory levels. */
export const stockLocation = entityTable(
  "stock_location",
  {
    name: text("name").notNull(),
    address_id: text("address_id"),
    metadata: metadata(),
  },
  (t) => [
    index("stock_location_name_idx").on(t.name),
    index("stock_location_name_trgm_idx").using("gin", t.name.op("gin_trgm_ops")),
    ...indexes("stock_location", { created_at: t.created_at, address_id: t.address_id }),
  ],
);

/** The postal address of a stock location (one per location). */
export const stockLocationAddress = pgTable("stock_location_address", {
  id: text("id").primaryKey(),
  address_1: text("address_1").notNull(),
  address_2: text("address_2"),
  company: text("company"),
  city: text("city"),
  country_code: text("country_code").notNull(),
  phone: text("phone"),
  province: text("province"),
  postal_code: text("postal_code"),
  metadata: metadata(),
  ...timestamps(),
});

/**
 * Which sales channels a location serves. `sales_channel_id` is a plain id: the sales-channel
 * module owns the channel, and the route checks the ids exist before linking.
 */
export const salesChannelStockLocation = pgTable(
  "sales_channel_stock_location",
  {
    sales_channel_id: text("sales_channel_id").notNull(),
    stock_location_id: parentId("stock_location_id", () => stockLocation.id, { onDelete: "cascade" }),
    created_at: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.sales_channel_id, t.stock_location_id] }),
    index("sales_channel_stock_location_location_idx").on(t.stock_location_id),
  ],
);

/**
 * The fulfillment providers a location does not use (Medusa links a location to the providers it
 * uses; Kasse keeps the exceptions): a location uses every registered provider but these, so one
 * registered later is used everywhere until a location turns it off. Provider ids are registered
 * in code (`fulfillmentProviders`), not rows: the caller checks them.
 */
export const stockLocationProviderExclusion = pgTable(
  "stock_location_provider_exclusion",
  {
    stock_location_id: parentId("stock_location_id", () => stockLocation.id, { onDelete: "cascade" }),
    provider_id: text("provider_id").notNull(),
    created_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.stock_location_id, t.provider_id] })],
);

export type StockLocationRow = typeof stockLocation.$inferSelect;
export type StockLocationAddressRow = typeof stockLocationAddress.$inferSelect;

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

/** A location's address as `POST /admin/stock-locations` takes it (Medusa v2: `address_1` and `country_code` required). */
export const StockLocationAddressInput = Strict({
  address_1: Title({ minLength: 1 }),
  address_2: Nullable(Title()),
  company: Nullable(Title()),
  city: Nullable(Title()),
  country_code: CountryCode(),
  phone: Nullable(Title()),
  province: Nullable(Title()),
  postal_code: Nullable(Title()),
  metadata: OptionalMetadata(),
});
export type StockLocationAddressInput = Static<typeof StockLocationAddressInput>;

/** Body of `POST /admin/stock-locations`. */
export const StockLocationCreate = Strict({
  name: Title({ minLength: 1 }),
  address: Type.Optional(StockLocationAddressInput),
  metadata: OptionalMetadata(),
});
export type StockLocationCreate = Static<typeof StockLocationCreate>;

/** Body of `POST /admin/stock-locations/{id}`: `address` replaces the address; `null` removes it. */
export const StockLocationUpdate = Strict({
  name: Type.Optional(Title({ minLength: 1 })),
  address: Type.Optional(Type.Union([StockLocationAddressInput, Type.Null()])),
  metadata: OptionalMetadata(),
});
export type StockLocationUpdate = Static<typeof StockLocationUpdate>;

/** Body of `POST /admin/stock-locations/{id}/sales-channels`. */
export const StockLocationSalesChannels = LinkChanges(1000);
export type StockLocationSalesChannels = Static<typeof StockLocationSalesChannels>;

/** Body of `POST /admin/stock-locations/{id}/fulfillment-providers`: provider ids the location uses from now on, or no longer. */
export const StockLocationFulfillmentProviders = LinkChanges(100);
export type StockLocationFulfillmentProviders = Static<typeof StockLocationFulfillmentProviders>;

/** Filters of `GET /admin/stock-locations`. */
export interface StockLocationFilters extends ListFilters {
  name?: string[];
  sales_channel_id?: string[];
}

// ---- Responses ------------------------------------------------------------------------------

/** A stock location's address. */
export const StockLocationAddressView = RowView(stockLocationAddress);
/** A stock location with its address and, when asked, its sales channels (records of the sales-channel module). */
export const StockLocationView = RowView(stockLocation, {
  address: OrNull(StockLocationAddressView),
  sales_channels: Type.Array(
    View({
      id: Type.String(),
      name: Type.String(),
      description: OrNull(Type.String()),
      is_disabled: Type.Boolean(),
      is_default: Type.Boolean(),
      metadata: MetadataView(),
      created_at: TimestampView(),
      updated_at: TimestampView(),
      deleted_at: OrNull(TimestampView()),
    }),
  ),
});
