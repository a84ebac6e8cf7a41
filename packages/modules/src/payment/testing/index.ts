export { startStripeFake, type StripeFake, type Fault, type RecordedRequest } from "./stripe-fake";
export type { Counts, Operation } from "./stripe-account";
export type { Delivery, SendOptions, WebhookRequest, WebhookTarget } from "./stripe-webhooks";
