import { boolean, integer, pgTable, text, uniqueIndex } from "@kasse/db";
import { timestamps, indexWhere } from "@kasse/db";

/** ISO 4217 currencies: reference data seeded by a migration; `is_default` marks the store's default. */
export const currency = pgTable(
  "currency",
  {
    code: text("code").primaryKey(),
    symbol: text("symbol").notNull(),
    symbol_native: text("symbol_native").notNull(),
    name: text("name").notNull(),
    decimal_digits: integer("decimal_digits").notNull(),
    is_default: boolean("is_default").notNull().default(false),
    ...timestamps(),
  },
  (t) => [uniqueIndex("currency_default_uq").on(t.is_default).where(indexWhere("is_default"))],
);
export type CurrencyRow = typeof currency.$inferSelect;
