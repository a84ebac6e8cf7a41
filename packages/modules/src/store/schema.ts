import { boolean, index, text } from "@kasse/db";
import { metadata, entityTable, liveUniqueIndex } from "@kasse/db";

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
