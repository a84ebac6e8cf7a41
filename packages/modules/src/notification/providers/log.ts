import { REDACTED, scrubText } from "@kasse/core";
import type { NotificationLogger, NotificationProvider } from "../provider";
import { secretStrings } from "../secret-data";

/**
 * The default provider: writes each message to the log (the row in `notification` is the
 * other record of it). Handles every channel, so a store without SMTP still "sends". Secret
 * data (a reset or invite token) is never logged: it appears as `[redacted secret]`, and
 * `withheld` names the keys left out. Configure `SMTP_URL` (locally, a mail catcher) to receive it.
 */
export function createLogProvider(logger: NotificationLogger): NotificationProvider {
  return {
    id: "log",
    channels: ["email", "sms", "feed", "log"],
    async send(message) {
      const secrets = secretStrings(message.data, message.secret_keys);
      const withheld = message.secret_keys.filter((key) => Object.hasOwn(message.data, key));
      logger.info(
        {
          notification_id: message.id,
          to: message.to,
          channel: message.channel,
          template: message.template,
          subject: scrubText(message.subject, secrets),
          text: scrubText(message.text, secrets),
          ...(withheld.length > 0 ? { withheld } : {}),
        },
        withheld.length > 0 ? `notification (secret data left out as ${REDACTED})` : "notification",
      );
      return { external_id: null };
    },
  };
}
