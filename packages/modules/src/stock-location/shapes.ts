import { Type, type Static } from "@sinclair/typebox";
import { CountryCode, OptionalMetadata, Title, Strict, LinkChanges } from "@kasse/core";
import { MetadataView, OrNull, RowView, TimestampView, View, type ListFilters } from "@kasse/db";
import { stockLocation, stockLocationAddress } from "./schema";

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

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type StockLocationAddressRow, type StockLocationRow } from "./schema";
