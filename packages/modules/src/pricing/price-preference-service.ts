import { and, eq, inArray, isNull, type SQL } from "drizzle-orm";
import { errors, generateId, isUniqueViolation, orderBy, type Db, type Paging, listPage } from "@kasse/db";
import {
  pricePreference,
  type PricePreferenceCreate,
  type PricePreferenceFilters,
  type PricePreferenceRow,
  type PricePreferenceUpdate,
} from "./schema";

/** A price preference as the API shows it. */
export type PricePreference = Omit<PricePreferenceRow, "deleted_at">;

const live = isNull(pricePreference.deleted_at);
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

    async retrieve(id: string): Promise<PricePreference> {
      const [row] = await db
        .select(columns)
        .from(pricePreference)
        .where(and(eq(pricePreference.id, id), live));
      if (!row) throw errors.notFound(`Price preference with id: ${id} was not found`);
      return row;
    },

    async list(
      filters: PricePreferenceFilters,
      page: Paging & { order?: string },
    ): Promise<{ items: PricePreference[]; count: number }> {
      const where = and(live, ...conditions(filters));
      const order = orderBy(
        page.order,
        {
          created_at: columns.created_at,
          updated_at: columns.updated_at,
          attribute: columns.attribute,
          value: columns.value,
        },
        pricePreference.id,
      );
      const { items, count: total } = await listPage(db, pricePreference, where, order, page);
      return { items: items.map(({ deleted_at: _deleted, ...row }) => row), count: total };
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

    async delete(id: string): Promise<void> {
      await service.retrieve(id);
      await db.update(pricePreference).set({ deleted_at: new Date() }).where(eq(pricePreference.id, id));
    },
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
