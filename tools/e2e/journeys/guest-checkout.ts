import type { Runner, StepContext } from "../runner";
import { ADDRESS, checkout, chooseAndAdd, productByHandle, region } from "../shop";

/** Fills the checkout's address step as a guest: shipping address (billing the same), email, phone. */
async function fillGuestAddress(s: StepContext, email: string): Promise<void> {
  const { page } = s;
  await page.getByTestId("shipping-first-name-input").fill(ADDRESS.first_name);
  await page.getByTestId("shipping-last-name-input").fill(ADDRESS.last_name);
  await page.getByTestId("shipping-address-input").fill(ADDRESS.address_1);
  await page.getByTestId("shipping-postal-code-input").fill(ADDRESS.postal_code);
  await page.getByTestId("shipping-city-input").fill(ADDRESS.city);
  await page.getByTestId("shipping-country-select").selectOption("us");
  await page.getByTestId("shipping-province-input").fill(ADDRESS.province);
  await page.getByTestId("shipping-email-input").fill(email);
  await page.getByTestId("shipping-phone-input").fill(ADDRESS.phone);
}

/** Guest checkout: cart, email and addresses, shipping option, manual payment, order, confirmation page. */
export async function guestCheckout(runner: Runner): Promise<void> {
  await runner.journey("guest checkout", async (j) => {
    const state: { orderId?: string } = {};
    await j.step("add a sweater in size L", async (s) => {
      const regionId = (await region(s.kasse)).id;
      await s.visit("/us/products/merino-sweater", s.page.getByTestId("add-product-button"));
      await chooseAndAdd(s, await productByHandle(s.kasse, regionId, "merino-sweater"), "L", 1);
    });
    await checkout(j, (s) => fillGuestAddress(s, "guest-checkout@example.com"), state);
  });
}
