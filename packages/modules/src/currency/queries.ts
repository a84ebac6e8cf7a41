import { and, eq, getTableColumns, type SQL } from "drizzle-orm";
import {
  db,
  first,
  inFilters,
  inList,
  listPage,
  orderBy,
  statement,
  textSearch,
  type ListPaging,
  type Placeholders,
} from "@kasse/db";
import { currency } from "./schema";
import type { Currency, CurrencyFilters } from "./shapes";

// The currency module's SQL: the only file of the module that imports drizzle and its table.

const { deleted_at: _deleted, ...columns } = getTableColumns(currency);

/** The filters of a currency list as conditions. */
const conditions = (filters: CurrencyFilters): SQL[] => [
  ...inFilters(filters, { code: currency.code }, ["code"]),
  ...(filters.is_default === undefined ? [] : [eq(currency.is_default, filters.is_default)]),
  ...textSearch(filters.q, [currency.code, currency.name]),
];

/** Named statements on the `currency` table, run on the current handle. */
export const currencyQueries = {
  /** The currency of the lower-case `code`. */
  byCode: first(
    statement((v: Placeholders<{ code: string }>) =>
      db.select(columns).from(currency).where(eq(currency.code, v.code)),
    ),
  ),
  /** The store's default currency, if one was chosen. */
  theDefault: first(statement(() => db.select(columns).from(currency).where(eq(currency.is_default, true)))),
  async list(filters: CurrencyFilters, page: ListPaging): Promise<{ items: Currency[]; count: number }> {
    const order = orderBy(page.order, columns, currency.code, "code");
    const { items, count } = await listPage(currency, and(...conditions(filters)), order, page);
    return { items: items.map(({ deleted_at: _deleted, ...row }) => row), count };
  },
  /**
   * Clears the default flag wherever it is set. `updated_at` is a placeholder: its `$onUpdate` would be
   * computed once, at the first build.
   */
  clearDefault: statement((v: Placeholders<{ updated_at: Date }>) =>
    db.update(currency).set({ is_default: false, updated_at: v.updated_at }).where(eq(currency.is_default, true)),
  ),
  /** Sets the default flag of `code` and answers the currency. */
  setDefault: first(
    statement((v: Placeholders<{ code: string; is_default: boolean; updated_at: Date }>) =>
      db
        .update(currency)
        .set({ is_default: v.is_default, updated_at: v.updated_at })
        .where(eq(currency.code, v.code))
        .returning(columns),
    ),
  ),
  /** The codes among the lower-case `codes` that are known currencies. */
  knownAmong: statement((v: Placeholders<{ codes: string[] }>) =>
    db.select({ code: currency.code }).from(currency).where(inList(currency.code, v.codes)),
  ),
};
