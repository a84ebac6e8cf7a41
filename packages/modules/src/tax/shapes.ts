import { Type, type Static } from "@sinclair/typebox";
import { Code, CountryCode, Id, OptionalMetadata, Title, Strict } from "@kasse/core";
import { OrNull, RowView, type ListFilters } from "@kasse/db";
import { TAX_RATE_RULE_REFERENCES, taxRate, taxRateRule, taxRegion } from "./schema";

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

/** Filters of `GET /admin/tax-rates`. */
export interface TaxRateFilters extends ListFilters {
  tax_region_id?: string[];
  code?: string[];
  is_default?: boolean;
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

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export {
  TAX_RATE_RULE_REFERENCES,
  type TaxRateRow,
  type TaxRateRuleReference,
  type TaxRateRuleRow,
  type TaxRegionRow,
} from "./schema";
