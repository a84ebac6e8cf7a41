import type { AnyWorkflow } from "@kasse/workflows";
import { createUserAccountWorkflow } from "./create-user-account";
import { registerCustomerWorkflow } from "./register-customer";
import { removeUserAccountWorkflow } from "./remove-user-account";
import { removeCustomerAccountWorkflow } from "./remove-customer-account";
import { changeCustomerEmailWorkflow } from "./customer-email";
import { acceptInviteWorkflow } from "./accept-invite";
import { cancelOrderWorkflow } from "./cancel-order";
import { capturePaymentWorkflow } from "./capture-payment";
import { refundPaymentWorkflow } from "./refund-payment";
import { createFulfillmentWorkflow } from "./create-fulfillment";
import { cancelFulfillmentWorkflow } from "./cancel-fulfillment";
import { createShipmentWorkflow } from "./create-shipment";
import { markDeliveredWorkflow } from "./mark-delivered";
import { createReturnWorkflow } from "./create-return";
import { confirmOrderEditWorkflow } from "./order-edits";
import { convertDraftOrderWorkflow } from "./convert-draft-order";
import { confirmClaimExchangeWorkflow } from "./claims-exchanges";
import { cancelClaimExchangeWorkflow } from "./cancel-claim-exchange";
import { receiveReturnWorkflow } from "./receive-return";
import {
  createOrderCollectionWorkflow,
  deleteOrderCollectionWorkflow,
  markCollectionPaidWorkflow,
} from "./order-payment-collections";
import { cancelReturnWorkflow } from "./cancel-return";
import { completeCartWorkflow } from "./complete-cart";
import { processPaymentWebhookWorkflow } from "./payment-webhook";
import { sendNotificationWorkflow } from "./send-notification";
import { requestOrderTransferWorkflow } from "./transfer-order";
import { queueEventNotificationWorkflow } from "./subscribers";
import { updateStoreWorkflow } from "./update-store";
import { createProductsWorkflow } from "./create-products";
import { createRegionWorkflow, updateRegionWorkflow } from "./region-writes";
import { deleteStockLocationWorkflow } from "./fulfillment-sets";
import { updateProductsWorkflow, writeProductVariantsWorkflow } from "./update-products";
import { deleteProductsWorkflow } from "./delete-products";
import { batchProductsWorkflow } from "./batch-products";
import { authorizePaymentSessionWorkflow, createPaymentSessionWorkflow } from "./cart-payment";
import { payOrderCollectionWorkflow } from "./order-collection-payment";

/**
 * Every commerce workflow, so the worker can resume any of them by name.
 * Add each new flow here with a one-line targeted edit.
 */
export const allWorkflows: AnyWorkflow[] = [
  registerCustomerWorkflow,
  createUserAccountWorkflow,
  removeUserAccountWorkflow,
  cancelOrderWorkflow,
  capturePaymentWorkflow,
  refundPaymentWorkflow,
  createFulfillmentWorkflow,
  cancelFulfillmentWorkflow,
  createShipmentWorkflow,
  markDeliveredWorkflow,
  createReturnWorkflow,
  confirmOrderEditWorkflow,
  convertDraftOrderWorkflow,
  confirmClaimExchangeWorkflow,
  cancelClaimExchangeWorkflow,
  receiveReturnWorkflow,
  createOrderCollectionWorkflow,
  markCollectionPaidWorkflow,
  deleteOrderCollectionWorkflow,
  cancelReturnWorkflow,
  completeCartWorkflow,
  processPaymentWebhookWorkflow,
  removeCustomerAccountWorkflow,
  changeCustomerEmailWorkflow,
  acceptInviteWorkflow,
  sendNotificationWorkflow,
  requestOrderTransferWorkflow,
  updateStoreWorkflow,
  queueEventNotificationWorkflow,
  createProductsWorkflow,
  createRegionWorkflow,
  updateRegionWorkflow,
  updateProductsWorkflow,
  writeProductVariantsWorkflow,
  deleteProductsWorkflow,
  batchProductsWorkflow,
  deleteStockLocationWorkflow,
  createPaymentSessionWorkflow,
  authorizePaymentSessionWorkflow,
  payOrderCollectionWorkflow,
];

export { createUserAccount, createUserAccountWorkflow, type CreateUserAccountInput } from "./create-user-account";
export { removeUserAccountWorkflow } from "./remove-user-account";
export { removeCustomerAccountWorkflow } from "./remove-customer-account";
export { acceptInviteWorkflow, type AcceptInviteInput } from "./accept-invite";
// Product writes over product, pricing and inventory are sagas; variant prices and options, one
// module's writes, are one transaction each.
export { createProductsIn, createProductsWorkflow } from "./create-products";
export {
  updateProductsWorkflow,
  writeProductVariantsWorkflow,
  setProductVariantPrices,
  productOptions,
} from "./update-products";
export { deleteProductsWorkflow } from "./delete-products";
export { createLocationFulfillmentSet, deleteStockLocationWorkflow } from "./fulfillment-sets";
export { batchProductsWorkflow, type ProductBatch } from "./batch-products";
export { sendNotification, sendNotificationWorkflow, deliverNotification } from "./send-notification";
export {
  requestOrderTransfer,
  requestOrderTransferWorkflow,
  type RequestOrderTransferInput,
  type RequestOrderTransferResult,
} from "./transfer-order";
// Writes of one module naming another module's records: checked, then one call of the owning module.
export { ruleValueOptions, type RuleValueQuery, type RuleValueOption } from "./promotion-rule-values";
export { listSalesChannels, type SalesChannelQuery } from "./list-sales-channels";
export {
  createRegion,
  updateRegion,
  createRegionWorkflow,
  updateRegionWorkflow,
  type RegionCreateBody,
  type RegionUpdateBody,
} from "./region-writes";
export {
  createReservation,
  updateReservation,
  createInventoryItem,
  addInventoryLevel,
  batchInventoryLevels,
  setApiKeySalesChannels,
  setStockLocationFulfillmentProviders,
  setStockLocationSalesChannels,
} from "./inventory-references";
export { listReservations } from "./list-reservations";
export { createTaxRate, updateTaxRate, addTaxRateRule } from "./tax-rates";
export { registerCustomer, registerCustomerWorkflow, type RegisterCustomerInput } from "./register-customer";
// Cart writes: one cart-module transaction each (lock, change, refresh); a payment collection left
// behind the new total follows in its own payment-module transaction (`syncCartPaymentAmount`).
export { writeCart, readCart, assertCartAccess, assertCartOpen, type CartActor, withPromotions } from "./cart-write";
export type { CartResult, CartPromotion } from "./cart-result";
export { refreshCart, type RefreshOptions } from "./refresh-cart";
export { addToCart, updateLineItem, deleteLineItem } from "./add-to-cart";
export {
  createCart,
  updateCart,
  setCartAddress,
  addShippingMethod,
  addPromotions,
  removePromotions,
  calculateCartTaxes,
  transferCart,
  type CartChannelContext,
} from "./update-cart";
export {
  createCartPaymentCollection,
  startPaymentSession,
  authorizePaymentSession,
  createPaymentSessionWorkflow,
  authorizePaymentSessionWorkflow,
  type CartPaymentResult,
} from "./cart-payment";
export { cancelOrderWorkflow, type CancelOrderInput } from "./cancel-order";
export { capturePaymentWorkflow, type CapturePaymentInput } from "./capture-payment";
export { refundPaymentWorkflow, type RefundPaymentInput } from "./refund-payment";
export { completeCart, completeCartWorkflow, type CompleteCartOutcome } from "./complete-cart";
export { receivePaymentWebhook, type WebhookReceipt } from "./payment-webhook";
export { createFulfillmentWorkflow, type CreateFulfillmentInput } from "./create-fulfillment";
export { cancelFulfillmentWorkflow, type CancelFulfillmentInput } from "./cancel-fulfillment";
export { createShipmentWorkflow, type FulfillmentMoveInput, type CreateShipmentInput } from "./create-shipment";
export { markDeliveredWorkflow } from "./mark-delivered";
export { createReturnWorkflow, type CreateReturnInput, type ConfirmReturnRequestInput } from "./create-return";
export { receiveReturnWorkflow, type ReceiveReturnInput } from "./receive-return";
export { beginReturnRequest, updateReturnRequest } from "./return-requests";
export { addReturnShipping, updateReturnShipping, requestStoreReturn, type StoreReturnInput } from "./return-shipping";
export {
  confirmOrderEditWorkflow,
  addOrderEditItems,
  updateOrderEditItem,
  addOrderEditShipping,
  updateOrderEditShipping,
  planOrderChange,
  paidSoFar,
  type ConfirmOrderEditInput,
} from "./order-edits";
export { convertDraftOrderWorkflow, type ConvertDraftOrderInput } from "./convert-draft-order";
export {
  createDraftOrder,
  updateDraftOrder,
  activeDraftEdit,
  addDraftEditItems,
  updateDraftEditShipping,
  confirmDraftOrderEdit,
} from "./draft-orders";
export {
  createOrderCollectionWorkflow,
  markCollectionPaidWorkflow,
  deleteOrderCollectionWorkflow,
  type OrderCollectionInput,
  type CollectionActionInput,
} from "./order-payment-collections";
export { payOrderCollectionWorkflow, type PayOrderCollectionInput } from "./order-collection-payment";
export {
  confirmClaimExchangeWorkflow,
  addInboundItems,
  updateInboundItem,
  removeInboundItem,
  addOutboundItems,
  updateOutboundItem,
  removeOutboundItem,
  addClaimExchangeShipping,
  updateClaimExchangeShipping,
  removeClaimExchangeShipping,
  type ConfirmClaimExchangeInput,
} from "./claims-exchanges";
export { cancelClaimExchangeWorkflow, type CancelClaimExchangeInput } from "./cancel-claim-exchange";
export { addDraftPromotions, removeDraftPromotions } from "./draft-promotions";
export { planChange, type ChangePlan, type ChangeSummary, type PaidSoFar } from "./order-change-plan";
export { completeOrder, archiveOrder } from "./complete-order";
export { cancelReturnWorkflow } from "./cancel-return";
export { updateStoreWorkflow };
export { inventoryLevels } from "./inventory-levels";
export { writeWithEvents } from "./events";
export { issuePasswordReset } from "./password-reset";
export { customerWrites } from "./customer-writes";
export { requestCustomerEmailChange, changeCustomerEmail } from "./customer-email";
export {
  allSubscribers,
  bindSubscribers,
  queueEventNotificationWorkflow,
  type SubscriberDefinition,
  type SubscriberDeps,
} from "./subscribers";
