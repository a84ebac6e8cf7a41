import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import {
  db,
  first,
  inFilters,
  inList,
  insertRows,
  liveRecords,
  rowsOf,
  statement,
  textSearch,
  type Placeholders,
} from "@kasse/db";
import { store, storeCurrency, type StoreCurrencyRow, type StoreRow } from "./schema";
import type { StoreFilters } from "./shapes";

// The store module's SQL: the only file of the module that imports drizzle and its tables.

const stores = liveRecords(store, "Store", { name: store.name });
const liveCurrency = isNull(storeCurrency.deleted_at);

/** The filters of a store list as conditions. */
const conditions = (filters: StoreFilters): SQL[] => [
  ...inFilters(filters, { id: store.id, name: store.name }),
  ...textSearch(filters.q, [store.name]),
];

/** Named statements on the store tables, run on the current handle. */
export const storeQueries = {
  retrieve: stores.retrieve,
  list: stores.listBy(conditions),
  /** The live store (Kasse runs one), if it was created. */
  primary: first(
    statement(() =>
      db
        .select()
        .from(store)
        .where(and(eq(store.is_primary, true), stores.live))
        .limit(1),
    ),
  ),
  /**
   * Creates the store unless it exists; undefined when another caller's insert won (the unique index
   * keeps one of two made at once).
   */
  insertPrimary: first(
    statement(
      (
        v: Placeholders<
          Pick<StoreRow, "id" | "name" | "default_sales_channel_id" | "default_region_id" | "default_location_id">
        >,
      ) => db.insert(store).values(v).onConflictDoNothing().returning(),
    ),
  ),
  /** Sets `fields` on the store; its `updated_at` becomes now. */
  async update(id: string, fields: Partial<typeof store.$inferInsert>): Promise<void> {
    await db.update(store).set(fields).where(eq(store.id, id));
  },
  /** The live currencies of the stores, oldest first. */
  currenciesOf: rowsOf(storeCurrency, storeCurrency.store_id, {
    where: liveCurrency,
    order: [asc(storeCurrency.created_at), asc(storeCurrency.currency_code)],
  }),
  /** Inserts new supported currencies (their timestamps are now). */
  insertCurrencies: insertRows(storeCurrency),
  /** Inserts supported currencies as they were, timestamps included (a compensation). */
  restoreCurrencies: (rows: StoreCurrencyRow[]) => db.insert(storeCurrency).values(rows),
  /** Soft-deletes the supported currencies `ids`. */
  removeCurrencies: statement((v: Placeholders<{ ids: string[]; deleted_at: Date }>) =>
    db
      .update(storeCurrency)
      .set({ deleted_at: v.deleted_at, is_default: false, updated_at: v.deleted_at })
      .where(inList(storeCurrency.id, v.ids)),
  ),
  /** Clears the store's default currency (the unique index allows one default at a time). */
  clearDefaultCurrency: statement((v: Placeholders<{ store_id: string; updated_at: Date }>) =>
    db
      .update(storeCurrency)
      .set({ is_default: false, updated_at: v.updated_at })
      .where(and(eq(storeCurrency.store_id, v.store_id), eq(storeCurrency.is_default, true), liveCurrency)),
  ),
  setCurrencyDefault: statement((v: Placeholders<{ id: string; is_default: boolean; updated_at: Date }>) =>
    db
      .update(storeCurrency)
      .set({ is_default: v.is_default, updated_at: v.updated_at })
      .where(eq(storeCurrency.id, v.id)),
  ),
  /** Deletes every currency row of the store, live or not. */
  deleteCurrencies: statement((v: Placeholders<{ store_id: string }>) =>
    db.delete(storeCurrency).where(eq(storeCurrency.store_id, v.store_id)),
  ),
};
