import { boolean, index, pgTable, primaryKey, text } from "@kasse/db";
import { metadata, entityTable, indexes } from "@kasse/db";

/** Regions: a currency and the countries sold to with it. */
export const region = entityTable(
  "region",
  {
    name: text("name").notNull(),
    currency_code: text("currency_code").notNull(),
    automatic_taxes: boolean("automatic_taxes").notNull().default(true),
    metadata: metadata(),
  },
  (t) => [...indexes("region", { name: t.name, currency_code: t.currency_code, created_at: t.created_at })],
);

/**
 * Every ISO 3166 country (seeded by migration). A country belongs to at most one region:
 * `region_id` on the country row makes that a property of the schema, not a check.
 */
export const regionCountry = pgTable(
  "region_country",
  {
    iso_2: text("iso_2").primaryKey(),
    iso_3: text("iso_3").notNull(),
    num_code: text("num_code").notNull(),
    name: text("name").notNull(),
    display_name: text("display_name").notNull(),
    region_id: text("region_id"),
  },
  (t) => [index("region_country_region_id_idx").on(t.region_id)],
);

/** Payment providers enabled in a region (plain provider ids; the payment module resolves them). */
export const regionPaymentProvider = pgTable(
  "region_payment_provider",
  {
    region_id: text("region_id").notNull(),
    provider_id: text("provider_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.region_id, t.provider_id] }),
    index("region_payment_provider_provider_idx").on(t.provider_id),
  ],
);
export type RegionRow = typeof region.$inferSelect;
export type CountryRow = typeof regionCountry.$inferSelect;
