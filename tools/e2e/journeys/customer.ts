import type { Page } from "playwright-core";
import { normalizeText } from "../money";
import type { Allowance, Runner, StepContext } from "../runner";
import { ADDRESS, checkout, chooseAndAdd, expectOrderPage, kasseOrder, productByHandle, region } from "../shop";

const CUSTOMER = {
  first_name: "Cora",
  last_name: "Customer",
  email: "cora@example.com",
  phone: "5550199",
  password: "cora-password-1",
};

/**
 * Registering, the storefront signs the new identity in and asks for its customer before creating
 * it (as with Medusa): that probe's refusal is how it learns there is none yet.
 */
const REGISTRATION_PROBE: Allowance[] = [401, 403].map((status) => ({
  method: "GET",
  path: /^\/store\/customers\/me$/,
  status,
  authorized: true,
  why: "registration: the new identity has no customer yet",
}));

/** Signs in through the account page's form and waits for the dashboard. */
export async function signIn(s: StepContext, email: string, password: string): Promise<void> {
  await s.visit("/us/account", s.page.getByTestId("login-page"));
  const form = s.page.getByTestId("login-page");
  await form.getByTestId("email-input").fill(email);
  await form.getByTestId("password-input").fill(password);
  await s.action(() => s.press(form.getByTestId("sign-in-button")));
  if (await s.page.getByTestId("login-error-message").isVisible())
    throw new Error(`signing in failed: ${await s.page.getByTestId("login-error-message").innerText()}`);
  if (!(await s.context.cookies()).some((c) => c.name === "_medusa_jwt" && c.value))
    throw new Error("signing in set no session (_medusa_jwt)");
  await s.visit("/us/account", s.page.getByTestId("overview-page-wrapper"));
}

const customerOf = async (s: StepContext) => {
  const { customers } = await s.kasse.admin<{
    customers: Array<{
      id: string;
      first_name: string | null;
      last_name: string | null;
      phone: string | null;
      addresses?: Array<Record<string, unknown>>;
    }>;
  }>("GET", `/admin/customers?email=${encodeURIComponent(CUSTOMER.email)}&fields=*addresses`);
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
        await s.press(s.page.getByTestId("login-page").getByTestId("register-button"));
        const form = s.page.getByTestId("register-page");
        await form.getByTestId("first-name-input").fill(CUSTOMER.first_name);
        await form.getByTestId("last-name-input").fill(CUSTOMER.last_name);
        await form.getByTestId("email-input").fill(CUSTOMER.email);
        await form.getByTestId("phone-input").fill(CUSTOMER.phone);
        await form.getByTestId("password-input").fill(CUSTOMER.password);
        await s.action(() => s.press(form.getByTestId("register-button")));
        if (await s.page.getByTestId("register-error").isVisible())
          throw new Error(`registering failed: ${await s.page.getByTestId("register-error").innerText()}`);
        await s.visit("/us/account", welcome(s.page));
        if (!(await welcome(s.page).innerText()).includes(CUSTOMER.first_name))
          s.soft(`the dashboard greets "${await welcome(s.page).innerText()}"`);
        if (!(await customerOf(s))) s.soft(`Kasse has no customer ${CUSTOMER.email} after registering`);
      },
      { allow: REGISTRATION_PROBE },
    );

    await j.step("sign out and in again", async (s) => {
      await s.action(() => s.press(s.page.getByTestId("account-nav").getByTestId("logout-button")));
      await s.visit("/us/account", s.page.getByTestId("login-page"));
      await signIn(s, CUSTOMER.email, CUSTOMER.password);
    });

    await j.step(
      "edit the profile name",
      async (s) => {
        await s.visit("/us/account/profile", s.page.getByTestId("account-name-editor"));
        const editor = s.page.getByTestId("account-name-editor");
        await s.press(editor.getByTestId("edit-button"));
        await editor.getByTestId("first-name-input").fill("Corinna");
        await editor.getByTestId("last-name-input").fill("Kunde");
        await s.action(() => s.press(editor.getByTestId("save-button")));
        if (await editor.getByTestId("error-message").isVisible())
          throw new Error(`saving the name failed: ${await editor.getByTestId("error-message").innerText()}`);
        const stored = await customerOf(s);
        if (stored?.first_name !== "Corinna" || stored.last_name !== "Kunde")
          throw new Error(
            `Kasse's customer is named ${stored?.first_name} ${stored?.last_name} after saving Corinna Kunde`,
          );
        await s.visit("/us/account/profile", editor.getByTestId("current-info"));
        if (normalizeText(await editor.getByTestId("current-info").innerText()) !== "Corinna Kunde")
          s.soft(`the profile shows the name "${await editor.getByTestId("current-info").innerText()}"`);
      },
      { fresh: true },
    );

    await j.step(
      "add an address",
      async (s) => {
        await s.visit("/us/account/addresses", s.page.getByTestId("add-address-button"));
        await s.press(s.page.getByTestId("add-address-button"));
        const modal = s.page.getByTestId("add-address-modal");
        await modal.getByTestId("first-name-input").fill("Corinna");
        await modal.getByTestId("last-name-input").fill("Kunde");
        await modal.getByTestId("address-1-input").fill(ADDRESS.address_1);
        await modal.getByTestId("postal-code-input").fill(ADDRESS.postal_code);
        await modal.getByTestId("city-input").fill(ADDRESS.city);
        await modal.getByTestId("state-input").fill(ADDRESS.province);
        await modal.getByTestId("country-select").selectOption("us");
        await modal.getByTestId("phone-input").fill(ADDRESS.phone);
        await s.action(() => s.press(modal.getByTestId("save-button")));
        if (await modal.getByTestId("address-error").isVisible())
          throw new Error(`saving the address failed: ${await modal.getByTestId("address-error").innerText()}`);
        const stored = await customerOf(s);
        if (stored?.addresses?.length !== 1 || stored.addresses[0]!.address_1 !== ADDRESS.address_1)
          throw new Error(`Kasse's customer has addresses ${JSON.stringify(stored?.addresses)}`);
        await s.visit("/us/account/addresses", s.page.getByTestId("address-container").first());
      },
      { fresh: true },
    );

    await j.step("edit the address", async (s) => {
      await s.press(s.page.getByTestId("address-container").first().getByTestId("address-edit-button"));
      const modal = s.page.getByTestId("edit-address-modal");
      await modal.waitFor();
      await modal.getByTestId("city-input").fill("Oakland");
      await modal.getByTestId("postal-code-input").fill("94607");
      await s.action(() => s.press(modal.getByTestId("save-button")));
      const stored = await customerOf(s);
      if (stored?.addresses?.[0]?.city !== "Oakland")
        throw new Error(`Kasse's customer address has city ${String(stored?.addresses?.[0]?.city)} after the edit`);
      await s.visit("/us/account/addresses", s.page.getByTestId("address-container").first());
      const shown = await s.page.getByTestId("address-postal-city").first().innerText();
      if (!shown.includes("Oakland")) s.soft(`the address card shows "${shown}" after the edit to Oakland`);
    });

    await j.step(
      "add a hoodie in size S",
      async (s) => {
        const regionId = (await region(s.kasse)).id;
        await s.visit("/us/products/hoodie", s.page.getByTestId("add-product-button"));
        await chooseAndAdd(s, await productByHandle(s.kasse, regionId, "hoodie"), "S", 1);
      },
      { fresh: true },
    );

    await checkout(
      j,
      async (s) => {
        // A customer with a saved address picks it; the email comes from the account.
        await s.press(s.page.getByTestId("shipping-address-select"));
        await s.press(s.page.getByTestId("shipping-address-option").filter({ hasText: ADDRESS.address_1 }).first());
        const email = s.page.getByTestId("shipping-email-input");
        if ((await email.inputValue()) === "") await email.fill(CUSTOMER.email);
      },
      state,
    );

    await j.step("order history", async (s) => {
      await s.visit("/us/account/orders", s.page.getByTestId("orders-page-wrapper"));
      const order = await kasseOrder(s.kasse, state.orderId!);
      const card = s.page
        .getByTestId("order-card")
        .filter({ has: s.page.getByTestId("order-display-id").getByText(String(order.display_id), { exact: true }) });
      await card.first().waitFor();
      await s.expectAmount(
        "order card total",
        card.first().getByTestId("order-amount"),
        order.total,
        order.currency_code,
      );
    });

    await j.step("order details page", async (s) => {
      const order = await kasseOrder(s.kasse, state.orderId!);
      await s.navigate(
        s.page.getByTestId("order-card").first().getByTestId("order-details-link"),
        /\/account\/orders\/details\//,
      );
      await s.settle(s.page.getByTestId("order-details-container"));
      await expectOrderPage(s, order);
    });
  });
}
