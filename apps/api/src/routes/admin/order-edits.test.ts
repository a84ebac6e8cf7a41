import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder } from "../../testing/orders";
import {
  expectRefused as refused,
  orderEventNames,
  orderViolations,
  useChangeFixtures,
} from "../../testing/order-changes";
import { withFailure } from "../../testing/inject-failure";

const t = useTestApp({}, { adminId: "user_order_edits" });
/** Medusa's dialect, as its dashboard calls (money in major units). */
const M = "/medusa/admin";
const f = useChangeFixtures(t, "Edits warehouse");

/** An order of 2 shirts (10.00), a mug (5.00) and shipping (7.00), its lines reserved at the warehouse. */
const placed = () => placeTestOrder(t.app, { sales_channel_id: f.CHANNEL }, { reserve_at: f.LOC });
const order = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const reserved = async (item: string) =>
  (await t.app.modules.inventory.retrieveLevel(item, f.LOC)).reserved_quantity as number;
const stockLevels = async () => ({
  shirt: await reserved(f.items.variant_shirt!),
  mug: await reserved(f.items.variant_mug!),
  cap: await reserved(f.cap.item),
});
const begin = async (orderId: string) => {
  const res = await t.admin.post("/admin/order-edits", { order_id: orderId, description: "Customer called" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().order_change as { id: string; order_id: string; version: number; status: string };
};

describe("order edits (Medusa's order change, edit kind)", () => {
  it("adds a line, changes a line's quantity, previews, requests and confirms the next version", async () => {
    const { order: o, collection_id } = await placed();
    const shirt = o.items.find((i) => i.variant_id === "variant_shirt")!;
    const mug = o.items.find((i) => i.variant_id === "variant_mug")!;
    const before = await stockLevels();
    expect(before).toMatchObject({ shirt: 2, mug: 1, cap: 0 });

    const edit = await begin(o.id);
    expect(edit).toMatchObject({ status: "pending", version: 2, change_type: "edit", order_id: o.id });

    // Medusa's dialect: the shirt's price in major units, its quantity up by one.
    const updated = await t.admin.post(`${M}/order-edits/${edit.order_id}/items/item/${shirt.id}`, { quantity: 3 });
    expect(updated.statusCode, updated.body).toBe(200);
    const line = updated.json().order_preview.items.find((i: { id: string }) => i.id === shirt.id);
    expect(line).toMatchObject({ quantity: 3, unit_price: 10, total: 30 });
    expect(line.actions).toEqual([expect.objectContaining({ action: "ITEM_UPDATE", reference_id: shirt.id })]);
    expect(updated.json().order_preview.total).toBe(42);
    // The edit form's note, answered with the change's actions in major units.
    const noted = await t.admin.post(`${M}/order-changes/${edit.id}`, { internal_note: "One more shirt" });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(noted.json().order_change).toMatchObject({ internal_note: "One more shirt" });
    expect(noted.json().order_change.actions[0].details).toMatchObject({ quantity: 3, unit_price: 10 });

    const added = await t.admin.post(`/admin/order-edits/${edit.order_id}/items`, {
      items: [{ variant_id: f.cap.variant, quantity: 2 }],
    });
    expect(added.statusCode, added.body).toBe(200);
    const preview = added.json().order_preview;
    expect(preview.items).toHaveLength(3);
    const capLine = preview.items.find((i: { variant_id: string }) => i.variant_id === f.cap.variant);
    expect(capLine).toMatchObject({ quantity: 2, unit_price: 500, total: 1000 });
    expect(capLine.actions[0]).toMatchObject({ action: "ITEM_ADD", amount: 1000 });
    expect(preview).toMatchObject({ total: 5200, item_total: 4500, shipping_total: 700 });
    // Nothing is paid yet (the payment is authorized, not captured): the whole new total is pending.
    expect(preview.summary).toMatchObject({ paid_total: 0, pending_difference: 5200 });
    expect(preview.order_change).toMatchObject({ id: edit.id, status: "pending" });

    // An added line's quantity, by its action; the order preview route shows the same.
    const actionId = capLine.actions[0].id;
    const more = await t.admin.post(`/admin/order-edits/${edit.order_id}/items/${actionId}`, { quantity: 1 });
    expect(more.statusCode, more.body).toBe(200);
    const shown = (await t.admin.get(`/admin/orders/${o.id}/preview`)).json().order;
    expect(shown).toMatchObject({ total: 4700, order_change: { id: edit.id } });
    expect(more.json().order_preview.total).toBe(4700);

    // Nothing moved on the order, in stock or in payments before the confirmation.
    expect(await order(o.id)).toMatchObject({ version: 1, total: 3200 });
    expect(await stockLevels()).toEqual(before);

    const changes = await t.admin.get(`/admin/orders/${o.id}/changes?change_type=edit`);
    expect(changes.statusCode, changes.body).toBe(200);
    expect(changes.json()).toMatchObject({ count: 1, order_changes: [{ id: edit.id, change_type: "edit" }] });
    expect(changes.json().order_changes[0].actions.map((a: { action: string }) => a.action)).toEqual([
      "ITEM_UPDATE",
      "ITEM_ADD",
    ]);
    expect((await t.admin.get(`/admin/orders/${o.id}/changes?status=confirmed`)).json().count).toBe(0);
    // Medusa's dialect answers the actions' amounts in major units.
    const inMajor = await t.admin.get(`${M}/orders/${o.id}/changes?change_type=edit`);
    expect(inMajor.statusCode, inMajor.body).toBe(200);
    expect(inMajor.json().order_changes[0].actions[0].details).toMatchObject({ quantity: 3, unit_price: 10 });

    const requested = await t.admin.post(`/admin/order-edits/${edit.order_id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(requested.json().order_preview.order_change.status).toBe("requested");
    // A requested edit's actions are fixed.
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/items/${actionId}`, { quantity: 2 }), 400);

    const confirmed = await t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().order_preview.order_change).toBeUndefined();

    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 4700, item_total: 4000 });
    expect(after.items.map((i: { variant_id: string; quantity: number }) => [i.variant_id, i.quantity])).toEqual([
      ["variant_shirt", 3],
      ["variant_mug", 1],
      [f.cap.variant, 1],
    ]);
    // The shopper's order page reads the order as it now is.
    const storeOrder = (await t.store.get(`/store/orders/${o.id}`)).json().order;
    expect(storeOrder).toMatchObject({ total: 4700 });
    expect(storeOrder.items.map((i: { quantity: number }) => i.quantity)).toEqual([3, 1, 1]);
    // Stock: only the differences (one more shirt, one cap); the mug is not touched.
    expect(await stockLevels()).toEqual({ shirt: 3, mug: 1, cap: 1 });
    expect(mug.quantity).toBe(1);
    // The authorized collection still asks for 32.00: a new one asks for the 15.00 more.
    const collections = after.payment_collections.map((c: { id: string; amount: number }) => [
      c.id === collection_id,
      c.amount,
    ]);
    expect(collections).toEqual([
      [true, 3200],
      [false, 1500],
    ]);
    expect(after.summary.pending_difference).toBe(4700);
    // The version it replaced is kept and answered.
    const v1 = (await t.admin.get(`/admin/orders/${o.id}?version=1`)).json().order;
    expect(v1).toMatchObject({ total: 3200 });
    expect(v1.items.map((i: { quantity: number }) => i.quantity)).toEqual([2, 1]);
    refused(await t.admin.get(`/admin/orders/${o.id}?version=3`), 404);
    // Its lines as order items (what the dashboard reads for an edit's history), at either version.
    const itemsAt = async (query: string) => {
      const res = await t.admin.get(`${M}/orders/${o.id}/line-items?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().order_items as Array<{
        item_id: string;
        version: number;
        quantity: number;
        item: { unit_price: number };
      }>;
    };
    expect(await itemsAt(`item_id=${shirt.id}&version=1&fields=%2Bquantity`)).toEqual([
      expect.objectContaining({
        item_id: shirt.id,
        version: 1,
        quantity: 2,
        item: expect.objectContaining({ unit_price: 10 }),
      }),
    ]);
    expect((await itemsAt(`item_id=${shirt.id}`)).map((i) => [i.version, i.quantity])).toEqual([[2, 3]]);
    expect(await itemsAt("version=2")).toHaveLength(3);
    refused(await t.admin.get(`/admin/orders/${o.id}/line-items?version=3`), 404);
    refused(await t.admin.get(`/admin/orders/${o.id}/line-items?version=zero`), 400);
    refused(await t.admin.get(`/admin/orders/order_missing/line-items`), 404);

    const list = (await t.admin.get(`/admin/orders/${o.id}/changes?status=confirmed`)).json();
    expect(list.order_changes).toEqual([expect.objectContaining({ id: edit.id, status: "confirmed", version: 2 })]);
    // The log still answers as before, with the confirmation in it.
    const log = (await t.admin.get(`/admin/orders/${o.id}/changes?limit=100`)).json().order_changes;
    expect(log.map((c: { action: string }) => c.action)).toContain("order_edit_confirmed");
    expect(await orderEventNames(t, o.id)).toEqual(expect.arrayContaining(["order.updated", "order-edit.confirmed"]));

    expect(await orderViolations(t, o.id)).toEqual([]);

    // Confirming twice is refused and changes nothing.
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {}), 400);
    expect(await order(o.id)).toMatchObject({ version: 2, total: 4700 });
  });

  it("takes units off a paid order: releases only them, and shows the amount due back", async () => {
    const { order: o, payment_id } = await placed();
    const capture = await t.admin.post(`/admin/payments/${payment_id}/capture`, {});
    expect(capture.statusCode, capture.body).toBe(200);
    const shirt = o.items.find((i) => i.variant_id === "variant_shirt")!;
    const edit = await begin(o.id);
    // Price change only on the mug: no stock moves for it.
    const mug = o.items.find((i) => i.variant_id === "variant_mug")!;
    expect(
      (await t.admin.post(`/admin/order-edits/${edit.order_id}/items/item/${mug.id}`, { quantity: 1, unit_price: 400 }))
        .statusCode,
    ).toBe(200);
    const res = await t.admin.post(`/admin/order-edits/${edit.order_id}/items/item/${shirt.id}`, { quantity: 1 });
    expect(res.json().order_preview.summary).toMatchObject({ paid_total: 3200, pending_difference: -1100 });
    const before = await stockLevels();
    const confirmed = await t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 2100, refundable_total: 3200 });
    expect(after.summary.pending_difference).toBe(-1100);
    expect(after.payment_collections).toHaveLength(1);
    expect(await stockLevels()).toEqual({ ...before, shirt: before.shirt - 1 });
    // The 11.00 captured above the new total is due back, not a fault.
    expect(await orderViolations(t, o.id)).toEqual([]);
  });

  it("adds a shipping method, changes and drops it, then confirms one", async () => {
    const { order: o } = await placed();
    const edit = await begin(o.id);
    const add = () =>
      t.admin.post(`/admin/order-edits/${edit.order_id}/shipping-method`, {
        shipping_option_id: f.OPTION,
        custom_amount: 300,
      });
    let res = await add();
    expect(res.statusCode, res.body).toBe(200);
    const methods = res.json().order_preview.shipping_methods;
    expect(methods).toHaveLength(2);
    const actionId = methods[1].actions[0].id;
    expect(methods[1]).toMatchObject({ name: "Express", amount: 300, total: 300 });
    expect(res.json().order_preview.total).toBe(3500);
    // Medusa's dialect takes and answers major units: 4.00 is 400 minor units.
    res = await t.admin.post(`${M}/order-edits/${edit.order_id}/shipping-method/${actionId}`, { custom_amount: 4 });
    expect(res.json().order_preview).toMatchObject({ total: 36, shipping_total: 11 });
    expect((await t.admin.get(`/admin/orders/${o.id}/preview`)).json().order).toMatchObject({
      total: 3600,
      shipping_total: 1100,
    });
    res = await t.admin.delete(`/admin/order-edits/${edit.order_id}/shipping-method/${actionId}`);
    expect(res.json().order_preview.shipping_methods).toHaveLength(1);
    refused(
      await t.admin.post(`/admin/order-edits/${edit.order_id}/shipping-method`, {
        shipping_option_id: "so_nope",
        custom_amount: 1,
      }),
      400,
    );
    expect((await add()).statusCode).toBe(200);
    const confirmed = await t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 3500, shipping_total: 1000 });
    expect(after.shipping_methods.map((m: { name: string }) => m.name)).toEqual(["Standard", "Express"]);
  });

  it("refuses bad input with 4xx {type, message} and writes nothing", async () => {
    const { order: o } = await placed();
    const shirt = o.items[0]!;
    refused(await t.admin.post("/admin/order-edits", { order_id: "order_missing" }), 404);
    // The routes name the order (as Medusa's): an unknown one is 404, one with no active edit 400.
    refused(await t.admin.post(`/admin/order-edits/order_missing/items/item/${shirt.id}`, { quantity: 1 }), 404);
    refused(await t.admin.post(`/admin/order-edits/${o.id}/items/item/${shirt.id}`, { quantity: 1 }), 400);
    refused(await t.admin.post(`/admin/order-edits/${o.id}/confirm`, {}), 400);
    const edit = await begin(o.id);
    // A second change while one is active.
    refused(await t.admin.post("/admin/order-edits", { order_id: o.id }), 400);
    refused(
      await t.admin.post(`/admin/order-edits/${edit.order_id}/items`, {
        items: [{ variant_id: f.cap.variant, quantity: 0 }],
      }),
      400,
    );
    refused(
      await t.admin.post(`/admin/order-edits/${edit.order_id}/items`, {
        items: [{ variant_id: f.cap.variant, quantity: -1 }],
      }),
      400,
    );
    refused(
      await t.admin.post(`/admin/order-edits/${edit.order_id}/items`, {
        items: [{ variant_id: "variant_nope", quantity: 1 }],
      }),
      400,
    );
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/items/item/ordli_nope`, { quantity: 1 }), 400);
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/items/item/${shirt.id}`, { quantity: -2 }), 400);
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/items/ordchact_nope`, { quantity: 1 }), 404);
    refused(await t.admin.delete(`/admin/order-edits/${edit.order_id}/items/ordchact_nope`), 404);
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/request`, {}), 400);
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/items`, { items: [], extra: 1 }), 400);
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/request`, { no_notification: "yes" }), 400);
    expect(
      (await t.admin.get(`/admin/orders/${o.id}/changes?change_type=edit`)).json().order_changes[0].actions,
    ).toEqual([]);

    // The edit form's note (Medusa's POST /admin/order-changes/{id}); promotions always carry over.
    const noted = await t.admin.post(`${M}/order-changes/${edit.id}`, { internal_note: "Customer called" });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(noted.json().order_change).toMatchObject({ id: edit.id, internal_note: "Customer called" });
    refused(await t.admin.post(`/admin/order-changes/${edit.id}`, { carry_over_promotions: false }), 400);
    refused(await t.admin.post(`/admin/order-changes/${edit.id}`, { internal_note: 5 }), 400);
    refused(await t.admin.post(`/admin/order-changes/ordch_nope`, { internal_note: "x" }), 404);
    expect((await t.admin.post(`/admin/order-changes/${edit.id}`, { carry_over_promotions: true })).statusCode).toBe(
      200,
    );

    // Canceling leaves nothing active; an edit of a canceled order is refused.
    const canceled = await t.admin.delete(`/admin/order-edits/${edit.order_id}`);
    expect(canceled.json()).toEqual({ id: edit.order_id, object: "order-edit", deleted: true });
    expect((await t.admin.get(`/admin/orders/${o.id}/preview`)).json().order.order_change).toBeUndefined();
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {}), 400);
    refused(await t.admin.post(`/admin/order-changes/${edit.id}`, { internal_note: "late" }), 400);
    expect((await t.admin.post(`/admin/orders/${o.id}/cancel`, {})).statusCode).toBe(200);
    refused(await t.admin.post("/admin/order-edits", { order_id: o.id }), 400);
    expect(await order(o.id)).toMatchObject({ version: 1, total: 3200 });
  });

  it("keeps one change at a time with returns, and the units fulfilled meanwhile", async () => {
    const { order: o } = await placed();
    const shirt = o.items.find((i) => i.variant_id === "variant_shirt")!;
    const edit = await begin(o.id);
    // A return change cannot start while the edit is active.
    refused(await t.admin.post(`${M}/returns`, { order_id: o.id }), 400);
    expect(
      (await t.admin.post(`/admin/order-edits/${edit.order_id}/items/item/${shirt.id}`, { quantity: 0 })).statusCode,
    ).toBe(200);
    // The shirts are fulfilled before the edit is confirmed: taking them off is refused.
    const fulfilled = await t.admin.post(`/admin/orders/${o.id}/fulfillments`, {
      items: [{ id: shirt.id, quantity: 2 }],
      location_id: f.LOC,
    });
    expect(fulfilled.statusCode, fulfilled.body).toBe(200);
    const stock = await stockLevels();
    refused(await t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {}), 400);
    expect(await order(o.id)).toMatchObject({ version: 1, total: 3200 });
    expect(await stockLevels()).toEqual(stock);
    // Canceled, it leaves the order free for a return change.
    expect((await t.admin.delete(`/admin/order-edits/${edit.order_id}`)).statusCode).toBe(200);
    const ret = await t.admin.post(`${M}/returns`, { order_id: o.id });
    expect(ret.statusCode, ret.body).toBe(200);
    refused(await t.admin.post("/admin/order-edits", { order_id: o.id }), 400);
    // Both kinds are Medusa's order changes: the edit and the return request are listed together.
    const listed = (
      await t.admin.get(`/admin/orders/${o.id}/changes?change_type[0]=edit&change_type[1]=return_request`)
    ).json();
    expect(listed.count).toBe(2);
    expect(listed.order_changes.map((c: { change_type: string; status: string }) => [c.change_type, c.status])).toEqual(
      [
        ["edit", "canceled"],
        ["return_request", "pending"],
      ],
    );
    expect(listed.order_changes[1]).toMatchObject({ return_id: ret.json().return.id, actions: [] });
    const pending = (await t.admin.get(`/admin/orders/${o.id}/changes?status=pending`)).json();
    expect(pending.order_changes.map((c: { change_type: string }) => c.change_type)).toEqual(["return_request"]);
    const page = (await t.admin.get(`/admin/orders/${o.id}/changes?change_type=return&offset=0&limit=1`)).json();
    expect(page).toMatchObject({ count: 1, order_changes: [{ change_type: "return_request" }] });
  });

  it("leaves order, stock and payments as they were when a step of the confirmation fails", async () => {
    const { order: o } = await placed();
    const shirt = o.items.find((i) => i.variant_id === "variant_shirt")!;
    const edit = await begin(o.id);
    await t.admin.post(`/admin/order-edits/${edit.order_id}/items/item/${shirt.id}`, { quantity: 4 });
    await t.admin.post(`/admin/order-edits/${edit.order_id}/items`, {
      items: [{ variant_id: f.cap.variant, quantity: 1 }],
    });
    const before = { order: await order(o.id), stock: await stockLevels() };
    const failures: Array<[string, "INSERT" | "UPDATE", string]> = [
      ["order_version", "INSERT", "true"], // the new version
      ["reservation_item", "INSERT", "true"], // the stock
      ["payment_collection", "INSERT", "true"], // the difference to pay
      ["order", "UPDATE", "NEW.payment_collection_ids <> OLD.payment_collection_ids"], // attached to the order
    ];
    for (const [table, op, when] of failures) {
      const res = await withFailure(t.database.db, table, op, when, () =>
        t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {}),
      );
      expect(res.statusCode, `${table}: ${res.body}`).toBe(500);
      const now = await order(o.id);
      expect(now, table).toMatchObject({
        version: 1,
        total: 3200,
        payment_status: before.order.payment_status,
      });
      expect(
        now.items.map((i: { quantity: number }) => i.quantity),
        table,
      ).toEqual([2, 1]);
      expect(now.payment_collections, table).toHaveLength(1);
      expect(await stockLevels(), table).toEqual(before.stock);
      const [change] = (await t.admin.get(`/admin/orders/${o.id}/changes?change_type=edit`)).json().order_changes;
      expect(change.status, table).toBe("pending");
    }
    const ok = await t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await order(o.id)).toMatchObject({ version: 2, total: 5700 });
  });

  it("lets one of two simultaneous confirmations win", async () => {
    const { order: o } = await placed();
    const edit = await begin(o.id);
    await t.admin.post(`/admin/order-edits/${edit.order_id}/items`, {
      items: [{ variant_id: f.cap.variant, quantity: 1 }],
    });
    const before = await reserved(f.cap.item);
    const answers = await Promise.all([
      t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {}),
      t.admin.post(`/admin/order-edits/${edit.order_id}/confirm`, {}),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([400, 409]).toContain(codes[1]);
    expect(await order(o.id)).toMatchObject({ version: 2, total: 3700 });
    expect(await reserved(f.cap.item)).toBe(before + 1);
    expect((await order(o.id)).payment_collections).toHaveLength(2);
  });
});
