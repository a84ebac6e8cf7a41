import assert from "node:assert/strict";
import { clickMenuItem, open, settle } from "../ui";
import { eventually, type DashboardAction } from "./action";
import { addInbound, addOutbound, capturedDeliveredOrder, confirmChangeForm, levelAt } from "./order-exchange";
import { cancelStrayRequest, choose } from "./order-return";

/**
 * A claim through the dashboard's own form (which begins every claim as `replace`), on a delivered
 * order whose payment is captured: one unit of the order's line is claimed (inbound: Add items,
 * its action menu's Add reason, a return reason created through the API, the return location),
 * and the same variant goes out as its replacement (outbound: Add items, found by SKU; the order's
 * own shipping option as Outbound shipping), Confirm Claim. Checked through Kasse's API at the
 * root: the order at its next version with the replacement line, which costs nothing; the claim
 * listed for the order (`replace`) with its return asking the unit back with its reason; what the
 * claim changed the total by (the outbound shipping) owed through a new unpaid payment collection;
 * the replacement reserved at the location, the claimed unit not back in stock until received.
 */
export const createClaim: DashboardAction = {
  name: "order-claim",
  async run({ page, kasse, api, seeded, shot }) {
    const { orderId, line, locationName, stocked, read, placed } = await capturedDeliveredOrder(
      { kasse, api, seeded },
      "Claim return label",
    );
    const { return_reason } = await api<{ return_reason: { id: string; label: string } }>(
      "POST",
      "/admin/return-reasons",
      { value: "arrived_broken", label: "Arrived broken" },
    );
    const { variants } = await api<{ variants: Array<{ id: string; sku: string | null }> }>(
      "GET",
      `/admin/products/${seeded.productId}/variants?id=${seeded.variantId}`,
    );
    const sku = variants[0]!.sku;
    assert.ok(sku, "the seeded variant has a SKU");
    const reservedBefore = (await levelAt(api, seeded.inventoryItemId, seeded.locationId)).reserved;
    const stockedBefore = await stocked();
    const { shipping_options } = await api<{ shipping_options: Array<{ id: string; name: string }> }>(
      "GET",
      `/admin/shipping-options?id=${placed.shipping_methods[0]!.shipping_option_id}`,
    );
    const outboundOption = shipping_options[0]!;

    // The claim form: it begins a claim as it opens.
    await open(page, kasse.origin, `/orders/${orderId}/claims`);
    await addInbound(page, locationName);
    await page
      .locator("div.shadow-elevation-card-rest")
      .filter({ has: page.locator('[name="inbound_items.0.quantity"]') })
      .getByRole("button")
      .last()
      .click();
    await clickMenuItem(page, /^Add reason$/i);
    await settle(page);
    const reasoned = page.waitForResponse(
      (r) => /\/inbound\/items\/[^/]+$/.test(new URL(r.url()).pathname) && r.request().method() === "POST",
    );
    await choose(page, "Reason", return_reason.label);
    assert.equal((await reasoned).status(), 200);
    await addOutbound(page, sku, outboundOption.name);
    await shot("claimed-items");
    await confirmChangeForm(page, orderId, "Confirm Claim");

    await eventually(async () => assert.equal((await read()).version, placed.version + 1));
    await cancelStrayRequest(page, kasse.origin, api, orderId, "Claim");
    const order = await read();
    assert.equal(order.version, placed.version + 1);
    const { claims } = await api<{
      claims: Array<{ id: string; type: string; return_id: string; difference_due: number; order_id: string }>;
    }>("GET", `/admin/claims?order_id=${orderId}`);
    assert.equal(claims.length, 1);
    const claim = claims[0]!;
    await shot("confirmed");
    assert.equal(claim.type, "replace");

    // The replacement line, free of charge; the claimed unit asked back with its reason.
    const added = order.items.filter((i) => !placed.items.some((p) => p.id === i.id));
    assert.deepEqual(
      added.map((i) => [i.variant_id, i.quantity, i.total]),
      [[seeded.variantId, 1, 0]],
    );
    const { return: claimed } = await api<{
      return: { status: string; items: Array<{ line_item_id: string; quantity: number; reason_id: string | null }> };
    }>("GET", `/admin/returns/${claim.return_id}`);
    assert.equal(claimed.status, "requested");
    assert.deepEqual(
      claimed.items.map((i) => [i.line_item_id, i.quantity, i.reason_id]),
      [[line.id, 1, return_reason.id]],
    );

    // The money: the claim's difference (its outbound shipping) is owed through its own collection.
    assert.equal(order.shipping_methods.length, placed.shipping_methods.length + 1);
    assert.equal(order.shipping_methods.at(-1)!.shipping_option_id, outboundOption.id);
    assert.equal(claim.difference_due, order.total - placed.total);
    assert.equal(order.summary.pending_difference, claim.difference_due);
    if (claim.difference_due > 0)
      assert.deepEqual(
        order.payment_collections.filter((c) => c.status === "not_paid").map((c) => c.amount),
        [claim.difference_due],
      );
    // Stock: the replacement reserved; the claimed unit not back until it is received.
    assert.equal((await levelAt(api, seeded.inventoryItemId, seeded.locationId)).reserved, reservedBefore + 1);
    assert.equal(await stocked(), stockedBefore);
    await shot("order");
  },
};
