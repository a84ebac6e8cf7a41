import { Type, type Static } from "@sinclair/typebox";
import { Code, LongText, OptionalMetadata, Strict, Title } from "@kasse/core";
import { OrNull, RowView, View, type ListFilters } from "@kasse/db";
import { capture, payment, paymentCollection, paymentSession, refund, refundReason } from "./schema";

/** Body of `POST /admin/refund-reasons`. */
export const RefundReasonCreate = Strict({
  label: Title({ minLength: 1 }),
  code: Code({ minLength: 1 }),
  description: Type.Optional(Type.Union([LongText(), Type.Null()])),
  metadata: OptionalMetadata(),
});
export type RefundReasonCreate = Static<typeof RefundReasonCreate>;

/** Body of `POST /admin/refund-reasons/{id}`. */
export const RefundReasonUpdate = Type.Partial(RefundReasonCreate, { additionalProperties: false });
export type RefundReasonUpdate = Static<typeof RefundReasonUpdate>;

/** Filters of `GET /admin/refund-reasons`. */
export interface RefundReasonFilters extends ListFilters {
  code?: string[];
}

// ---- Responses ------------------------------------------------------------------------------

/** A payment provider as regions and the provider lists show it. */
export const PaymentProviderView = View({ id: Type.String(), is_enabled: Type.Boolean() });
/** A capture of a payment. */
export const CaptureView = RowView(capture);
/** A refund reason. */
export const RefundReasonView = RowView(refundReason);
/** A refund of a payment, with the reason chosen for it (null without one). */
export const RefundView = RowView(refund, { refund_reason: OrNull(RefundReasonView) });
/** A payment with its captures and refunds. */
export const PaymentView = RowView(payment, { captures: Type.Array(CaptureView), refunds: Type.Array(RefundView) });
/** A payment session (the Store leaves out `data` and `context`). */
export const PaymentSessionView = RowView(paymentSession);
/** A payment collection with its providers, sessions and payments. */
export const PaymentCollectionView = RowView(paymentCollection, {
  payment_providers: Type.Array(PaymentProviderView),
  payment_sessions: Type.Array(PaymentSessionView),
  payments: Type.Array(PaymentView),
});

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export {
  type CaptureRow,
  type PaymentCollectionRow,
  type PaymentCollectionStatus,
  type PaymentRow,
  type PaymentSessionRow,
  type PaymentSessionStatus,
  type PaymentWebhookEventRow,
  type RefundReasonRow,
  type RefundRow,
} from "./schema";
