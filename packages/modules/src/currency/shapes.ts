import { Strict } from "@kasse/core";
import { Type, type Static } from "@sinclair/typebox";
import { RowView } from "@kasse/db";
import { currency, type CurrencyRow } from "./schema";

/** Body of `POST /admin/currencies/{code}`. */
export const CurrencyUpdate = Strict({ is_default: Type.Optional(Type.Boolean()) });
export type CurrencyUpdate = Static<typeof CurrencyUpdate>;

/** Filters of `GET /admin/currencies`. */
export interface CurrencyFilters {
  code?: string[];
  q?: string;
  is_default?: boolean;
}

// ---- Responses ------------------------------------------------------------------------------

/** A currency. */
export const CurrencyView = RowView(currency);
/** A currency as the API shows it (Medusa's shape plus `is_default`). */
export type Currency = Omit<CurrencyRow, "deleted_at">;

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type CurrencyRow } from "./schema";
