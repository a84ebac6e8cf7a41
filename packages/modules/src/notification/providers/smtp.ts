import type { Transporter } from "nodemailer";
import { errors } from "@kasse/core";
import type { NotificationProvider } from "../provider";

export interface SmtpProviderOptions {
  /** `smtp://user:pass@host:port` or `smtps://…`; `?from=` sets the sender. */
  url: string;
  from?: string;
}

/**
 * Email through SMTP (nodemailer). A refused or failed delivery throws a retryable
 * `provider_error`; the service retries with backoff.
 */
export function createSmtpProvider(options: SmtpProviderOptions): NotificationProvider {
  const url = new URL(options.url);
  const from = options.from ?? url.searchParams.get("from") ?? `Kasse <no-reply@${url.hostname || "localhost"}>`;
  url.searchParams.delete("from");
  // nodemailer loads on the first email: a store without SMTP_URL never needs it.
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport(url.toString())));
  return {
    id: "smtp",
    channels: ["email"],
    async send(message) {
      try {
        const info = await (
          await connect()
        ).sendMail({ from, to: message.to, subject: message.subject, text: message.text });
        return { external_id: info.messageId ?? null };
      } catch (error) {
        throw errors.provider(`SMTP delivery failed: ${(error as Error).message}`, { cause: error });
      }
    },
    async close() {
      if (transport) (await transport).close();
    },
  };
}
