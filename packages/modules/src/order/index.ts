export * from "./schema";
export {
  createOrderService,
  assertOpen,
  type OrderService,
  type Order,
  type OrderSummary,
  type OrderState,
  type LineStage,
  type LineMove,
} from "./service";
export { deriveFulfillmentStatus, type LineProgress } from "./fulfillment-status";
export { derivePaymentStatus, type CollectionAmounts } from "./payment-status";
export * from "./steps";
export { createReturnReasonService, type ReturnReasonService, type ReturnReasonFilters } from "./return-reasons";
export {
  createReturnService,
  type ReturnService,
  type OrderReturn,
  type ReturnReceipt,
  type ReceivedLine,
} from "./returns";
export {
  createReturnChangeService,
  type ReturnChangeService,
  type ReturnChange,
  type ConfirmedRequest,
  type ConfirmedReceipt,
} from "./return-changes";
export {
  createOrderTransferService,
  TRANSFER_TOKEN_TTL_MS,
  type OrderTransferService,
  type TransferAnswer,
} from "./transfers";
