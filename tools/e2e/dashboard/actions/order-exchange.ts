import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { click, landedOn, open, settle } from "../ui";
import { eventually, type ActionContext, type DashboardAction } from "./action";
import { cancelStrayRequest, choose, deliveredOrder } from "./order-return";

interface Level {
  location_id: string;
  stocked_quantity: number;
  reserved_quantity: number;
}
/** What a merchant reads on the order after an exchange or a claim (minor units). */
export interface ChangedOrder {
  id: string;
  version: number;
  total: number;
  items: Array<{ id: string; variant_id: string; quantity: number; unit_price: number; total: number }>;
  shipping_methods: Array<{ shipping_option_id: string; amount: number }>;
  payment_collections: Array<{ id: string; amount: number; status: string; payments: Array<{ id: string }> }>;
  returns: Array<{
    id: string;
    status: string;
    items: Array<{ line_item_id: string; quantity: number }>;
  }>;
  summary: { pending_difference: number };
}
interface Variant {
  id: string;
  sku: string | null;
  title: string;
  inventory_items: Array<{ inventory_item_id: string }>;
}

/** Reads an inventory item's stocked and reserved units at a location. */
export async function levelAt(api: ActionContext["api"], inventoryItemId: string, locationId: string) {
  const { inventory_levels } = await api<{ inventory_levels: Level[] }>(
    "GET",
    `/admin/inventory-items/${inventoryItemId}/location-levels`,
  );
  const level = inventory_levels.find((l) => l.location_id === locationId)!;
  return { stocked: level.stocked_quantity, reserved: level.reserved_quantity };
}

/**
 * A delivered order of two units whose payment is captured (through Kasse's API), and a $4.00
 * return option back to the seeded location named `returnOption`: what an exchange or a claim
 * starts from. Answers the delivered order's parts, the order as placed, and the option.
 */
export async function capturedDeliveredOrder(
  ctx: Pick<ActionContext, "kasse" | "api" | "seeded">,
  returnOption: string,
) {
  const { api, seeded } = ctx;
  const delivered = await deliveredOrder(ctx);
  const read = async () => (await api<{ order: ChangedOrder }>("GET", `/admin/orders/${delivered.orderId}`)).order;
  await api("POST", `/admin/payments/${(await read()).payment_collections[0]!.payments[0]!.id}/capture`, {});
  const placed = await read();
  const { region } = await api<{ region: { currency_code: string } }>("GET", `/admin/regions/${seeded.regionId}`);
  const { shipping_option } = await api<{ shipping_option: { id: string } }>("POST", "/admin/shipping-options", {
    name: returnOption,
    price_type: "flat",
    stock_location_id: seeded.locationId,
    provider_id: "manual_manual",
    prices: [{ currency_code: region.currency_code, amount: 400 }],
    rules: [
      { attribute: "is_return", operator: "eq", value: "true" },
      { attribute: "enabled_in_store", operator: "eq", value: "true" },
    ],
  });
  return { ...delivered, read, placed, returnOptionId: shipping_option.id };
}

/**
 * The form's Inbound part: Add items, the order's line, Save (it asks one unit back), then the
 * return location and, when given, its return shipping.
 */
export async function addInbound(page: Page, locationName: string, returnOption?: string) {
  await page.getByText("Add items", { exact: true }).first().click();
  await settle(page);
  await page.getByRole("dialog").last().getByRole("checkbox").last().check();
  await click(page, "Save");
  await settle(page);
  await choose(page, "Location", locationName);
  if (returnOption) {
    const added = page.waitForResponse(
      (r) => r.url().includes("/inbound/shipping-method") && r.request().method() === "POST",
    );
    await choose(page, /^Return shipping/, returnOption);
    assert.equal((await added).status(), 200);
    await settle(page);
  }
}

/**
 * The form's Outbound part: Add items (the last such link: the outbound one), the variant found by
 * its SKU in the table's search, Save (one unit sent out); then, when given, the outbound shipping
 * option whose label (name and location) starts with `shippingOption`.
 */
export async function addOutbound(page: Page, sku: string, shippingOption?: string) {
  await page.getByText("Add items", { exact: true }).last().click();
  await settle(page);
  const dialog = page.getByRole("dialog").last();
  await dialog.getByPlaceholder("Search").fill(sku);
  await settle(page);
  await dialog.getByRole("row").filter({ hasText: sku }).getByRole("checkbox").check();
  const added = page.waitForResponse((r) => r.url().includes("/outbound/items") && r.request().method() === "POST");
  await click(page, "Save");
  assert.equal((await added).status(), 200);
  await settle(page);
  if (shippingOption) {
    const shipped = page.waitForResponse(
      (r) => r.url().includes("/outbound/shipping-method") && r.request().method() === "POST",
    );
    await choose(page, "Outbound shipping", shippingOption, new RegExp(`^${shippingOption} \\(`));
    assert.equal((await shipped).status(), 200);
    await settle(page);
  }
}

/** Confirms the exchange or claim form (its Confirm button, then Continue in the prompt): back on the order page. */
export async function confirmChangeForm(page: Page, orderId: string, button: string) {
  const requested = page.waitForResponse((r) => r.url().endsWith("/request") && r.request().method() === "POST");
  await click(page, button);
  await page.getByRole("alertdialog").getByRole("button", { name: "Continue" }).click();
  assert.equal((await requested).status(), 200);
  await landedOn(page, new RegExp(`^/app/orders/${orderId}$`));
}

/**
 * Another variant of the seeded product (not the one the orders are placed with), stocked at the
 * seeded location through Kasse's API: what an exchange sends out instead.
 */
async function otherVariant({ api, seeded }: Pick<ActionContext, "api" | "seeded">) {
  const { variants } = await api<{ variants: Variant[] }>("GET", `/admin/products/${seeded.productId}/variants`);
  const other = variants.find((v) => v.id !== seeded.variantId && v.sku && v.inventory_items.length > 0);
  assert.ok(other, "the seeded product has a second variant with a SKU and stock");
  const inventoryItemId = other.inventory_items[0]!.inventory_item_id;
  await api("POST", `/admin/inventory-items/${inventoryItemId}/location-levels/${seeded.locationId}`, {
    stocked_quantity: 50,
  });
  return { id: other.id, sku: other.sku!, inventoryItemId };
}

/**
 * An exchange through the dashboard's own form, on a delivered order whose payment is captured:
 * one unit of the order's line comes back (inbound: Add items, the return location, a $4.00 return
 * option as its Return shipping), one unit of another variant of the product goes out (outbound:
 * Add items, found by SKU; the order's own shipping option as Outbound shipping), Confirm Exchange.
 * Checked through Kasse's API at the root: the order at its next version with the new line and
 * the outbound method; the exchange listed for the order with its return and `difference_due`,
 * which the order now owes (`pending_difference`) through a new unpaid payment collection of that
 * amount beside the captured one; the new variant's unit reserved at the location; the returned
 * unit requested back on the exchange's return, stock unchanged until it is received.
 */
export const createExchange: DashboardAction = {
  name: "order-exchange",
  async run({ page, kasse, api, seeded, shot }) {
    const { orderId, line, locationName, stocked, read, placed, returnOptionId } = await capturedDeliveredOrder(
      { kasse, api, seeded },
      "Exchange return label",
    );
    const outbound = await otherVariant({ api, seeded });
    const reservedBefore = (await levelAt(api, outbound.inventoryItemId, seeded.locationId)).reserved;
    const stockedBefore = await stocked();
    const { shipping_options } = await api<{ shipping_options: Array<{ id: string; name: string }> }>(
      "GET",
      `/admin/shipping-options?id=${placed.shipping_methods[0]!.shipping_option_id}`,
    );
    const outboundOption = shipping_options[0]!;
    assert.equal(placed.summary.pending_difference, 0);

    // The exchange form: it begins an exchange as it opens.
    await open(page, kasse.origin, `/orders/${orderId}/exchanges`);
    await addInbound(page, locationName, "Exchange return label");
    await addOutbound(page, outbound.sku, outboundOption.name);
    await shot("requested-items");
    await confirmChangeForm(page, orderId, "Confirm Exchange");

    await eventually(async () => assert.equal((await read()).version, placed.version + 1));
    await cancelStrayRequest(page, kasse.origin, api, orderId, "Exchange");
    const order = await read();
    assert.equal(order.version, placed.version + 1);
    const { exchanges } = await api<{
      exchanges: Array<{ id: string; return_id: string; difference_due: number; order_id: string }>;
    }>("GET", `/admin/exchanges?order_id=${orderId}`);
    assert.equal(exchanges.length, 1);
    const exchange = exchanges[0]!;
    await shot("confirmed");

    // The new line and the outbound method; the returned unit asked back on the exchange's return.
    const added = order.items.filter((i) => !placed.items.some((p) => p.id === i.id));
    assert.deepEqual(
      added.map((i) => [i.variant_id, i.quantity]),
      [[outbound.id, 1]],
    );
    assert.equal(order.items.find((i) => i.id === line.id)!.quantity, 2);
    // Both ways' methods are the order's now: the outbound one and the return's.
    assert.deepEqual(
      order.shipping_methods
        .slice(placed.shipping_methods.length)
        .map((m) => m.shipping_option_id)
        .sort(),
      [outboundOption.id, returnOptionId].sort(),
    );
    const ret = order.returns.find((r) => r.id === exchange.return_id)!;
    assert.equal(ret.status, "requested");
    assert.deepEqual(
      ret.items.map((i) => [i.line_item_id, i.quantity]),
      [[line.id, 1]],
    );

    // The money: what the exchange changed the total by is owed, through its own collection.
    assert.equal(exchange.difference_due, order.total - placed.total);
    assert.equal(order.summary.pending_difference, exchange.difference_due);
    if (exchange.difference_due > 0) {
      const unpaid = order.payment_collections.filter((c) => c.status === "not_paid");
      assert.deepEqual(
        unpaid.map((c) => c.amount),
        [exchange.difference_due],
      );
    }
    // Stock: the outbound unit reserved; the inbound one not back until it is received.
    assert.equal((await levelAt(api, outbound.inventoryItemId, seeded.locationId)).reserved, reservedBefore + 1);
    assert.equal(await stocked(), stockedBefore);
    await shot("order");
  },
};
