import Medusa from "@medusajs/js-sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { sdkAdmin, sdkFailure } from "../../testing/sdk";
import { useTestApp } from "../../testing";
import { sdkStorefront } from "../../testing/storefront";
import { TEST_ADDRESS } from "../../testing/checkout";

// After a storefront checkout through Medusa's SDK, an admin operates the order through the same
// SDK (as Medusa's dashboard does): the calls, bodies and response keys must be what it sends and reads.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK's types come from @medusajs/types, not installed: untyped JSON
type Row = any;

const t = useTestApp();
let store: Medusa;
let admin: Medusa;
let regionId: string;
let variantId: string;
let optionId: string;
let locationId: string;
let itemId: string;

beforeAll(async () => {
  const m = t.app.modules;
  const shop = await sdkStorefront(t, ["pp_system_default"]);
  ({ regionId, optionId, locationId } = shop);
  variantId = shop.variantIds[0]!;
  itemId = (await m.inventory.listVariantInventoryItems([variantId])).get(variantId)![0]!.inventory_item_id;
  store = new Medusa({ baseUrl: shop.baseUrl, publishableKey: shop.publishableKey });
  admin = await sdkAdmin(t, shop.baseUrl);
});

/** A guest checkout of `quantity` hoodies through the storefront SDK: the placed order. */
async function buy(quantity: number): Promise<Row> {
  const { cart } = await store.store.cart.create({ region_id: regionId });
  await store.store.cart.createLineItem(cart.id, { variant_id: variantId, quantity });
  await store.store.cart.update(cart.id, {
    email: "ada@example.com",
    shipping_address: TEST_ADDRESS,
    billing_address: TEST_ADDRESS,
  });
  const shipped = (await store.store.cart.addShippingMethod(cart.id, { option_id: optionId })).cart;
  await store.store.payment.initiatePaymentSession(shipped, { provider_id: "pp_system_default" });
  const result = await store.store.cart.complete(cart.id);
  if (result.type !== "order") throw new Error(`checkout failed: ${JSON.stringify(result.error)}`);
  return result.order;
}

const level = async () =>
  (await admin.admin.inventoryItem.listLevels(itemId)).inventory_levels.find((l: Row) => l.location_id === locationId);

describe("@medusajs/js-sdk: an admin operates an order placed by a storefront", () => {
  it("finds it, fulfills, ships with a label, delivers, captures, refunds, takes units back, completes and archives it", async () => {
    const placed = await buy(2);
    expect(await level()).toMatchObject({ stocked_quantity: 5, reserved_quantity: 2 });

    const { orders, count } = await admin.admin.order.list({
      q: String(placed.display_id),
      fields: "id,display_id,status,payment_status,fulfillment_status,total",
    });
    expect(count).toBe(1);
    expect(orders[0]).toMatchObject({
      id: placed.id,
      status: "pending",
      payment_status: "authorized",
      fulfillment_status: "not_fulfilled",
      total: placed.total,
    });
    const { order } = await admin.admin.order.retrieve(placed.id);
    const line = order.items[0];
    const paymentId = order.payment_collections[0].payments[0].id;

    const fulfilled = (
      await admin.admin.order.createFulfillment(placed.id, {
        items: [{ id: line.id, quantity: 2 }],
        location_id: locationId,
      })
    ).order;
    expect(fulfilled).toMatchObject({ fulfillment_status: "fulfilled" });
    expect(await level()).toMatchObject({ stocked_quantity: 3, reserved_quantity: 0 });
    const fulfillment = fulfilled.fulfillments[0];
    const label = {
      tracking_number: "JJD0001",
      tracking_url: "https://track.example/JJD0001",
      label_url: "https://labels.example/JJD0001.pdf",
    };
    const shipped = (
      await admin.admin.order.createShipment(placed.id, fulfillment.id, {
        items: [{ id: line.id, quantity: 2 }],
        labels: [label],
      })
    ).order;
    expect(shipped.fulfillment_status).toBe("shipped");
    expect(shipped.fulfillments[0].labels).toEqual([expect.objectContaining(label)]);
    expect((await admin.admin.order.markAsDelivered(placed.id, fulfillment.id)).order.fulfillment_status).toBe(
      "delivered",
    );

    const captured = (await admin.admin.payment.capture(paymentId, {})).payment;
    expect(captured.captures.map((c: Row) => c.amount)).toEqual([placed.total]);
    expect((await admin.admin.payment.refund(paymentId, { amount: 500, note: "Scratched" })).payment.refunds).toEqual([
      expect.objectContaining({ amount: 500, note: "Scratched" }),
    ]);
    expect((await sdkFailure(admin.admin.payment.refund(paymentId, { amount: placed.total }))).status).toBe(400);
    expect((await admin.admin.order.retrieve(placed.id)).order).toMatchObject({
      payment_status: "partially_refunded",
      paid_total: placed.total,
      refunded_total: 500,
    });

    // Return reasons and returns: the contract's routes through the SDK's client, Medusa's return list and cancel.
    const { return_reason: reason } = await admin.admin.returnReason.create({ value: "too_small", label: "Too small" });
    expect((await admin.admin.returnReason.list()).return_reasons.map((r: Row) => r.id)).toContain(reason.id);
    const requested = await admin.client.fetch<Row>(`/admin/orders/${placed.id}/returns`, {
      method: "POST",
      body: { items: [{ id: line.id, quantity: 2, reason_id: reason.id }], location_id: locationId },
    });
    expect(requested.return).toMatchObject({
      status: "requested",
      items: [expect.objectContaining({ quantity: 2, reason_id: reason.id })],
    });
    expect((await admin.admin.return.cancel(requested.return.id)).return.status).toBe("canceled");
    const again = await admin.client.fetch<Row>(`/admin/orders/${placed.id}/returns`, {
      method: "POST",
      body: { items: [{ id: line.id, quantity: 2 }], location_id: locationId },
    });
    const partly = await admin.client.fetch<Row>(`/admin/orders/${placed.id}/returns/${again.return.id}/receive`, {
      method: "POST",
      body: { items: [{ id: line.id, quantity: 1 }] },
    });
    expect(partly.return.status).toBe("partially_received");
    expect(await level()).toMatchObject({ stocked_quantity: 4, reserved_quantity: 0 });
    const { returns } = await admin.admin.return.list({ order_id: placed.id });
    expect(returns.map((r: Row) => r.status).sort()).toEqual(["canceled", "partially_received"]);
    expect((await admin.admin.return.retrieve(again.return.id)).return.items[0].received_quantity).toBe(1);
    // The receipt refunded the unit's worth beyond the 5.00 already refunded (docs/orders.md "Settling the difference").
    expect((await admin.admin.order.retrieve(placed.id)).order).toMatchObject({
      refunded_total: Math.max(500, line.total / line.quantity),
      summary: expect.objectContaining({ pending_difference: 0 }),
    });

    expect((await admin.admin.order.complete(placed.id, {})).order.status).toBe("completed");
    expect((await admin.admin.order.archive(placed.id)).order.status).toBe("archived");
    expect(await sdkFailure(admin.admin.order.cancel(placed.id))).toEqual({
      status: 400,
      message: `Order ${placed.id} is archived and cannot be canceled`,
    });

    const { order_changes } = await admin.admin.order.listChanges(placed.id);
    expect(order_changes.map((c: Row) => c.action)).toEqual([
      "order_placed",
      "fulfillment_created",
      "shipment_created",
      "fulfillment_delivered",
      "payment_captured",
      "payment_status_changed",
      "payment_refunded",
      "payment_status_changed",
      "return_requested",
      "return_canceled",
      "return_requested",
      "return_received",
      "return_refunded",
      "order_completed",
      "order_archived",
    ]);
    // The storefront sees its (guest) order by id with the same state.
    expect((await store.store.order.retrieve(placed.id)).order).toMatchObject({
      status: "archived",
      fulfillment_status: "delivered",
      payment_status: "partially_refunded",
    });
  });

  it("cancels an order that was not fulfilled: stock released, authorization voided", async () => {
    const before = await level();
    const placed = await buy(1);
    expect((await level()).reserved_quantity).toBe(before.reserved_quantity + 1);
    const { order } = await admin.admin.order.cancel(placed.id);
    expect(order).toMatchObject({
      id: placed.id,
      status: "canceled",
      payment_status: "canceled",
      fulfillment_status: "canceled",
    });
    expect(await level()).toMatchObject({
      stocked_quantity: before.stocked_quantity,
      reserved_quantity: before.reserved_quantity,
    });
    expect((await admin.admin.order.list({ status: ["canceled"] })).orders.map((o: Row) => o.id)).toContain(placed.id);
    expect(
      await sdkFailure(
        admin.admin.order.createFulfillment(placed.id, {
          items: [{ id: order.items[0].id, quantity: 1 }],
          location_id: locationId,
        }),
      ),
    ).toEqual({ status: 400, message: `Order ${placed.id} is canceled and cannot be fulfilled` });
  });
  it("edits an order as the dashboard does: begin, one more unit, request and confirm (the last two send no body)", async () => {
    const order = await buy(1);
    const line = order.items[0];
    const paid = (await admin.admin.order.retrieve(order.id, { fields: "*payment_collections.payments" })).order;
    await admin.admin.payment.capture(paid.payment_collections[0].payments[0].id, {});
    // Medusa's edit routes name the order (its active edit), as the dashboard calls them.
    await admin.admin.orderEdit.initiateRequest({ order_id: order.id });
    const raised = await admin.admin.orderEdit.updateOriginalItem(order.id, line.id, { quantity: 2 });
    expect(raised.order_preview.items[0].quantity).toBe(2);
    await admin.admin.orderEdit.request(order.id);
    const confirmed = await admin.admin.orderEdit.confirm(order.id);
    expect(confirmed.order_preview.items[0].quantity).toBe(2);
    const after = (await admin.admin.order.retrieve(order.id, { fields: "+version,*items" })).order;
    expect(after.version).toBe(2);
    expect(after.items[0].quantity).toBe(2);
    // Owed: the added unit (the rest was captured).
    expect(after.summary.pending_difference).toBe(line.unit_price);
    // The added unit is reserved as the line's other one is: both ship in one fulfillment.
    const before = await level();
    const fulfilled = await admin.admin.order.createFulfillment(order.id, {
      location_id: locationId,
      items: [{ id: line.id, quantity: 2 }],
    });
    expect(fulfilled.order.items[0].detail.fulfilled_quantity).toBe(2);
    const now = await level();
    expect([now.stocked_quantity, now.reserved_quantity]).toEqual([
      before.stocked_quantity - 2,
      before.reserved_quantity - 2,
    ]);
  });
  it("shows a placed order's lines as allocated, and a manual allocation ships with them", async () => {
    const stocked = (await level()).stocked_quantity;
    await admin.admin.inventoryItem.updateLevel(itemId, locationId, { stocked_quantity: stocked + 10 });
    const order = await buy(2);
    const line = order.items[0];
    // The dashboard asks by order line id; checkout reserved under the cart line's.
    const { reservations } = await admin.admin.reservation.list({ line_item_id: [line.id] });
    expect(reservations.map((r: Row) => [r.line_item_id, r.quantity, r.location_id])).toEqual([
      [line.id, 2, locationId],
    ]);
    // One unit more (after an edit, say) allocated by hand: it is fulfilled with the others.
    await admin.admin.orderEdit.initiateRequest({ order_id: order.id });
    await admin.admin.orderEdit.updateOriginalItem(order.id, line.id, { quantity: 3 });
    await admin.admin.orderEdit.request(order.id);
    await admin.admin.orderEdit.confirm(order.id);
    const mine = (await admin.admin.reservation.list({ line_item_id: [line.id] })).reservations;
    await admin.admin.reservation.delete(mine.find((r: Row) => r.quantity === 1).id);
    const manual = await admin.admin.reservation.create({
      line_item_id: line.id,
      inventory_item_id: itemId,
      location_id: locationId,
      quantity: 1,
    });
    expect(manual.reservation.line_item_id).toBe(line.id);
    const before = await level();
    const fulfilled = await admin.admin.order.createFulfillment(order.id, {
      location_id: locationId,
      items: [{ id: line.id, quantity: 3 }],
    });
    expect(fulfilled.order.items[0].detail.fulfilled_quantity).toBe(3);
    const after = await level();
    expect(after.reserved_quantity).toBe(before.reserved_quantity - 3);
    expect((await admin.admin.reservation.list({ line_item_id: [line.id] })).reservations).toEqual([]);
  });
});
