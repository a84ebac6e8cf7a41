import { and, asc, eq, inArray, isNull, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import { transaction, type Db, type ListPaging, anyOf, liveRecords, rowsByParent, textSearch } from "@kasse/db";
import {
  store,
  storeCurrency,
  type StoreCurrencyRow,
  type StoreFilters,
  type StoreRow,
  type StoreUpdate,
} from "./schema";

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

const live = isNull(store.deleted_at);
const liveCurrency = isNull(storeCurrency.deleted_at);

/**
 * The store: Kasse runs one, created on first use, with the currencies it sells in (exactly one
 * of them the default) and its default sales channel, region and stock location.
 * @example
 * const stores = createStoreService(db);
 * const current = await stores.getOrCreate({ name: "Kasse Store" });
 */
export function createStoreService(db: Db) {
  /** The rows with their live currencies, one query for all. */
  async function withCurrencies(rows: StoreRow[]): Promise<Store[]> {
    const currencies = await rowsByParent(db, storeCurrency, "store_id", rows, {
      where: liveCurrency,
      order: [asc(storeCurrency.created_at), asc(storeCurrency.currency_code)],
    });
    return rows.map(({ is_primary: _primary, ...row }) => ({
      ...row,
      supported_currencies: currencies.get(row.id)!,
    }));
  }

  const stores = liveRecords(db, store, "Store", { name: store.name });
  const service = {
    retrieve: async (id: string): Promise<Store> => (await withCurrencies([await stores.retrieve(id)]))[0]!,

    async list(filters: StoreFilters, page: ListPaging): Promise<{ items: Store[]; count: number }> {
      const { items, count } = await stores.list(conditions(filters), page);
      return { items: await withCurrencies(items), count };
    },

    /** The store, created with `defaults` the first time it is asked for. */
    async getOrCreate(defaults: StoreDefaults | (() => Promise<StoreDefaults>)): Promise<Store> {
      const [existing] = await db
        .select()
        .from(store)
        .where(and(eq(store.is_primary, true), live))
        .limit(1);
      if (existing) return (await withCurrencies([existing]))[0]!;
      const init = typeof defaults === "function" ? await defaults() : defaults;
      return transaction(db, async (inner) => {
        const [row] = await inner
          .insert(store)
          .values({
            id: generateId("store"),
            name: init.name,
            default_sales_channel_id: init.default_sales_channel_id ?? null,
            default_region_id: init.default_region_id ?? null,
            default_location_id: init.default_location_id ?? null,
          })
          .onConflictDoNothing()
          .returning();
        // Someone else created it at the same moment: theirs is the store.
        if (!row) return createStoreService(inner).getOrCreate(init);
        const currencies = init.currencies ?? [];
        if (currencies.length > 0) {
          await inner.insert(storeCurrency).values(
            currencies.map((c) => ({
              id: generateId("stocur"),
              store_id: row.id,
              currency_code: c.currency_code.toLowerCase(),
              is_default: c.is_default,
            })),
          );
        }
        return createStoreService(inner).retrieve(row.id);
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
      return transaction(db, async (inner) => {
        const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
        if (Object.keys(set).length > 0)
          await inner
            .update(store)
            .set({ ...set, updated_at: new Date() })
            .where(eq(store.id, id));
        if (wanted) {
          const keep = new Map(current.supported_currencies.map((c) => [c.currency_code, c]));
          const now = new Date();
          const removed = current.supported_currencies
            .filter((c) => !wanted!.some((w) => w.currency_code === c.currency_code))
            .map((c) => c.id);
          if (removed.length > 0)
            await inner
              .update(storeCurrency)
              .set({ deleted_at: now, is_default: false })
              .where(inArray(storeCurrency.id, removed));
          // Clear the old default first: the unique index allows one default at a time.
          await inner
            .update(storeCurrency)
            .set({ is_default: false, updated_at: now })
            .where(and(eq(storeCurrency.store_id, id), eq(storeCurrency.is_default, true), liveCurrency));
          for (const c of wanted) {
            const existing = keep.get(c.currency_code);
            if (existing)
              await inner
                .update(storeCurrency)
                .set({ is_default: c.is_default, updated_at: now })
                .where(eq(storeCurrency.id, existing.id));
            else
              await inner.insert(storeCurrency).values({
                id: generateId("stocur"),
                store_id: id,
                currency_code: c.currency_code,
                is_default: c.is_default,
              });
          }
        }
        return createStoreService(inner).retrieve(id);
      });
    },

    /** Puts a store back as it was (a workflow's compensation). */
    async restore(previous: Store): Promise<void> {
      const { supported_currencies, id, created_at: _c, updated_at: _u, deleted_at: _d, ...fields } = previous;
      await transaction(db, async (inner) => {
        await inner.update(store).set(fields).where(eq(store.id, id));
        await inner.delete(storeCurrency).where(eq(storeCurrency.store_id, id));
        if (supported_currencies.length > 0) await inner.insert(storeCurrency).values(supported_currencies);
      });
    },
  };
  return service;
}

export type StoreService = ReturnType<typeof createStoreService>;

function conditions(filters: StoreFilters): SQL[] {
  const out = anyOf(filters, { id: store.id, name: store.name });
  out.push(...textSearch(filters.q, [store.name]));
  return out;
}
