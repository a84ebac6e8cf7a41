import type { Runner, StepContext } from "../runner";
import { cartCount, cartIdOf, chooseAndAdd, expectCartLines, expectCartTotals, kasseCart, productByHandle, region } from "../shop";

export const PROMO_CODE = "E2E10";

/** The cart page checked against Kasse's cart. */
async function expectCartPage(s: StepContext): Promise<void> {
  const cart = await kasseCart(s.kasse, await cartIdOf(s.context));
  await expectCartLines(s, cart);
  await expectCartTotals(s, s.page.getByTestId("cart-container"), cart);
}

/** Cart: add two products, change a quantity, remove a line, apply and remove a promotion code. */
export async function cart(runner: Runner): Promise<void> {
  await runner.journey("cart", async (j) => {
    let regionId = "";
    const cartPage = (s: StepContext) => s.page.getByTestId("cart-container");

    await j.step("add a shirt in size M", async (s) => {
      regionId = (await region(s.kasse)).id;
      await s.visit("/us/products/oxford-shirt", s.page.getByTestId("add-product-button"));
      await chooseAndAdd(s, await productByHandle(s.kasse, regionId, "oxford-shirt"), "M", 1);
    });

    await j.step("add a one-size tote", async (s) => {
      await s.visit("/us/products/canvas-tote", s.page.getByTestId("add-product-button"));
      await chooseAndAdd(s, await productByHandle(s.kasse, regionId, "canvas-tote"), "One size", 2);
    });

    await j.step("cart page", async (s) => {
      await s.visit("/us/cart", cartPage(s).getByTestId("product-row").first());
      await expectCartPage(s);
    });

    await j.step("change a quantity to 3", async (s) => {
      const row = cartPage(s).getByTestId("product-row").filter({ hasText: "Oxford Shirt" });
      await row.getByTestId("product-select-button").selectOption("3");
      await cartCount(s.page, 4).waitFor();
      const cart = await kasseCart(s.kasse, await cartIdOf(s.context));
      const line = cart.items.find((i) => i.product_title === "Oxford Shirt");
      if (line?.quantity !== 3) s.soft(`Kasse's cart has ${line?.quantity} Oxford Shirts after choosing 3`);
      await expectCartPage(s);
    });

    await j.step("remove a line", async (s) => {
      const row = cartPage(s).getByTestId("product-row").filter({ hasText: "Canvas Tote" });
      await row.getByTestId("product-delete-button").click();
      await cartCount(s.page, 3).waitFor();
      await row.waitFor({ state: "detached" });
      await expectCartPage(s);
    });

    await j.step("apply a promotion code", async (s) => {
      await s.page.getByTestId("add-discount-button").click();
      await s.page.getByTestId("discount-input").fill(PROMO_CODE);
      await s.page.getByTestId("discount-apply-button").click();
      await s.page
        .getByTestId("discount-row")
        .filter({ hasText: PROMO_CODE })
        .waitFor()
        .catch(async () => {
          throw new Error(`the code ${PROMO_CODE} was not applied: ${await s.page.getByTestId("discount-error-message").innerText().catch(() => "(no error shown)")}`);
        });
      const cart = await kasseCart(s.kasse, await cartIdOf(s.context));
      if (!cart.promotions.some((p) => p.code === PROMO_CODE) || cart.discount_total <= 0) s.soft(`Kasse's cart has promotions ${JSON.stringify(cart.promotions)} and discount_total ${cart.discount_total} after applying ${PROMO_CODE}`);
      const row = s.page.getByTestId("discount-row").filter({ hasText: PROMO_CODE });
      if (!(await row.innerText()).includes("10%")) s.soft(`the promotion row says "${await row.innerText()}", not its 10% value`);
      await expectCartPage(s);
    });

    await j.step("remove the promotion code", async (s) => {
      await s.page.getByTestId("discount-row").filter({ hasText: PROMO_CODE }).getByTestId("remove-discount-button").click();
      await s.page.getByTestId("discount-row").filter({ hasText: PROMO_CODE }).waitFor({ state: "detached" });
      const cart = await kasseCart(s.kasse, await cartIdOf(s.context));
      if (cart.promotions.length || cart.discount_total !== 0) s.soft(`Kasse's cart still has promotions ${JSON.stringify(cart.promotions)} (discount_total ${cart.discount_total})`);
      await expectCartPage(s);
    });
  });
}
