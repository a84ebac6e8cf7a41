import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { checkInvariants } from "@kasse/operations";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";
import { placeTestOrder, stockTestVariants } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";

const t = useTestApp({}, { adminId: "user_order_edits" });
/** Medusa's dialect, as its dashboard calls (money in major units). */
const M = "/medusa/admin";
let LOC: string;
let CHANNEL: string;
let items: Record<string, string>;
let cap: { variant: string; item: string };
let OPTION: string;

beforeAll(async () => {
  LOC = (await t.app.modules.stockLocation.create({ name: "Edits warehouse" })).id;
  CHANNEL = (await t.app.modules.salesChannel.create({ name: "Edits channel" })).id;
  await t.app.modules.stockLocation.updateSalesChannels(LOC, { add: [CHANNEL] });
  items = await stockTestVariants(t.app, [LOC]);
  const product = await createFixtureProduct(
    t,
    {
      title: "Cap",
      status: "published",
      variants: [{ title: "One size", size: "One", prices: [{ currency_code: "eur", amount: 500 }], stock: 10 }],
    },
    LOC,
  );
  const variant = product.variantIds[0]!;
  const links = await t.app.modules.inventory.listVariantInventoryItems([variant]);
  cap = { variant, item: links.get(variant)![0]!.inventory_item_id };
  OPTION = (
    await t.app.modules.fulfillment.createOption({ name: "Express", prices: [{ currency_code: "eur", amount: 900 }] })
  ).id;
});

/** An order of 2 shirts (10.00), a mug (5.00) and shipping (7.00), its lines reserved at the warehouse. */
const placed = () => placeTestOrder(t.app, { sales_channel_id: CHANNEL }, { reserve_at: LOC });
const order = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const reserved = async (item: string) =>
  (await t.app.modules.inventory.retrieveLevel(item, LOC)).reserved_quantity as number;
const stockLevels = async () => ({
  shirt: await reserved(items.variant_shirt!),
  mug: await reserved(items.variant_mug!),
  cap: await reserved(cap.item),
});
const eventNames = async (orderId: string): Promise<string[]> => {
  const result = (await t.database.db.execute(
    sql`select name from event where data->>'order_id' = ${orderId} or data->>'id' = ${orderId} order by created_at, id`,
  )) as unknown as Array<{ name: string }> | { rows: Array<{ name: string }> };
  return (Array.isArray(result) ? result : result.rows).map((r) => r.name);
};
/** What `kasse check` finds wrong with the order, its lines or their reservations (nothing, after an edit). */
const violations = async (orderId: string) => {
  const current = await t.app.modules.order.retrieve(orderId);
  const ids = new Set([orderId, ...current.items.flatMap((i) => [i.id, i.cart_line_item_id ?? i.id])]);
  return (await checkInvariants(t.app.modules, { leaseMs: 9_000, recoveryEveryMs: 5_000 })).flatMap((r) =>
    r.violations.filter((v) => ids.has(v.id)).map((v) => `${r.name}: ${v.id} ${v.problem}`),
  );
};
/** A 4xx `{type, message}` answer. */
function refused(res: { statusCode: number; json: () => unknown; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { type: string; message: string };
  expect(typeof body.type).toBe("string");
  expect(typeof body.message).toBe("string");
}
const begin = async (orderId: string) => {
  const res = await t.admin.post("/admin/order-edits", { order_id: orderId, description: "Customer called" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().order_change as { id: string; version: number; status: string };
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
    const updated = await t.admin.post(`${M}/order-edits/${edit.id}/items/item/${shirt.id}`, { quantity: 3 });
    expect(updated.statusCode, updated.body).toBe(200);
    const line = updated.json().order_preview.items.find((i: { id: string }) => i.id === shirt.id);
    expect(line).toMatchObject({ quantity: 3, unit_price: 10, total: 30 });
    expect(line.actions).toEqual([expect.objectContaining({ action: "ITEM_UPDATE", reference_id: shirt.id })]);
    expect(updated.json().order_preview.total).toBe(42);

    const added = await t.admin.post(`/admin/order-edits/${edit.id}/items`, {
      items: [{ variant_id: cap.variant, quantity: 2 }],
    });
    expect(added.statusCode, added.body).toBe(200);
    const preview = added.json().order_preview;
    expect(preview.items).toHaveLength(3);
    const capLine = preview.items.find((i: { variant_id: string }) => i.variant_id === cap.variant);
    expect(capLine).toMatchObject({ quantity: 2, unit_price: 500, total: 1000 });
    expect(capLine.actions[0]).toMatchObject({ action: "ITEM_ADD", amount: 1000 });
    expect(preview).toMatchObject({ total: 5200, item_total: 4500, shipping_total: 700 });
    // Nothing is paid yet (the payment is authorized, not captured): the whole new total is pending.
    expect(preview.summary).toMatchObject({ paid_total: 0, pending_difference: 5200 });
    expect(preview.order_change).toMatchObject({ id: edit.id, status: "pending" });

    // An added line's quantity, by its action; the order preview route shows the same.
    const actionId = capLine.actions[0].id;
    const more = await t.admin.post(`/admin/order-edits/${edit.id}/items/${actionId}`, { quantity: 1 });
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

    const requested = await t.admin.post(`/admin/order-edits/${edit.id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(requested.json().order_preview.order_change.status).toBe("requested");
    // A requested edit's actions are fixed.
    refused(await t.admin.post(`/admin/order-edits/${edit.id}/items/${actionId}`, { quantity: 2 }), 400);

    const confirmed = await t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().order_preview.order_change).toBeUndefined();

    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 4700, item_total: 4000 });
    expect(after.items.map((i: { variant_id: string; quantity: number }) => [i.variant_id, i.quantity])).toEqual([
      ["variant_shirt", 3],
      ["variant_mug", 1],
      [cap.variant, 1],
    ]);
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
    expect(await eventNames(o.id)).toEqual(expect.arrayContaining(["order.updated", "order-edit.confirmed"]));

    expect(await violations(o.id)).toEqual([]);

    // Confirming twice is refused and changes nothing.
    refused(await t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {}), 400);
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
      (await t.admin.post(`/admin/order-edits/${edit.id}/items/item/${mug.id}`, { quantity: 1, unit_price: 400 }))
        .statusCode,
    ).toBe(200);
    const res = await t.admin.post(`/admin/order-edits/${edit.id}/items/item/${shirt.id}`, { quantity: 1 });
    expect(res.json().order_preview.summary).toMatchObject({ paid_total: 3200, pending_difference: -1100 });
    const before = await stockLevels();
    const confirmed = await t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 2100, refundable_total: 3200 });
    expect(after.summary.pending_difference).toBe(-1100);
    expect(after.payment_collections).toHaveLength(1);
    expect(await stockLevels()).toEqual({ ...before, shirt: before.shirt - 1 });
    // The 11.00 captured above the new total is due back, not a fault.
    expect(await violations(o.id)).toEqual([]);
  });

  it("adds a shipping method, changes and drops it, then confirms one", async () => {
    const { order: o } = await placed();
    const edit = await begin(o.id);
    const add = () =>
      t.admin.post(`/admin/order-edits/${edit.id}/shipping-method`, { shipping_option_id: OPTION, custom_amount: 300 });
    let res = await add();
    expect(res.statusCode, res.body).toBe(200);
    const methods = res.json().order_preview.shipping_methods;
    expect(methods).toHaveLength(2);
    const actionId = methods[1].actions[0].id;
    expect(methods[1]).toMatchObject({ name: "Express", amount: 300, total: 300 });
    expect(res.json().order_preview.total).toBe(3500);
    // Medusa's dialect takes and answers major units: 4.00 is 400 minor units.
    res = await t.admin.post(`${M}/order-edits/${edit.id}/shipping-method/${actionId}`, { custom_amount: 4 });
    expect(res.json().order_preview).toMatchObject({ total: 36, shipping_total: 11 });
    expect((await t.admin.get(`/admin/orders/${o.id}/preview`)).json().order).toMatchObject({
      total: 3600,
      shipping_total: 1100,
    });
    res = await t.admin.delete(`/admin/order-edits/${edit.id}/shipping-method/${actionId}`);
    expect(res.json().order_preview.shipping_methods).toHaveLength(1);
    refused(
      await t.admin.post(`/admin/order-edits/${edit.id}/shipping-method`, {
        shipping_option_id: "so_nope",
        custom_amount: 1,
      }),
      400,
    );
    expect((await add()).statusCode).toBe(200);
    const confirmed = await t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = await order(o.id);
    expect(after).toMatchObject({ version: 2, total: 3500, shipping_total: 1000 });
    expect(after.shipping_methods.map((m: { name: string }) => m.name)).toEqual(["Standard", "Express"]);
  });

  it("refuses bad input with 4xx {type, message} and writes nothing", async () => {
    const { order: o } = await placed();
    const shirt = o.items[0]!;
    refused(await t.admin.post("/admin/order-edits", { order_id: "order_missing" }), 404);
    const edit = await begin(o.id);
    // A second change while one is active.
    refused(await t.admin.post("/admin/order-edits", { order_id: o.id }), 400);
    refused(
      await t.admin.post(`/admin/order-edits/${edit.id}/items`, { items: [{ variant_id: cap.variant, quantity: 0 }] }),
      400,
    );
    refused(
      await t.admin.post(`/admin/order-edits/${edit.id}/items`, { items: [{ variant_id: cap.variant, quantity: -1 }] }),
      400,
    );
    refused(
      await t.admin.post(`/admin/order-edits/${edit.id}/items`, {
        items: [{ variant_id: "variant_nope", quantity: 1 }],
      }),
      400,
    );
    refused(await t.admin.post(`/admin/order-edits/${edit.id}/items/item/ordli_nope`, { quantity: 1 }), 400);
    refused(await t.admin.post(`/admin/order-edits/${edit.id}/items/item/${shirt.id}`, { quantity: -2 }), 400);
    refused(await t.admin.post(`/admin/order-edits/${edit.id}/items/ordchact_nope`, { quantity: 1 }), 404);
    refused(await t.admin.delete(`/admin/order-edits/${edit.id}/items/ordchact_nope`), 404);
    refused(await t.admin.post(`/admin/order-edits/${edit.id}/request`, {}), 400);
    refused(await t.admin.post(`/admin/order-edits/${edit.id}/items`, { items: [], extra: 1 }), 400);
    expect(
      (await t.admin.get(`/admin/orders/${o.id}/changes?change_type=edit`)).json().order_changes[0].actions,
    ).toEqual([]);

    // Canceling leaves nothing active; an edit of a canceled order is refused.
    const canceled = await t.admin.delete(`/admin/order-edits/${edit.id}`);
    expect(canceled.json()).toEqual({ id: edit.id, object: "order-edit", deleted: true });
    expect((await t.admin.get(`/admin/orders/${o.id}/preview`)).json().order.order_change).toBeUndefined();
    refused(await t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {}), 400);
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
      (await t.admin.post(`/admin/order-edits/${edit.id}/items/item/${shirt.id}`, { quantity: 0 })).statusCode,
    ).toBe(200);
    // The shirts are fulfilled before the edit is confirmed: taking them off is refused.
    const fulfilled = await t.admin.post(`/admin/orders/${o.id}/fulfillments`, {
      items: [{ id: shirt.id, quantity: 2 }],
      location_id: LOC,
    });
    expect(fulfilled.statusCode, fulfilled.body).toBe(200);
    const stock = await stockLevels();
    refused(await t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {}), 400);
    expect(await order(o.id)).toMatchObject({ version: 1, total: 3200 });
    expect(await stockLevels()).toEqual(stock);
    // Canceled, it leaves the order free for a return change.
    expect((await t.admin.delete(`/admin/order-edits/${edit.id}`)).statusCode).toBe(200);
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
    await t.admin.post(`/admin/order-edits/${edit.id}/items/item/${shirt.id}`, { quantity: 4 });
    await t.admin.post(`/admin/order-edits/${edit.id}/items`, { items: [{ variant_id: cap.variant, quantity: 1 }] });
    const before = { order: await order(o.id), stock: await stockLevels() };
    const failures: Array<[string, "INSERT" | "UPDATE", string]> = [
      ["order_version", "INSERT", "true"], // the new version
      ["reservation_item", "INSERT", "true"], // the stock
      ["payment_collection", "INSERT", "true"], // the difference to pay
      ["order", "UPDATE", "NEW.payment_collection_ids <> OLD.payment_collection_ids"], // attached to the order
    ];
    for (const [table, op, when] of failures) {
      const res = await withFailure(t.database.db, table, op, when, () =>
        t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {}),
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
    const ok = await t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await order(o.id)).toMatchObject({ version: 2, total: 5700 });
  });

  it("lets one of two simultaneous confirmations win", async () => {
    const { order: o } = await placed();
    const edit = await begin(o.id);
    await t.admin.post(`/admin/order-edits/${edit.id}/items`, { items: [{ variant_id: cap.variant, quantity: 1 }] });
    const before = await reserved(cap.item);
    const answers = await Promise.all([
      t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {}),
      t.admin.post(`/admin/order-edits/${edit.id}/confirm`, {}),
    ]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes[0]).toBe(200);
    expect([400, 409]).toContain(codes[1]);
    expect(await order(o.id)).toMatchObject({ version: 2, total: 3700 });
    expect(await reserved(cap.item)).toBe(before + 1);
    expect((await order(o.id)).payment_collections).toHaveLength(2);
  });
});
