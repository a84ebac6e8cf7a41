import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { fill, landedOn, open, toast } from "../ui";
import type { DashboardAction } from "./action";

interface Product {
  id: string;
  title: string;
  status: string;
  options: Array<{ title: string; values: Array<{ value: string }> }>;
  variants: Array<{
    title: string;
    options: Array<{ value: string }>;
    prices: Array<{ currency_code: string; amount: number }>;
  }>;
}

/**
 * Clicks the visible button labelled `label`. This form is rendered twice (one copy hidden), and
 * the hidden copy's dialog hides the other from the accessibility tree, so buttons are found by text.
 */
async function press(page: Page, label: string): Promise<void> {
  const button = page
    .locator("button")
    .filter({ hasText: new RegExp(`^\\s*${label}\\s*$`), visible: true })
    .last();
  await button.waitFor({ state: "visible", timeout: 20_000 });
  await button.click();
}

/** Types `value` into the price grid's cell for `field` (selected by a click, edited by typing, committed by Enter). */
async function typeInCell(page: Page, field: string, value: string): Promise<void> {
  const input = page.locator(`[data-field="${field}"]`);
  await input.waitFor({ state: "attached", timeout: 20_000 });
  await input.locator("xpath=ancestor::*[@data-container-id][1]").click();
  await page.keyboard.type(value);
  await page.keyboard.press("Enter");
}

/**
 * Creates a product through its form: an option "Color" with two values (two variants), a USD
 * price for each typed into the variants grid ($25.00 and $27.50), published. Kasse stores the
 * options, both variants and their prices in cents.
 */
export const createProduct: DashboardAction = {
  name: "product-create",
  async run({ page, kasse, api, shot }) {
    await open(page, kasse.origin, "/products/create");
    await fill(page, "title", "Wool Scarf");
    // Forced: the switch sits under the box that shows its label, which would take the click.
    await page.locator("button[role=switch]:visible").first().click({ force: true });
    const option = page.locator("input[role=combobox]:visible").last();
    await option.click();
    await option.fill("Color");
    await page.getByText('Create "Color"').last().click();
    const values = page.locator("input[placeholder='Red, Blue, Green']:visible").first();
    await values.click();
    // The chip input keeps the focus (and loses its placeholder) once it holds a value.
    for (const value of ["Red", "Blue"]) {
      await page.keyboard.type(value);
      await page.keyboard.press("Enter");
    }
    await press(page, "Continue");
    await press(page, "Continue");
    await typeInCell(page, "variants.0.prices.usd", "25");
    await typeInCell(page, "variants.1.prices.usd", "27.50");
    await press(page, "Publish");
    await toast(page);
    const productId = (await landedOn(page, /^\/app\/products\/prod_/)).split("/").pop()!;
    const { product } = await api<{ product: Product }>("GET", `/admin/products/${productId}`);
    assert.equal(product.title, "Wool Scarf");
    assert.equal(product.status, "published");
    assert.deepEqual(
      product.options.map((o) => [o.title, o.values.map((v) => v.value).sort()]),
      [["Color", ["Blue", "Red"]]],
    );
    const byValue = new Map(
      product.variants.map((v) => [
        v.options[0]!.value,
        v.prices.filter((p) => p.currency_code === "usd").map((p) => p.amount),
      ]),
    );
    assert.deepEqual(Object.fromEntries(byValue), { Red: [2500], Blue: [2750] });
    await shot("created");
  },
};
