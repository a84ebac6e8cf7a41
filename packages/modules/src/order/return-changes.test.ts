import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { useTestDatabase } from "@kasse/db/testing";
import { createOrderService } from "./service";
import { createReturnChangeService } from "./return-changes";
import { orderReturnChange } from "./schema";
import { orderSnapshot } from "./testing";

const database = useTestDatabase();
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const orders = createOrderService();
const changes = createReturnChangeService();
const admin = { actor_type: "user", actor_id: "user_1" };

/** An order with its first line's units fulfilled. */
async function fulfilledOrder() {
  const order = await orders.create(orderSnapshot(), admin);
  const line = order.items[0]!;
  await orders.moveLineQuantities(order.id, {
    stage: "fulfilled_quantity",
    lines: [{ id: line.id, quantity: line.quantity }],
    action: "fulfillment_created",
  });
  return { order, line };
}

describe("return changes", () => {
  it("a confirmation undone is pending again, or deleted when the order began another change meanwhile", async () => {
    const { order, line } = await fulfilledOrder();
    const rows = () => database.db.select().from(orderReturnChange).where(eq(orderReturnChange.order_id, order.id));
    const first = await changes.beginRequest({ order_id: order.id, location_id: "sloc_1" }, admin);
    await changes.addRequestItems(first.id, { items: [{ id: line.id, quantity: 1 }] });
    const confirmed = await changes.confirmRequest(first.id, admin);
    expect(confirmed.return).toEqual({
      location_id: "sloc_1",
      items: [{ id: line.id, quantity: 1, reason_id: null }],
      metadata: null,
      // No return shipping method was added.
      shipping: null,
    });
    await changes.reopen(confirmed.change_id);
    expect((await changes.pendingForOrder(order.id))?.return_id).toBe(first.id);

    await changes.confirmRequest(first.id, admin);
    const second = await changes.beginRequest({ order_id: order.id }, admin);
    await changes.reopen(confirmed.change_id);
    expect((await rows()).map((r) => [r.return_id, r.status])).toEqual([[second.id, "pending"]]);
  });
});
