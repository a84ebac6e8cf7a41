export * from "./shapes";
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
export { createRefundReasonService, type RefundReasonService } from "./refund-reasons";
