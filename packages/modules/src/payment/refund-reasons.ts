import { generateId } from "@kasse/core";
import { refundReasonQueries as q } from "./queries";
import type { RefundReasonRow } from "./schema";
import type { RefundReasonCreate, RefundReasonUpdate } from "./shapes";

/**
 * Refund reasons (Medusa's `/admin/refund-reasons`): CRUD with a unique `code`, soft delete; a
 * refund names one with `refund_reason_id`.
 * @example
 * const reason = await createRefundReasonService().create({ label: "Damaged", code: "damaged" });
 */
export function createRefundReasonService() {
  const taken = (code: string | undefined) => `Refund reason with code: ${code} already exists`;
  return {
    create: (input: RefundReasonCreate): Promise<RefundReasonRow> =>
      q.insert(
        { ...input, id: generateId("refr"), description: input.description ?? null, metadata: input.metadata ?? null },
        taken(input.code),
      ),
    retrieve: q.retrieve,
    list: q.list,
    update: (id: string, input: RefundReasonUpdate): Promise<RefundReasonRow> => q.update(id, input, taken(input.code)),
    delete: q.softDelete,
  };
}

export type RefundReasonService = ReturnType<typeof createRefundReasonService>;
