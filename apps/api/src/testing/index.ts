// Test support of the API (see docs/CONVENTIONS.md "Tests"): the test app, and helpers around it.
export { createTestApp, useTestApp, type Requester, type TestApp, type TestAppOptions } from "./app";
export { paymentMoves, placeTestOrder, type PlaceTestOrderOptions } from "./orders";
export { withFailure } from "./inject-failure";
export { TEST_ADDRESS, checkoutReadyCart, checkoutStore } from "./checkout";
export {
  eventsOf,
  orderCounts,
  payIntent,
  startStripeTestApp,
  stripeCart,
  webhooksSettled,
  webhookTarget,
  type StripeTestApp,
} from "./stripe";
export { actorHeaders } from "./actors";
export { captureLogs, type CapturedLogs } from "./logs";
export { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";
export { useRouteWalk } from "./routes";
export { startS3Server, startSignatureCheckingProxy, type S3Server } from "./s3-server";
export { JPEG, MULTIPART, PNG, multipartForm } from "./uploads";
