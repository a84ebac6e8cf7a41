export * from "./shapes";
export {
  eventCatalog,
  catalogEntries,
  eventProblems,
  isEventName,
  openApiWebhooks,
  type EventName,
  type EventData,
} from "./catalog";
export {
  createEventService,
  recordEvent,
  eventsReleased,
  onEventsReleased,
  eventOutbox,
  type EventService,
} from "./service";
export { createWebhookService, type WebhookService, type WebhookServiceOptions, type WebhookInfo } from "./webhooks";
export { sendWebhook, signWebhook, urlProblem, isPrivateAddress, type SendResult } from "./send";
export {
  createEventDispatcher,
  parseRetrySchedule,
  webhookBody,
  DEFAULT_RETRY_SCHEDULE,
  DISABLE_AFTER_MS,
  type EventSubscriber,
  type EventDispatcher,
  type EventDispatcherOptions,
  type DeliveryOutcome,
} from "./dispatcher";
