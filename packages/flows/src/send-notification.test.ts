import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@kasse/db";
import { useTestDatabase } from "@kasse/db/testing";
import { createEngine } from "@kasse/workflows";
import { createNotificationService, DELIVERY_RETRY, type NotificationProvider } from "@kasse/modules/notification";
import { createModules } from "@kasse/modules";
import { sendNotification, sendNotificationWorkflow } from "./send-notification";
import { allWorkflows } from "./index";
import { eventOutbox } from "@kasse/modules/event";

const database = useTestDatabase();

/** A provider failing its first `failures` calls. */
function flaky(failures: number): NotificationProvider & { calls: number; sent: string[] } {
  const provider = {
    id: "flaky",
    channels: ["email"],
    calls: 0,
    sent: [] as string[],
    async send(message: { text: string }) {
      provider.calls++;
      if (provider.calls <= failures) throw new Error(`down (${provider.calls})`);
      provider.sent.push(message.text);
      return { external_id: `ext_${provider.calls}` };
    },
  };
  return provider;
}

describe("sendNotification", () => {
  it("delivers as a workflow step, retrying failed attempts; the journal never holds the secret", async () => {
    const provider = flaky(2);
    const service = createNotificationService({
      secret: "notification-test-secret",
      providers: [provider],
    });
    const engine = createEngine({
      events: eventOutbox,
      db: database.db,
      modules: () => createModules({ secret: "notification-test-secret", notificationProviders: [provider] }),
    });
    const row = await sendNotification(engine, service, {
      to: "a@example.com",
      channel: "email",
      template: "auth.password_reset",
      data: { token: "very-secret-token" },
      secret_keys: ["token"],
    });
    expect(row).toMatchObject({ status: "success", attempts: 3, external_id: "ext_3", data: { token: "[redacted]" } });
    expect(provider.sent).toHaveLength(1);
    expect(provider.sent[0]).toContain("very-secret-token");
    const steps = await queryRows<{ name: string; state: string; attempts: number }>(
      database.db,
      sql`select s.name, s.state, s.attempts from workflow_step_runs s join workflow_executions e on e.id = s.execution_id where e.idempotency_key = ${`notification:${row.id}`}`,
    );
    expect(steps).toEqual([{ name: "deliver-notification", state: "succeeded", attempts: 3 }]);
    const journal = await queryRows(
      database.db,
      sql`select e::text as execution, s::text as step from workflow_executions e join workflow_step_runs s on s.execution_id = e.id where e.workflow_id = 'send-notification'`,
    );
    expect(JSON.stringify(journal)).toContain(row.id);
    expect(JSON.stringify(journal)).not.toContain("very-secret-token");
    // Nor the outbox, before delivery (sealed) or after (erased).
    const outbox = await queryRows(database.db, sql`select n::text as row from notification n where id = ${row.id}`);
    expect(JSON.stringify(outbox)).not.toContain("very-secret-token");
  });

  it("records a failure after the last attempt instead of throwing", async () => {
    const provider = flaky(100);
    const service = createNotificationService({
      secret: "notification-test-secret",
      providers: [provider],
    });
    const row = await sendNotification(
      createEngine({
        events: eventOutbox,
        db: database.db,
        modules: () => createModules({ secret: "notification-test-secret", notificationProviders: [provider] }),
      }),
      service,
      { to: "b@example.com", channel: "email", template: "welcome", data: {} },
    );
    expect(row).toMatchObject({ status: "failure", attempts: DELIVERY_RETRY.attempts });
    expect(row.last_error).toContain("down");
    expect(provider.calls).toBe(DELIVERY_RETRY.attempts);
  });

  it("is one static workflow; an engine without a notification service is an error, not a silent failure", async () => {
    expect(allWorkflows).toContain(sendNotificationWorkflow);
    const service = createNotificationService({
      secret: "notification-test-secret",
      providers: [flaky(0)],
    });
    const error = await sendNotification(
      createEngine({ events: eventOutbox, db: database.db, modules: () => createModules() }),
      service,
      { to: "c@example.com", channel: "email", template: "t", data: {} },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ type: "unexpected_state" });
    expect(String((error as Error).message)).toContain("no notification service");
  });
});
