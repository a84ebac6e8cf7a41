import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createApi } from "../api";
import { click, clickMenuItem, fill, open, settle, toast } from "../ui";
import { eventually, type DashboardAction } from "./action";

interface ShippingOption {
  id: string;
  name: string;
  service_zone_id: string;
  shipping_option_type_id: string | null;
  type: { id?: string; code: string; label: string } | null;
  prices: Array<{ currency_code: string; region_id: string | null; amount: number }>;
  rules: Array<{ attribute: string; operator: string; value: unknown }>;
}
interface Location {
  fulfillment_sets: Array<{
    id: string;
    type: string;
    service_zones: Array<{ id: string; name: string; geo_zones: Array<{ type: string; country_code: string }> }>;
  }>;
}

const TIMEOUT = 20_000;

/** Opens the combobox of the form field labelled `label`, types `search` and picks the option named `option`. */
async function pick(page: Page, label: string, search: string, option: string | RegExp): Promise<void> {
  const input = page.getByLabel(label, { exact: true }).filter({ visible: true }).last();
  await input.waitFor({ state: "visible", timeout: TIMEOUT });
  await input.click();
  await page.keyboard.type(search);
  await page.getByRole("option", { name: option }).first().click({ timeout: TIMEOUT });
}

/**
 * Sets up shipping from a new stock location's page as a merchant does: a shipping option type
 * ("Express") through its settings form; on the location, "Enable" shipping (the fulfillment
 * set), a service zone "Germany" with Germany as its area, and in it a shipping option "Express
 * Germany" of that type at €12.50. Kasse stores the zone's country geo zone and the option with
 * 1250 cents; a cart of the Europe region with an address in Germany is offered it, one in France
 * is not.
 */
export const shippingSetup: DashboardAction = {
  name: "shipping-setup",
  async run({ page, kasse, api, shot }) {
    const { regions } = await api<{ regions: Array<{ id: string; currency_code: string }> }>(
      "GET",
      "/admin/regions?limit=100",
    );
    const europe = regions.find((r) => r.currency_code === "eur");
    assert.ok(europe, "the demo store has a Europe region");
    const { stock_location } = await api<{ stock_location: { id: string } }>("POST", "/admin/stock-locations", {
      name: "Berlin depot",
    });
    const locationId = stock_location.id;

    await open(page, kasse.origin, "/settings/locations/shipping-option-types/create");
    await fill(page, "label", "Express");
    await fill(page, "code", "express");
    await click(page, "Create");
    await toast(page);
    const { shipping_option_types } = await api<{ shipping_option_types: Array<{ id: string }> }>(
      "GET",
      "/admin/shipping-option-types?code=express",
    );
    assert.equal(shipping_option_types.length, 1, "the shipping option type was created");
    const typeId = shipping_option_types[0]!.id;

    // Shipping's section: its action menu (next to its status badge) offers "Enable".
    await open(page, kasse.origin, `/settings/locations/${locationId}`);
    await page
      .getByRole("heading", { name: "Shipping", exact: true })
      .locator("xpath=..")
      .getByRole("button")
      .last()
      .click();
    await clickMenuItem(page, "Enable");
    await toast(page);
    const setId = await eventually(async () => {
      const { stock_location: location } = await api<{ stock_location: Location }>(
        "GET",
        `/admin/stock-locations/${locationId}?fields=*fulfillment_sets`,
      );
      const set = location.fulfillment_sets.find((s) => s.type === "shipping");
      assert.ok(set, "shipping is enabled: the location has a shipping fulfillment set");
      return set.id;
    });

    await open(page, kasse.origin, `/settings/locations/${locationId}/fulfillment-set/${setId}/service-zones/create`);
    await fill(page, "name", "Germany");
    await click(page, "Manage areas");
    const search = page
      .getByPlaceholder(/search/i)
      .filter({ visible: true })
      .last();
    await search.waitFor({ state: "visible", timeout: TIMEOUT });
    await search.fill("Germany");
    await page
      .getByRole("row", { name: /Germany/ })
      .first()
      .getByRole("checkbox")
      .click({ timeout: TIMEOUT });
    await click(page, "Save");
    await shot("zone");
    await click(page, "Save");
    await toast(page);
    const zoneId = await eventually(async () => {
      const { stock_location: location } = await api<{ stock_location: Location }>(
        "GET",
        `/admin/stock-locations/${locationId}?fields=*fulfillment_sets,*fulfillment_sets.service_zones,*fulfillment_sets.service_zones.geo_zones`,
      );
      const zone = location.fulfillment_sets.find((s) => s.id === setId)?.service_zones[0];
      assert.ok(zone, "the service zone was created");
      assert.equal(zone.name, "Germany");
      assert.deepEqual(
        zone.geo_zones.map((g) => [g.type, g.country_code]),
        [["country", "de"]],
      );
      return zone.id;
    });

    await open(
      page,
      kasse.origin,
      `/settings/locations/${locationId}/fulfillment-set/${setId}/service-zone/${zoneId}/shipping-option/create`,
    );
    await fill(page, "name", "Express Germany");
    await pick(page, "Shipping profile", "Default", /Default/);
    await pick(page, "Shipping option type", "Express", "Express");
    await pick(page, "Fulfillment provider", "manual", /manual/i);
    // A Radix select (the last combobox of the form, beside the provider's): its options are the provider's.
    const fulfillmentOption = page.getByRole("combobox").filter({ visible: true }).last();
    await fulfillmentOption.click({ timeout: TIMEOUT });
    await page.getByRole("option").first().click({ timeout: TIMEOUT });
    await shot("option-details");
    await click(page, "Continue");
    const cell = page.locator('[data-field="currency_prices.eur"]');
    await cell.waitFor({ state: "attached", timeout: TIMEOUT });
    // A grid cell: selected by a click on it, edited by typing, committed by Enter.
    await cell.locator("xpath=ancestor::*[@data-container-id or @role='gridcell'][1]").click();
    await page.keyboard.type("12.50");
    await page.keyboard.press("Enter");
    await shot("option-prices");
    await click(page, "Save");
    await toast(page);
    await settle(page);

    const option = await eventually(async () => {
      const { shipping_options } = await api<{ shipping_options: ShippingOption[] }>(
        "GET",
        `/admin/shipping-options?service_zone_id=${zoneId}`,
      );
      assert.equal(shipping_options.length, 1, "the shipping option was created in the zone");
      return shipping_options[0]!;
    });
    assert.equal(option.name, "Express Germany");
    assert.equal(option.shipping_option_type_id, typeId);
    assert.deepEqual(option.type && [option.type.code, option.type.label], ["express", "Express"]);
    assert.deepEqual(
      option.prices.filter((p) => p.amount !== 0).map((p) => [p.currency_code, p.region_id, p.amount]),
      [["eur", null, 1250]],
    );
    assert.ok(
      option.rules.some((r) => r.attribute === "enabled_in_store" && r.value === "true"),
      "the option is enabled in the store",
    );

    // The storefront: offered to a cart shipping to Germany, not to one shipping to France.
    const store = createApi(kasse.origin, { "x-publishable-api-key": kasse.publishableKey });
    const offered = async (country: string) => {
      const { cart } = await store<{ cart: { id: string } }>("POST", "/store/carts", { region_id: europe.id });
      await store("POST", `/store/carts/${cart.id}`, {
        shipping_address: {
          first_name: "Ada",
          last_name: "Lovelace",
          address_1: "1 Hauptstr",
          city: "Berlin",
          country_code: country,
        },
      });
      const { shipping_options } = await store<{ shipping_options: Array<{ id: string; amount: number }> }>(
        "GET",
        `/store/shipping-options?cart_id=${cart.id}`,
      );
      return shipping_options.find((o) => o.id === option.id);
    };
    assert.equal((await offered("de"))?.amount, 1250, "a cart shipping to Germany is offered the option at 1250");
    assert.equal(await offered("fr"), undefined, "a cart shipping to France is not offered the option");

    await open(page, kasse.origin, `/settings/locations/${locationId}`);
    await shot("created");
  },
};
