export {
  type PaymentCollectionStatus,
  type PaymentSessionStatus,
  type PaymentCollectionRow,
  type PaymentWebhookEventRow,
  type PaymentSessionRow,
  type PaymentRow,
  type CaptureRow,
  type RefundRow,
  type RefundReasonRow,
  RefundReasonCreate,
  RefundReasonUpdate,
  PaymentProviderView,
  CaptureView,
  RefundReasonView,
  RefundView,
  PaymentView,
  PaymentSessionView,
  PaymentCollectionView,
} from "./shapes";
export type { PaymentProvider, ProviderCall, AuthorizeOutcome, WebhookOutcome } from "./providers/provider";
export { createStripeProvider, type StripeProviderOptions } from "./providers/stripe";
export { createProviderRegistry, type ProviderRegistry } from "./providers/registry";
export {
  createPaymentService,
  behindCart,
  atCartTotal,
  type PaymentService,
  type PaymentCollection,
  type Payment,
} from "./service";
export * from "./steps";
export { createRefundReasonService, type RefundReasonFilters, type RefundReasonService } from "./refund-reasons";
