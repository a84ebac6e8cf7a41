import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder, stockTestVariants, orderChangeActions } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";

const t = useTestApp({}, { adminId: "user_archive" });
const LOC = "sloc_archive";
let items: Record<string, string>;
beforeAll(async () => {
  items = await stockTestVariants(t.app, [LOC]);
});

const get = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const levels = async () =>
  Promise.all(Object.values(items).map((id) => t.app.modules.inventory.retrieveLevel(id, LOC)));
const actions = (id: string) => orderChangeActions(t, id);

describe("POST /admin/orders/{id}/archive", () => {
  it("archives a completed or canceled order, logged with the admin; refuses a pending one and a second archive", async () => {
    const { order } = await placeTestOrder(t.app);
    const pending = await t.admin.post(`/admin/orders/${order.id}/archive`, {});
    expect(pending.statusCode).toBe(400);
    expect(pending.json()).toEqual({
      type: "invalid_data",
      message: `Order ${order.id} is pending; only completed, canceled or draft orders can be archived`,
    });
    expect((await get(order.id)).status).toBe("pending");

    await t.admin.post(`/admin/orders/${order.id}/complete`, {});
    const archived = await t.admin.post(`/admin/orders/${order.id}/archive`, {});
    expect(archived.statusCode).toBe(200);
    expect(archived.json().order).toMatchObject({
      id: order.id,
      status: "archived",
      payment_status: "authorized",
      fulfillment_status: "not_fulfilled",
    });
    const log = (await t.admin.get(`/admin/orders/${order.id}/changes`)).json().order_changes;
    expect(log.at(-1)).toMatchObject({
      action: "order_archived",
      actor_type: "user",
      actor_id: "user_archive",
      before: { status: "completed" },
      after: { status: "archived" },
    });

    const again = await t.admin.post(`/admin/orders/${order.id}/archive`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(`Order ${order.id} is already archived`);

    const canceled = (await placeTestOrder(t.app)).order;
    await t.admin.post(`/admin/orders/${canceled.id}/cancel`, {});
    const res = await t.admin.post(`/admin/orders/${canceled.id}/archive`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({
      status: "archived",
      payment_status: "canceled",
      fulfillment_status: "canceled",
    });

    const listed = (await t.admin.get("/admin/orders?status[]=archived&fields=id,status")).json();
    expect(listed.orders.map((o: { id: string }) => o.id).sort()).toEqual([order.id, canceled.id].sort());
    expect((await t.admin.post("/admin/orders/order_missing/archive", {})).statusCode).toBe(404);
  });

  it("an archived order is closed: no cancel, completion, fulfillment, payment movement or return; stock and money untouched", async () => {
    const { order, collection_id, payment_id } = await placeTestOrder(t.app, {}, { reserve_at: LOC });
    const shirt = order.items[0]!.id;
    await t.admin.post(`/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: shirt, quantity: 1 }],
      location_id: LOC,
    });
    await t.admin.post(`/admin/orders/${order.id}/payment-collections/${collection_id}/capture`, { amount: 1000 });
    const fid = (await get(order.id)).fulfillments[0].id as string;
    await t.admin.post(`/admin/orders/${order.id}/complete`, {});
    expect((await t.admin.post(`/admin/orders/${order.id}/archive`, {})).statusCode).toBe(200);
    const before = await get(order.id);
    const stockBefore = await levels();

    const refused: Array<[string, unknown, string]> = [
      [`/admin/orders/${order.id}/cancel`, {}, `Order ${order.id} is archived and cannot be canceled`],
      [`/admin/orders/${order.id}/complete`, {}, `Order ${order.id} is archived and cannot be completed`],
      [
        `/admin/orders/${order.id}/fulfillments`,
        { items: [{ id: shirt, quantity: 1 }], location_id: LOC },
        `Order ${order.id} is archived and cannot be fulfilled`,
      ],
      [
        `/admin/orders/${order.id}/fulfillments/${fid}/shipments`,
        {},
        `Order ${order.id} is archived and cannot be shipped`,
      ],
      [
        `/admin/orders/${order.id}/fulfillments/${fid}/cancel`,
        {},
        `Order ${order.id} is archived and cannot be changed`,
      ],
      [
        `/admin/orders/${order.id}/payment-collections/${collection_id}/capture`,
        {},
        `Order ${order.id} is archived and cannot be captured`,
      ],
      [
        `/admin/orders/${order.id}/payment-collections/${collection_id}/refund`,
        { amount: 100 },
        `Order ${order.id} is archived and cannot be refunded`,
      ],
      [`/admin/payments/${payment_id}/refund`, { amount: 100 }, `Order ${order.id} is archived and cannot be refunded`],
      [
        `/admin/orders/${order.id}/returns`,
        { items: [{ id: shirt, quantity: 1 }], location_id: LOC },
        `Order ${order.id} is archived and cannot be returned`,
      ],
    ];
    for (const [url, body, message] of refused) {
      const res = await t.admin.post(url, body);
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({ type: "invalid_data", message });
    }
    const after = await get(order.id);
    expect(after).toEqual({ ...before, updated_at: after.updated_at });
    expect(await levels()).toEqual(stockBefore);

    // The record stays editable (notes, a corrected email) and every edit is logged.
    const edited = await t.admin.post(`/admin/orders/${order.id}`, {
      email: "fixed@example.com",
      metadata: { note: "archived after audit" },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().order).toMatchObject({ status: "archived", email: "fixed@example.com" });
    expect((await actions(order.id)).at(-1)).toBe("order_updated");
  });

  it("a failure inside the archive step leaves the order as it was; two archives at once archive it once", async () => {
    const { order } = await placeTestOrder(t.app);
    await t.admin.post(`/admin/orders/${order.id}/complete`, {});
    const failed = await withFailure(t.database.db, "order_change", "INSERT", "NEW.action = 'order_archived'", () =>
      t.admin.post(`/admin/orders/${order.id}/archive`, {}),
    );
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ type: "unknown_error", message: "An unknown error occurred." });
    expect((await get(order.id)).status).toBe("completed");
    expect(await actions(order.id)).toEqual(["order_placed", "order_completed"]);

    // Completing is one transaction with its event; completing again is refused and records none.
    expect((await t.admin.post(`/admin/orders/${order.id}/complete`, {})).statusCode).toBe(400);
    const completed = await t.app.modules.events.list({ name: ["order.completed"] }, { limit: 100, offset: 0 });
    expect(completed.items.filter((e) => (e.data as { id: string }).id === order.id)).toHaveLength(1);

    const results = await Promise.all([
      t.admin.post(`/admin/orders/${order.id}/archive`, {}),
      t.admin.post(`/admin/orders/${order.id}/archive`, {}),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect((await get(order.id)).status).toBe("archived");
    expect(await actions(order.id)).toEqual(["order_placed", "order_completed", "order_archived"]);
  });

  it("admins only", async () => {
    const { order } = await placeTestOrder(t.app);
    expect(
      (await t.app.inject({ method: "POST", url: `/admin/orders/${order.id}/archive`, payload: {} })).statusCode,
    ).toBe(401);
    expect(
      (
        await t.app.inject({
          method: "POST",
          url: `/admin/orders/${order.id}/archive`,
          headers: await t.customerHeaders("cus_archive"),
          payload: {},
        })
      ).statusCode,
    ).toBe(403);
    expect((await get(order.id)).status).toBe("pending");
  });
});
