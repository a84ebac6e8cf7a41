import type { Runner, StepContext } from "../runner";
import { expectOrderPage, kasseOrder, placeOrderViaApi, productByHandle, region, variantWith } from "../shop";
import { signIn } from "./customer";

const SHOPPER = {
  email: "edda@example.com",
  password: "edda-password-1",
  first_name: "Edda",
  last_name: "Edited",
};

/** The order's details page, opened from the account's order list, checked against Kasse's order. */
async function expectDetails(s: StepContext, orderId: string, lines: number): Promise<void> {
  const order = await kasseOrder(s.kasse, orderId);
  if (order.items.length !== lines)
    throw new Error(`Kasse's order ${orderId} has ${order.items.length} lines, the journey expected ${lines}`);
  await s.visit(`/us/account/orders/details/${orderId}`, s.page.getByTestId("order-details-container"));
  await expectOrderPage(s, order);
  const rows = await s.page.getByTestId("products-table").getByTestId("product-row").count();
  if (rows !== lines) s.soft(`the order page shows ${rows} lines, Kasse's order has ${lines}`);
}

/**
 * A merchant's order edit seen by the shopper: an order placed by a customer (through Kasse's API),
 * its details page, a line added by the admin through Kasse's order-edit routes, and the page
 * again showing the edited order (its new line and totals).
 */
export async function orderEdit(runner: Runner): Promise<void> {
  await runner.journey("order edit", async (j) => {
    const state = { orderId: "", added: "" };

    await j.step("the customer's order (placed through Kasse's API) on its page", async (s) => {
      const regionId = (await region(s.kasse)).id;
      const { token } = await s.kasse.store<{ token: string }>("POST", "/auth/customer/emailpass/register", {
        email: SHOPPER.email,
        password: SHOPPER.password,
      });
      await s.kasse.store(
        "POST",
        "/store/customers",
        { email: SHOPPER.email, first_name: SHOPPER.first_name, last_name: SHOPPER.last_name },
        token,
      );
      const login = await s.kasse.store<{ token: string }>("POST", "/auth/customer/emailpass", {
        email: SHOPPER.email,
        password: SHOPPER.password,
      });
      const variant = variantWith(await productByHandle(s.kasse, regionId, "chinos"), "M");
      state.orderId = (await placeOrderViaApi(s.kasse, SHOPPER.email, regionId, variant.id, login.token)).id;
      state.added = variantWith(await productByHandle(s.kasse, regionId, "canvas-tote"), "One size").id;
      await signIn(s, SHOPPER.email, SHOPPER.password);
      await expectDetails(s, state.orderId, 1);
    });

    await j.step("the merchant adds a line (Kasse's admin order edit)", async (s) => {
      await s.kasse.admin("POST", "/admin/order-edits", { order_id: state.orderId });
      await s.kasse.admin("POST", `/admin/order-edits/${state.orderId}/items`, {
        items: [{ variant_id: state.added, quantity: 1 }],
      });
      await s.kasse.admin("POST", `/admin/order-edits/${state.orderId}/confirm`);
      const order = await kasseOrder(s.kasse, state.orderId);
      if (!order.items.some((i) => i.variant_id === state.added))
        throw new Error(`Kasse's order ${state.orderId} has no line of ${state.added} after the confirmed edit`);
    });

    await j.step("the shopper's order page shows the edited order", async (s) => {
      // The storefront keeps a session's order reads in Next's data cache (tagged with the session's
      // cache id) and refreshes them only when that browser places an order: the edited order is
      // read in the shopper's next session.
      await s.context.clearCookies();
      await signIn(s, SHOPPER.email, SHOPPER.password);
      await expectDetails(s, state.orderId, 2);
    });
  });
}
