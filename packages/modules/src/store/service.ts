import { errors, generateId } from "@kasse/core";
import { groupBy, transaction, viewPage, type ListPaging } from "@kasse/db";
import { storeQueries as q } from "./queries";
import type { StoreCurrencyRow, StoreRow } from "./schema";
import type { StoreFilters, StoreUpdate } from "./shapes";

/** A store as the API shows it: the row and its supported currencies. */
export type Store = Omit<StoreRow, "is_primary"> & { supported_currencies: StoreCurrencyRow[] };

/** What a new store starts with: passed in by the caller, who reads the other modules. */
export interface StoreDefaults {
  name: string;
  default_sales_channel_id?: string | null;
  default_region_id?: string | null;
  default_location_id?: string | null;
  currencies?: Array<{ currency_code: string; is_default: boolean }>;
}

/**
 * Which ids and codes named by an update exist, read by the caller from the modules that own
 * them; the store refuses the others.
 */
export interface StoreReferences {
  currencies: Set<string>;
  sales_channels: Set<string>;
  regions: Set<string>;
  locations: Set<string>;
}

/**
 * The store: Kasse runs one, created on first use, with the currencies it sells in (exactly one
 * of them the default) and its default sales channel, region and stock location. Built once per
 * process; every method runs in the transaction in progress, if any.
 * @example
 * const stores = createStoreService();
 * const current = await stores.getOrCreate({ name: "Kasse Store" });
 */
export function createStoreService() {
  const service = {
    retrieve: async (id: string): Promise<Store> => (await withCurrencies([await q.retrieve(id)]))[0]!,

    list: (filters: StoreFilters, page: ListPaging) => viewPage(q.list(filters, page), withCurrencies),

    /** The store, created with `defaults` the first time it is asked for. */
    async getOrCreate(defaults: StoreDefaults | (() => Promise<StoreDefaults>)): Promise<Store> {
      const existing = await q.primary();
      if (existing) return (await withCurrencies([existing]))[0]!;
      const init = typeof defaults === "function" ? await defaults() : defaults;
      return transaction(async () => {
        const row = await q.insertPrimary({
          id: generateId("store"),
          name: init.name,
          default_sales_channel_id: init.default_sales_channel_id ?? null,
          default_region_id: init.default_region_id ?? null,
          default_location_id: init.default_location_id ?? null,
        });
        // Someone else created it at the same moment: theirs is the store.
        if (!row) return service.getOrCreate(init);
        if (init.currencies?.length)
          await q.insertCurrencies(
            init.currencies.map((c) => ({
              id: generateId("stocur"),
              store_id: row.id,
              currency_code: c.currency_code.toLowerCase(),
              is_default: c.is_default,
            })),
          );
        return service.retrieve(row.id);
      });
    },

    /**
     * Updates the store. `supported_currencies`, when given, replaces the set; it must name each
     * currency once, known currencies only, and exactly one default. Default ids must exist.
     */
    async update(id: string, input: StoreUpdate, refs: StoreReferences): Promise<Store> {
      const current = await service.retrieve(id);
      const { supported_currencies, ...fields } = input;
      for (const [key, set, label] of [
        ["default_sales_channel_id", refs.sales_channels, "Sales channel"],
        ["default_region_id", refs.regions, "Region"],
        ["default_location_id", refs.locations, "Stock location"],
      ] as const) {
        const value = fields[key];
        if (typeof value === "string" && !set.has(value))
          throw errors.notFound(`${label} with id: ${value} was not found`);
      }
      let wanted: Array<{ currency_code: string; is_default: boolean }> | undefined;
      if (supported_currencies) {
        wanted = supported_currencies.map((c) => ({
          currency_code: c.currency_code.toLowerCase(),
          is_default: c.is_default ?? false,
        }));
        const codes = wanted.map((c) => c.currency_code);
        const duplicate = codes.find((c, i) => codes.indexOf(c) !== i);
        if (duplicate) throw errors.invalidData(`Currency ${duplicate} is named more than once`);
        const unknown = codes.find((c) => !refs.currencies.has(c));
        if (unknown) throw errors.invalidData(`Currency with code: ${unknown} was not found`);
        const defaults = wanted.filter((c) => c.is_default).length;
        if (wanted.length > 0 && defaults !== 1)
          throw errors.invalidData("Exactly one supported currency must be the default");
      }
      return transaction(async () => {
        const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
        if (Object.keys(set).length > 0) await q.update(id, set);
        if (wanted) {
          const now = new Date();
          const keep = new Map(current.supported_currencies.map((c) => [c.currency_code, c]));
          const removed = current.supported_currencies.filter(
            (c) => !wanted!.some((w) => w.currency_code === c.currency_code),
          );
          if (removed.length) await q.removeCurrencies({ ids: removed.map((c) => c.id), deleted_at: now });
          // Clear the old default first: the unique index allows one default at a time.
          await q.clearDefaultCurrency({ store_id: id, updated_at: now });
          for (const c of wanted) {
            const existing = keep.get(c.currency_code);
            if (existing) await q.setCurrencyDefault({ id: existing.id, is_default: c.is_default, updated_at: now });
          }
          const added = wanted.filter((c) => !keep.has(c.currency_code));
          if (added.length)
            await q.insertCurrencies(added.map((c) => ({ id: generateId("stocur"), store_id: id, ...c })));
        }
        return service.retrieve(id);
      });
    },

    /** Puts a store back as it was (a workflow's compensation). */
    async restore(previous: Store): Promise<void> {
      const { supported_currencies, id, created_at: _c, updated_at: _u, deleted_at: _d, ...fields } = previous;
      await transaction(async () => {
        await q.update(id, fields);
        await q.deleteCurrencies({ store_id: id });
        if (supported_currencies.length) await q.restoreCurrencies(supported_currencies);
      });
    },
  };
  return service;
}

export type StoreService = ReturnType<typeof createStoreService>;

/** The rows with their live currencies, one query for all. */
async function withCurrencies(rows: StoreRow[]): Promise<Store[]> {
  const ids = rows.map((r) => r.id);
  const currencies = groupBy(ids.length ? await q.currenciesOf(ids) : [], (c) => c.store_id, { keys: ids });
  return rows.map(({ is_primary: _primary, ...row }) => ({ ...row, supported_currencies: currencies.get(row.id)! }));
}
