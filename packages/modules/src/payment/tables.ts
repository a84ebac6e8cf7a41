// The payment module's tables, for tests, migrations and `kasse check` only (`@kasse/modules/payment/tables`;
// lint forbids it elsewhere): everything else goes through the service.
export {
  capture,
  payment,
  paymentCollection,
  paymentSession,
  paymentWebhookEvent,
  refund,
  refundReason,
} from "./schema";
