import { generateId } from "@kasse/core";
import type { ListPaging } from "@kasse/db";
import { paymentQueries as q } from "./queries";
import type { RefundReasonRow } from "./schema";
import type { RefundReasonCreate, RefundReasonUpdate } from "./shapes";
import type { ListFilters } from "@kasse/db";

/** Filters of `GET /admin/refund-reasons`. */
export interface RefundReasonFilters extends ListFilters {
  code?: string[];
}

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
      q.insertReason(
        {
          id: generateId("refr"),
          label: input.label,
          code: input.code,
          description: input.description ?? null,
          metadata: input.metadata ?? null,
        },
        taken(input.code),
      ),

    retrieve: (id: string): Promise<RefundReasonRow> => q.retrieveReason(id),

    list: (filters: RefundReasonFilters, page: ListPaging) => q.reasons(filters, page),

    update: (id: string, input: RefundReasonUpdate): Promise<RefundReasonRow> =>
      q.updateReason(id, input, taken(input.code)),

    delete: (id: string): Promise<void> => q.deleteReason(id),
  };
}

export type RefundReasonService = ReturnType<typeof createRefundReasonService>;
