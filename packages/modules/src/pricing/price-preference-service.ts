import { generateId } from "@kasse/core";
import { viewPage, type ListPaging } from "@kasse/db";
import { pricingQueries as q } from "./queries";
import type { PricePreferenceRow } from "./schema";
import type { PricePreferenceCreate, PricePreferenceFilters, PricePreferenceUpdate } from "./shapes";

/** A price preference as the API shows it. */
export type PricePreference = Omit<PricePreferenceRow, "deleted_at">;

/** A preference's flag to set: whether prices of a currency or a region include tax. */
export interface TaxInclusion {
  attribute: PricePreferenceRow["attribute"];
  value: string;
  is_tax_inclusive: boolean;
}

/** How to undo {@link PricePreferenceService.setTaxInclusion}: each preference's previous flag, or that it was created. */
export type TaxInclusionUndo = Array<{ id: string; created: boolean; is_tax_inclusive: boolean }>;

const view = ({ deleted_at: _deleted, ...row }: PricePreferenceRow): PricePreference => row;

/**
 * Price preferences: whether a region's or a currency's prices include tax (one per attribute and
 * value). Built once per process; every method runs in the transaction in progress, if any.
 * @example
 * await createPricePreferenceService().create({ attribute: "currency_code", value: "eur", is_tax_inclusive: true });
 */
export function createPricePreferenceService() {
  const service = {
    create: async (input: PricePreferenceCreate): Promise<PricePreference> =>
      view(
        await q.preferences.insert(
          { ...input, id: generateId("prpref"), value: normalize(input.attribute, input.value) },
          `A price preference for ${input.attribute} ${input.value} already exists`,
        ),
      ),

    retrieve: async (id: string): Promise<PricePreference> => view(await q.preferences.retrieve(id)),

    list: (filters: PricePreferenceFilters, page: ListPaging) =>
      viewPage(q.preferences.list(filters, page), (rows) => rows.map(view)),

    async update(id: string, input: PricePreferenceUpdate): Promise<PricePreference> {
      const existing = await service.retrieve(id);
      if (Object.keys(input).length === 0) return existing;
      const attribute = input.attribute ?? existing.attribute;
      const set = {
        ...input,
        ...(input.value !== undefined || input.attribute !== undefined
          ? { value: normalize(attribute, input.value ?? existing.value) }
          : {}),
        updated_at: new Date(),
      };
      const taken = `A price preference for ${attribute} ${set.value ?? existing.value} already exists`;
      return view(await q.preferences.update(id, set, taken));
    },

    delete: q.preferences.softDelete,

    /**
     * Sets each preference's flag (creating the preference when missing), in the transaction in
     * progress; answers how to undo it with {@link undoTaxInclusion}.
     */
    async setTaxInclusion(preferences: TaxInclusion[]): Promise<TaxInclusionUndo> {
      const undo: TaxInclusionUndo = [];
      for (const { attribute, value, is_tax_inclusive } of preferences) {
        const existing = await q.preferenceByKey({ attribute, value });
        if (existing) {
          if (existing.is_tax_inclusive === is_tax_inclusive) continue;
          await q.setTaxInclusive({ id: existing.id, is_tax_inclusive, updated_at: new Date() });
          undo.push({ id: existing.id, created: false, is_tax_inclusive: existing.is_tax_inclusive });
        } else {
          const id = generateId("prpref");
          await q.preferences.insert({ id, attribute, value, is_tax_inclusive });
          undo.push({ id, created: true, is_tax_inclusive: false });
        }
      }
      return undo;
    },

    /** Puts back the flags {@link setTaxInclusion} changed and removes the preferences it created. */
    async undoTaxInclusion(undo: TaxInclusionUndo): Promise<void> {
      for (const entry of undo) {
        if (entry.created) await q.removePreference({ id: entry.id });
        else
          await q.setTaxInclusive({ id: entry.id, is_tax_inclusive: entry.is_tax_inclusive, updated_at: new Date() });
      }
    },
  };
  return service;
}

export type PricePreferenceService = ReturnType<typeof createPricePreferenceService>;

// Currency codes are stored lower case like everywhere else, so lookups match `USD` and `usd`.
function normalize(attribute: string, value: string): string {
  return attribute === "currency_code" ? value.toLowerCase() : value;
}
