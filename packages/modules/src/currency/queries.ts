import { and, eq, type SQL } from "drizzle-orm";
import {
  db,
  inFilters,
  inList,
  listPage,
  orderBy,
  statement,
  textSearch,
  type ListPaging,
  type Placeholders,
} from "@kasse/db";
import { currency, type CurrencyRow } from "./schema";
import type { CurrencyFilters } from "./shapes";

// The currency module's SQL: the only file of the module that imports drizzle and its table.

/** A currency as the API shows it (Medusa's shape plus `is_default`). */
export type CurrencyRecord = Omit<CurrencyRow, "deleted_at">;

const columns = {
  code: currency.code,
  symbol: currency.symbol,
  symbol_native: currency.symbol_native,
  name: currency.name,
  decimal_digits: currency.decimal_digits,
  is_default: currency.is_default,
  created_at: currency.created_at,
  updated_at: currency.updated_at,
};

const byCode = statement((v: Placeholders<{ code: string }>) =>
  db.select(columns).from(currency).where(eq(currency.code, v.code)),
);

const theDefault = statement(() => db.select(columns).from(currency).where(eq(currency.is_default, true)));

// `updated_at` is a placeholder: its `$onUpdate` would be computed once, at the first build.
const clearDefault = statement((v: Placeholders<{ updated_at: Date }>) =>
  db.update(currency).set({ is_default: false, updated_at: v.updated_at }).where(eq(currency.is_default, true)),
);

const setDefault = statement((v: Placeholders<{ code: string; is_default: boolean; updated_at: Date }>) =>
  db
    .update(currency)
    .set({ is_default: v.is_default, updated_at: v.updated_at })
    .where(eq(currency.code, v.code))
    .returning(columns),
);

const knownAmong = statement((v: Placeholders<{ codes: string[] }>) =>
  db.select({ code: currency.code }).from(currency).where(inList(currency.code, v.codes)),
);

/** The filters of a currency list as conditions. */
function conditions(filters: CurrencyFilters): SQL[] {
  const out = inFilters(filters, { code: currency.code }, ["code"]);
  if (filters.is_default !== undefined) out.push(eq(currency.is_default, filters.is_default));
  out.push(...textSearch(filters.q, [currency.code, currency.name]));
  return out;
}

/** Named statements on the `currency` table, run on the current handle. */
export const currencyQueries = {
  /** The currency of the lower-case `code`. */
  byCode: async (code: string): Promise<CurrencyRecord | undefined> => (await byCode({ code }))[0],
  /** The store's default currency, if one was chosen. */
  theDefault: async (): Promise<CurrencyRecord | undefined> => (await theDefault())[0],
  async list(filters: CurrencyFilters, page: ListPaging): Promise<{ items: CurrencyRecord[]; count: number }> {
    const order = orderBy(page.order, columns, currency.code, "code");
    const { items, count } = await listPage(currency, and(...conditions(filters)), order, page);
    return { items: items.map(({ deleted_at: _deleted, ...row }) => row), count };
  },
  /** Clears the default flag wherever it is set. */
  clearDefault: async (): Promise<void> => {
    await clearDefault({ updated_at: new Date() });
  },
  /** Sets the default flag of `code` and answers the currency. */
  setDefault: async (code: string, isDefault: boolean): Promise<CurrencyRecord | undefined> =>
    (await setDefault({ code, is_default: isDefault, updated_at: new Date() }))[0],
  /** The codes among the lower-case `codes` that are known currencies. */
  knownAmong: async (codes: string[]): Promise<string[]> => (await knownAmong({ codes })).map((r) => r.code),
};
