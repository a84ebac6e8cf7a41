import { type SQL } from "drizzle-orm";
import { generateId } from "@kasse/core";
import { type Db, type ListPaging, anyOf, liveRecords, textSearch } from "@kasse/db";
import { refundReason, type RefundReasonCreate, type RefundReasonRow, type RefundReasonUpdate } from "./schema";

/** Filters of `GET /admin/refund-reasons`. */
export interface RefundReasonFilters {
  id?: string[];
  code?: string[];
  q?: string;
}

/**
 * Refund reasons (Medusa's `/admin/refund-reasons`): CRUD with a unique `code`, soft delete; a
 * refund names one with `refund_reason_id`.
 * @example
 * const reason = await createRefundReasonService(db).create({ label: "Damaged", code: "damaged" });
 */
export function createRefundReasonService(db: Db) {
  const rows = liveRecords(db, refundReason, "Refund reason", {
    label: refundReason.label,
    code: refundReason.code,
  });
  const taken = (code: string | undefined) => `Refund reason with code: ${code} already exists`;
  return {
    create: (input: RefundReasonCreate): Promise<RefundReasonRow> =>
      rows.insert(
        {
          id: generateId("refr"),
          label: input.label,
          code: input.code,
          description: input.description ?? null,
          metadata: input.metadata ?? null,
        },
        taken(input.code),
      ),

    retrieve: (id: string): Promise<RefundReasonRow> => rows.retrieve(id),

    list: (filters: RefundReasonFilters, page: ListPaging) => rows.list(conditions(filters), page),

    update: (id: string, input: RefundReasonUpdate): Promise<RefundReasonRow> =>
      rows.update(id, input, taken(input.code)),

    delete: (id: string): Promise<void> => rows.softDelete(id),
  };
}

export type RefundReasonService = ReturnType<typeof createRefundReasonService>;

function conditions(filters: RefundReasonFilters): SQL[] {
  const out = anyOf(filters, { id: refundReason.id, code: refundReason.code });
  out.push(...textSearch(filters.q, [refundReason.label, refundReason.code, refundReason.description]));
  return out;
}
