import { Type, type Static } from "@sinclair/typebox";
import { CurrencyCode, DateTime, Id, OptionalMetadata, Title, Strict } from "@kasse/core";
import { RowView, type ListFilters } from "@kasse/db";
import { store, storeCurrency } from "./schema";

// What the admin dashboard sends back of a supported currency it read (it spreads the whole
// object into its update); only `currency_code`, `is_default` and `is_tax_inclusive` are used.
const EchoedCurrency = Strict({
  code: Type.Optional(CurrencyCode()),
  symbol: Type.Optional(Title()),
  symbol_native: Type.Optional(Title()),
  name: Type.Optional(Title()),
  decimal_digits: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
  rounding: Type.Optional(Type.Number({ minimum: 0, maximum: 1000 })),
  is_default: Type.Optional(Type.Boolean()),
  created_at: Type.Optional(Type.Union([DateTime(), Type.Null()])),
  updated_at: Type.Optional(Type.Union([DateTime(), Type.Null()])),
  deleted_at: Type.Optional(Type.Union([DateTime(), Type.Null()])),
});

/** One entry of `supported_currencies` in `POST /admin/stores/{id}`. */
export const StoreCurrencyInput = Strict({
  currency_code: CurrencyCode(),
  is_default: Type.Optional(Type.Boolean()),
  /** Whether prices in this currency include tax (a price preference for the currency). */
  is_tax_inclusive: Type.Optional(Type.Boolean()),
  id: Type.Optional(Id()),
  store_id: Type.Optional(Id()),
  currency: Type.Optional(EchoedCurrency),
  created_at: Type.Optional(Type.Union([DateTime(), Type.Null()])),
  updated_at: Type.Optional(Type.Union([DateTime(), Type.Null()])),
  deleted_at: Type.Optional(Type.Union([DateTime(), Type.Null()])),
});

/** Body of `POST /admin/stores/{id}`. */
export const StoreUpdate = Strict({
  name: Type.Optional(Title({ minLength: 1 })),
  supported_currencies: Type.Optional(Type.Array(StoreCurrencyInput, { maxItems: 200 })),
  default_sales_channel_id: Type.Optional(Type.Union([Id(), Type.Null()])),
  default_region_id: Type.Optional(Type.Union([Id(), Type.Null()])),
  default_location_id: Type.Optional(Type.Union([Id(), Type.Null()])),
  metadata: OptionalMetadata(),
});
export type StoreUpdate = Static<typeof StoreUpdate>;

/** Filters of `GET /admin/stores`. */
export interface StoreFilters extends ListFilters {
  name?: string[];
}

// ---- Responses ------------------------------------------------------------------------------

/** A supported currency (the route adds the `currency` it names). */
export const StoreCurrencyView = RowView(storeCurrency);
/** The store, with its supported currencies. */
export const StoreView = RowView(store, { supported_currencies: Type.Optional(Type.Array(StoreCurrencyView)) }, [
  "is_primary",
]);

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type StoreCurrencyRow, type StoreRow } from "./schema";
