import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { fulfilledTestOrder, placeTestOrder, stockTestVariants, orderChangeActions } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";

const t = useTestApp({}, { adminId: "user_ret" });
const LOC = "sloc_ret";
let items: Record<string, string>;
let reasonId: string;
beforeAll(async () => {
  items = await stockTestVariants(t.app, [LOC]);
  reasonId = (await t.app.modules.returnReason.create({ value: "damaged", label: "Damaged" })).id;
});

const get = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const stock = async () => (await t.app.modules.inventory.retrieveLevel(items.variant_shirt!, LOC)).stocked_quantity;
/** An order whose two shirts are fulfilled (the mug is not). */
const fulfilledOrder = () => fulfilledTestOrder(t, LOC);
/** The return of `quantity` units of the line `lineId` to LOC, requested through the admin API. */
const requestReturn = async (orderId: string, lineId: string, quantity: number) => {
  const res = await t.admin.post(`/admin/orders/${orderId}/returns`, {
    items: [{ id: lineId, quantity }],
    location_id: LOC,
  });
  return res.json().return;
};

describe("returns", () => {
  it("requests a return of fulfilled units, receives it, restocks the location", async () => {
    const order = await fulfilledOrder();
    const shirt = order.items[0]!.id;
    const before = await stock();
    const created = await t.admin.post(`/admin/orders/${order.id}/returns`, {
      items: [{ id: shirt, quantity: 1, reason_id: reasonId }],
      location_id: LOC,
    });
    expect(created.statusCode).toBe(200);
    const ret = created.json().return;
    expect(ret).toMatchObject({
      order_id: order.id,
      status: "requested",
      location_id: LOC,
      items: [{ line_item_id: shirt, quantity: 1, received_quantity: 0, reason_id: reasonId }],
    });
    expect(created.json().order.items[0]).toMatchObject({
      return_requested_quantity: 1,
      return_received_quantity: 0,
      detail: { return_requested_quantity: 1 },
    });
    expect(await stock()).toBe(before);

    const received = await t.admin.post(`/admin/orders/${order.id}/returns/${ret.id}/receive`, {});
    expect(received.statusCode).toBe(200);
    expect(received.json().return).toMatchObject({ status: "received", items: [{ received_quantity: 1 }] });
    expect(received.json().return.received_at).not.toBeNull();
    expect(received.json().order.items[0]).toMatchObject({ return_requested_quantity: 1, return_received_quantity: 1 });
    expect(received.json().order.returns).toHaveLength(1);
    expect(await stock()).toBe(before + 1);

    const again = await t.admin.post(`/admin/orders/${order.id}/returns/${ret.id}/receive`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(`Return ${ret.id} is received`);
    expect(await stock()).toBe(before + 1);

    // The other shirt through /admin/returns.
    const viaReturns = await t.admin.post("/admin/returns", {
      order_id: order.id,
      items: [{ id: shirt, quantity: 1 }],
      location_id: LOC,
    });
    expect(viaReturns.statusCode).toBe(200);
    const second = viaReturns.json().return;
    expect((await t.admin.post(`/admin/returns/${second.id}/receive`, {})).json().return.status).toBe("received");
    expect(await stock()).toBe(before + 2);
    const listed = (await t.admin.get(`/admin/returns?order_id=${order.id}`)).json();
    expect(listed).toMatchObject({ count: 2, offset: 0, limit: 15 });
    expect((await t.admin.get(`/admin/returns/${second.id}`)).json().return.id).toBe(second.id);
    expect(await orderChangeActions(t, order.id)).toEqual([
      "order_placed",
      "fulfillment_created",
      "return_requested",
      "return_received",
      "return_requested",
      "return_received",
    ]);
  });

  it("refuses more than fulfilled − requested, unknown reasons, items and bad bodies: 400, nothing written", async () => {
    const order = await fulfilledOrder();
    const [shirt, mug] = order.items;
    const other = (await placeTestOrder(t.app)).order;
    for (const body of [
      { items: [{ id: shirt!.id, quantity: 3 }], location_id: LOC },
      { items: [{ id: mug!.id, quantity: 1 }], location_id: LOC },
      { items: [{ id: shirt!.id, quantity: 1, reason_id: "rr_missing" }], location_id: LOC },
      { items: [{ id: other.items[0]!.id, quantity: 1 }], location_id: LOC },
      { items: [{ id: shirt!.id, quantity: 0 }], location_id: LOC },
      { items: [], location_id: LOC },
      { items: [{ id: shirt!.id, quantity: 1 }] },
      { items: [{ id: shirt!.id, quantity: 1 }], location_id: LOC, x: 1 },
    ]) {
      const res = await t.admin.post(`/admin/orders/${order.id}/returns`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    await t.admin.post(`/admin/orders/${order.id}/returns`, {
      items: [{ id: shirt!.id, quantity: 2 }],
      location_id: LOC,
    });
    const over = await t.admin.post(`/admin/orders/${order.id}/returns`, {
      items: [{ id: shirt!.id, quantity: 1 }],
      location_id: LOC,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(`Cannot return more than 0 of item ${shirt!.id}`);
    const current = await get(order.id);
    expect(current.returns).toHaveLength(1);
    expect(current.items[0].return_requested_quantity).toBe(2);
    expect(
      (
        await t.admin.post(`/admin/orders/order_missing/returns`, {
          items: [{ id: shirt!.id, quantity: 1 }],
          location_id: LOC,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.admin.post(`/admin/orders/${other.id}/returns/${current.returns[0].id}/receive`, {})).statusCode,
    ).toBe(404);
    expect((await t.admin.post("/admin/returns/ret_missing/receive", {})).statusCode).toBe(404);
  });

  it("a failure at each step undoes the steps before it", async () => {
    const db = t.database.db;
    const order = await fulfilledOrder();
    const shirt = order.items[0]!.id;
    const before = await stock();
    // create-return fails: no return, nothing requested.
    let res = await withFailure(db, "order_return_item", "INSERT", "true", () =>
      t.admin.post(`/admin/orders/${order.id}/returns`, { items: [{ id: shirt, quantity: 1 }], location_id: LOC }),
    );
    expect(res.statusCode).toBe(500);
    let current = await get(order.id);
    expect(current.returns).toEqual([]);
    expect(current.items[0].return_requested_quantity).toBe(0);

    const ret = await requestReturn(order.id, shirt, 2);
    // receive-return: fail at the receipt step, then at the restock step.
    for (const [table, when] of [
      ["order_return", "NEW.status = 'received'"],
      ["inventory_level", "true"],
    ] as const) {
      res = await withFailure(db, table, "UPDATE", when, () =>
        t.admin.post(`/admin/orders/${order.id}/returns/${ret.id}/receive`, {}),
      );
      expect(res.statusCode, table).toBe(500);
      current = await get(order.id);
      expect(current.returns[0]).toMatchObject({
        status: "requested",
        received_at: null,
        items: [{ received_quantity: 0 }],
      });
      expect(current.items[0].return_received_quantity).toBe(0);
      expect(await stock()).toBe(before);
    }
    expect((await t.admin.post(`/admin/orders/${order.id}/returns/${ret.id}/receive`, {})).statusCode).toBe(200);
    expect(await stock()).toBe(before + 2);
  });

  it("receives a return in parts: partially_received, then received; each receipt restocks exactly what came back", async () => {
    const order = await fulfilledOrder();
    const [shirt, mug] = order.items;
    const before = await stock();
    const ret = (
      await t.admin.post(`/admin/orders/${order.id}/returns`, {
        items: [{ id: shirt!.id, quantity: 2, reason_id: reasonId }],
        location_id: LOC,
      })
    ).json().return;
    const receiveUrl = `/admin/orders/${order.id}/returns/${ret.id}/receive`;

    const first = await t.admin.post(receiveUrl, { items: [{ id: shirt!.id, quantity: 1 }] });
    expect(first.statusCode).toBe(200);
    expect(first.json().return).toMatchObject({
      status: "partially_received",
      received_at: null,
      items: [{ line_item_id: shirt!.id, quantity: 2, received_quantity: 1 }],
    });
    expect(first.json().order.items[0]).toMatchObject({ return_requested_quantity: 2, return_received_quantity: 1 });
    expect(await stock()).toBe(before + 1);

    for (const [body, message] of [
      [
        { items: [{ id: shirt!.id, quantity: 2 }] },
        `Cannot receive more than 1 of item ${shirt!.id} on return ${ret.id}`,
      ],
      [{ items: [{ id: mug!.id, quantity: 1 }] }, `Item ${mug!.id} is not on return ${ret.id}`],
      [
        {
          items: [
            { id: shirt!.id, quantity: 1 },
            { id: shirt!.id, quantity: 1 },
          ],
        },
        `Item ${shirt!.id} is listed twice`,
      ],
    ] as const) {
      const res = await t.admin.post(receiveUrl, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ type: "invalid_data", message });
    }
    for (const body of [
      { items: [] },
      { items: [{ id: shirt!.id, quantity: 0 }] },
      { items: [{ id: shirt!.id, quantity: -1 }] },
      { items: [{ id: shirt!.id, quantity: "1" }] },
      { items: [{ quantity: 1 }] },
      { location_id: LOC },
    ]) {
      const res = await t.admin.post(receiveUrl, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect(await stock()).toBe(before + 1);

    // No items: everything still outstanding.
    const rest = await t.admin.post(`/admin/returns/${ret.id}/receive`, {});
    expect(rest.statusCode).toBe(200);
    expect(rest.json().return).toMatchObject({ status: "received", items: [{ received_quantity: 2 }] });
    expect(rest.json().return.received_at).not.toBeNull();
    expect(await stock()).toBe(before + 2);
    expect((await get(order.id)).items[0]).toMatchObject({ return_requested_quantity: 2, return_received_quantity: 2 });
    expect((await t.admin.post(receiveUrl, { items: [{ id: shirt!.id, quantity: 1 }] })).json().message).toBe(
      `Return ${ret.id} is received`,
    );
    const listed = (await t.admin.get(`/admin/returns?order_id=${order.id}&status[]=received`)).json();
    expect(listed.returns.map((r: { id: string }) => r.id)).toEqual([ret.id]);
    expect(await orderChangeActions(t, order.id)).toEqual([
      "order_placed",
      "fulfillment_created",
      "return_requested",
      "return_received",
      "return_received",
    ]);
  });

  it("cancels a requested return so its units can be asked back again; a return with units back cannot be canceled", async () => {
    const order = await fulfilledOrder();
    const shirt = order.items[0]!.id;
    const before = await stock();
    const ret = await requestReturn(order.id, shirt, 2);
    const canceled = await t.admin.post(`/admin/orders/${order.id}/returns/${ret.id}/cancel`, {});
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json().return).toMatchObject({ id: ret.id, status: "canceled" });
    expect(canceled.json().return.canceled_at).not.toBeNull();
    expect(canceled.json().order.items[0]).toMatchObject({ return_requested_quantity: 0, return_received_quantity: 0 });
    expect((await t.admin.post(`/admin/orders/${order.id}/returns/${ret.id}/cancel`, {})).json()).toEqual({
      type: "invalid_data",
      message: `Return ${ret.id} is canceled and cannot be canceled`,
    });
    expect((await t.admin.post(`/admin/orders/${order.id}/returns/${ret.id}/receive`, {})).json()).toEqual({
      type: "invalid_data",
      message: `Return ${ret.id} is canceled`,
    });
    expect(await stock()).toBe(before);

    // The two shirts can be asked back again; once one is back, the return stays.
    const again = await requestReturn(order.id, shirt, 2);
    await t.admin.post(`/admin/returns/${again.id}/receive`, { items: [{ id: shirt, quantity: 1 }] });
    const refused = await t.admin.post(`/admin/returns/${again.id}/cancel`, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(`Return ${again.id} is partially_received and cannot be canceled`);
    expect((await get(order.id)).items[0]).toMatchObject({ return_requested_quantity: 2, return_received_quantity: 1 });

    const other = (await placeTestOrder(t.app)).order;
    expect((await t.admin.post(`/admin/orders/${other.id}/returns/${again.id}/cancel`, {})).statusCode).toBe(404);
    expect((await t.admin.post("/admin/returns/ret_missing/cancel", {})).statusCode).toBe(404);
    const byReturns = await t.admin.post("/admin/returns", {
      order_id: order.id,
      items: [{ id: order.items[0]!.id, quantity: 0 }],
      location_id: LOC,
    });
    expect(byReturns.statusCode).toBe(400);
  });

  it("refuses a return to a location where its items are not stocked, writing nothing", async () => {
    const order = await fulfilledOrder();
    const res = await t.admin.post(`/admin/orders/${order.id}/returns`, {
      items: [{ id: order.items[0]!.id, quantity: 1 }],
      location_id: "sloc_nowhere",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: "invalid_data",
      message: `Inventory item ${items.variant_shirt} is not stocked at location sloc_nowhere`,
    });
    const current = await get(order.id);
    expect(current.returns).toEqual([]);
    expect(current.items[0].return_requested_quantity).toBe(0);
  });

  it("a failure inside a partial receipt or a cancellation undoes exactly that operation", async () => {
    const db = t.database.db;
    const order = await fulfilledOrder();
    const shirt = order.items[0]!.id;
    const before = await stock();
    const ret = await requestReturn(order.id, shirt, 2);
    await t.admin.post(`/admin/returns/${ret.id}/receive`, { items: [{ id: shirt, quantity: 1 }] });
    // The second receipt fails at the restock step: the first one stays as it was.
    const res = await withFailure(db, "inventory_level", "UPDATE", "true", () =>
      t.admin.post(`/admin/returns/${ret.id}/receive`, { items: [{ id: shirt, quantity: 1 }] }),
    );
    expect(res.statusCode).toBe(500);
    let current = await get(order.id);
    expect(current.returns[0]).toMatchObject({
      status: "partially_received",
      received_at: null,
      items: [{ received_quantity: 1 }],
    });
    expect(current.items[0].return_received_quantity).toBe(1);
    expect(await stock()).toBe(before + 1);

    // cancel-return fails at the order step, then at the return's own update: still requested.
    const second = await fulfilledOrder();
    const toCancel = (
      await t.admin.post(`/admin/orders/${second.id}/returns`, {
        items: [{ id: second.items[0]!.id, quantity: 2 }],
        location_id: LOC,
      })
    ).json().return;
    for (const [table, when] of [
      ["order_line_item", "true"],
      ["order_return", "NEW.status = 'canceled'"],
    ] as const) {
      const failed = await withFailure(db, table, "UPDATE", when, () =>
        t.admin.post(`/admin/returns/${toCancel.id}/cancel`, {}),
      );
      expect(failed.statusCode, table).toBe(500);
      current = await get(second.id);
      expect(current.returns[0], table).toMatchObject({ status: "requested", canceled_at: null });
      expect(current.items[0].return_requested_quantity, table).toBe(2);
    }
    expect((await t.admin.post(`/admin/returns/${toCancel.id}/cancel`, {})).statusCode).toBe(200);
  });

  it("two receipts of the last unit at once: one is received and restocked, the other refused", async () => {
    const order = await fulfilledOrder();
    const shirt = order.items[0]!.id;
    const before = await stock();
    const ret = await requestReturn(order.id, shirt, 1);
    const results = await Promise.all([
      t.admin.post(`/admin/returns/${ret.id}/receive`, {}),
      t.admin.post(`/admin/returns/${ret.id}/receive`, {}),
      t.admin.post(`/admin/returns/${ret.id}/cancel`, {}),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    const current = await get(order.id);
    if (current.returns[0].status === "received") {
      expect(await stock()).toBe(before + 1);
      expect(current.items[0]).toMatchObject({ return_requested_quantity: 1, return_received_quantity: 1 });
    } else {
      expect(current.returns[0].status).toBe("canceled");
      expect(await stock()).toBe(before);
      expect(current.items[0]).toMatchObject({ return_requested_quantity: 0, return_received_quantity: 0 });
    }
  });

  it("a fulfillment with units asked back cannot be canceled", async () => {
    const order = await fulfilledOrder();
    const fid = (await get(order.id)).fulfillments[0].id;
    await t.admin.post(`/admin/orders/${order.id}/returns`, {
      items: [{ id: order.items[0]!.id, quantity: 1 }],
      location_id: LOC,
    });
    const res = await t.admin.post(`/admin/orders/${order.id}/fulfillments/${fid}/cancel`, {});
    expect(res.statusCode).toBe(400);
    expect((await get(order.id)).fulfillments[0].canceled_at).toBeNull();
  });
});

describe("POST /admin/orders/{id}/complete", () => {
  it("completes a pending order once; refuses a canceled or completed one", async () => {
    const { order } = await placeTestOrder(t.app);
    const res = await t.admin.post(`/admin/orders/${order.id}/complete`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().order.status).toBe("completed");
    const again = await t.admin.post(`/admin/orders/${order.id}/complete`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(`Order ${order.id} is completed and cannot be completed`);
    expect((await t.admin.post(`/admin/orders/${order.id}/cancel`, {})).statusCode).toBe(400);

    const canceled = (await placeTestOrder(t.app)).order;
    await t.admin.post(`/admin/orders/${canceled.id}/cancel`, {});
    expect((await t.admin.post(`/admin/orders/${canceled.id}/complete`, {})).json()).toEqual({
      type: "invalid_data",
      message: `Order ${canceled.id} is canceled and cannot be completed`,
    });
    expect((await t.admin.post("/admin/orders/order_missing/complete", {})).statusCode).toBe(404);

    const failing = (await placeTestOrder(t.app)).order;
    const failed = await withFailure(t.database.db, "order_change", "INSERT", "NEW.action = 'order_completed'", () =>
      t.admin.post(`/admin/orders/${failing.id}/complete`, {}),
    );
    expect(failed.statusCode).toBe(500);
    expect((await get(failing.id)).status).toBe("pending");
  });
});
