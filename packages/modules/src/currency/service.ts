import { errors } from "@kasse/core";
import { transaction } from "@kasse/db";
import { currencyQueries as q } from "./queries";
import type { Currency, CurrencyUpdate } from "./shapes";

/**
 * ISO 4217 currencies (seeded by migration): reads, and choosing the store's default. Built once per
 * process; every method runs in the transaction in progress, if any.
 * @example
 * const eur = await createCurrencyService().retrieve("EUR"); // codes are case-insensitive
 */
export function createCurrencyService() {
  const service = {
    async retrieve(code: string): Promise<Currency> {
      const row = await q.byCode({ code: code.toLowerCase() });
      if (!row) throw errors.notFound(`Currency with code: ${code} was not found`);
      return row;
    },

    list: q.list,

    /** Sets or clears the default flag; making one currency default clears the previous one. */
    async update(code: string, input: CurrencyUpdate): Promise<Currency> {
      const existing = await service.retrieve(code);
      const isDefault = input.is_default;
      if (isDefault === undefined) return existing;
      return transaction(async () => {
        const updated_at = new Date();
        if (isDefault) await q.clearDefault({ updated_at });
        return (await q.setDefault({ code: existing.code, is_default: isDefault, updated_at }))!;
      });
    },

    /** The default currency, or null when none was chosen. */
    getDefault: async (): Promise<Currency | null> => (await q.theDefault()) ?? null,

    /** Which of `codes` (any case) are known currencies, lower-cased; callers reject the rest. */
    async existing(codes: string[]): Promise<Set<string>> {
      const lowered = [...new Set(codes.map((c) => c.toLowerCase()))];
      if (lowered.length === 0) return new Set();
      return new Set((await q.knownAmong({ codes: lowered })).map((r) => r.code));
    },
  };
  return service;
}

export type CurrencyService = ReturnType<typeof createCurrencyService>;
