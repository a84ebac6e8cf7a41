import type { Page } from "playwright-core";
import type { Allowance, Runner, StepContext } from "../runner";
import { ADDRESS, checkout, chooseAndAdd, expectOrderPage, kasseOrder, productByHandle, region } from "../shop";

export const CUSTOMER = { first_name: "Cora", last_name: "Customer", email: "cora@example.com", phone: "5550199", password: "cora-password-1" };

/**
 * Registering, the storefront signs the new identity in and asks for its customer before creating
 * it (as with Medusa): that probe's refusal is how it learns there is none yet.
 */
export const REGISTRATION_PROBE: Allowance[] = [401, 403].map((status) => ({ method: "GET", path: /^\/store\/customers\/me$/, status, authorized: true, why: "registration: the new identity has no customer yet" }));

/** Signs in through the account page's form and waits for the dashboard. */
export async function signIn(s: StepContext, email: string, password: string): Promise<void> {
  await s.visit("/us/account", s.page.getByTestId("login-page"));
  const form = s.page.getByTestId("login-page");
  await form.getByTestId("email-input").fill(email);
  await form.getByTestId("password-input").fill(password);
  await form.getByTestId("sign-in-button").click();
  await s.settle(s.page.getByTestId("overview-page-wrapper").or(s.page.getByTestId("login-error-message")).first());
  if (await s.page.getByTestId("login-error-message").isVisible()) throw new Error(`signing in failed: ${await s.page.getByTestId("login-error-message").innerText()}`);
}

const customerOf = async (s: StepContext) => {
  const { customers } = await s.kasse.admin<{ customers: Array<{ id: string; first_name: string | null; last_name: string | null; phone: string | null; addresses?: Array<Record<string, unknown>> }> }>(
    "GET",
    `/admin/customers?email=${encodeURIComponent(CUSTOMER.email)}&fields=*addresses`,
  );
  return customers[0];
};

const welcome = (page: Page) => page.getByTestId("welcome-message");

/** A customer: register, sign out and in, edit the profile and addresses, check out, find the order in the history. */
export async function customer(runner: Runner): Promise<void> {
  await runner.journey("customer", async (j) => {
    const state: { orderId?: string } = {};

    await j.step(
      "register",
      async (s) => {
        await s.visit("/us/account", s.page.getByTestId("login-page"));
        await s.page.getByTestId("login-page").getByTestId("register-button").click();
        const form = s.page.getByTestId("register-page");
        await form.getByTestId("first-name-input").fill(CUSTOMER.first_name);
        await form.getByTestId("last-name-input").fill(CUSTOMER.last_name);
        await form.getByTestId("email-input").fill(CUSTOMER.email);
        await form.getByTestId("phone-input").fill(CUSTOMER.phone);
        await form.getByTestId("password-input").fill(CUSTOMER.password);
        await form.getByTestId("register-button").click();
        await s.settle(welcome(s.page).or(s.page.getByTestId("register-error")).first());
        if (await s.page.getByTestId("register-error").isVisible()) throw new Error(`registering failed: ${await s.page.getByTestId("register-error").innerText()}`);
        if (!(await welcome(s.page).innerText()).includes(CUSTOMER.first_name)) s.soft(`the dashboard greets "${await welcome(s.page).innerText()}"`);
        if (!(await customerOf(s))) s.soft(`Kasse has no customer ${CUSTOMER.email} after registering`);
      },
      { allow: REGISTRATION_PROBE },
    );

    await j.step("sign out and in again", async (s) => {
      await s.page.getByTestId("account-nav").getByTestId("logout-button").click();
      await s.page.getByTestId("login-page").waitFor();
      await signIn(s, CUSTOMER.email, CUSTOMER.password);
    });

    await j.step("edit the profile name", async (s) => {
      await s.visit("/us/account/profile", s.page.getByTestId("account-name-editor"));
      const editor = s.page.getByTestId("account-name-editor");
      await editor.getByTestId("edit-button").click();
      await editor.getByTestId("first-name-input").fill("Corinna");
      await editor.getByTestId("last-name-input").fill("Kunde");
      await editor.getByTestId("save-button").click();
      await editor.getByTestId("success-message").or(editor.getByTestId("error-message")).first().waitFor();
      if (await editor.getByTestId("error-message").isVisible()) throw new Error(`saving the name failed: ${await editor.getByTestId("error-message").innerText()}`);
      const stored = await customerOf(s);
      if (stored?.first_name !== "Corinna" || stored.last_name !== "Kunde") s.soft(`Kasse's customer is named ${stored?.first_name} ${stored?.last_name} after saving Corinna Kunde`);
    }, { fresh: true });

    await j.step("add an address", async (s) => {
      await s.visit("/us/account/addresses", s.page.getByTestId("add-address-button"));
      await s.page.getByTestId("add-address-button").click();
      const modal = s.page.getByTestId("add-address-modal");
      await modal.getByTestId("first-name-input").fill("Corinna");
      await modal.getByTestId("last-name-input").fill("Kunde");
      await modal.getByTestId("address-1-input").fill(ADDRESS.address_1);
      await modal.getByTestId("postal-code-input").fill(ADDRESS.postal_code);
      await modal.getByTestId("city-input").fill(ADDRESS.city);
      await modal.getByTestId("state-input").fill(ADDRESS.province);
      await modal.getByTestId("country-select").selectOption("us");
      await modal.getByTestId("phone-input").fill(ADDRESS.phone);
      await modal.getByTestId("save-button").click();
      // The modal closes once the action answered and the page re-rendered with the new address.
      await modal.waitFor({ state: "hidden" });
      await s.page.getByTestId("address-container").first().waitFor();
      const stored = await customerOf(s);
      if (stored?.addresses?.length !== 1 || stored.addresses[0]!.address_1 !== ADDRESS.address_1) s.soft(`Kasse's customer has addresses ${JSON.stringify(stored?.addresses)}`);
    }, { fresh: true });

    await j.step("edit the address", async (s) => {
      await s.page.getByTestId("address-container").first().getByTestId("address-edit-button").click();
      const modal = s.page.getByTestId("edit-address-modal");
      await modal.waitFor();
      await modal.getByTestId("city-input").fill("Oakland");
      await modal.getByTestId("postal-code-input").fill("94607");
      await modal.getByTestId("save-button").click();
      await modal.waitFor({ state: "hidden" });
      await s.page.getByTestId("address-postal-city").filter({ hasText: "Oakland" }).waitFor();
      const stored = await customerOf(s);
      if (stored?.addresses?.[0]?.city !== "Oakland") s.soft(`Kasse's customer address has city ${String(stored?.addresses?.[0]?.city)} after the edit`);
    });

    await j.step("add a hoodie in size S", async (s) => {
      const regionId = (await region(s.kasse)).id;
      await s.visit("/us/products/hoodie", s.page.getByTestId("add-product-button"));
      await chooseAndAdd(s, await productByHandle(s.kasse, regionId, "hoodie"), "S", 1);
    }, { fresh: true });

    await checkout(
      j,
      async (s) => {
        // A customer with a saved address picks it; the email comes from the account.
        await s.page.getByTestId("shipping-address-select").click();
        await s.page.getByTestId("shipping-address-option").filter({ hasText: ADDRESS.address_1 }).first().click();
        const email = s.page.getByTestId("shipping-email-input");
        if ((await email.inputValue()) === "") await email.fill(CUSTOMER.email);
      },
      state,
    );

    await j.step("order history", async (s) => {
      await s.visit("/us/account/orders", s.page.getByTestId("orders-page-wrapper"));
      const order = await kasseOrder(s.kasse, state.orderId!);
      const card = s.page.getByTestId("order-card").filter({ has: s.page.getByTestId("order-display-id").getByText(`#${order.display_id}`, { exact: false }) });
      await card.first().waitFor();
      await s.expectAmount("order card total", card.first().getByTestId("order-amount"), order.total, order.currency_code);
    });

    await j.step("order details page", async (s) => {
      const order = await kasseOrder(s.kasse, state.orderId!);
      await s.page.getByTestId("order-card").first().getByTestId("order-details-link").click();
      await s.page.waitForURL(/\/account\/orders\/details\//);
      await s.settle(s.page.getByTestId("order-details-container"));
      await expectOrderPage(s, order);
      const variants = await s.page.getByTestId("products-table").getByTestId("product-variant").allInnerTexts();
      if (variants.some((v) => !/Variant:\s*\S/.test(v))) s.soft(`order lines show variant labels ${JSON.stringify(variants)}, expected "Variant: S"`);
    });
  });
}
