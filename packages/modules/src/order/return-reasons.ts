import { errors, generateId } from "@kasse/core";
import { orderQueries as q } from "./queries";
import type { ReturnReasonRow } from "./schema";
import type { ReturnReasonCreate, ReturnReasonUpdate } from "./shapes";

/**
 * Return reasons (Medusa's `/admin/return-reasons`): CRUD with a unique `value`, soft delete.
 * @example
 * const reason = await createReturnReasonService().create({ value: "damaged", label: "Damaged" });
 */
export function createReturnReasonService() {
  const taken = (value: string | undefined) => `Return reason with value: ${value ?? ""} already exists`;
  const service = {
    create: (input: ReturnReasonCreate): Promise<ReturnReasonRow> =>
      q.reasons.insert({ ...input, id: generateId("rr") }, taken(input.value)),
    retrieve: q.reasons.retrieve,
    list: q.reasons.list,
    update: (id: string, input: ReturnReasonUpdate): Promise<ReturnReasonRow> =>
      q.reasons.update(id, input, taken(input.value)),
    delete: q.reasons.softDelete,

    /** Refuses (400) the first of `ids` (blanks skipped) that is not a live reason. */
    async assertKnown(ids: Array<string | null | undefined>): Promise<void> {
      const wanted = [...new Set(ids.filter((id): id is string => !!id))];
      const known = await q.reasons.existing(wanted);
      const unknown = wanted.find((id) => !known.has(id));
      if (unknown) throw errors.invalidData(`Return reason ${unknown} was not found`);
    },
  };
  return service;
}

export type ReturnReasonService = ReturnType<typeof createReturnReasonService>;
