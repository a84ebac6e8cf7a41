import { boolean, index, integer, pgTable, text, uniqueIndex } from "@kasse/db";
import { money, entityTable, liveUniqueIndex, timestamptz } from "@kasse/db";

/**
 * Money amounts of variants: a base price (no `price_list_id`) or a price list's price.
 * `region_id` is the price's region rule; quantities bound a tier (inclusive).
 */
export const price = entityTable(
  "price",
  {
    variant_id: text("variant_id").notNull(),
    price_list_id: text("price_list_id"),
    currency_code: text("currency_code").notNull(),
    amount: money("amount").notNull(),
    min_quantity: integer("min_quantity"),
    max_quantity: integer("max_quantity"),
    region_id: text("region_id"),
  },
  (t) => [
    index("price_variant_id_idx").on(t.variant_id, t.currency_code),
    index("price_price_list_id_idx").on(t.price_list_id),
  ],
);

/** Price lists: `sale` lowers prices, `override` replaces them, for the customers and regions their rules name. */
export const priceList = entityTable(
  "price_list",
  {
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    type: text("type", { enum: ["sale", "override"] }).notNull(),
    status: text("status", { enum: ["active", "draft"] })
      .notNull()
      .default("draft"),
    starts_at: timestamptz("starts_at"),
    ends_at: timestamptz("ends_at"),
  },
  (t) => [index("price_list_status_idx").on(t.status, t.type), index("price_list_created_at_idx").on(t.created_at)],
);

/** A price list rule: the list applies when the context's `attribute` is one of the rule's values. */
export const priceListRule = pgTable(
  "price_list_rule",
  {
    id: text("id").primaryKey(),
    price_list_id: text("price_list_id").notNull(),
    attribute: text("attribute").notNull(),
    value: text("value").notNull(),
  },
  (t) => [uniqueIndex("price_list_rule_uq").on(t.price_list_id, t.attribute, t.value)],
);

/** Whether prices for a region or a currency include tax. */
export const pricePreference = entityTable(
  "price_preference",
  {
    attribute: text("attribute", { enum: ["region_id", "currency_code"] }).notNull(),
    value: text("value").notNull(),
    is_tax_inclusive: boolean("is_tax_inclusive").notNull().default(false),
  },
  (t) => [liveUniqueIndex("price_preference_uq").on(t.attribute, t.value)],
);
export type PriceRow = typeof price.$inferSelect;
export type PriceListRow = typeof priceList.$inferSelect;
export type PricePreferenceRow = typeof pricePreference.$inferSelect;
