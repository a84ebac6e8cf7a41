import assert from "node:assert/strict";
import { settle } from "../ui";
import { eventually, type DashboardAction } from "./action";
import {
  askBack,
  cancelStrayRequest,
  choose,
  confirmReturnForm,
  deliveredOrder,
  openReceiveDrawer,
  saveReceipt,
} from "./order-return";

interface Order {
  id: string;
  items: Array<{ id: string; quantity: number; total: number }>;
  payment_collections: Array<{ payments: Array<{ id: string }> }>;
  returns: Array<{
    id: string;
    status: string;
    shipping: { shipping_option_id: string; amount: number } | null;
    items: Array<{ received_quantity: number }>;
  }>;
  refunded_total: number;
  summary: { pending_difference: number };
}

const RETURN_SHIPPING = 500;

/**
 * On a delivered order whose payment is captured (through Kasse's API), with a return option
 * shipping back to the seeded location (its `is_return` rule, $5.00, created through the API): asks
 * one unit back through the dashboard's return form, choosing that option as its return shipping
 * (the form lists only return options of the chosen location), Confirm Return; then receives it
 * through the receive drawer, Save. Checked through Kasse's API at the root: the return carries its
 * shipping (500 cents); the receipt puts the unit back in stock and refunds its worth less the
 * shipping, so the order owes nothing and is owed nothing (`pending_difference` 0).
 */
export const returnShippingRefund: DashboardAction = {
  name: "order-return-shipping-refund",
  async run({ page, kasse, api, seeded, shot }) {
    const { orderId, line, locationName, stocked } = await deliveredOrder({ kasse, api, seeded });
    const read = async () => (await api<{ order: Order }>("GET", `/admin/orders/${orderId}`)).order;
    const placed = await read();
    await api("POST", `/admin/payments/${placed.payment_collections[0]!.payments[0]!.id}/capture`, {});
    const { region } = await api<{ region: { currency_code: string } }>("GET", `/admin/regions/${seeded.regionId}`);
    const { shipping_option } = await api<{ shipping_option: { id: string } }>("POST", "/admin/shipping-options", {
      name: "Return label",
      price_type: "flat",
      stock_location_id: seeded.locationId,
      provider_id: "manual_manual",
      prices: [{ currency_code: region.currency_code, amount: RETURN_SHIPPING }],
      rules: [
        { attribute: "is_return", operator: "eq", value: "true" },
        { attribute: "enabled_in_store", operator: "eq", value: "true" },
      ],
    });
    const before = await stocked();

    await askBack(page, kasse.origin, orderId, 1, locationName);
    const added = page.waitForResponse((r) => r.url().includes("/shipping-method") && r.request().method() === "POST");
    await choose(page, /^Return shipping/, "Return label");
    assert.equal((await added).status(), 200);
    await settle(page);
    await shot("return-shipping");
    await confirmReturnForm(page, orderId);
    const requested = await eventually(async () => {
      const ret = (await read()).returns[0]!;
      assert.equal(ret.status, "requested");
      assert.deepEqual(ret.shipping, {
        shipping_option_id: shipping_option.id,
        name: "Return label",
        amount: RETURN_SHIPPING,
        currency_code: region.currency_code,
      });
      return ret;
    });
    await cancelStrayRequest(page, kasse.origin, api, orderId);

    await openReceiveDrawer(page, orderId, requested.id);
    await shot("counted");
    await saveReceipt(page, requested.id);
    const bought = placed.items.find((i) => i.id === line.id)!;
    const unit = Math.round(bought.total / bought.quantity);
    await eventually(async () => {
      const order = await read();
      assert.equal(order.returns[0]!.status, "received");
      assert.equal(order.refunded_total, Math.max(0, unit - RETURN_SHIPPING));
      assert.equal(order.summary.pending_difference, 0);
      assert.equal(await stocked(), before + 1);
    });
    await shot("refunded");
  },
};
