import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { placeOrder } from "../seed";
import { click, clickMenuItem, fill, landedOn, open, toast } from "../ui";
import { eventually, type DashboardAction } from "./action";

interface Payment {
  id: string;
  amount: number;
  captured_at: string | null;
  canceled_at: string | null;
  captures: Array<{ amount: number }>;
  refunds: Array<{ amount: number; note?: string | null }>;
}
interface Fulfillment {
  id: string;
  location_id: string;
  shipped_at: string | null;
  delivered_at: string | null;
  items: Array<{ line_item_id: string; quantity: number }>;
  labels?: Array<{ tracking_number: string }>;
}
interface Order {
  id: string;
  status: string;
  total: number;
  currency_code: string;
  items: Array<{ id: string; quantity: number }>;
  payment_collections: Array<{ payments: Payment[] }>;
  fulfillments: Fulfillment[];
}

const orderPath = (id: string) => `/admin/orders/${id}`;

/** The dashboard's confirmation prompt: its confirm button, whatever the prompt calls it. */
export async function confirmPrompt(page: Page): Promise<void> {
  await page
    .getByRole("alertdialog")
    .getByRole("button", { name: /^(Confirm|Continue|Yes.*)$/ })
    .click();
}

/**
 * On a fresh order: captures its payment from the payment section, fulfils both items from the
 * fulfillment form, marks the fulfillment shipped with a tracking number and then delivered, and
 * refunds $5.00 of the payment. Each step is checked on the order as Kasse's API answers it (minor units).
 */
export const fulfilShipDeliverCaptureRefund: DashboardAction = {
  name: "order-capture-fulfil-ship-deliver-refund",
  async run({ page, kasse, api, seeded, shot }) {
    const orderId = await placeOrder(kasse, seeded.regionId, seeded.variantId);
    const before = (await api<{ order: Order }>("GET", orderPath(orderId))).order;
    const payment = before.payment_collections[0]!.payments[0]!;
    assert.equal(payment.captured_at, null);

    await open(page, kasse.origin, `/orders/${orderId}`);
    await click(page, /^Capture( payment)?$/);
    await confirmPrompt(page);
    await toast(page);
    await eventually(async () => {
      const captured = (await api<{ order: Order }>("GET", orderPath(orderId))).order.payment_collections[0]!
        .payments[0]!;
      assert.notEqual(captured.captured_at, null);
      assert.equal(
        captured.captures.reduce((sum, c) => sum + c.amount, 0),
        before.total,
      );
    });
    await shot("captured");

    await open(page, kasse.origin, `/orders/${orderId}/fulfillment?requires_shipping=true`);
    await click(page, "Create Fulfillment");
    await toast(page);
    await landedOn(page, new RegExp(`^/app/orders/${orderId}$`));
    const fulfilled = await eventually(async () => {
      const order = (await api<{ order: Order }>("GET", orderPath(orderId))).order;
      assert.equal(order.fulfillments.length, 1);
      assert.equal(order.fulfillments[0]!.location_id, seeded.locationId);
      assert.deepEqual(
        order.fulfillments[0]!.items.map((i) => i.quantity),
        [2],
      );
      return order.fulfillments[0]!;
    });
    await shot("fulfilled");

    await click(page, "Mark as shipped");
    await click(page, "Add tracking number");
    await fill(page, "labels.0.tracking_number", "1Z999AA10123456784");
    await click(page, "Save");
    await toast(page);
    await landedOn(page, new RegExp(`^/app/orders/${orderId}$`));
    await eventually(async () => {
      const shipped = (await api<{ order: Order }>("GET", orderPath(orderId))).order.fulfillments[0]!;
      assert.notEqual(shipped.shipped_at, null);
    });
    await shot("shipped");

    await click(page, "Mark as delivered");
    await confirmPrompt(page);
    await toast(page);
    await eventually(async () => {
      const delivered = (await api<{ order: Order }>("GET", orderPath(orderId))).order.fulfillments.find(
        (f) => f.id === fulfilled.id,
      )!;
      assert.notEqual(delivered.delivered_at, null);
    });
    await shot("delivered");

    await open(page, kasse.origin, `/orders/${orderId}/refund?paymentId=${payment.id}`);
    await page.getByLabel("Amount").fill("5.00");
    await fill(page, "note", "Scratched box");
    await click(page, "Save");
    await toast(page);
    await eventually(async () => {
      const refunded = (await api<{ order: Order }>("GET", orderPath(orderId))).order.payment_collections[0]!
        .payments[0]!;
      assert.deepEqual(
        refunded.refunds.map((r) => r.amount),
        [500],
      );
    });
    await open(page, kasse.origin, `/orders/${orderId}`);
    await shot("refunded");
  },
};

/** Cancels a fresh order from its detail page's menu: Kasse's order is canceled and its payment with it. */
export const cancelOrder: DashboardAction = {
  name: "order-cancel",
  async run({ page, kasse, api, seeded, shot }) {
    const orderId = await placeOrder(kasse, seeded.regionId, seeded.variantId);
    await open(page, kasse.origin, `/orders/${orderId}`);
    // The order's own menu, beside its display id at the top.
    await page
      .getByRole("heading", { name: /^#\d+$/ })
      .locator("xpath=ancestor::div[.//button[@aria-haspopup='menu']][1]")
      .locator("button[aria-haspopup='menu']")
      .first()
      .click();
    await clickMenuItem(page, "Cancel");
    await confirmPrompt(page);
    await toast(page);
    await eventually(async () => {
      const order = (await api<{ order: Order }>("GET", orderPath(orderId))).order;
      assert.equal(order.status, "canceled");
      assert.notEqual(order.payment_collections[0]!.payments[0]!.canceled_at, null);
    });
    await shot("canceled");
  },
};
