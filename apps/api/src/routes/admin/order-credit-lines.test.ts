import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder } from "../../testing/orders";
import { expectRefused as refused } from "../../testing/order-changes";

const t = useTestApp({}, { adminId: "user_credit_lines" });
/** Medusa's dialect, as its dashboard calls (money in major units). */
const M = "/medusa";

/** An order of 2 shirts (10.00), a mug (5.00) and shipping (7.00) = 32.00, its payment authorized. */
const placed = async () => (await placeTestOrder(t.app)).order;
const order = async (id: string, query = "") => (await t.admin.get(`/admin/orders/${id}${query}`)).json().order;
const creditChanges = async (id: string) =>
  (await t.admin.get(`/admin/orders/${id}/changes?change_type=credit_line`)).json().order_changes;
const credit = async (id: string, body: Record<string, unknown>, base = "") => {
  const res = await t.admin.post(`${base}/admin/orders/${id}/credit-lines`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().order;
};

describe("order credit lines (Medusa's POST /admin/orders/{id}/credit-lines)", () => {
  it("records a confirmed credit_line change as the next version, owed no more in the summary", async () => {
    const o = await placed();
    expect((await order(o.id)).summary.pending_difference).toBe(3200);

    const credited = await credit(o.id, {
      amount: 500,
      reference: "goodwill",
      reference_id: "ticket_1",
      metadata: { note: "late delivery" },
    });
    expect(credited).toMatchObject({ version: 2, total: 3200, credit_line_total: 500 });
    expect(credited.summary.pending_difference).toBe(2700);
    expect(credited.credit_lines).toEqual([
      {
        id: expect.stringMatching(/^ordcl_/),
        order_id: o.id,
        amount: 500,
        reference: "goodwill",
        reference_id: "ticket_1",
        metadata: { note: "late delivery" },
        version: 2,
        created_at: expect.any(String),
      },
    ]);
    const [line] = credited.credit_lines;

    const changes = await creditChanges(o.id);
    expect(changes).toEqual([
      expect.objectContaining({
        order_id: o.id,
        change_type: "credit_line",
        status: "confirmed",
        version: 2,
        confirmed_by: "user_credit_lines",
        actions: [
          expect.objectContaining({
            action: "CREDIT_LINE_ADD",
            reference: "credit_line",
            reference_id: line.id,
            amount: 500,
            details: expect.objectContaining({ amount: 500, reference: "goodwill", reference_id: "ticket_1" }),
          }),
        ],
      }),
    ]);
    // The version before it is kept: no credit lines then.
    expect(await order(o.id, "?version=1")).toMatchObject({ version: 1, credit_lines: [], credit_line_total: 0 });
    expect((await order(o.id, "?version=2")).credit_lines).toHaveLength(1);

    // A capture takes at most what is still owed: the credit is not charged.
    const [collection] = await t.app.modules.payment.listCollections({ id: o.payment_collection_ids });
    const paymentId = collection!.payments[0]!.id;
    refused(await t.admin.post(`/admin/payments/${paymentId}/capture`, { amount: 3200 }), 400);
    const captured = await t.admin.post(`/admin/payments/${paymentId}/capture`, { amount: 2700 });
    expect(captured.statusCode, captured.body).toBe(200);
    expect((await order(o.id)).summary.pending_difference).toBe(0);

    // Credited beyond what is owed, the difference is due back.
    expect(
      (await credit(o.id, { amount: 300, reference: "goodwill", reference_id: "ticket_2" })).summary,
    ).toMatchObject({
      pending_difference: -300,
    });
    expect(await creditChanges(o.id)).toHaveLength(2);
  });

  it("Medusa's dialect takes and answers the amount in major units", async () => {
    const o = await placed();
    const credited = await credit(o.id, { amount: 2.5, reference: "refund", reference_id: "ref_1" }, M);
    expect(credited).toMatchObject({ version: 2, credit_line_total: 2.5, summary: { pending_difference: 29.5 } });
    expect(credited.credit_lines).toEqual([expect.objectContaining({ amount: 2.5, reference: "refund" })]);
    // Stored in minor units.
    expect((await order(o.id)).credit_lines[0].amount).toBe(250);
    const changes = (await t.admin.get(`${M}/admin/orders/${o.id}/changes?change_type=credit_line`)).json();
    expect(changes.order_changes[0].actions[0]).toMatchObject({ amount: 2.5, details: { amount: 2.5 } });
  });

  it("refuses a bad amount or body, an unknown order, a canceled one or one with an active change, writing nothing", async () => {
    const o = await placed();
    const body = { amount: 100, reference: "goodwill", reference_id: "ticket_1" };
    for (const bad of [
      { ...body, amount: 0 },
      { ...body, amount: -100 },
      { ...body, amount: 1.5 },
      { ...body, amount: "100" },
      { reference: "goodwill", reference_id: "ticket_1" },
      { amount: 100, reference_id: "ticket_1" },
      { amount: 100, reference: "goodwill" },
      { ...body, reference: "" },
      { ...body, extra: true },
    ])
      refused(await t.admin.post(`/admin/orders/${o.id}/credit-lines`, bad), 400);
    refused(await t.admin.post(`${M}/admin/orders/${o.id}/credit-lines`, { ...body, amount: -1 }), 400);
    refused(await t.admin.post("/admin/orders/order_nope/credit-lines", body), 404);

    // One active change at a time: an edit being put together waits.
    const edit = await t.admin.post("/admin/order-edits", { order_id: o.id });
    expect(edit.statusCode, edit.body).toBe(200);
    refused(await t.admin.post(`/admin/orders/${o.id}/credit-lines`, body), 400);
    expect((await t.admin.delete(`/admin/order-edits/${o.id}`)).statusCode).toBe(200);

    const canceled = await placed();
    expect((await t.admin.post(`/admin/orders/${canceled.id}/cancel`, {})).statusCode).toBe(200);
    refused(await t.admin.post(`/admin/orders/${canceled.id}/credit-lines`, body), 400);

    for (const id of [o.id, canceled.id]) {
      expect(await order(id)).toMatchObject({ version: 1, credit_lines: [], credit_line_total: 0 });
      expect(await creditChanges(id)).toEqual([]);
    }
  });
});
