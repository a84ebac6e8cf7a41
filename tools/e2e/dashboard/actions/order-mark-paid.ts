import assert from "node:assert/strict";
import { placeOrder } from "../seed";
import { click, open, toast } from "../ui";
import { eventually, type DashboardAction } from "./action";
import { confirmPrompt } from "./orders";

interface Order {
  id: string;
  payment_status: string;
  items: Array<{ id: string; quantity: number; unit_price: number }>;
  payment_collections: Array<{
    id: string;
    amount: number;
    status: string;
    payments: Array<{ id: string; provider_id: string; amount: number }>;
  }>;
  paid_total: number;
  summary: { pending_difference: number };
}

/**
 * An order edit's difference marked paid from the order page: on an order whose payment is
 * captured, an edit adding one unit is confirmed through Kasse's API (its confirmation asks for the
 * difference with a new, unpaid payment collection); the order page then offers Mark as paid, which
 * is clicked and confirmed. Checked through Kasse's API at the root: the collection is paid by a
 * `pp_system_default` payment of its whole amount, the order is `captured` and owes nothing.
 */
export const markEditDifferencePaid: DashboardAction = {
  name: "order-edit-mark-paid",
  async run({ page, kasse, api, seeded, shot }) {
    const orderId = await placeOrder(kasse, seeded.regionId, seeded.variantId);
    const read = async () => (await api<{ order: Order }>("GET", `/admin/orders/${orderId}`)).order;
    const placed = await read();
    await api("POST", `/admin/payments/${placed.payment_collections[0]!.payments[0]!.id}/capture`, {});
    const line = placed.items[0]!;
    await api("POST", "/admin/order-edits", { order_id: orderId });
    await api("POST", `/admin/order-edits/${orderId}/items/item/${line.id}`, { quantity: line.quantity + 1 });
    await api("POST", `/admin/order-edits/${orderId}/confirm`, {});
    const edited = await read();
    const unpaid = edited.payment_collections.find((c) => c.status === "not_paid")!;
    assert.ok(unpaid, "the edit's confirmation asks for its difference");
    assert.equal(edited.summary.pending_difference, unpaid.amount);

    await open(page, kasse.origin, `/orders/${orderId}`);
    await shot("unpaid");
    const marked = page.waitForResponse(
      (r) =>
        r.url().includes(`/admin/payment-collections/${unpaid.id}/mark-as-paid`) && r.request().method() === "POST",
    );
    await click(page, "Mark as paid");
    await confirmPrompt(page);
    assert.equal((await marked).status(), 200);
    await toast(page);
    await eventually(async () => {
      const order = await read();
      const paid = order.payment_collections.find((c) => c.id === unpaid.id)!;
      assert.equal(paid.status, "completed");
      assert.deepEqual(
        paid.payments.map((p) => [p.provider_id, p.amount]),
        [["pp_system_default", unpaid.amount]],
      );
      assert.equal(order.payment_status, "captured");
      assert.equal(order.summary.pending_difference, 0);
    });
    await open(page, kasse.origin, `/orders/${orderId}`);
    await shot("paid");
  },
};
