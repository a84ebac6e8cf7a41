import { and, eq, inArray, type SQL } from "drizzle-orm";
import { errors } from "@kasse/core";
import { orderBy, transaction, type Db, type Paging, listPage, textSearch } from "@kasse/db";
import { currency, type CurrencyFilters, type CurrencyRow, type CurrencyUpdate } from "./schema";

/** A currency as the API shows it (Medusa's shape plus `is_default`). */
export type Currency = Omit<CurrencyRow, "deleted_at">;

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

/**
 * ISO 4217 currencies (seeded by migration): reads, and choosing the store's default.
 * @example
 * const eur = await createCurrencyService(db).retrieve("EUR"); // codes are case-insensitive
 */
export function createCurrencyService(db: Db) {
  const service = {
    async retrieve(code: string): Promise<Currency> {
      const [row] = await db.select(columns).from(currency).where(eq(currency.code, code.toLowerCase()));
      if (!row) throw errors.notFound(`Currency with code: ${code} was not found`);
      return row;
    },

    async list(
      filters: CurrencyFilters,
      page: Paging & { order?: string },
    ): Promise<{ items: Currency[]; count: number }> {
      const where = and(...conditions(filters));
      const { items, count: total } = await listPage(
        db,
        currency,
        where,
        orderBy(page.order, columns, currency.code, "code"),
        page,
      );
      return { items: items.map(({ deleted_at: _deleted, ...row }) => row), count: total };
    },

    /** Sets or clears the default flag; making one currency default clears the previous one. */
    async update(code: string, input: CurrencyUpdate): Promise<Currency> {
      const existing = await service.retrieve(code);
      if (input.is_default === undefined) return existing;
      return transaction(db, async (inner) => {
        if (input.is_default)
          await inner.update(currency).set({ is_default: false }).where(eq(currency.is_default, true));
        const [row] = await inner
          .update(currency)
          .set({ is_default: input.is_default })
          .where(eq(currency.code, existing.code))
          .returning(columns);
        return row!;
      });
    },

    /** The default currency, or null when none was chosen. */
    async getDefault(): Promise<Currency | null> {
      const [row] = await db.select(columns).from(currency).where(eq(currency.is_default, true));
      return row ?? null;
    },

    /** Which of `codes` (any case) are known currencies, lower-cased; callers reject the rest. */
    async existing(codes: string[]): Promise<Set<string>> {
      const lowered = [...new Set(codes.map((c) => c.toLowerCase()))];
      if (lowered.length === 0) return new Set();
      const rows = await db.select({ code: currency.code }).from(currency).where(inArray(currency.code, lowered));
      return new Set(rows.map((r) => r.code));
    },
  };
  return service;
}

export type CurrencyService = ReturnType<typeof createCurrencyService>;

function conditions(filters: CurrencyFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.code?.length)
    out.push(
      inArray(
        currency.code,
        filters.code.map((c) => c.toLowerCase()),
      ),
    );
  if (filters.is_default !== undefined) out.push(eq(currency.is_default, filters.is_default));
  out.push(...textSearch(filters.q, [currency.code, currency.name]));
  return out;
}
