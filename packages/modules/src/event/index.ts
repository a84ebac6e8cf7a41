export * from "./shapes";
export * from "./catalog";
export * from "./service";
export * from "./send";
export * from "./dispatcher";
export { createWebhookService, type WebhookService, type WebhookServiceOptions, type WebhookInfo } from "./webhooks";
