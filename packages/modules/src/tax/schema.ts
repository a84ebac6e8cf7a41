import { boolean, doublePrecision, index, text } from "@kasse/db";
import { metadata, entityTable, parentId, liveUniqueIndex } from "@kasse/db";

/** A tax region: a country, or a province of a country (with the country region as parent). */
export const taxRegion = entityTable(
  "tax_region",
  {
    country_code: text("country_code").notNull(),
    province_code: text("province_code"),
    parent_id: text("parent_id"),
    created_by: text("created_by"),
    metadata: metadata(),
  },
  (t) => [
    // One live tax region per country, and one per (country, province).
    liveUniqueIndex("tax_region_country_uq", "province_code is null").on(t.country_code),
    liveUniqueIndex("tax_region_province_uq", "province_code is not null").on(t.country_code, t.province_code),
    index("tax_region_parent_id_idx").on(t.parent_id),
  ],
);

/** Tax rates of a region; `rate` is a percentage (25 means 25 %). */
export const taxRate = entityTable(
  "tax_rate",
  {
    tax_region_id: text("tax_region_id").notNull(),
    rate: doublePrecision("rate"),
    code: text("code").notNull(),
    name: text("name").notNull(),
    is_default: boolean("is_default").notNull().default(false),
    is_combinable: boolean("is_combinable").notNull().default(false),
    created_by: text("created_by"),
    metadata: metadata(),
  },
  (t) => [
    index("tax_rate_tax_region_id_idx").on(t.tax_region_id),
    liveUniqueIndex("tax_rate_default_uq", "is_default").on(t.tax_region_id),
  ],
);

/** What a tax rate rule targets: a cart line's product or product type, or a shipping method's option. */
export const TAX_RATE_RULE_REFERENCES = ["product", "product_type", "shipping_option"] as const;
export type TaxRateRuleReference = (typeof TAX_RATE_RULE_REFERENCES)[number];

/**
 * A target of an override rate (a rate that is not its region's default): the rate applies to the
 * cart lines of that product or product type, or to the shipping methods of that option, instead
 * of the region's default. `reference_id` is the other module's id (a plain column).
 */
export const taxRateRule = entityTable(
  "tax_rate_rule",
  {
    tax_rate_id: parentId("tax_rate_id", () => taxRate.id, { onDelete: "cascade" }),
    reference: text("reference").$type<TaxRateRuleReference>().notNull(),
    reference_id: text("reference_id").notNull(),
    created_by: text("created_by"),
    metadata: metadata(),
  },
  (t) => [
    liveUniqueIndex("tax_rate_rule_uq").on(t.tax_rate_id, t.reference, t.reference_id),
    index("tax_rate_rule_reference_idx").on(t.reference, t.reference_id),
  ],
);
export type TaxRegionRow = typeof taxRegion.$inferSelect;
export type TaxRateRow = typeof taxRate.$inferSelect;
export type TaxRateRuleRow = typeof taxRateRule.$inferSelect;
