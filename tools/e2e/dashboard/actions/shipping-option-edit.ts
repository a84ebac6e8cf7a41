import assert from "node:assert/strict";
import { open } from "../ui";
import type { DashboardAction } from "./action";

interface Location {
  fulfillment_sets: Array<{ id: string; service_zones: Array<{ id: string }> }>;
}

/**
 * An option created through the API without a type (as before shipping option types existed) has the
 * default type, so the dashboard's edit drawer (which reads `type.id`) opens on it with its name.
 */
export const editTypelessShippingOption: DashboardAction = {
  name: "shipping-option-edit-typeless",
  async run({ page, kasse, api, seeded, shot }) {
    const locationId = seeded.more.shippingLocationId;
    const { stock_location } = await api<{ stock_location: Location }>(
      "GET",
      `/admin/stock-locations/${locationId}?fields=*fulfillment_sets,*fulfillment_sets.service_zones`,
    );
    const set = stock_location.fulfillment_sets[0]!;
    const zoneId = set.service_zones[0]!.id;
    const { shipping_option } = await api<{ shipping_option: { id: string; type: { id: string; code: string } } }>(
      "POST",
      "/admin/shipping-options",
      {
        name: "Untyped courier",
        service_zone_id: zoneId,
        prices: [{ currency_code: "eur", amount: 500 }],
      },
    );
    assert.equal(shipping_option.type.code, "default", "an option created without a type gets the default type");
    await open(
      page,
      kasse.origin,
      `/settings/locations/${locationId}/fulfillment-set/${set.id}/service-zone/${zoneId}/shipping-option/${shipping_option.id}/edit`,
    );
    const name = page.locator('[name="name"]').last();
    await name.waitFor({ state: "visible", timeout: 20_000 });
    assert.equal(await name.inputValue(), "Untyped courier", "the edit drawer shows the option");
    assert.ok(
      (await page.getByText("Default", { exact: true }).filter({ visible: true }).count()) > 0,
      "the drawer preselects the option's type",
    );
    await shot("drawer");
  },
};
