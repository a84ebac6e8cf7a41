import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { REDACTED } from "@kasse/core";
import { queryRows } from "@kasse/db";
import { createTestDatabase, type TestDatabase } from "@kasse/db/testing";
import {
  createLogProvider,
  createNotificationService,
  createSmtpProvider,
  defaultNotificationProviders,
} from "./index";
import { startTestSmtpServer } from "./testing/index";

let database: TestDatabase;
let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await database.close();
});

const noSleep = async () => {};
const secret = "notification-test-secret";
/** The outbox row as stored, every column as text. */
const rawRow = async (id: string) =>
  (await queryRows<{ row: string }>(database.db, sql`select n::text as row from notification n where id = ${id}`))[0]!
    .row;

/** A password-reset email to `to` whose `token` is secret data. */
const passwordReset = (to: string, token: string) => ({
  to,
  channel: "email",
  template: "auth.password_reset",
  data: { token, expires_at: "soon" },
  secret_keys: ["token"],
});

describe("notification service", () => {
  it("delivers through SMTP: the message arrives with the token; the row is success and the secret redacted", async () => {
    const service = createNotificationService({
      secret,
      providers: defaultNotificationProviders({ smtpUrl: smtp.url, logger: { info: () => {} } }),
      sleep: noSleep,
    });
    const sent = await service.send(passwordReset("ana@example.com", "tok_secret_123"));
    expect(sent).toMatchObject({
      status: "success",
      attempts: 1,
      provider_id: "smtp",
      to: "ana@example.com",
      data: { token: "[redacted]", expires_at: "soon" },
    });
    const mail = smtp.mails.find((m) => m.to.includes("ana@example.com"));
    expect(mail?.raw).toContain("tok_secret_123");
    expect(mail?.raw).toContain("Subject: Reset your password");
    const stored = await service.retrieve(sent.id);
    expect(stored.data.token).toBe("[redacted]");
  });

  it("retries a refused delivery with backoff and ends in failure with the error recorded", async () => {
    const waits: number[] = [];
    const service = createNotificationService({
      secret,
      providers: [createSmtpProvider({ url: smtp.url })],
      attempts: 3,
      backoffMs: 10,
      sleep: async (ms) => void waits.push(ms),
    });
    smtp.refuse = true;
    try {
      const failed = await service.send({
        to: "bob@example.com",
        channel: "email",
        template: "welcome",
        data: { token: "t2" },
        secret_keys: ["token"],
      });
      expect(failed).toMatchObject({ status: "failure", attempts: 3, data: { token: "[redacted]" } });
      expect(failed.last_error).toContain("SMTP delivery failed");
      expect(waits).toEqual([10, 20]);
    } finally {
      smtp.refuse = false;
    }
  });

  it("succeeds on a later attempt after a transient failure", async () => {
    let calls = 0;
    const flaky = {
      id: "flaky",
      channels: ["email"],
      send: async () => {
        calls++;
        if (calls < 2) throw new Error("down");
        return { external_id: "ext_1" };
      },
    };
    const service = createNotificationService({ secret, providers: [flaky], sleep: noSleep });
    const sent = await service.send({ to: "c@example.com", channel: "email", template: "t", data: {} });
    expect(sent).toMatchObject({ status: "success", attempts: 2, external_id: "ext_1", last_error: null });
    // A delivered message is never sent twice.
    await service.deliver(sent.id);
    expect(calls).toBe(2);
  });

  it("the log provider writes the rendered message to the log without its secret data; unknown channels are invalid_data", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const service = createNotificationService({
      secret,
      providers: [createLogProvider({ info: (obj, msg) => void lines.push({ ...obj, msg }) })],
    });
    const sent = await service.send(passwordReset("d@example.com", "log_tok_0123456789"));
    expect(sent).toMatchObject({ status: "success", provider_id: "log" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ to: "d@example.com", subject: "Reset your password", withheld: ["token"] });
    expect(String(lines[0]!.text)).toContain(`Your reset token: ${REDACTED}`);
    expect(String(lines[0]!.text)).toContain("expires at soon");
    expect(JSON.stringify(lines)).not.toContain("log_tok_0123456789");
    const list = await service.list({ to: ["d@example.com"] }, { limit: 10, offset: 0 });
    expect(list.count).toBe(1);
    expect(list.items[0]!.data.token).toBe("[redacted]");
    const smtpOnly = createNotificationService({
      secret,
      providers: [createSmtpProvider({ url: smtp.url })],
    });
    await expect(smtpOnly.send({ to: "x", channel: "sms", template: "t", data: {} })).rejects.toMatchObject({
      type: "invalid_data",
    });
  });

  it("sends an email to one mailbox only: a list, a display name or a header in `to` is refused before anything is written", async () => {
    const service = createNotificationService({
      secret,
      providers: [createSmtpProvider({ url: smtp.url })],
      sleep: noSleep,
    });
    const before = smtp.mails.length;
    for (const to of [
      "a@example.com, victim@example.com",
      "Ana <ana@example.com>",
      "<script>x@shop.test",
      "ana@example.com\r\nBcc: victim@example.com",
      "ana@example",
    ])
      await expect(service.send(passwordReset(to, "tok_never_sent"))).rejects.toMatchObject({
        type: "invalid_data",
        message: "An email notification's recipient must be one email address",
      });
    expect(smtp.mails.length).toBe(before);
    expect((await service.list({ template: ["auth.password_reset"] }, { limit: 100, offset: 0 })).items).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ data: expect.objectContaining({ token: "tok_never_sent" }) })]),
    );
  });

  it("keeps secret data encrypted at rest until delivery ends, then erases it; another process with the same secret delivers it", async () => {
    const mails: string[] = [];
    const provider = {
      id: "capture",
      channels: ["email"],
      send: async (m: { text: string }) => {
        mails.push(m.text);
        return {};
      },
    };
    const writer = createNotificationService({ secret, providers: [provider] });
    const token = "reset_tok_ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const backlog = await writer.pendingCount();
    const row = await writer.create(passwordReset("e@example.com", token));
    // Written, not yet delivered: the backlog the metrics show.
    expect(await writer.pendingCount()).toBe(backlog + 1);
    const pending = await rawRow(row.id);
    expect(pending).not.toContain(token);
    expect(pending).toContain("sealed:v1:");
    expect(pending).toContain("soon");
    expect((await writer.retrieve(row.id)).data).toEqual({ token: "[redacted]", expires_at: "soon" });
    // The process that wrote it is gone: another one, sharing the server secret, delivers it.
    const other = createNotificationService({ secret, providers: [provider] });
    expect(await other.deliver(row.id)).toMatchObject({ status: "success", data: { token: "[redacted]" } });
    expect(mails[0]).toContain(`Your reset token: ${token}`);
    expect(await writer.pendingCount()).toBe(backlog);
    const delivered = await rawRow(row.id);
    expect(delivered).not.toContain(token);
    expect(delivered).not.toContain("sealed:v1:");
  });

  it("a message sealed under another server secret fails at once (not retried) and its data is erased", async () => {
    const provider = { id: "capture", channels: ["email"], send: async () => ({}) };
    const row = await createNotificationService({ secret, providers: [provider] }).create({
      to: "f@example.com",
      channel: "email",
      template: "t",
      data: { token: "tok_rotated_1234567" },
      secret_keys: ["token"],
    });
    const rotated = createNotificationService({ secret: "another-server-secret", providers: [provider] });
    await expect(rotated.deliver(row.id)).rejects.toMatchObject({ type: "unexpected_state", retryable: false });
    const failed = await rotated.retrieve(row.id);
    expect(failed).toMatchObject({ status: "failure", attempts: 1, data: { token: "[redacted]" } });
    expect(failed.last_error).toContain("cannot be decrypted");
    expect(await rawRow(row.id)).not.toContain("sealed:v1:");
  });

  it("a provider error quoting the message keeps the secret out of last_error and of the thrown error", async () => {
    const quoting = {
      id: "quoting",
      channels: ["email"],
      send: async (m: { text: string }) => {
        throw new Error(`550 rejected: ${m.text}`);
      },
    };
    const service = createNotificationService({
      secret,
      providers: [quoting],
      attempts: 1,
      sleep: noSleep,
    });
    const token = "tok_quoted_in_error_0123456789";
    const row = await service.create({
      to: "g@example.com",
      channel: "email",
      template: "auth.password_reset",
      data: { token },
      secret_keys: ["token"],
    });
    const error = await service.deliver(row.id, { final: true }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toContain("550 rejected");
    expect(JSON.stringify(error)).not.toContain(token);
    expect(String((error as Error).message)).not.toContain(token);
    expect((error as Error).cause).toBeUndefined();
    const stored = await rawRow(row.id);
    expect(stored).toContain("550 rejected");
    expect(stored).not.toContain(token);
  });
});
