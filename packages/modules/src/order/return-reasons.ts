import { and, eq, ilike, isNull, or, type SQL } from "drizzle-orm";
import {
  errors,
  generateId,
  isUniqueViolation,
  orderBy,
  type Db,
  type Paging,
  listPage,
  likePattern,
  existingIds,
  anyOf,
} from "@kasse/db";
import { returnReason, type ReturnReasonCreate, type ReturnReasonRow, type ReturnReasonUpdate } from "./schema";

const live = isNull(returnReason.deleted_at);

/** Filters of `GET /admin/return-reasons`. */
export interface ReturnReasonFilters {
  id?: string[];
  value?: string[];
  q?: string;
}

/**
 * Return reasons (Medusa's `/admin/return-reasons`): CRUD with a unique `value`, soft delete.
 * @example
 * const reason = await createReturnReasonService(db).create({ value: "damaged", label: "Damaged" });
 */
export function createReturnReasonService(db: Db) {
  const unique = (value: string) => (e: unknown) => {
    if (isUniqueViolation(e)) throw errors.conflict(`Return reason with value: ${value} already exists`);
    throw e;
  };
  const service = {
    async create(input: ReturnReasonCreate): Promise<ReturnReasonRow> {
      const [row] = await db
        .insert(returnReason)
        .values({
          id: generateId("rr"),
          value: input.value,
          label: input.label,
          description: input.description ?? null,
          metadata: input.metadata ?? null,
        })
        .returning()
        .catch(unique(input.value));
      return row!;
    },

    async retrieve(id: string): Promise<ReturnReasonRow> {
      const [row] = await db
        .select()
        .from(returnReason)
        .where(and(eq(returnReason.id, id), live));
      if (!row) throw errors.notFound(`Return reason with id: ${id} was not found`);
      return row;
    },

    async list(
      filters: ReturnReasonFilters,
      page: Paging & { order?: string },
    ): Promise<{ items: ReturnReasonRow[]; count: number }> {
      const where = and(live, ...conditions(filters));
      return listPage(
        db,
        returnReason,
        where,
        orderBy(
          page.order,
          {
            created_at: returnReason.created_at,
            updated_at: returnReason.updated_at,
            value: returnReason.value,
            label: returnReason.label,
          },
          returnReason.id,
        ),
        page,
      );
    },

    async update(id: string, input: ReturnReasonUpdate): Promise<ReturnReasonRow> {
      if (Object.keys(input).length === 0) return service.retrieve(id);
      const [row] = await db
        .update(returnReason)
        .set(input)
        .where(and(eq(returnReason.id, id), live))
        .returning()
        .catch(unique(input.value ?? ""));
      if (!row) throw errors.notFound(`Return reason with id: ${id} was not found`);
      return row;
    },

    async delete(id: string): Promise<void> {
      await service.retrieve(id);
      await db.update(returnReason).set({ deleted_at: new Date() }).where(eq(returnReason.id, id));
    },

    /** The ids among `ids` that are live reasons. */
    async existing(ids: string[]): Promise<Set<string>> {
      return existingIds(db, returnReason, ids, live);
    },
  };
  return service;
}

export type ReturnReasonService = ReturnType<typeof createReturnReasonService>;

function conditions(filters: ReturnReasonFilters): SQL[] {
  const out = anyOf(filters, { id: returnReason.id, value: returnReason.value });
  if (filters.q) {
    const pattern = likePattern(filters.q);
    out.push(
      or(
        ilike(returnReason.value, pattern),
        ilike(returnReason.label, pattern),
        ilike(returnReason.description, pattern),
      )!,
    );
  }
  return out;
}
