import { boolean, index, text } from "drizzle-orm/pg-core";
import { Type, type Static } from "@sinclair/typebox";
import { CurrencyCode, DateTime, Id, OptionalMetadata, Title, Strict } from "@kasse/core";
import { metadata, RowView, entityTable, liveUniqueIndex, type ListFilters } from "@kasse/db";

/** The store: its name, the currencies it sells in, and its default region, location and sales channel. */
export const store = entityTable(
  "store",
  {
    name: text("name").notNull(),
    default_sales_channel_id: text("default_sales_channel_id"),
    default_region_id: text("default_region_id"),
    default_location_id: text("default_location_id"),
    /** Kasse runs one store: this flag is true on it, and a unique index keeps it the only one. */
    is_primary: boolean("is_primary").notNull().default(true),
    metadata: metadata(),
  },
  (t) => [liveUniqueIndex("store_primary_uq", "is_primary").on(t.is_primary)],
);

/** A currency the store sells in; one of them is the store's default. */
export const storeCurrency = entityTable(
  "store_currency",
  {
    store_id: text("store_id").notNull(),
    currency_code: text("currency_code").notNull(),
    is_default: boolean("is_default").notNull().default(false),
  },
  (t) => [
    index("store_currency_store_idx").on(t.store_id),
    liveUniqueIndex("store_currency_code_uq").on(t.store_id, t.currency_code),
    liveUniqueIndex("store_currency_default_uq", "is_default").on(t.store_id),
  ],
);

export type StoreRow = typeof store.$inferSelect;
export type StoreCurrencyRow = typeof storeCurrency.$inferSelect;

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
