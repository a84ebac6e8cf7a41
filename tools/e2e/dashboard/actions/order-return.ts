import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { placeOrder } from "../seed";
import { click, landedOn, open, settle, toast } from "../ui";
import { eventually, type DashboardAction } from "./action";

interface Return {
  id: string;
  status: string;
  location_id: string;
  items: Array<{ line_item_id: string; quantity: number; received_quantity: number }>;
}
interface Order {
  id: string;
  items: Array<{ id: string; return_requested_quantity: number; return_received_quantity: number }>;
  fulfillments: Array<{ id: string }>;
  returns: Return[];
}
interface Level {
  location_id: string;
  stocked_quantity: number;
}

const orderPath = (id: string) => `/admin/orders/${id}`;

/** Picks `label` in the dashboard's combobox that follows the field label `field`. */
async function choose(page: Page, field: string, label: string): Promise<void> {
  const box = page
    .locator("label", { hasText: new RegExp(`^${field}$`) })
    .locator("xpath=ancestor::div[contains(@class,'grid')][1]")
    .getByRole("combobox")
    .first();
  await box.click();
  await box.fill(label);
  await page.getByRole("option", { name: label, exact: true }).first().click();
  await settle(page);
}

/**
 * On an order whose two units were fulfilled, shipped and delivered (through Kasse's API): asks
 * one unit back through the dashboard's return form (Add items, the item, the return location,
 * Confirm Return), then receives it through the receive drawer (every unit, Save). Checked through
 * Kasse's API at the root: the return is requested with one unit, then received, and the unit is
 * back in stock at the location.
 */
export const createAndReceiveReturn: DashboardAction = {
  name: "order-return-receive",
  async run({ page, kasse, api, seeded, shot }) {
    const orderId = await placeOrder(kasse, seeded.regionId, seeded.variantId);
    const placed = (await api<{ order: Order }>("GET", orderPath(orderId))).order;
    const line = placed.items[0]!;
    await api("POST", `${orderPath(orderId)}/fulfillments`, {
      items: [{ id: line.id, quantity: 2 }],
      location_id: seeded.locationId,
    });
    const fulfillmentId = (await api<{ order: Order }>("GET", orderPath(orderId))).order.fulfillments[0]!.id;
    await api("POST", `${orderPath(orderId)}/fulfillments/${fulfillmentId}/shipments`, {});
    await api("POST", `${orderPath(orderId)}/fulfillments/${fulfillmentId}/mark-as-delivered`);
    const { stock_location } = await api<{ stock_location: { name: string } }>(
      "GET",
      `/admin/stock-locations/${seeded.locationId}`,
    );
    const stocked = async () =>
      (
        await api<{ inventory_levels: Level[] }>(
          "GET",
          `/admin/inventory-items/${seeded.inventoryItemId}/location-levels`,
        )
      ).inventory_levels.find((l) => l.location_id === seeded.locationId)!.stocked_quantity;
    const before = await stocked();

    // The return form: it begins a return request as it opens.
    await open(page, kasse.origin, `/orders/${orderId}/returns`);
    await page.getByText("Add items", { exact: true }).click();
    await settle(page);
    await page.getByRole("dialog").last().getByRole("checkbox").last().check();
    await click(page, "Save");
    await settle(page);
    await choose(page, "Location", stock_location.name);
    await shot("requested-items");
    await click(page, "Confirm Return");
    await page.getByRole("alertdialog").getByRole("button", { name: "Continue" }).click();
    await landedOn(page, new RegExp(`^/app/orders/${orderId}$`));
    const requested = await eventually(async () => {
      const order = (await api<{ order: Order }>("GET", orderPath(orderId))).order;
      assert.equal(order.returns.length, 1);
      const ret = order.returns[0]!;
      assert.equal(ret.status, "requested");
      assert.equal(ret.location_id, seeded.locationId);
      assert.deepEqual(
        ret.items.map((i) => [i.line_item_id, i.quantity]),
        [[line.id, 1]],
      );
      assert.equal(order.items[0]!.return_requested_quantity, 1);
      return ret;
    });
    assert.equal(await stocked(), before);
    await shot("requested");

    // The receive drawer: it begins a receipt and counts every unit asked back.
    await page.getByRole("link", { name: "Receive items", exact: true }).click();
    await landedOn(page, new RegExp(`^/app/orders/${orderId}/returns/${requested.id}/receive$`));
    await click(page, "Save");
    await toast(page);
    await eventually(async () => {
      const order = (await api<{ order: Order }>("GET", orderPath(orderId))).order;
      const ret = order.returns[0]!;
      assert.equal(ret.status, "received");
      assert.deepEqual(
        ret.items.map((i) => i.received_quantity),
        [1],
      );
      assert.equal(order.items[0]!.return_received_quantity, 1);
      assert.equal(await stocked(), before + 1);
    });
    await open(page, kasse.origin, `/orders/${orderId}`);
    await shot("received");
  },
};
