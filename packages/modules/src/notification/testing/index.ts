import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";

/** A mail as the test SMTP server received it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** The test SMTP server: its URL for `SMTP_URL`, what it received, and a switch to refuse mail. */
export interface TestSmtpServer {
  url: string;
  mails: ReceivedMail[];
  refuse: boolean;
  close(): Promise<void>;
}

/**
 * The `after`-th next mail to `to` (0: the first), waiting up to 3 s for it (delivery may happen
 * after the HTTP answer).
 */
export async function waitForMail(smtp: TestSmtpServer, to: string, after = 0): Promise<ReceivedMail> {
  for (let i = 0; i < 100; i++) {
    const found = smtp.mails.filter((m) => m.to.includes(to))[after];
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  throw new Error(`no mail to ${to}`);
}

/**
 * A real SMTP server on loopback for tests: collects every message, or refuses recipients
 * while `refuse` is true. On a free port, or on `port` (a server coming up where a provider
 * already points: mail that could not go out while nothing listened).
 * @example
 * const smtp = await startTestSmtpServer();
 * const app = await createTestApp({ SMTP_URL: smtp.url });
 */
export async function startTestSmtpServer(options: { port?: number } = {}): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refuse) return callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 450 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
