import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { click, fill, landedOn, open, toast } from "../ui";
import type { DashboardAction } from "./action";

interface Rule {
  attribute: string;
  operator: string;
  values: Array<{ value: string }>;
}
interface Promotion {
  id: string;
  code: string;
  campaign_id: string | null;
  rules: Rule[];
  application_method: { type: string; target_type: string; value: number; currency_code: string; target_rules: Rule[] };
  campaign: {
    id: string;
    name: string;
    campaign_identifier: string;
    budget: { type: string; limit: number; currency_code: string } | null;
  } | null;
}

const TIMEOUT = 20_000;

/** Opens the Radix select showing `placeholder` (the one condition row still to fill) and picks `option`. */
async function choose(page: Page, placeholder: string, option: string | RegExp): Promise<void> {
  const trigger = page.getByRole("combobox").filter({ hasText: placeholder, visible: true }).last();
  await trigger.waitFor({ state: "visible", timeout: TIMEOUT });
  await trigger.click();
  await page
    .getByRole("option", { name: option, exact: typeof option === "string" })
    .last()
    .click();
}

/** Types `search` into the value combobox showing `placeholder` and picks the option named `option`. */
async function pick(page: Page, placeholder: string, search: string, option: string | RegExp): Promise<void> {
  const input = page.getByPlaceholder(placeholder, { exact: true }).filter({ visible: true }).last();
  await input.waitFor({ state: "visible", timeout: TIMEOUT });
  await input.click();
  // Typed into the focused input: once open, the combobox no longer shows its placeholder.
  await page.keyboard.type(search);
  await page
    .getByRole("option", { name: option, exact: typeof option === "string" })
    .first()
    .click({ timeout: TIMEOUT });
}

/**
 * Creates a promotion through the three tabs of its form: "Amount off products", code DASH10,
 * $10.00 off each item in USD (the currency is a condition the form requires), for customers of
 * the seeded region, on the seeded product, in a new campaign with a $500.00 spend budget.
 * Kasse stores 1000 and 50000 cents, the region and product rules, and the campaign.
 */
export const createPromotion: DashboardAction = {
  name: "promotion-create",
  async run({ page, kasse, api, seeded, shot }) {
    const [{ region }, { product }] = await Promise.all([
      api<{ region: { name: string } }>("GET", `/admin/regions/${seeded.regionId}`),
      api<{ product: { title: string } }>("GET", `/admin/products/${seeded.productId}`),
    ]);
    await open(page, kasse.origin, "/promotions/create");
    // The first template, "Amount off products" (fixed, each item), is chosen.
    await click(page, "Continue");
    await fill(page, "code", "DASH10");
    // Who can use it: the required currency condition, then a region condition.
    await pick(page, "Select Value", "US", /US Dollar/);
    await page.getByRole("button", { name: "Add condition", exact: true }).first().click();
    await choose(page, "Select Attribute", "Region");
    await choose(page, "Select Operator", "In");
    await pick(page, "Select Values", region.name, region.name);
    await page.getByRole("heading", { name: "Who can use this code?" }).click();
    await fill(page, "application_method.value", "10.00");
    // What it applies to: the seeded product.
    await page.getByRole("button", { name: "Add condition", exact: true }).last().click();
    await choose(page, "Select Attribute", "Product");
    await choose(page, "Select Operator", "In");
    await pick(page, "Select Values", product.title, product.title);
    await page.getByRole("heading", { name: "What items will the promotion be applied to?" }).click();
    await shot("details");
    await click(page, "Continue");
    await page.getByRole("radio", { name: /New Campaign/ }).click();
    await fill(page, "campaign.name", "Dashboard week");
    await fill(page, "campaign.campaign_identifier", "dashboard-week");
    await page.getByRole("radio", { name: /^Spend/ }).click();
    await fill(page, "campaign.budget.limit", "500.00");
    await click(page, "Save");
    await toast(page);
    const promotionId = (await landedOn(page, /^\/app\/promotions\/promo_/)).split("/").pop()!;

    const { promotion } = await api<{ promotion: Promotion }>("GET", `/admin/promotions/${promotionId}`);
    assert.equal(promotion.code, "DASH10");
    assert.deepEqual(
      {
        type: promotion.application_method.type,
        target_type: promotion.application_method.target_type,
        value: promotion.application_method.value,
        currency_code: promotion.application_method.currency_code,
      },
      { type: "fixed", target_type: "items", value: 1000, currency_code: "usd" },
    );
    const shape = (rules: Rule[]) => rules.map((r) => [r.attribute, r.operator, r.values.map((v) => v.value)]);
    assert.deepEqual(shape(promotion.rules), [["region.id", "in", [seeded.regionId]]]);
    assert.deepEqual(shape(promotion.application_method.target_rules), [
      ["items.product.id", "in", [seeded.productId]],
    ]);
    assert.ok(promotion.campaign, "the promotion is in a campaign");
    assert.equal(promotion.campaign_id, promotion.campaign.id);
    assert.deepEqual(
      {
        name: promotion.campaign.name,
        campaign_identifier: promotion.campaign.campaign_identifier,
        budget: promotion.campaign.budget && {
          type: promotion.campaign.budget.type,
          limit: promotion.campaign.budget.limit,
          currency_code: promotion.campaign.budget.currency_code,
        },
      },
      {
        name: "Dashboard week",
        campaign_identifier: "dashboard-week",
        budget: { type: "spend", limit: 50000, currency_code: "usd" },
      },
    );
    await shot("created");
  },
};
