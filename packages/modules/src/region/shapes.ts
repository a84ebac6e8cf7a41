import { Type, type Static } from "@sinclair/typebox";
import { CountryCode, CurrencyCode, Id, OptionalMetadata, Title, Strict } from "@kasse/core";
import { RowView, View, type ListFilters } from "@kasse/db";
import { region, regionCountry } from "./schema";

/** Body of `POST /admin/regions`. */
export const RegionCreate = Strict({
  name: Title({ minLength: 1 }),
  currency_code: CurrencyCode(),
  countries: Type.Optional(Type.Array(CountryCode(), { maxItems: 300 })),
  payment_providers: Type.Optional(Type.Array(Id({ minLength: 1 }), { maxItems: 100 })),
  automatic_taxes: Type.Optional(Type.Boolean()),
  metadata: OptionalMetadata(),
});
export type RegionCreate = Static<typeof RegionCreate>;

/** Body of `POST /admin/regions/{id}`: the create fields, all optional. */
export const RegionUpdate = Type.Partial(RegionCreate, { additionalProperties: false });
export type RegionUpdate = Static<typeof RegionUpdate>;

/** Filters of `GET /admin/regions` and `GET /store/regions`. */
export interface RegionFilters extends ListFilters {
  name?: string[];
  currency_code?: string[];
}

// ---- Responses ------------------------------------------------------------------------------

/** A country as regions show it. */
export const CountryView = RowView(regionCountry);
/** A region with its countries and payment providers. */
export const RegionView = RowView(region, {
  countries: Type.Array(CountryView),
  payment_providers: Type.Array(View({ id: Type.String(), is_enabled: Type.Boolean() })),
});

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type CountryRow, type RegionRow } from "./schema";
