import { eq, inArray, type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import { isUniqueViolation, type Db, type ListPaging, liveRecords } from "@kasse/db";
import {
  pricePreference,
  type PricePreferenceCreate,
  type PricePreferenceFilters,
  type PricePreferenceRow,
  type PricePreferenceUpdate,
} from "./schema";

/** A price preference as the API shows it. */
export type PricePreference = Omit<PricePreferenceRow, "deleted_at">;

const view = ({ deleted_at: _deleted, ...row }: PricePreferenceRow): PricePreference => row;
const columns = {
  id: pricePreference.id,
  attribute: pricePreference.attribute,
  value: pricePreference.value,
  is_tax_inclusive: pricePreference.is_tax_inclusive,
  created_at: pricePreference.created_at,
  updated_at: pricePreference.updated_at,
};

/**
 * Price preferences: whether a region's or a currency's prices include tax (one per attribute and value).
 * @example
 * await createPricePreferenceService(db).create({ attribute: "currency_code", value: "eur", is_tax_inclusive: true });
 */
export function createPricePreferenceService(db: Db) {
  const rows = liveRecords(db, pricePreference, "Price preference", {
    attribute: pricePreference.attribute,
    value: pricePreference.value,
  });
  const service = {
    async create(input: PricePreferenceCreate): Promise<PricePreference> {
      try {
        const [row] = await db
          .insert(pricePreference)
          .values({
            id: generateId("prpref"),
            attribute: input.attribute,
            value: normalize(input.attribute, input.value),
            is_tax_inclusive: input.is_tax_inclusive ?? false,
          })
          .returning(columns);
        return row!;
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.conflict(`A price preference for ${input.attribute} ${input.value} already exists`);
        throw error;
      }
    },

    retrieve: async (id: string): Promise<PricePreference> => view(await rows.retrieve(id)),

    async list(
      filters: PricePreferenceFilters,
      page: ListPaging,
    ): Promise<{ items: PricePreference[]; count: number }> {
      const { items, count } = await rows.list(conditions(filters), page);
      return { items: items.map(view), count };
    },

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
      try {
        const [row] = await db.update(pricePreference).set(set).where(eq(pricePreference.id, id)).returning(columns);
        return row!;
      } catch (error) {
        if (isUniqueViolation(error))
          throw errors.conflict(`A price preference for ${attribute} ${set.value ?? existing.value} already exists`);
        throw error;
      }
    },

    delete: (id: string): Promise<void> => rows.softDelete(id),
  };
  return service;
}

export type PricePreferenceService = ReturnType<typeof createPricePreferenceService>;

// Currency codes are stored lower case like everywhere else, so lookups match `USD` and `usd`.
function normalize(attribute: string, value: string): string {
  return attribute === "currency_code" ? value.toLowerCase() : value;
}

function conditions(filters: PricePreferenceFilters): SQL[] {
  const out: SQL[] = [];
  if (filters.id?.length) out.push(inArray(pricePreference.id, filters.id));
  if (filters.attribute?.length)
    out.push(inArray(pricePreference.attribute, filters.attribute as Array<"region_id" | "currency_code">));
  if (filters.value?.length) out.push(inArray(pricePreference.value, filters.value));
  return out;
}
