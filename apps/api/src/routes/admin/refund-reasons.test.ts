import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder } from "../../testing/orders";

const t = useTestApp({}, { adminId: "user_refr" });

const create = async (body: Record<string, unknown>) => {
  const res = await t.admin.post("/admin/refund-reasons", body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().refund_reason as { id: string; label: string; code: string };
};

describe("admin refund reasons", () => {
  it("creates, retrieves, updates, lists (q, order, paging) and soft-deletes", async () => {
    const reason = await create({ label: "Damaged", code: "damaged", description: "Arrived broken" });
    expect(reason).toMatchObject({
      label: "Damaged",
      code: "damaged",
      description: "Arrived broken",
      metadata: null,
      deleted_at: null,
    });
    expect(reason.id).toMatch(/^refr_/);
    expect((await t.admin.get(`/admin/refund-reasons/${reason.id}`)).json().refund_reason.label).toBe("Damaged");
    const updated = await t.admin.post(`/admin/refund-reasons/${reason.id}`, { label: "Broken", metadata: { a: 1 } });
    expect(updated.json().refund_reason).toMatchObject({ label: "Broken", code: "damaged", metadata: { a: 1 } });
    await create({ label: "Goodwill", code: "goodwill" });
    await create({ label: "Late delivery", code: "late" });

    const search = await t.admin.get("/admin/refund-reasons?q=broken");
    expect(search.json()).toMatchObject({ count: 1, offset: 0, limit: 15 });
    expect(search.json().refund_reasons[0].id).toBe(reason.id);
    const page = await t.admin.get("/admin/refund-reasons?order=-code&limit=2&offset=1&fields=code");
    expect(page.json()).toEqual({
      refund_reasons: [
        { id: expect.any(String), code: "goodwill" },
        { id: reason.id, code: "damaged" },
      ],
      count: 3,
      offset: 1,
      limit: 2,
    });
    expect((await t.admin.get("/admin/refund-reasons?code=late")).json().count).toBe(1);

    const deleted = await t.admin.delete(`/admin/refund-reasons/${reason.id}`);
    expect(deleted.json()).toEqual({ id: reason.id, object: "refund_reason", deleted: true });
    expect((await t.admin.get(`/admin/refund-reasons/${reason.id}`)).statusCode).toBe(404);
    expect((await t.admin.get("/admin/refund-reasons")).json().count).toBe(2);
    // The code is free again once deleted.
    await create({ label: "Damaged", code: "damaged" });
  });

  it("rejects bad input, duplicates, unknown ids and anonymous callers, writing nothing", async () => {
    const before = (await t.admin.get("/admin/refund-reasons")).json().count;
    for (const body of [
      {},
      { label: "x" },
      { code: "x" },
      { label: "", code: "x" },
      { label: "x", code: "" },
      { label: 1, code: "x" },
      { label: "x", code: "x", other: 1 },
      { label: "x", code: "x", metadata: "no" },
    ]) {
      const res = await t.admin.post("/admin/refund-reasons", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    await create({ label: "Dup", code: "dup" });
    const dup = await t.admin.post("/admin/refund-reasons", { label: "Again", code: "dup" });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ type: "conflict", message: "Refund reason with code: dup already exists" });
    const other = await create({ label: "Other", code: "other" });
    const clash = await t.admin.post(`/admin/refund-reasons/${other.id}`, { code: "dup" });
    expect(clash.statusCode).toBe(409);
    expect((await t.admin.get(`/admin/refund-reasons/${other.id}`)).json().refund_reason.code).toBe("other");
    expect((await t.admin.post(`/admin/refund-reasons/${other.id}`, { label: "" })).statusCode).toBe(400);
    expect((await t.admin.get("/admin/refund-reasons")).json().count).toBe(before + 2);
    expect((await t.admin.get("/admin/refund-reasons/refr_missing")).statusCode).toBe(404);
    expect((await t.admin.post("/admin/refund-reasons/refr_missing", { label: "x" })).statusCode).toBe(404);
    expect((await t.admin.delete("/admin/refund-reasons/refr_missing")).statusCode).toBe(404);
    expect((await t.admin.get("/admin/refund-reasons?limit=-1")).statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: "/admin/refund-reasons" })).statusCode).toBe(401);
  });

  it("a refund names its reason and shows it, on the payment and on the order", async () => {
    const reason = await create({ label: "Customer complaint", code: "complaint" });
    const { order: placed, collection_id, payment_id } = await placeTestOrder(t.app);
    const base = `/admin/orders/${placed.id}/payment-collections/${collection_id}`;
    expect((await t.admin.post(`${base}/capture`, {})).statusCode).toBe(200);

    const refunded = await t.admin.post(`/admin/payments/${payment_id}/refund`, {
      amount: 500,
      refund_reason_id: reason.id,
      note: "scratched",
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().payment.refunds).toEqual([
      expect.objectContaining({
        amount: 500,
        note: "scratched",
        refund_reason_id: reason.id,
        refund_reason: expect.objectContaining({ id: reason.id, label: "Customer complaint", code: "complaint" }),
      }),
    ]);
    // Without a reason, the refund has none.
    expect((await t.admin.post(`${base}/refund`, { amount: 100 })).statusCode).toBe(200);
    const order = (
      await t.admin.get(
        `/admin/orders/${placed.id}?fields=*payment_collections.payments.refunds,*payment_collections.payments.refunds.refund_reason`,
      )
    ).json().order;
    const refunds = order.payment_collections[0].payments[0].refunds;
    expect(
      refunds.map((r: { amount: number; refund_reason: { code: string } | null }) => [
        r.amount,
        r.refund_reason?.code ?? null,
      ]),
    ).toEqual([
      [500, "complaint"],
      [100, null],
    ]);

    // A deleted reason stays on the refunds that chose it, and can no longer be chosen.
    await t.admin.delete(`/admin/refund-reasons/${reason.id}`);
    for (const refund_reason_id of [reason.id, "refr_missing"]) {
      const res = await t.admin.post(`${base}/refund`, { amount: 100, refund_reason_id });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({
        type: "invalid_data",
        message: `Refund reason with id: ${refund_reason_id} was not found`,
      });
    }
    for (const body of [
      { amount: 100, refund_reason_id: "" },
      { amount: 100, refund_reason_id: 5 },
    ]) {
      expect((await t.admin.post(`${base}/refund`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const final = (await t.admin.get(`/admin/orders/${placed.id}?fields=*payment_collections.payments.refunds`)).json()
      .order;
    expect(
      final.payment_collections[0].payments[0].refunds.map(
        (r: { refund_reason_id: string | null }) => r.refund_reason_id,
      ),
    ).toEqual([reason.id, null]);
    expect(final.payment_collections[0].payments[0].refunds[0].refund_reason.code).toBe("complaint");
  });
});
