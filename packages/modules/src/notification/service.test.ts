import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@kasse/db/testing";
import { createLogProvider, createNotificationService, createSmtpProvider, defaultNotificationProviders } from "./index";
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

describe("notification service", () => {
  it("delivers through SMTP: the message arrives with the token; the row is success and the secret redacted", async () => {
    const service = createNotificationService(database.db, { providers: defaultNotificationProviders({ smtpUrl: smtp.url, logger: { info: () => {} } }), sleep: noSleep });
    const sent = await service.send({ to: "ana@example.com", channel: "email", template: "auth.password_reset", data: { token: "tok_secret_123", expires_at: "soon" }, secret_keys: ["token"] });
    expect(sent).toMatchObject({ status: "success", attempts: 1, provider_id: "smtp", to: "ana@example.com", data: { token: "[redacted]", expires_at: "soon" } });
    const mail = smtp.mails.find((m) => m.to.includes("ana@example.com"));
    expect(mail?.raw).toContain("tok_secret_123");
    expect(mail?.raw).toContain("Subject: Reset your password");
    const stored = await service.retrieve(sent.id);
    expect(stored.data.token).toBe("[redacted]");
  });

  it("retries a refused delivery with backoff and ends in failure with the error recorded", async () => {
    const waits: number[] = [];
    const service = createNotificationService(database.db, { providers: [createSmtpProvider({ url: smtp.url })], attempts: 3, backoffMs: 10, sleep: async (ms) => void waits.push(ms) });
    smtp.refuse = true;
    try {
      const failed = await service.send({ to: "bob@example.com", channel: "email", template: "welcome", data: { token: "t2" }, secret_keys: ["token"] });
      expect(failed).toMatchObject({ status: "failure", attempts: 3, data: { token: "[redacted]" } });
      expect(failed.last_error).toContain("SMTP delivery failed");
      expect(waits).toEqual([10, 20]);
    } finally {
      smtp.refuse = false;
    }
  });

  it("succeeds on a later attempt after a transient failure", async () => {
    let calls = 0;
    const flaky = { id: "flaky", channels: ["email"], send: async () => { calls++; if (calls < 2) throw new Error("down"); return { external_id: "ext_1" }; } };
    const service = createNotificationService(database.db, { providers: [flaky], sleep: noSleep });
    const sent = await service.send({ to: "c@example.com", channel: "email", template: "t", data: {} });
    expect(sent).toMatchObject({ status: "success", attempts: 2, external_id: "ext_1", last_error: null });
    // A delivered message is never sent twice.
    await service.deliver(sent.id);
    expect(calls).toBe(2);
  });

  it("the log provider writes the rendered message to the log; unknown channels are invalid_data", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const service = createNotificationService(database.db, { providers: [createLogProvider({ info: (obj) => void lines.push(obj as Record<string, unknown>) })] });
    const sent = await service.send({ to: "d@example.com", channel: "email", template: "auth.password_reset", data: { token: "log_tok" }, secret_keys: ["token"] });
    expect(sent).toMatchObject({ status: "success", provider_id: "log" });
    expect(String(lines[0]?.text)).toContain("log_tok");
    const list = await service.list({ to: ["d@example.com"] }, { limit: 10, offset: 0 });
    expect(list.count).toBe(1);
    expect(list.items[0]!.data.token).toBe("[redacted]");
    const smtpOnly = createNotificationService(database.db, { providers: [createSmtpProvider({ url: smtp.url })] });
    await expect(smtpOnly.send({ to: "x", channel: "sms", template: "t", data: {} })).rejects.toMatchObject({ type: "invalid_data" });
  });
});
