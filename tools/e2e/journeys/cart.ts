import type { Runner, StepContext } from "../runner";
import { normalizeText } from "../money";
import {
  chooseAndAdd,
  expectCartLines,
  expectCartTotals,
  expectNavCount,
  productByHandle,
  region,
  shopperCart,
} from "../shop";

export const PROMO_CODE = "E2E10";

/** The cart page checked against Kasse's cart. */
async function expectCartPage(s: StepContext): Promise<void> {
  const cart = await shopperCart(s.context, s.kasse);
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
      await s.action(() =>
        row
          .getByTestId("product-select-button")
          .selectOption("3")
          .then(() => undefined),
      );
      const cart = await shopperCart(s.context, s.kasse);
      const line = cart.items.find((i) => i.product_title === "Oxford Shirt");
      if (line?.quantity !== 3) throw new Error(`Kasse's cart has ${line?.quantity} Oxford Shirts after choosing 3`);
      await s.visit("/us/cart", cartPage(s).getByTestId("product-row").first());
      await expectNavCount(s, 4);
      await expectCartPage(s);
    });

    await j.step("remove a line", async (s) => {
      const row = cartPage(s).getByTestId("product-row").filter({ hasText: "Canvas Tote" });
      // The storefront's DeleteButton drops the data-testid it is given: the row's only button is the trash can.
      await s.action(() => s.press(row.getByRole("button").first()));
      const cart = await shopperCart(s.context, s.kasse);
      if (cart.items.some((i) => i.product_title === "Canvas Tote"))
        throw new Error("Kasse's cart still holds the Canvas Tote after removing it");
      await s.visit("/us/cart", cartPage(s).getByTestId("product-row").first());
      if ((await row.count()) > 0) s.soft("the cart page still lists the removed Canvas Tote");
      await expectNavCount(s, 3);
      await expectCartPage(s);
    });

    await j.step("apply a promotion code", async (s) => {
      await s.press(s.page.getByTestId("add-discount-button"));
      await s.page.getByTestId("discount-input").fill(PROMO_CODE);
      await s.action(() => s.press(s.page.getByTestId("discount-apply-button")));
      const cart = await shopperCart(s.context, s.kasse);
      if (!cart.promotions.some((p) => p.code === PROMO_CODE) || cart.discount_total <= 0)
        throw new Error(
          `Kasse's cart has promotions ${JSON.stringify(cart.promotions)} and discount_total ${cart.discount_total} after applying ${PROMO_CODE}`,
        );
      await s.visit("/us/cart", cartPage(s).getByTestId("product-row").first());
      const row = s.page.getByTestId("discount-row").filter({ hasText: PROMO_CODE });
      if ((await row.count()) === 0) s.soft(`the cart page shows no row for the applied code ${PROMO_CODE}`);
      else if (!(await row.innerText()).includes("10%"))
        s.soft(`the promotion row says "${normalizeText(await row.innerText())}", without its 10% value`);
      await expectCartPage(s);
    });

    await j.step("remove the promotion code", async (s) => {
      const row = s.page.getByTestId("discount-row").filter({ hasText: PROMO_CODE });
      await s.action(() => s.press(row.getByTestId("remove-discount-button")));
      const cart = await shopperCart(s.context, s.kasse);
      if (cart.promotions.length || cart.discount_total !== 0)
        throw new Error(
          `Kasse's cart still has promotions ${JSON.stringify(cart.promotions)} (discount_total ${cart.discount_total})`,
        );
      await s.visit("/us/cart", cartPage(s).getByTestId("product-row").first());
      if ((await row.count()) > 0) s.soft(`the cart page still shows the removed code ${PROMO_CODE}`);
      await expectCartPage(s);
    });
  });
}
