import { boolean, doublePrecision, index, text } from "drizzle-orm/pg-core";
import { Type, type Static } from "@sinclair/typebox";
import { Code, CountryCode, Id, OptionalMetadata, Title, Strict } from "@kasse/core";
import { metadata, OrNull, RowView, entityTable, parentId, liveUniqueIndex, type ListFilters } from "@kasse/db";

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

/** A rule of a tax rate, as given when the rate is created or its rules replaced. */
export const TaxRateRuleInput = Strict({
  reference: Type.Union(TAX_RATE_RULE_REFERENCES.map((r) => Type.Literal(r))),
  reference_id: Id({ minLength: 1 }),
});
export type TaxRateRuleInput = Static<typeof TaxRateRuleInput>;

const Rate = () => Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]);

/** Body of `POST /admin/tax-rates`: a region's default rate, or an override with the targets in `rules`. */
export const TaxRateCreate = Strict({
  tax_region_id: Id({ minLength: 1 }),
  rate: Type.Optional(Rate()),
  code: Code({ minLength: 1 }),
  name: Title({ minLength: 1 }),
  rules: Type.Optional(Type.Array(TaxRateRuleInput, { maxItems: 1000 })),
  is_default: Type.Optional(Type.Boolean()),
  is_combinable: Type.Optional(Type.Boolean()),
  metadata: OptionalMetadata(),
});
export type TaxRateCreate = Static<typeof TaxRateCreate>;

/** Body of `POST /admin/tax-rates/{id}`: the create fields but the region, all optional; `rules`, when given, replaces the rate's rules. */
export const TaxRateUpdate = Type.Partial(Type.Omit(TaxRateCreate, ["tax_region_id"]), { additionalProperties: false });
export type TaxRateUpdate = Static<typeof TaxRateUpdate>;

/** The default rate given with a tax region. */
export const TaxRateInput = Type.Pick(TaxRateCreate, ["rate", "code", "name", "is_combinable", "metadata"]);

/** Body of `POST /admin/tax-regions`. */
export const TaxRegionCreate = Strict({
  country_code: CountryCode(),
  province_code: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 10 }), Type.Null()])),
  parent_id: Type.Optional(Type.Union([Id(), Type.Null()])),
  default_tax_rate: Type.Optional(TaxRateInput),
  // Medusa's tax region form names the provider; `tp_system` is the only one (SYSTEM_TAX_PROVIDER).
  provider_id: Type.Optional(Type.Union([Code(), Type.Null()])),
  metadata: OptionalMetadata(),
});
export type TaxRegionCreate = Static<typeof TaxRegionCreate>;

/** Filters of `GET /admin/tax-regions`. */
export interface TaxRegionFilters extends ListFilters {
  country_code?: string[];
  province_code?: string[];
  parent_id?: string[];
}

// ---- Responses ------------------------------------------------------------------------------

/** A rule of a tax rate. */
export const TaxRateRuleView = RowView(taxRateRule);
/** A tax rate with its rules. */
export const TaxRateView = RowView(taxRate, { rules: Type.Array(TaxRateRuleView) });
/** A tax region with its rates. */
const TaxRegionRelationView = RowView(taxRegion, { provider_id: Type.String(), tax_rates: Type.Array(TaxRateView) });
/** A tax region with its rates, its parent (a province's country region, else null) and its live province regions. */
export const TaxRegionView = RowView(taxRegion, {
  provider_id: Type.String(),
  tax_rates: Type.Array(TaxRateView),
  parent: OrNull(TaxRegionRelationView),
  children: Type.Array(TaxRegionRelationView),
});
