import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { orderReturnChange } from "@kasse/modules/order/tables";
import { useTestApp } from "../../testing";
import { fulfilledTestOrder, placeTestOrder, stockTestVariants, orderChangeActions } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";

const t = useTestApp({}, { adminId: "user_return_changes" });
/** Medusa's dialect, as its dashboard calls: the protocol's routes answer there (and at the root). */
const M = "/medusa/admin";
let LOC: string;
let items: Record<string, string>;
let reasonId: string;
beforeAll(async () => {
  LOC = (await t.app.modules.stockLocation.create({ name: "Returns desk" })).id;
  items = await stockTestVariants(t.app, [LOC]);
  reasonId = (await t.app.modules.returnReason.create({ value: "too_big", label: "Too big" })).id;
});

const order = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const preview = async (id: string) => (await t.admin.get(`/admin/orders/${id}/preview`)).json().order;
const stock = async () => (await t.app.modules.inventory.retrieveLevel(items.variant_shirt!, LOC)).stocked_quantity;
const changeRows = (orderId: string) =>
  t.database.db.select().from(orderReturnChange).where(eq(orderReturnChange.order_id, orderId));
/** An order whose two shirts are fulfilled (the mug is not). */
const fulfilledOrder = () => fulfilledTestOrder(t, LOC);
/** A 4xx `{type, message}` answer. */
function refused(res: { statusCode: number; json: () => unknown }, status: number, message?: string) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status);
  const body = res.json() as { type: string; message: string };
  expect(typeof body.type).toBe("string");
  if (message !== undefined) expect(body.message).toBe(message);
}

describe("a return through Medusa's order-change protocol", () => {
  it("puts a request together item by item, confirms it (create-return), then counts a receipt and confirms it (receive-return)", async () => {
    const placed = await fulfilledOrder();
    const shirt = placed.items[0]!.id;
    const before = await stock();

    const begun = await t.admin.post(`${M}/returns`, { order_id: placed.id });
    expect(begun.statusCode, begun.body).toBe(200);
    const ret = begun.json().return;
    expect(ret).toMatchObject({ order_id: placed.id, status: "open", location_id: null, items: [] });
    expect((await preview(placed.id)).order_change).toMatchObject({
      change_type: "return_request",
      return_id: ret.id,
      status: "pending",
      actions: [],
    });

    const added = await t.admin.post(`${M}/returns/${ret.id}/request-items`, { items: [{ id: shirt, quantity: 1 }] });
    expect(added.statusCode, added.body).toBe(200);
    const line = added.json().order_preview.items.find((i: { id: string }) => i.id === shirt);
    expect(line.detail.return_requested_quantity).toBe(1);
    expect(line.actions).toEqual([
      expect.objectContaining({
        action: "RETURN_ITEM",
        return_id: ret.id,
        details: expect.objectContaining({ quantity: 1 }),
      }),
    ]);
    // Medusa's dialect answers money in major units: a shirt line of 2 × 10.00 asks 10.00 back.
    expect(line.return_requested_total).toBe(line.total / 2);
    expect(added.json().return.items).toEqual([expect.objectContaining({ item_id: shirt, quantity: 1 })]);
    const actionId = line.actions[0].id;

    const updated = await t.admin.post(`${M}/returns/${ret.id}/request-items/${actionId}`, {
      quantity: 2,
      reason_id: reasonId,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().return.items).toEqual([
      expect.objectContaining({ item_id: shirt, quantity: 2, reason_id: reasonId }),
    ]);
    expect((await t.admin.post(`${M}/returns/${ret.id}`, { location_id: LOC })).json().return.location_id).toBe(LOC);
    expect((await t.admin.get(`/admin/returns/${ret.id}`)).json().return).toMatchObject({
      status: "open",
      location_id: LOC,
    });

    // Nothing has moved on the order, nor in stock, nor among its returns.
    let current = await order(placed.id);
    expect(current.items[0].return_requested_quantity).toBe(0);
    expect(current.returns).toEqual([]);
    expect((await t.admin.get(`/admin/returns?order_id=${placed.id}`)).json().count).toBe(0);

    const confirmed = await t.admin.post(`${M}/returns/${ret.id}/request`, { no_notification: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().return).toMatchObject({
      id: ret.id,
      status: "requested",
      location_id: LOC,
      items: [{ line_item_id: shirt, item_id: shirt, quantity: 2, received_quantity: 0, reason_id: reasonId }],
    });
    expect(confirmed.json().order_preview.order_change).toBeUndefined();
    current = await order(placed.id);
    expect(current.items[0]).toMatchObject({ return_requested_quantity: 2, detail: { return_requested_quantity: 2 } });
    expect(current.returns.map((r: { id: string }) => r.id)).toEqual([ret.id]);
    expect(await stock()).toBe(before);

    // The receipt, as the dashboard drives it: begin (no items), count every unit, lower one, confirm.
    const receiving = await t.admin.post(`${M}/returns/${ret.id}/receive`, {});
    expect(receiving.statusCode, receiving.body).toBe(200);
    expect(receiving.json().return).toMatchObject({ id: ret.id, status: "requested" });
    expect((await preview(placed.id)).order_change).toMatchObject({ change_type: "return_receive", return_id: ret.id });
    const counted = await t.admin.post(`${M}/returns/${ret.id}/receive-items`, { items: [{ id: shirt, quantity: 2 }] });
    expect(counted.statusCode, counted.body).toBe(200);
    const countedLine = counted.json().order_preview.items.find((i: { id: string }) => i.id === shirt);
    expect(countedLine.detail).toMatchObject({ return_requested_quantity: 0, return_received_quantity: 2 });
    expect(countedLine).toMatchObject({ return_requested_quantity: 2, return_received_quantity: 2 });
    const receiveAction = countedLine.actions.find((a: { action: string }) => a.action === "RECEIVE_RETURN_ITEM");
    expect(
      (await t.admin.post(`${M}/returns/${ret.id}/receive-items/${receiveAction.id}`, { quantity: 1 })).statusCode,
    ).toBe(200);
    expect(await stock()).toBe(before);
    expect((await order(placed.id)).items[0].return_received_quantity).toBe(0);

    const received = await t.admin.post(`${M}/returns/${ret.id}/receive/confirm`, {});
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json().return).toMatchObject({ status: "partially_received", items: [{ received_quantity: 1 }] });
    expect(await stock()).toBe(before + 1);
    // Kasse counts every unit asked back; `detail` (Medusa's shape) those not received yet.
    expect((await order(placed.id)).items[0]).toMatchObject({
      return_requested_quantity: 2,
      return_received_quantity: 1,
      detail: { return_requested_quantity: 1, return_received_quantity: 1 },
    });
    expect((await preview(placed.id)).order_change).toBeUndefined();

    // The rest, through the root's one-call receipt (the contract's form is unchanged).
    const rest = await t.admin.post(`/admin/returns/${ret.id}/receive`, {});
    expect(rest.json().return.status).toBe("received");
    expect(await stock()).toBe(before + 2);
    expect(await orderChangeActions(t, placed.id)).toEqual([
      "order_placed",
      "fulfillment_created",
      "return_requested",
      "return_received",
      "return_received",
    ]);
  });

  it("cancels a pending request or receipt, leaving nothing behind", async () => {
    const placed = await fulfilledOrder();
    const shirt = placed.items[0]!.id;
    const ret = (await t.admin.post(`${M}/returns`, { order_id: placed.id, location_id: LOC })).json().return;
    await t.admin.post(`${M}/returns/${ret.id}/request-items`, { items: [{ id: shirt, quantity: 2 }] });
    const canceled = await t.admin.delete(`${M}/returns/${ret.id}/request`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json()).toEqual({ id: ret.id, object: "return", deleted: true });
    expect(await changeRows(placed.id)).toEqual([]);
    refused(await t.admin.get(`/admin/returns/${ret.id}`), 404);
    expect((await preview(placed.id)).order_change).toBeUndefined();
    expect((await order(placed.id)).items[0].return_requested_quantity).toBe(0);

    // A receipt canceled: the return stays requested, nothing received.
    const again = (await t.admin.post(`${M}/returns`, { order_id: placed.id, location_id: LOC })).json().return;
    await t.admin.post(`${M}/returns/${again.id}/request-items`, { items: [{ id: shirt, quantity: 1 }] });
    await t.admin.post(`${M}/returns/${again.id}/request`, {});
    const before = await stock();
    await t.admin.post(`${M}/returns/${again.id}/receive`, {});
    await t.admin.post(`${M}/returns/${again.id}/receive-items`, { items: [{ id: shirt, quantity: 1 }] });
    expect((await t.admin.delete(`${M}/returns/${again.id}/receive`)).json()).toEqual({
      id: again.id,
      object: "return",
      deleted: true,
    });
    expect((await t.admin.get(`/admin/returns/${again.id}`)).json().return).toMatchObject({
      status: "requested",
      items: [{ received_quantity: 0 }],
    });
    expect(await stock()).toBe(before);
    expect((await preview(placed.id)).order_change).toBeUndefined();
    expect((await changeRows(placed.id)).map((r) => [r.change_type, r.status])).toEqual([
      ["return_request", "confirmed"],
    ]);
  });

  it("refuses bad input with 4xx {type, message}, writing nothing", async () => {
    const placed = await fulfilledOrder();
    const [shirt, mug] = placed.items;
    const other = (await placeTestOrder(t.app)).order;

    refused(await t.admin.post(`${M}/returns`, { order_id: "order_missing" }), 404);
    refused(await t.admin.post(`${M}/returns`, { order_id: placed.id, location_id: "sloc_missing" }), 404);
    refused(await t.admin.post(`${M}/returns`, { order_id: placed.id, x: 1 }), 400);
    refused(await t.admin.post(`${M}/returns`, {}), 400);
    expect(await changeRows(placed.id)).toEqual([]);

    const ret = (await t.admin.post(`${M}/returns`, { order_id: placed.id })).json().return;
    refused(
      await t.admin.post(`${M}/returns`, { order_id: placed.id }),
      400,
      `Order ${placed.id} already has a pending return request (return ${ret.id})`,
    );
    const url = `${M}/returns/${ret.id}/request-items`;
    for (const [body, message] of [
      [{ items: [{ id: shirt!.id, quantity: 3 }] }, `Cannot return more than 2 of item ${shirt!.id}`],
      [{ items: [{ id: mug!.id, quantity: 1 }] }, `Cannot return more than 0 of item ${mug!.id}`],
      [{ items: [{ id: other.items[0]!.id, quantity: 1 }] }, `Item ${other.items[0]!.id} is not on order ${placed.id}`],
      [{ items: [{ id: shirt!.id, quantity: 1, reason_id: "rr_missing" }] }, "Return reason rr_missing was not found"],
      [
        {
          items: [
            { id: shirt!.id, quantity: 1 },
            { id: shirt!.id, quantity: 1 },
          ],
        },
        `Item ${shirt!.id} is already on return ${ret.id}`,
      ],
      [{ items: [{ id: shirt!.id, quantity: -1 }] }, undefined],
      [{ items: [{ id: shirt!.id, quantity: 0 }] }, undefined],
      [{ items: [{ id: shirt!.id, quantity: "1" }] }, undefined],
      [{ items: [] }, undefined],
      [{ items: [{ id: shirt!.id, quantity: 1, x: 1 }] }, undefined],
    ] as const) {
      const res = await t.admin.post(url, body);
      refused(res, 400, message);
      expect(res.json().type, JSON.stringify(body)).toBe("invalid_data");
    }
    refused(
      await t.admin.post(`${M}/returns/ret_missing/request-items`, { items: [{ id: shirt!.id, quantity: 1 }] }),
      404,
    );
    expect((await preview(placed.id)).order_change.actions).toEqual([]);

    await t.admin.post(url, { items: [{ id: shirt!.id, quantity: 1 }] });
    const actionId = (await preview(placed.id)).order_change.actions[0].id;
    refused(
      await t.admin.post(`${url}/${actionId}`, { quantity: 5 }),
      400,
      `Cannot return more than 2 of item ${shirt!.id}`,
    );
    refused(await t.admin.post(`${url}/${actionId}`, { quantity: -2 }), 400);
    refused(await t.admin.post(`${url}/${actionId}`, { reason_id: "rr_missing" }), 400);
    refused(await t.admin.post(`${url}/ordchact_missing`, { quantity: 1 }), 404);
    refused(await t.admin.delete(`${url}/ordchact_missing`), 404);
    refused(await t.admin.post(`${M}/returns/${ret.id}`, { location_id: "sloc_missing" }), 404);
    // No location yet: the request cannot be confirmed.
    refused(
      await t.admin.post(`${M}/returns/${ret.id}/request`, {}),
      400,
      `Return ${ret.id} has no location to receive its items at`,
    );
    // A receipt of a return still being requested.
    refused(await t.admin.post(`${M}/returns/${ret.id}/receive`, {}), 400, `Return ${ret.id} has a pending request`);
    refused(
      await t.admin.post(`${M}/returns/${ret.id}/receive-items`, { items: [{ id: shirt!.id, quantity: 1 }] }),
      400,
    );
    expect((await preview(placed.id)).order_change.actions).toEqual([
      expect.objectContaining({ id: actionId, details: expect.objectContaining({ quantity: 1 }) }),
    ]);
    let current = await order(placed.id);
    expect(current.items[0].return_requested_quantity).toBe(0);
    expect(current.returns).toEqual([]);

    // Emptied, it cannot be confirmed either.
    expect((await t.admin.delete(`${url}/${actionId}`)).statusCode).toBe(200);
    await t.admin.post(`${M}/returns/${ret.id}`, { location_id: LOC });
    refused(await t.admin.post(`${M}/returns/${ret.id}/request`, {}), 400, `Return ${ret.id} has no items to request`);
    expect((await order(placed.id)).returns).toEqual([]);

    // Once confirmed, the request is no longer edited.
    await t.admin.post(url, { items: [{ id: shirt!.id, quantity: 2 }] });
    expect((await t.admin.post(`${M}/returns/${ret.id}/request`, {})).statusCode).toBe(200);
    const confirmedAction = (await changeRows(placed.id))[0]!.actions[0]!.id;
    for (const res of [
      await t.admin.post(url, { items: [{ id: shirt!.id, quantity: 1 }] }),
      await t.admin.post(`${url}/${confirmedAction}`, { quantity: 1 }),
      await t.admin.delete(`${url}/${confirmedAction}`),
      await t.admin.post(`${M}/returns/${ret.id}`, { location_id: LOC }),
      await t.admin.post(`${M}/returns/${ret.id}/request`, {}),
      await t.admin.delete(`${M}/returns/${ret.id}/request`),
    ])
      refused(res, 400, `Return ${ret.id} has no pending request`);

    // The receipt: only the return's lines, never more than is outstanding, one pending at a time.
    refused(
      await t.admin.post(`${M}/returns/${ret.id}/receive-items`, { items: [{ id: shirt!.id, quantity: 1 }] }),
      400,
      `Return ${ret.id} has no pending receipt`,
    );
    expect((await t.admin.post(`${M}/returns/${ret.id}/receive`, {})).statusCode).toBe(200);
    refused(
      await t.admin.post(`${M}/returns/${ret.id}/receive`, {}),
      400,
      `Order ${placed.id} already has a pending return receipt (return ${ret.id})`,
    );
    const receiveUrl = `${M}/returns/${ret.id}/receive-items`;
    refused(
      await t.admin.post(receiveUrl, { items: [{ id: shirt!.id, quantity: 3 }] }),
      400,
      `Cannot receive more than 2 of item ${shirt!.id} on return ${ret.id}`,
    );
    refused(
      await t.admin.post(receiveUrl, { items: [{ id: mug!.id, quantity: 1 }] }),
      400,
      `Item ${mug!.id} is not on return ${ret.id}`,
    );
    refused(await t.admin.post(receiveUrl, { items: [{ id: shirt!.id, quantity: -1 }] }), 400);
    refused(
      await t.admin.post(`${M}/returns/${ret.id}/receive/confirm`, {}),
      400,
      `Return ${ret.id} has no items to receive`,
    );
    refused(await t.admin.post(`${M}/returns/ret_missing/receive`, {}), 404);
    refused(await t.admin.post(`${M}/returns/ret_missing/receive/confirm`, {}), 404);
    refused(await t.admin.delete(`${M}/returns/ret_missing/receive`), 404);
    current = await order(placed.id);
    expect(current.items[0]).toMatchObject({ return_requested_quantity: 2, return_received_quantity: 0 });
    expect(current.returns[0]).toMatchObject({ status: "requested", items: [{ received_quantity: 0 }] });
  });

  it("counts damaged units (dismiss-items): received with the receipt, kept out of stock", async () => {
    const placed = await fulfilledOrder();
    const shirt = placed.items[0]!.id;
    const before = await stock();
    const ret = (
      await t.admin.post(`/admin/orders/${placed.id}/returns`, {
        items: [{ id: shirt, quantity: 2 }],
        location_id: LOC,
      })
    ).json().return;
    await t.admin.post(`${M}/returns/${ret.id}/receive`, {});
    await t.admin.post(`${M}/returns/${ret.id}/receive-items`, { items: [{ id: shirt, quantity: 1 }] });
    const dismissed = await t.admin.post(`${M}/returns/${ret.id}/dismiss-items`, {
      items: [{ id: shirt, quantity: 1 }],
    });
    expect(dismissed.statusCode, dismissed.body).toBe(200);
    const line = dismissed.json().order_preview.items.find((i: { id: string }) => i.id === shirt);
    expect(line.detail).toMatchObject({
      return_requested_quantity: 0,
      return_received_quantity: 1,
      return_dismissed_quantity: 1,
    });
    const damagedAction = line.actions.find((a: { action: string }) => a.action === "RECEIVE_DAMAGED_RETURN_ITEM");
    // Received and damaged units come out of the same two outstanding units.
    refused(
      await t.admin.post(`${M}/returns/${ret.id}/dismiss-items/${damagedAction.id}`, { quantity: 2 }),
      400,
      `Cannot receive more than 1 of item ${shirt} on return ${ret.id}`,
    );
    refused(
      await t.admin.post(`${M}/returns/${ret.id}/dismiss-items`, { items: [{ id: shirt, quantity: 1 }] }),
      400,
      `Item ${shirt} is already on return ${ret.id}`,
    );
    refused(await t.admin.post(`${M}/returns/${ret.id}/receive-items/${damagedAction.id}`, { quantity: 1 }), 404);
    refused(await t.admin.delete(`${M}/returns/${ret.id}/receive-items/${damagedAction.id}`), 404);

    // A failure at the restock undoes the whole receipt, the damaged unit too.
    const failed = await withFailure(t.database.db, "inventory_level", "UPDATE", "true", () =>
      t.admin.post(`${M}/returns/${ret.id}/receive/confirm`, {}),
    );
    expect(failed.statusCode).toBe(500);
    expect((await order(placed.id)).items[0]).toMatchObject({
      return_received_quantity: 0,
      return_dismissed_quantity: 0,
    });
    expect((await t.admin.get(`/admin/returns/${ret.id}`)).json().return.items).toEqual([
      expect.objectContaining({ received_quantity: 0, damaged_quantity: 0 }),
    ]);

    const received = await t.admin.post(`${M}/returns/${ret.id}/receive/confirm`, {});
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json().return).toMatchObject({
      status: "received",
      items: [{ quantity: 2, received_quantity: 2, damaged_quantity: 1 }],
    });
    expect((await order(placed.id)).items[0]).toMatchObject({
      return_requested_quantity: 2,
      return_received_quantity: 2,
      return_dismissed_quantity: 1,
      detail: { return_requested_quantity: 0, return_received_quantity: 1, return_dismissed_quantity: 1 },
    });
    expect(await stock()).toBe(before + 1);
  });

  it("a failure in a confirmation's saga undoes it: the request or receipt is pending again, nothing moved", async () => {
    const db = t.database.db;
    const placed = await fulfilledOrder();
    const shirt = placed.items[0]!.id;
    const before = await stock();
    const ret = (await t.admin.post(`${M}/returns`, { order_id: placed.id, location_id: LOC })).json().return;
    await t.admin.post(`${M}/returns/${ret.id}/request-items`, { items: [{ id: shirt, quantity: 2 }] });

    let res = await withFailure(db, "order_return_item", "INSERT", "true", () =>
      t.admin.post(`${M}/returns/${ret.id}/request`, {}),
    );
    expect(res.statusCode).toBe(500);
    expect((await preview(placed.id)).order_change).toMatchObject({ status: "pending", return_id: ret.id });
    let current = await order(placed.id);
    expect(current.returns).toEqual([]);
    expect(current.items[0].return_requested_quantity).toBe(0);
    expect((await t.admin.post(`${M}/returns/${ret.id}/request`, {})).statusCode).toBe(200);

    await t.admin.post(`${M}/returns/${ret.id}/receive`, {});
    await t.admin.post(`${M}/returns/${ret.id}/receive-items`, { items: [{ id: shirt, quantity: 2 }] });
    res = await withFailure(db, "inventory_level", "UPDATE", "true", () =>
      t.admin.post(`${M}/returns/${ret.id}/receive/confirm`, {}),
    );
    expect(res.statusCode).toBe(500);
    expect((await preview(placed.id)).order_change).toMatchObject({ status: "pending", change_type: "return_receive" });
    current = await order(placed.id);
    expect(current.returns[0]).toMatchObject({ status: "requested", items: [{ received_quantity: 0 }] });
    expect(current.items[0].return_received_quantity).toBe(0);
    expect(await stock()).toBe(before);

    const received = await t.admin.post(`${M}/returns/${ret.id}/receive/confirm`, {});
    expect(received.json().return.status).toBe("received");
    expect(await stock()).toBe(before + 2);
  });
});
