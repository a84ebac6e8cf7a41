import { Type, type Static } from "@sinclair/typebox";
import { Code, LongText, OptionalMetadata, Title } from "@kasse/core";
import { OrNull, RowView, View } from "@kasse/db";
import {
  capture,
  payment,
  paymentCollection,
  paymentSession,
  paymentWebhookEvent,
  refund,
  refundReason,
} from "./schema";

export type PaymentCollectionRow = typeof paymentCollection.$inferSelect;
export type PaymentWebhookEventRow = typeof paymentWebhookEvent.$inferSelect;
export type PaymentSessionRow = typeof paymentSession.$inferSelect;
export type PaymentRow = typeof payment.$inferSelect;
export type CaptureRow = typeof capture.$inferSelect;
export type RefundRow = typeof refund.$inferSelect;
export type RefundReasonRow = typeof refundReason.$inferSelect;

/** Body of `POST /admin/refund-reasons`. */
export const RefundReasonCreate = Type.Object(
  {
    label: Title({ minLength: 1 }),
    code: Code({ minLength: 1 }),
    description: Type.Optional(Type.Union([LongText(), Type.Null()])),
    metadata: OptionalMetadata(),
  },
  { additionalProperties: false },
);
export type RefundReasonCreate = Static<typeof RefundReasonCreate>;

/** Body of `POST /admin/refund-reasons/{id}`. */
export const RefundReasonUpdate = Type.Partial(RefundReasonCreate, { additionalProperties: false });
export type RefundReasonUpdate = Static<typeof RefundReasonUpdate>;

// ---- Responses ------------------------------------------------------------------------------

/** A payment provider as regions and the provider lists show it. */
export const PaymentProviderView = View({ id: Type.String(), is_enabled: Type.Boolean() });
/** A capture of a payment. */
export const CaptureView = RowView(capture);
/** A refund of a payment. */
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

// The column vocabulary the tables declare, part of what the module takes and gives.
export { type PaymentCollectionStatus, type PaymentSessionStatus } from "./schema";
