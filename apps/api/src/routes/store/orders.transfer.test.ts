import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { orderTransferRequest } from "@kasse/modules/order/tables";
import { startTestSmtpServer, waitForMail, type TestSmtpServer } from "@kasse/modules/notification/testing";
import { createTestApp, type TestApp } from "../../testing";
import { placeTestOrder } from "../../testing/orders";

let t: TestApp;
let smtp: TestSmtpServer;
let claimer: { id: string; headers: Record<string, string> };

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, STOREFRONT_URL: "https://shop.example/" });
  const customer = await t.app.modules.customer.create({ email: "claire@example.com" }, { has_account: true });
  claimer = { id: customer.id, headers: await t.customerHeaders(customer.id) };
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const decode = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Requests the transfer as the storefront does, and reads the token from the mail it sent. */
async function requestAndReadToken(orderId: string, email: string): Promise<string> {
  const before = smtp.mails.filter((m) => m.to.includes(email)).length;
  const res = await t.store.post(`/store/orders/${orderId}/transfer/request?fields=id,%20email`, {}, claimer.headers);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ order: { id: orderId, email } });
  const mail = decode((await waitForMail(smtp, email, before)).raw);
  const link = mail.match(new RegExp(`https://shop\\.example/order/${orderId}/transfer/([A-Za-z0-9_-]+)`));
  expect(link).not.toBeNull();
  return link![1]!;
}

describe("store order transfer", () => {
  it("a signed-in customer claims a guest order: the order's email gets a link whose token accepts it once", async () => {
    const guest = (await placeTestOrder(t.app, { customer_id: null, email: "guest-a@example.com" })).order;
    const token = await requestAndReadToken(guest.id, "guest-a@example.com");

    // Only a hash is stored; the notification shows the token redacted.
    const [stored] = await t.database.db
      .select()
      .from(orderTransferRequest)
      .where(eq(orderTransferRequest.order_id, guest.id));
    expect(stored).toMatchObject({ status: "requested", customer_id: claimer.id, email: "guest-a@example.com" });
    expect(stored!.token_hash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);
    const admin = await t.adminHeaders();
    const notes = (
      await t.app.inject({ method: "GET", url: "/admin/notifications?to[]=guest-a@example.com", headers: admin })
    ).json().notifications;
    expect(notes).toEqual([expect.objectContaining({ template: "order.transfer_requested", status: "success" })]);
    expect(JSON.stringify(notes)).not.toContain(token);

    // A wrong token changes nothing; the right one moves the order, anonymously (the link's reader).
    const wrong = await t.store.post(`/store/orders/${guest.id}/transfer/accept`, { token: "not-the-token" });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ type: "invalid_data", message: "Invalid or expired transfer token" });
    expect((await t.app.modules.order.retrieve(guest.id)).customer_id).toBeNull();

    const accepted = await t.store.post(`/store/orders/${guest.id}/transfer/accept`, { token });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().order).toMatchObject({ id: guest.id, customer_id: claimer.id });
    expect((await t.app.modules.order.retrieve(guest.id)).customer_id).toBe(claimer.id);
    // In the customer's history now, and hidden from others.
    const history = (await t.app.inject({ method: "GET", url: "/store/orders", headers: claimer.headers })).json();
    expect(history.orders.map((o: { id: string }) => o.id)).toContain(guest.id);
    expect((await t.app.inject({ method: "GET", url: `/store/orders/${guest.id}` })).statusCode).toBe(404);
    // Single use.
    const again = await t.store.post(`/store/orders/${guest.id}/transfer/accept`, { token });
    expect(again.statusCode).toBe(400);
    // The change log names the transfer.
    const changes = await t.app.modules.order.listChanges(guest.id, { limit: 20, offset: 0 });
    expect(changes.items.map((c) => c.action)).toEqual(
      expect.arrayContaining(["transfer_requested", "transfer_accepted"]),
    );
  });

  it("decline ends the request and leaves the order with the guest; a newer request replaces an older one", async () => {
    const guest = (await placeTestOrder(t.app, { customer_id: null, email: "guest-b@example.com" })).order;
    const first = await requestAndReadToken(guest.id, "guest-b@example.com");
    const second = await requestAndReadToken(guest.id, "guest-b@example.com");
    expect(second).not.toBe(first);
    expect((await t.store.post(`/store/orders/${guest.id}/transfer/decline`, { token: first })).statusCode).toBe(400);

    const declined = await t.store.post(`/store/orders/${guest.id}/transfer/decline`, { token: second });
    expect(declined.statusCode).toBe(200);
    expect(declined.json().order.customer_id).toBeNull();
    expect((await t.store.post(`/store/orders/${guest.id}/transfer/accept`, { token: second })).statusCode).toBe(400);
    expect((await t.app.modules.order.retrieve(guest.id)).customer_id).toBeNull();
    const rows = await t.database.db
      .select()
      .from(orderTransferRequest)
      .where(eq(orderTransferRequest.order_id, guest.id));
    expect(rows.map((r) => r.status).sort()).toEqual(["canceled", "declined"]);
  });

  it("an expired token is refused", async () => {
    const guest = (await placeTestOrder(t.app, { customer_id: null, email: "guest-c@example.com" })).order;
    const token = await requestAndReadToken(guest.id, "guest-c@example.com");
    await t.database.db
      .update(orderTransferRequest)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(orderTransferRequest.order_id, guest.id));
    expect((await t.store.post(`/store/orders/${guest.id}/transfer/accept`, { token })).statusCode).toBe(400);
    expect((await t.app.modules.order.retrieve(guest.id)).customer_id).toBeNull();
  });

  it("refuses what cannot be transferred, writing nothing and sending no mail", async () => {
    const guest = (await placeTestOrder(t.app, { customer_id: null, email: "guest-d@example.com" })).order;
    const mine = (await placeTestOrder(t.app, { customer_id: claimer.id, email: "claire@example.com" })).order;
    const theirs = (await placeTestOrder(t.app, { customer_id: "cus_someone_else", email: "else@example.com" })).order;
    const mailsBefore = smtp.mails.length;
    const countRows = async () => (await t.database.db.select().from(orderTransferRequest)).length;
    const rowsBefore = await countRows();

    // Only a signed-in customer asks.
    expect((await t.store.post(`/store/orders/${guest.id}/transfer/request`, {})).statusCode).toBe(401);
    // A guest customer record (no account) cannot receive orders.
    const guestRecord = await t.app.modules.customer.create({ email: "nobody@example.com" }, { has_account: false });
    const asGuest = await t.store.post(
      `/store/orders/${guest.id}/transfer/request`,
      {},
      await t.customerHeaders(guestRecord.id),
    );
    expect(asGuest.statusCode).toBe(400);
    expect(asGuest.json().message).toMatch(/guest customer account/);
    // Already the customer's; someone else's (404, as for reading it); unknown.
    expect((await t.store.post(`/store/orders/${mine.id}/transfer/request`, {}, claimer.headers)).json()).toEqual({
      type: "invalid_data",
      message: `Order: ${mine.id} already belongs to customer: ${claimer.id}`,
    });
    expect((await t.store.post(`/store/orders/${theirs.id}/transfer/request`, {}, claimer.headers)).statusCode).toBe(
      404,
    );
    expect((await t.store.post(`/store/orders/order_missing/transfer/request`, {}, claimer.headers)).statusCode).toBe(
      404,
    );
    // Bad bodies.
    expect(
      (await t.store.post(`/store/orders/${guest.id}/transfer/request`, { description: "x" }, claimer.headers))
        .statusCode,
    ).toBe(400);
    for (const body of [{}, { token: "" }, { token: 5 }, { token: "x".repeat(5000) }, { token: "a", extra: 1 }]) {
      const res = await t.store.post(`/store/orders/${guest.id}/transfer/accept`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.store.post(`/store/orders/order_missing/transfer/decline`, { token: "abc" })).statusCode).toBe(404);

    expect(await countRows()).toBe(rowsBefore);
    expect(smtp.mails.length).toBe(mailsBefore);
  });
});
