import { type SQL } from "drizzle-orm";
import {
  errors,
  generateId,
  isUniqueViolation,
  type Db,
  type ListPaging,
  anyOf,
  liveRecords,
  textSearch,
} from "@kasse/db";
import { returnReason, type ReturnReasonCreate, type ReturnReasonRow, type ReturnReasonUpdate } from "./schema";

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
  const rows = liveRecords(db, returnReason, "Return reason", { value: returnReason.value, label: returnReason.label });
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

    retrieve: (id: string): Promise<ReturnReasonRow> => rows.retrieve(id),

    list: (filters: ReturnReasonFilters, page: ListPaging) => rows.list(conditions(filters), page),

    update: (id: string, input: ReturnReasonUpdate): Promise<ReturnReasonRow> =>
      rows.update(id, input).catch(unique(input.value ?? "")),

    delete: (id: string): Promise<void> => rows.softDelete(id),

    /** The ids among `ids` that are live reasons. */
    existing: (ids: string[]) => rows.existing(ids),
  };
  return service;
}

export type ReturnReasonService = ReturnType<typeof createReturnReasonService>;

function conditions(filters: ReturnReasonFilters): SQL[] {
  const out = anyOf(filters, { id: returnReason.id, value: returnReason.value });
  out.push(...textSearch(filters.q, [returnReason.value, returnReason.label, returnReason.description]));
  return out;
}
