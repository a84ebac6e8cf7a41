export * from "./schema";
export type { PaymentProvider, ProviderCall, AuthorizeOutcome } from "./providers/provider";
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
