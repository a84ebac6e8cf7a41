export * from "./shapes";
export { createNotificationService, type NotificationService, type NotificationServiceOptions } from "./service";
export type { NotificationLogger, NotificationProvider, OutgoingMessage } from "./provider";
export { renderTemplate, formatMoney } from "./templates";
export { createLogProvider } from "./providers/log";
export { createSmtpProvider } from "./providers/smtp";
export { defaultNotificationProviders } from "./providers/defaults";
export * from "./steps";
