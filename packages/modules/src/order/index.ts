export * from "./shapes";
export * from "./steps";
export {
  createOrderService,
  assertOpen,
  visibleToShopper,
  type OrderService,
  type Order,
  type OrderSummary,
  type OrderState,
  type LineStage,
  type LineMove,
} from "./service";
export { deriveFulfillmentStatus, type LineProgress } from "./fulfillment-status";
export { derivePaymentStatus, type CollectionAmounts } from "./payment-status";
export { lineShare, returnCredit, returnCreditOf } from "./return-credit";
export { createReturnReasonService, type ReturnReasonService } from "./return-reasons";
export { createReturnService, type ReturnService, type ReturnReceipt, type ReceivedLine } from "./returns";
export {
  createReturnChangeService,
  type ReturnChangeService,
  type ReturnChange,
  type ConfirmedRequest,
  type ConfirmedReceipt,
} from "./return-changes";
export {
  createOrderEditService,
  type OrderEditService,
  type OrderVersionChange,
  type OrderChangeActionOf,
  type ChangeApplication,
  type AppliedChange,
  type PlannedLine,
  type PlannedNewLine,
  type PlannedNewMethod,
  type PlannedTotals,
  type PlannedMoney,
  ORDER_TOTAL_KEYS,
} from "./order-edits";
export { createCreditLineService, creditLineTotal, type CreditLineService } from "./credit-lines";
export { createDraftOrderService, type DraftOrderService, type ConvertedDraft } from "./draft-orders";
export {
  createClaimExchangeService,
  type ClaimExchangeService,
  type ClaimExchange,
  type AppliedClaimExchange,
  type CanceledClaimExchange,
  type Deduction,
} from "./claims-exchanges";
export type { ClaimExchangeFilters } from "./queries";
export {
  createOrderTransferService,
  TRANSFER_TOKEN_TTL_MS,
  type OrderTransferService,
  type TransferAnswer,
} from "./transfers";
