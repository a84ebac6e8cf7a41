import assert from "node:assert/strict";
import { placeOrder } from "../seed";
import { click, landedOn, open, settle, toast } from "../ui";
import { eventually, type DashboardAction } from "./action";

interface Level {
  location_id: string;
  stocked_quantity: number;
  reserved_quantity: number;
}
interface Order {
  id: string;
  version: number;
  total: number;
  items: Array<{ id: string; quantity: number; unit_price: number }>;
  payment_collections: Array<{ id: string; amount: number; status: string }>;
  summary: { pending_difference: number };
}

const orderPath = (id: string) => `/admin/orders/${id}`;

/**
 * An order edit through the dashboard's own form (Medusa's order change, edit kind): the form
 * begins the edit as it opens, the line's quantity is raised from 2 to 3 in its quantity field,
 * "Confirm Edit" requests it (with the form's note and its notification switch), and the order
 * page's "Force confirm" confirms it. Checked through the API: version 2, the line at 3 units, one
 * unit more reserved at the location, and a payment collection for the added unit beside the
 * authorized one.
 */
export const editOrder: DashboardAction = {
  name: "order-edit",
  async run({ page, kasse, api, seeded, shot }) {
    const orderId = await placeOrder(kasse, seeded.regionId, seeded.variantId);
    const placed = (await api<{ order: Order }>("GET", orderPath(orderId))).order;
    const line = placed.items[0]!;
    assert.equal(line.quantity, 2);
    const reserved = async () =>
      (
        await api<{ inventory_levels: Level[] }>(
          "GET",
          `/admin/inventory-items/${seeded.inventoryItemId}/location-levels`,
        )
      ).inventory_levels.find((l) => l.location_id === seeded.locationId)!.reserved_quantity;
    const reservedBefore = await reserved();

    await open(page, kasse.origin, `/orders/${orderId}/edits`);
    const quantity = page.locator('input[type="number"]').first();
    await quantity.waitFor({ state: "visible", timeout: 20_000 });
    await quantity.fill("3");
    // The form saves a line's quantity when its field loses focus.
    await quantity.blur();
    await eventually(async () => {
      const { order } = await api<{ order: Order & { order_change?: { actions: unknown[] } } }>(
        "GET",
        `${orderPath(orderId)}/preview`,
      );
      assert.equal(order.items[0]!.quantity, 3);
    });
    await settle(page);
    await page.locator('[name="note"]').last().fill("Customer asked for one more");
    await shot("edited");
    await click(page, "Confirm Edit");
    await page.getByRole("alertdialog").getByRole("button", { name: "Continue" }).click();
    await toast(page);
    await landedOn(page, new RegExp(`^/app/orders/${orderId}$`));

    await click(page, "Force confirm");
    await toast(page);
    const edited = await eventually(async () => {
      const { order } = await api<{ order: Order }>("GET", orderPath(orderId));
      assert.equal(order.version, 2);
      return order;
    });
    await shot("confirmed");
    assert.equal(edited.items.find((i) => i.id === line.id)!.quantity, 3);
    assert.equal(await reserved(), reservedBefore + 1);
    // The authorization covers the old total; the added unit (with its tax) is asked for apart.
    assert.equal(edited.payment_collections.length, 2);
    assert.equal(edited.payment_collections[1]!.amount, edited.total - placed.total);
    const { order_changes } = await api<{
      order_changes: Array<{ change_type: string; status: string; internal_note: string | null }>;
    }>("GET", `${orderPath(orderId)}/changes?change_type=edit`);
    assert.deepEqual(
      order_changes.map((c) => [c.status, c.internal_note]),
      [["confirmed", "Customer asked for one more"]],
    );
  },
};
