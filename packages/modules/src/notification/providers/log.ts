import type { NotificationLogger, NotificationProvider } from "../provider";

/**
 * The default provider: writes each message to the log (the row in `notification` is the
 * other record of it). Handles every channel, so a store without SMTP still "sends".
 */
export function createLogProvider(logger: NotificationLogger): NotificationProvider {
  return {
    id: "log",
    channels: ["email", "sms", "feed", "log"],
    async send(message) {
      logger.info({ notification_id: message.id, to: message.to, channel: message.channel, template: message.template, subject: message.subject, text: message.text }, "notification");
      return { external_id: null };
    },
  };
}
