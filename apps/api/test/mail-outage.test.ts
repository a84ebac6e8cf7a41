import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { allSubscribers, bindSubscribers } from "@kasse/flows";
import { createEventDispatcher, type EventDispatcher } from "@kasse/modules/event";
import { event as eventTable } from "@kasse/modules/event/tables";
import { notification as notificationTable } from "@kasse/modules/notification/tables";
import { startTestSmtpServer, type TestSmtpServer } from "@kasse/modules/notification/testing";
import { createTestApp, type TestApp } from "../src/testing";
import { checkoutReadyCart, checkoutStore } from "../src/testing/checkout";

// The shopper's order confirmation while the SMTP server is down: the provider points at a port
// where nothing listens, then a server comes up there. The mail is delayed, not lost, and sent once.
let t: TestApp;
let port: number;
let smtp: TestSmtpServer | undefined;
let dispatcher: EventDispatcher;

/** A loopback port nothing listens on (yet). */
const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });

beforeAll(async () => {
  port = await closedPort();
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  // Retries 0.3 s apart instead of 5 s, 5 min, …
  dispatcher = createEventDispatcher({
    webhooks: t.app.modules.webhooks,
    subscribers: bindSubscribers(allSubscribers, { modules: t.app.modules, engine: t.app.infra.engine }),
    retrySchedule: [300, 300, 300],
    jitter: 0,
  });
}, 60_000);
afterAll(async () => {
  await dispatcher.close();
  await smtp?.close();
  await t.close();
});

describe("order confirmation while the SMTP server is down", () => {
  it("stays pending and its event due again; once the server is up, the mail arrives exactly once", async () => {
    const store = await checkoutStore(t, {
      variants: [{ title: "M", size: "M", stock: 10, prices: [{ currency_code: "eur", amount: 2000 }] }],
    });
    const cart = await checkoutReadyCart(t, {
      region_id: store.regionId,
      option_id: store.optionId,
      variant_id: store.variantIds[0]!,
      quantity: 1,
    });
    const completed = await t.app.inject({ method: "POST", url: `/store/carts/${cart.id}/complete` });
    expect(completed.json().type, completed.body).toBe("order");
    const orderId: string = completed.json().order.id;
    const placed = (await t.database.db.select().from(eventTable).where(eq(eventTable.name, "order.placed"))).find(
      (e) => e.data.id === orderId,
    )!;
    const confirmations = async () =>
      (
        await t.database.db.select().from(notificationTable).where(eq(notificationTable.template, "order.placed"))
      ).filter((n) => n.data.order_id === orderId);

    await dispatcher.run();
    const [pending] = await confirmations();
    expect(pending).toMatchObject({ status: "pending", to: "ada@example.com", provider_id: "smtp" });
    expect(pending!.attempts).toBeGreaterThanOrEqual(1);
    expect(pending!.last_error).toMatch(/ECONNREFUSED/);
    const [due] = await t.database.db.select().from(eventTable).where(eq(eventTable.id, placed.id));
    expect(due).toMatchObject({
      dispatched_at: null,
      attempts: 1,
      last_error: expect.stringContaining("order-confirmation"),
    });

    smtp = await startTestSmtpServer({ port });
    await new Promise((resolve) => setTimeout(resolve, 400));
    await dispatcher.run();
    expect(await confirmations()).toEqual([expect.objectContaining({ id: pending!.id, status: "success" })]);
    expect(smtp.mails.filter((m) => m.to.includes("ada@example.com"))).toHaveLength(1);
    const [done] = await t.database.db.select().from(eventTable).where(eq(eventTable.id, placed.id));
    expect(done!.dispatched_at).not.toBeNull();

    // Dispatching again sends nothing more.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await dispatcher.run();
    expect(smtp.mails.filter((m) => m.to.includes("ada@example.com"))).toHaveLength(1);
    expect(await confirmations()).toHaveLength(1);
  }, 60_000);
});
