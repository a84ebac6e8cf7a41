import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { useTestApp } from "../../testing";
import { editFirstLine, placeTestOrder, stockTestVariants } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";
import { orderBooks, paymentViolations } from "../../testing/books";

const t = useTestApp({}, { adminId: "user_settle" });
/** Medusa's dialect, as its dashboard calls (money in major units). */
const M = "/medusa/admin";
let LOC: string;
let CHANNEL: string;

beforeAll(async () => {
  LOC = (await t.app.modules.stockLocation.create({ name: "Settle warehouse" })).id;
  CHANNEL = (await t.app.modules.salesChannel.create({ name: "Settle channel" })).id;
  await t.app.modules.stockLocation.updateSalesChannels(LOC, { add: [CHANNEL] });
  await stockTestVariants(t.app, [LOC]);
});

interface Collection {
  id: string;
  amount: number;
  status: string;
  captured_amount: number;
  payments: Array<{ id: string; provider_id: string; amount: number }>;
}

/** A 4xx `{type, message}` answer. */
function refused(res: { statusCode: number; json: () => unknown; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { type: string; message: string };
  expect(typeof body.type).toBe("string");
  expect(typeof body.message).toBe("string");
}
const order = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const books = (id: string) => orderBooks(t, id);
const eventNames = async (orderId: string): Promise<string[]> => {
  const result = (await t.database.db.execute(
    sql`select name from event where data->>'order_id' = ${orderId} or data->>'id' = ${orderId} order by created_at, id`,
  )) as unknown as Array<{ name: string }> | { rows: Array<{ name: string }> };
  return (Array.isArray(result) ? result : result.rows).map((r) => r.name);
};

/** An order of 32.00 whose payment is captured in full. */
async function paidOrder() {
  const placed = await placeTestOrder(t.app, { sales_channel_id: CHANNEL }, { reserve_at: LOC });
  const captured = await t.admin.post(`/admin/payments/${placed.payment_id}/capture`, {});
  expect(captured.statusCode, captured.body).toBe(200);
  return placed;
}

/** The order's collections other than the one paid at checkout. */
const differenceCollections = async (orderId: string, checkout: string): Promise<Collection[]> =>
  ((await order(orderId)).payment_collections as Collection[]).filter((c) => c.id !== checkout);

describe("settling an order's difference", () => {
  it("marks the collection an edit asked for paid (the dashboard's Mark as paid), once", async () => {
    const { order: o, collection_id } = await paidOrder();
    await editFirstLine(t, o.id, 3);
    expect(await books(o.id)).toMatchObject({
      payment_status: "partially_captured",
      paid_total: 3200,
      pending_difference: 1000,
      collections: [
        [3200, "authorized"],
        [1000, "not_paid"],
      ],
    });
    const [difference] = await differenceCollections(o.id, collection_id);
    // The order page lists the edit among the order's changes, its amounts in the order's currency.
    const changes = await t.admin.get(`${M}/orders/${o.id}/changes?change_type=edit`);
    expect(changes.statusCode, changes.body).toBe(200);
    expect(changes.json().order_changes[0]).toMatchObject({
      currency_code: "eur",
      actions: [
        expect.objectContaining({ action: "ITEM_UPDATE", details: expect.objectContaining({ unit_price: 10 }) }),
      ],
    });

    // Medusa's dialect, as the dashboard sends it; the answer's amounts in major units.
    const marked = await t.admin.post(`${M}/payment-collections/${difference!.id}/mark-as-paid`, { order_id: o.id });
    expect(marked.statusCode, marked.body).toBe(200);
    const collection = marked.json().payment_collection as Collection;
    expect(collection).toMatchObject({ id: difference!.id, amount: 10, captured_amount: 10, status: "completed" });
    expect(collection.payments).toEqual([
      expect.objectContaining({ provider_id: "pp_system_default", amount: 10, captured_at: expect.any(String) }),
    ]);
    expect(await books(o.id)).toMatchObject({
      payment_status: "captured",
      paid_total: 4200,
      refunded_total: 0,
      pending_difference: 0,
    });
    expect(await eventNames(o.id)).toContain("payment.captured");

    // Twice, for another order, or an unknown collection: refused, nothing more paid.
    refused(await t.admin.post(`/admin/payment-collections/${difference!.id}/mark-as-paid`, { order_id: o.id }), 400);
    const other = await placeTestOrder(t.app, { sales_channel_id: CHANNEL });
    refused(
      await t.admin.post(`/admin/payment-collections/${difference!.id}/mark-as-paid`, { order_id: other.order.id }),
      404,
    );
    refused(await t.admin.post(`/admin/payment-collections/pay_col_missing/mark-as-paid`, { order_id: o.id }), 404);
    refused(await t.admin.post(`/admin/payment-collections/${difference!.id}/mark-as-paid`, {}), 400);
    refused(await t.admin.post(`/admin/payment-collections/${difference!.id}/mark-as-paid`, { order_id: 7 }), 400);
    // The checkout's collection is paid through its provider, not by hand.
    refused(await t.admin.post(`/admin/payment-collections/${collection_id}/mark-as-paid`, { order_id: o.id }), 400);
    expect(await books(o.id)).toMatchObject({ paid_total: 4200, pending_difference: 0 });
    expect(await paymentViolations(t)).toEqual([]);
  });

  it("creates a collection for what the order owes, within it, and deletes an unpaid one", async () => {
    const { order: o, collection_id } = await paidOrder();
    // Nothing owed: refused.
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id }), 400);
    await editFirstLine(t, o.id, 3);
    const [asked] = await differenceCollections(o.id, collection_id);
    // The edit's collection already asks for the 10.00 owed.
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id }), 400);

    const removed = await t.admin.delete(`/admin/payment-collections/${asked!.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ id: asked!.id, object: "payment-collection", deleted: true });
    expect(await books(o.id)).toMatchObject({
      payment_status: "captured",
      pending_difference: 1000,
      collections: [[3200, "authorized"]],
    });
    refused(await t.admin.delete(`/admin/payment-collections/${asked!.id}`), 404);

    // More than is owed, bad bodies, unknown orders: refused and nothing written.
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id, amount: 1001 }), 400);
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id, amount: -5 }), 400);
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id, amount: "5" }), 400);
    refused(await t.admin.post("/admin/payment-collections", { amount: 5 }), 400);
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id, extra: 1 }), 400);
    refused(await t.admin.post("/admin/payment-collections", { order_id: "order_missing" }), 404);
    refused(await t.admin.post(`${M}/payment-collections`, { order_id: "order_missing", amount: 1 }), 404);
    refused(await t.admin.post(`${M}/payment-collections`, { order_id: o.id, amount: 10.01 }), 400);
    expect((await books(o.id)).collections).toHaveLength(1);

    // 4.00 in Medusa's dialect (major units), then the rest.
    const part = await t.admin.post(`${M}/payment-collections`, { order_id: o.id, amount: 4 });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json().payment_collection).toMatchObject({ amount: 4, status: "not_paid", currency_code: "eur" });
    const rest = await t.admin.post("/admin/payment-collections", { order_id: o.id });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json().payment_collection).toMatchObject({ amount: 600, status: "not_paid" });
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id, amount: 1 }), 400);
    expect(await books(o.id)).toMatchObject({ payment_status: "partially_captured", pending_difference: 1000 });

    for (const id of [part.json().payment_collection.id, rest.json().payment_collection.id]) {
      const marked = await t.admin.post(`/admin/payment-collections/${id}/mark-as-paid`, { order_id: o.id });
      expect(marked.statusCode, marked.body).toBe(200);
    }
    expect(await books(o.id)).toMatchObject({ payment_status: "captured", paid_total: 4200, pending_difference: 0 });
    // A paid collection, or the checkout's, is not deleted.
    refused(await t.admin.delete(`/admin/payment-collections/${rest.json().payment_collection.id}`), 400);
    refused(await t.admin.delete(`/admin/payment-collections/${collection_id}`), 400);
    refused(await t.admin.delete(`/admin/payment-collections/pay_col_missing`), 404);
    expect(await paymentViolations(t)).toEqual([]);
  });

  it("asks for nothing an authorized payment already covers", async () => {
    const { order: o } = await placeTestOrder(t.app, { sales_channel_id: CHANNEL });
    expect(await books(o.id)).toMatchObject({ payment_status: "authorized", pending_difference: 3200 });
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id }), 400);
    await t.admin.post(`/admin/orders/${o.id}/cancel`, {});
    refused(await t.admin.post("/admin/payment-collections", { order_id: o.id }), 400);
  });

  it("refunds an amount due back after an edit, never more than was captured", async () => {
    const { order: o, payment_id } = await paidOrder();
    await editFirstLine(t, o.id, 1);
    expect(await books(o.id)).toMatchObject({ payment_status: "captured", pending_difference: -1000 });
    refused(await t.admin.post(`/admin/payments/${payment_id}/refund`, { amount: 3201 }), 400);
    const refund = await t.admin.post(`${M}/payments/${payment_id}/refund`, { amount: 10, note: "Edit" });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await books(o.id)).toMatchObject({
      payment_status: "partially_refunded",
      paid_total: 3200,
      refunded_total: 1000,
      pending_difference: 0,
    });
  });

  it("lets one of two concurrent markings win, and one of two refunds over the captured amount", async () => {
    const { order: o, collection_id, payment_id } = await paidOrder();
    await editFirstLine(t, o.id, 4);
    const [difference] = await differenceCollections(o.id, collection_id);
    const marks = await Promise.all(
      [0, 1].map(() => t.admin.post(`/admin/payment-collections/${difference!.id}/mark-as-paid`, { order_id: o.id })),
    );
    expect(marks.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const paid = (await differenceCollections(o.id, collection_id))[0]!;
    expect(paid.payments).toHaveLength(1);
    expect(await books(o.id)).toMatchObject({ payment_status: "captured", paid_total: 5200, pending_difference: 0 });

    const refunds = await Promise.all(
      [0, 1].map(() => t.admin.post(`/admin/payments/${payment_id}/refund`, { amount: 2000 })),
    );
    expect(refunds.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await books(o.id)).toMatchObject({ refunded_total: 2000, pending_difference: 2000 });

    // Two requests for the same difference: one collection asks for it.
    const asks = await Promise.all([0, 1].map(() => t.admin.post("/admin/payment-collections", { order_id: o.id })));
    expect(asks.map((r) => r.statusCode).sort()[0]).toBe(200);
    const open = (await differenceCollections(o.id, collection_id)).filter((c) => c.status === "not_paid");
    expect(open.map((c) => c.amount)).toEqual([2000]);
    expect(await paymentViolations(t)).toEqual([]);
  });

  it("leaves everything as it was when a step fails", async () => {
    const { order: o, collection_id } = await paidOrder();
    await editFirstLine(t, o.id, 3);
    const [difference] = await differenceCollections(o.id, collection_id);
    const before = await books(o.id);
    const failing = (
      table: string,
      op: "INSERT" | "UPDATE",
      when: string,
      call: () => Promise<{ statusCode: number }>,
    ) => withFailure(t.database.db, table, op, when, call);

    // Marking paid fails at its log entry: the payment is taken back out.
    const marked = await failing("order_change", "INSERT", "NEW.action = 'payment_marked_paid'", () =>
      t.admin.post(`/admin/payment-collections/${difference!.id}/mark-as-paid`, { order_id: o.id }),
    );
    expect(marked.statusCode).toBe(500);
    expect(await books(o.id)).toEqual(before);
    expect((await differenceCollections(o.id, collection_id))[0]!.payments).toEqual([]);

    // Deleting fails at the deletion: the collection stays on the order.
    const removed = await failing("payment_collection", "UPDATE", "NEW.deleted_at is not null", () =>
      t.admin.delete(`/admin/payment-collections/${difference!.id}`),
    );
    expect(removed.statusCode).toBe(500);
    expect(await books(o.id)).toEqual(before);

    // Creating fails when attaching it to the order: no collection is left behind.
    await t.admin.delete(`/admin/payment-collections/${difference!.id}`);
    const afterDelete = await books(o.id);
    const created = await failing("order_change", "INSERT", "NEW.action = 'payment_collection_created'", () =>
      t.admin.post("/admin/payment-collections", { order_id: o.id }),
    );
    expect(created.statusCode).toBe(500);
    expect(await books(o.id)).toEqual(afterDelete);
    const stray = (await t.database.db.execute(
      sql`select count(*)::int as n from payment_collection where deleted_at is null and cart_id is null and region_id = 'reg_test' and amount = 1000 and status = 'not_paid' and id not in (select jsonb_array_elements_text(payment_collection_ids) from "order")`,
    )) as unknown as Array<{ n: number }> | { rows: Array<{ n: number }> };
    expect((Array.isArray(stray) ? stray : stray.rows)[0]!.n).toBe(0);

    // And it works once nothing fails.
    const ok = await t.admin.post("/admin/payment-collections", { order_id: o.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await paymentViolations(t)).toEqual([]);
  });
});
