import type { NotificationLogger, NotificationProvider } from "../provider";
import { createLogProvider } from "./log";
import { createSmtpProvider } from "./smtp";

/** A logger writing one JSON line to stdout, for when no app logger is given. */
const stdoutLogger: NotificationLogger = {
  info: (obj, msg) => void process.stdout.write(`${JSON.stringify({ level: "info", msg, ...obj })}\n`),
};

/**
 * The configured providers: `smtp` for email when `SMTP_URL` is set, then `log`, which
 * serves every channel and is therefore the default.
 */
export function defaultNotificationProviders(
  options: { smtpUrl?: string; logger?: NotificationLogger } = {},
): NotificationProvider[] {
  const providers: NotificationProvider[] = [];
  if (options.smtpUrl) providers.push(createSmtpProvider({ url: options.smtpUrl }));
  providers.push(createLogProvider(options.logger ?? stdoutLogger));
  return providers;
}
