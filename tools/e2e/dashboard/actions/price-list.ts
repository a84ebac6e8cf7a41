import assert from "node:assert/strict";
import { click, fill, landedOn, open, toast } from "../ui";
import type { DashboardAction } from "./action";

interface PriceList {
  id: string;
  title: string;
  type: string;
  status: string;
  prices: Array<{ variant_id: string; currency_code: string; amount: number }>;
}

/**
 * Creates a sale price list through the three tabs of its form (details, products, prices): $12.50
 * for the seeded variant typed into the price grid. Kasse stores 1250 cents.
 */
export const createPriceList: DashboardAction = {
  name: "price-list-create",
  async run({ page, kasse, api, seeded, shot }) {
    const { product } = await api<{ product: { title: string } }>("GET", `/admin/products/${seeded.productId}`);
    await open(page, kasse.origin, "/price-lists/create");
    await fill(page, "title", "Black Friday");
    await fill(page, "description", "One day only");
    await click(page, "Continue");
    await page
      .getByRole("row", { name: new RegExp(product.title) })
      .first()
      .getByRole("checkbox")
      .click();
    await click(page, "Continue");
    const cell = page.locator(
      `[data-field="products.${seeded.productId}.variants.${seeded.variantId}.currency_prices.usd.0.amount"]`,
    );
    await cell.waitFor({ state: "attached", timeout: 20_000 });
    // A grid cell: selected by a click on it, edited by typing, committed by Enter.
    await cell.locator("xpath=ancestor::*[@data-container-id or @role='gridcell'][1]").click();
    await page.keyboard.type("12.50");
    await page.keyboard.press("Enter");
    await click(page, "Save");
    await toast(page);
    const priceListId = (await landedOn(page, /^\/app\/price-lists\/plist_/)).split("/").pop()!;
    const { price_list } = await api<{ price_list: PriceList }>("GET", `/admin/price-lists/${priceListId}`);
    assert.equal(price_list.title, "Black Friday");
    assert.equal(price_list.type, "sale");
    assert.deepEqual(
      price_list.prices.map((p) => [p.variant_id, p.currency_code, p.amount]),
      [[seeded.variantId, "usd", 1250]],
    );
    await shot("created");
  },
};
