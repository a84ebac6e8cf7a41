import { index, pgTable, primaryKey, text } from "@kasse/db";
import { indexes, metadata, timestamps, entityTable, parentId, createdAt } from "@kasse/db";

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
