import { Type, type Static } from "@sinclair/typebox";
import {
  Amount,
  Code,
  Count,
  CurrencyCode,
  DateTime,
  Id,
  LongText,
  MoneyView,
  Title,
  Strict,
  Batch,
} from "@kasse/core";
import { OrNull, RowView, View, type ListFilters } from "@kasse/db";
import { price, priceList, pricePreference } from "./schema";

const Quantity = Type.Optional(Type.Union([Count(), Type.Null()]));
const Currency = CurrencyCode();

/** One base price of a variant, as the product routes send it. */
export const VariantPriceInput = Strict({
  currency_code: Currency,
  amount: Amount(),
  min_quantity: Quantity,
  max_quantity: Quantity,
  rules: Type.Optional(Strict({ region_id: Type.Optional(Id({ minLength: 1 })) })),
});
export type VariantPriceInput = Static<typeof VariantPriceInput>;

/** A price in a price list create body or batch `create`: a variant's price, naming the variant. */
export const PriceListPriceCreate = Strict({ variant_id: Id({ minLength: 1 }), ...VariantPriceInput.properties });
export type PriceListPriceCreate = Static<typeof PriceListPriceCreate>;

/** A price in a batch `update`. */
export const PriceListPriceUpdate = Strict({
  id: Id({ minLength: 1 }),
  ...Type.Partial(PriceListPriceCreate).properties,
});
export type PriceListPriceUpdate = Static<typeof PriceListPriceUpdate>;

const RuleType = Type.Union([Type.Literal("customer_group_id"), Type.Literal("region_id")]);

/** Price list rules: the contract's `[{rule_type, value}]`, or Medusa's `{customer_group_id: [..]}`. */
export const PriceListRules = Type.Union([
  Type.Array(Strict({ rule_type: RuleType, value: Id({ minLength: 1 }) }), {
    maxItems: 1000,
  }),
  Strict({
    customer_group_id: Type.Optional(Type.Array(Id({ minLength: 1 }), { maxItems: 1000 })),
    region_id: Type.Optional(Type.Array(Id({ minLength: 1 }), { maxItems: 1000 })),
  }),
]);

const OptionalDateTime = Type.Optional(Type.Union([DateTime(), Type.Null()]));

/** Body of `POST /admin/price-lists`. */
export const PriceListCreate = Strict({
  title: Title({ minLength: 1 }),
  description: Type.Optional(LongText()),
  type: Type.Union([Type.Literal("sale"), Type.Literal("override")]),
  status: Type.Optional(Type.Union([Type.Literal("active"), Type.Literal("draft")])),
  starts_at: OptionalDateTime,
  ends_at: OptionalDateTime,
  rules: Type.Optional(PriceListRules),
  prices: Type.Optional(Type.Array(PriceListPriceCreate, { maxItems: 10000 })),
});
export type PriceListCreate = Static<typeof PriceListCreate>;

/** Body of `POST /admin/price-lists/{id}`: the create fields, all optional. */
export const PriceListUpdate = Type.Partial(PriceListCreate, { additionalProperties: false });
export type PriceListUpdate = Static<typeof PriceListUpdate>;

/** Body of `POST /admin/price-lists/{id}/prices/batch`. */
export const PriceListPricesBatch = Batch(PriceListPriceCreate, PriceListPriceUpdate, 10000);
export type PriceListPricesBatch = Static<typeof PriceListPricesBatch>;

/** Body of `POST /admin/price-preferences`. */
export const PricePreferenceCreate = Strict({
  attribute: Type.Union([Type.Literal("region_id"), Type.Literal("currency_code")]),
  value: Code({ minLength: 1 }),
  is_tax_inclusive: Type.Optional(Type.Boolean()),
});
export type PricePreferenceCreate = Static<typeof PricePreferenceCreate>;

/** Body of `POST /admin/price-preferences/{id}`. */
export const PricePreferenceUpdate = Type.Partial(PricePreferenceCreate, { additionalProperties: false });
export type PricePreferenceUpdate = Static<typeof PricePreferenceUpdate>;

/** Filters of `GET /admin/price-lists`. */
export interface PriceListFilters extends ListFilters {
  status?: Array<"active" | "draft">;
  type?: Array<"sale" | "override">;
}

/** Filters of `GET /admin/price-preferences`. */
export interface PricePreferenceFilters {
  id?: string[];
  attribute?: string[];
  value?: string[];
}

// ---- Responses ------------------------------------------------------------------------------

/** A price; `rules` holds its region rule (`{region_id}`) when it has one. */
export const PriceView = RowView(price, { rules: Type.Record(Type.String(), Type.String()) });
/** A price list with its rules (`{customer_group_id: [...]}`) and prices. */
export const PriceListView = RowView(priceList, {
  rules: Type.Record(Type.String(), Type.Array(Type.String())),
  prices: Type.Array(PriceView),
});
/** A price preference. */
export const PricePreferenceView = RowView(pricePreference);

const PriceRef = () =>
  View({
    id: Type.String(),
    price_list_id: OrNull(Type.String()),
    price_list_type: OrNull(Type.Union([Type.Literal("sale"), Type.Literal("override")])),
    min_quantity: OrNull(Type.Integer()),
    max_quantity: OrNull(Type.Integer()),
  });
/** The price a customer pays and the one it is compared with (Medusa's `calculated_price`). */
export const CalculatedPriceView = View({
  id: Type.String(),
  calculated_amount: MoneyView(),
  original_amount: MoneyView(),
  currency_code: Type.String(),
  is_calculated_price_tax_inclusive: Type.Boolean(),
  is_original_price_tax_inclusive: Type.Boolean(),
  calculated_price: PriceRef(),
  original_price: PriceRef(),
});

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type PriceListRow, type PricePreferenceRow, type PriceRow } from "./schema";
