import assert from "node:assert/strict";
import { createApi } from "../api";
import { click, fill, landedOn, open } from "../ui";
import { eventually, type DashboardAction } from "./action";

interface TaxRate {
  id: string;
  code: string;
  rate: number | null;
  is_default: boolean;
  rules: Array<{ reference: string; reference_id: string }>;
}
interface CartLine {
  product_id: string;
  tax_lines: Array<{ code: string; rate: number }>;
}

const TIMEOUT = 20_000;

/**
 * On Germany's tax region page, "Create override": a 7 % rate "DE-REDUCED" whose target is the
 * seeded product, picked in the form's product table. Kasse stores the rate with its product rule,
 * and a Europe cart shipping to Germany taxes that product's line at 7 %.
 */
export const createTaxOverride: DashboardAction = {
  name: "tax-override-create",
  async run({ page, kasse, api, seeded, shot }) {
    const [{ tax_regions }, { product }, { regions }] = await Promise.all([
      api<{ tax_regions: Array<{ id: string; province_code: string | null }> }>(
        "GET",
        "/admin/tax-regions?country_code=de",
      ),
      api<{ product: { title: string; variants: Array<{ id: string }> } }>(
        "GET",
        `/admin/products/${seeded.productId}`,
      ),
      api<{ regions: Array<{ id: string; currency_code: string }> }>("GET", "/admin/regions?limit=100"),
    ]);
    const germany = tax_regions.find((r) => r.province_code === null);
    assert.ok(germany, "the demo store has a tax region for Germany");
    const europe = regions.find((r) => r.currency_code === "eur");
    assert.ok(europe, "the demo store has a Europe region");

    await open(page, kasse.origin, `/settings/tax-regions/${germany.id}/overrides/create`);
    await fill(page, "name", "Reduced");
    await fill(page, "code", "DE-REDUCED");
    const rate = page.locator('[name="rate"]').last();
    await rate.click({ timeout: TIMEOUT });
    await page.keyboard.type("7");
    // The product target (the one the form starts with): its table, searched, the product ticked.
    await page.getByRole("button", { name: "Search for products" }).last().click({ timeout: TIMEOUT });
    const search = page
      .getByPlaceholder(/search/i)
      .filter({ visible: true })
      .last();
    await search.waitFor({ state: "visible", timeout: TIMEOUT });
    await search.fill(product.title);
    await page
      .getByRole("row", { name: new RegExp(product.title) })
      .first()
      .getByRole("checkbox")
      .click({ timeout: TIMEOUT });
    await click(page, "Save");
    await shot("details");
    await click(page, "Save");
    await landedOn(page, new RegExp(`^/app/settings/tax-regions/${germany.id}$`));

    const override = await eventually(async () => {
      const { tax_rates } = await api<{ tax_rates: TaxRate[] }>(
        "GET",
        `/admin/tax-rates?tax_region_id=${germany.id}&is_default=false`,
      );
      const found = tax_rates.find((r) => r.code === "DE-REDUCED");
      assert.ok(found, "the override was created");
      return found;
    });
    assert.equal(override.rate, 7);
    assert.deepEqual(
      override.rules.map((r) => [r.reference, r.reference_id]),
      [["product", seeded.productId]],
    );

    // The storefront: the product's line in a cart shipping to Germany is taxed at the override.
    const store = createApi(kasse.origin, { "x-publishable-api-key": kasse.publishableKey });
    const { cart } = await store<{ cart: { id: string } }>("POST", "/store/carts", { region_id: europe.id });
    await store("POST", `/store/carts/${cart.id}/line-items`, { variant_id: seeded.variantId, quantity: 1 });
    const { cart: taxed } = await store<{ cart: { items: CartLine[] } }>("POST", `/store/carts/${cart.id}`, {
      shipping_address: {
        first_name: "Ada",
        last_name: "Lovelace",
        address_1: "1 Hauptstr",
        city: "Berlin",
        country_code: "de",
      },
    });
    assert.deepEqual(
      taxed.items.map((i) => [i.product_id, i.tax_lines.map((l) => [l.code, l.rate])]),
      [[seeded.productId, [["DE-REDUCED", 7]]]],
    );
    await shot("created");
  },
};
