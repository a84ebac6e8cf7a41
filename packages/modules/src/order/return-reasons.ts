import { type SQL } from "drizzle-orm";
import { errors, generateId } from "@kasse/core";
import { type Db, type ListPaging, anyOf, liveRecords, textSearch } from "@kasse/db";
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
  const taken = (value: string | undefined) => `Return reason with value: ${value ?? ""} already exists`;
  const service = {
    create: (input: ReturnReasonCreate): Promise<ReturnReasonRow> =>
      rows.insert({ ...input, id: generateId("rr") }, taken(input.value)),

    retrieve: (id: string): Promise<ReturnReasonRow> => rows.retrieve(id),

    list: (filters: ReturnReasonFilters, page: ListPaging) => rows.list(conditions(filters), page),

    update: (id: string, input: ReturnReasonUpdate): Promise<ReturnReasonRow> =>
      rows.update(id, input, taken(input.value)),

    delete: (id: string): Promise<void> => rows.softDelete(id),

    /** Refuses (400) the first of `ids` (blanks skipped) that is not a live reason. */
    async assertKnown(ids: Array<string | null | undefined>): Promise<void> {
      const wanted = [...new Set(ids.filter((id): id is string => !!id))];
      const known = await rows.existing(wanted);
      const unknown = wanted.find((id) => !known.has(id));
      if (unknown) throw errors.invalidData(`Return reason ${unknown} was not found`);
    },
  };
  return service;
}

export type ReturnReasonService = ReturnType<typeof createReturnReasonService>;

function conditions(filters: ReturnReasonFilters): SQL[] {
  const out = anyOf(filters, { id: returnReason.id, value: returnReason.value });
  out.push(...textSearch(filters.q, [returnReason.value, returnReason.label, returnReason.description]));
  return out;
}
