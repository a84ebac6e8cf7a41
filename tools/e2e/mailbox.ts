import { startTestSmtpServer, type ReceivedMail } from "@kasse/modules/notification/testing";

/** Kasse's outgoing email, received by an SMTP server on loopback (Kasse's `SMTP_URL`). */
export interface Mailbox {
  url: string;
  /** The first mail to `to` whose decoded text matches `pattern`, waiting for it up to `timeoutMs`. */
  waitFor(to: string, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  close(): Promise<void>;
}

/** A mail's text with quoted-printable soft breaks and escapes undone (long links are wrapped that way). */
function decodeMail(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The admin API shows a notification's secret data (a token) as "[redacted]", as it must; the
 * emailed link itself is read where a shopper reads it, from the mail.
 */
export async function startMailbox(): Promise<Mailbox> {
  const smtp = await startTestSmtpServer();
  const find = (to: string, pattern: RegExp) =>
    smtp.mails
      .filter((mail: ReceivedMail) => mail.to.includes(to))
      .map((mail) => decodeMail(mail.raw).match(pattern))
      .find((match) => match !== null);
  return {
    url: smtp.url,
    async waitFor(to, pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      // Delivery runs in Kasse's workflow after the request answered: poll the received mails.
      for (;;) {
        const match = find(to, pattern);
        if (match) return match;
        if (Date.now() > deadline)
          throw new Error(
            `no mail to ${to} matching ${pattern} arrived within ${timeoutMs} ms (${smtp.mails.length} mail(s) received in all)`,
          );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: () => smtp.close(),
  };
}
