import { and, asc, eq, isNull, type SQL } from "drizzle-orm";
import {
  db,
  groupBy,
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

const primary = statement(() =>
  db
    .select()
    .from(store)
    .where(and(eq(store.is_primary, true), stores.live))
    .limit(1),
);

// Two callers creating the store at once: the unique index keeps one, the other inserts nothing.
const insertPrimary = statement(
  (
    v: Placeholders<{
      id: string;
      name: string;
      default_sales_channel_id: string | null;
      default_region_id: string | null;
      default_location_id: string | null;
    }>,
  ) => db.insert(store).values(v).onConflictDoNothing().returning(),
);

const currenciesOf = rowsOf(storeCurrency, storeCurrency.store_id, {
  where: liveCurrency,
  order: [asc(storeCurrency.created_at), asc(storeCurrency.currency_code)],
});

const insertCurrencies = insertRows(storeCurrency);

const removeCurrencies = statement((v: Placeholders<{ ids: string[]; deleted_at: Date }>) =>
  db
    .update(storeCurrency)
    .set({ deleted_at: v.deleted_at, is_default: false, updated_at: v.deleted_at })
    .where(inList(storeCurrency.id, v.ids)),
);

const clearDefaultCurrency = statement((v: Placeholders<{ store_id: string; updated_at: Date }>) =>
  db
    .update(storeCurrency)
    .set({ is_default: false, updated_at: v.updated_at })
    .where(and(eq(storeCurrency.store_id, v.store_id), eq(storeCurrency.is_default, true), liveCurrency)),
);

const setCurrencyDefault = statement((v: Placeholders<{ id: string; is_default: boolean; updated_at: Date }>) =>
  db
    .update(storeCurrency)
    .set({ is_default: v.is_default, updated_at: v.updated_at })
    .where(eq(storeCurrency.id, v.id)),
);

const deleteCurrencies = statement((v: Placeholders<{ store_id: string }>) =>
  db.delete(storeCurrency).where(eq(storeCurrency.store_id, v.store_id)),
);

/** The filters of a store list as conditions. */
function conditions(filters: StoreFilters): SQL[] {
  return [...inFilters(filters, { id: store.id, name: store.name }), ...textSearch(filters.q, [store.name])];
}

/** Named statements on the store tables, run on the current handle. */
export const storeQueries = {
  retrieve: stores.retrieve,
  list: stores.listBy(conditions),
  /** The live store (Kasse runs one), if it was created. */
  primary: async (): Promise<StoreRow | undefined> => (await primary())[0],
  /** Creates the store unless it exists; undefined when another caller's insert won. */
  insertPrimary: async (row: {
    id: string;
    name: string;
    default_sales_channel_id: string | null;
    default_region_id: string | null;
    default_location_id: string | null;
  }): Promise<StoreRow | undefined> => (await insertPrimary(row))[0],
  /** Sets `fields` on the store (its `updated_at` too). */
  async update(id: string, fields: Partial<typeof store.$inferInsert>): Promise<void> {
    await db
      .update(store)
      .set({ ...fields, updated_at: new Date() })
      .where(eq(store.id, id));
  },
  /** Writes back `fields` as they were (`updated_at` becomes now). */
  async restore(id: string, fields: Partial<typeof store.$inferInsert>): Promise<void> {
    await db.update(store).set(fields).where(eq(store.id, id));
  },
  /** The live currencies of the stores `ids`, grouped by store (every store has an entry). */
  async currenciesOf(ids: string[]): Promise<Map<string, StoreCurrencyRow[]>> {
    if (ids.length === 0) return new Map();
    return groupBy(await currenciesOf(ids), (c) => c.store_id, { keys: ids });
  },
  /** Inserts new supported currencies (their timestamps are now). */
  async insertCurrencies(
    rows: Array<{ id: string; store_id: string; currency_code: string; is_default: boolean }>,
  ): Promise<void> {
    if (rows.length > 0) await insertCurrencies(rows);
  },
  /** Inserts supported currencies as they were, timestamps included (a compensation). */
  async restoreCurrencies(rows: StoreCurrencyRow[]): Promise<void> {
    if (rows.length > 0) await db.insert(storeCurrency).values(rows);
  },
  /** Soft-deletes the supported currencies `ids`. */
  async removeCurrencies(ids: string[]): Promise<void> {
    if (ids.length > 0) await removeCurrencies({ ids, deleted_at: new Date() });
  },
  /** Clears the store's default currency (the unique index allows one default at a time). */
  async clearDefaultCurrency(storeId: string): Promise<void> {
    await clearDefaultCurrency({ store_id: storeId, updated_at: new Date() });
  },
  async setCurrencyDefault(id: string, isDefault: boolean): Promise<void> {
    await setCurrencyDefault({ id, is_default: isDefault, updated_at: new Date() });
  },
  /** Deletes every currency row of the store, live or not. */
  async deleteCurrencies(storeId: string): Promise<void> {
    await deleteCurrencies({ store_id: storeId });
  },
};
