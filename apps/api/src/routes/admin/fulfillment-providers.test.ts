import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { expectInvalidData } from "../../testing/invalid";

const t = useTestApp();

describe("admin fulfillment providers", () => {
  it("lists the registered providers, for any live location, with filters, fields and paging", async () => {
    const all = await t.admin.get("/admin/fulfillment-providers");
    expect(all.statusCode).toBe(200);
    // The process's registry: the manual provider and the test one every process registers (as `pp_test` for
    // payments), by id as every provider list is ordered.
    expect(all.json()).toEqual({
      fulfillment_providers: [
        { id: "ful_test", is_enabled: true },
        { id: "manual_manual", is_enabled: true },
      ],
      count: 2,
      offset: 0,
      limit: 15,
    });
    expect(t.app.modules.fulfillmentProviders.ids()).toEqual(["manual_manual", "ful_test"]);
    const location = (await t.admin.post("/admin/stock-locations", { name: "Depot" })).json().stock_location;
    const atLocation = await t.admin.get(`/admin/fulfillment-providers?stock_location_id=${location.id}&fields=id`);
    expect(atLocation.json(), atLocation.body).toMatchObject({
      fulfillment_providers: [{ id: "ful_test" }, { id: "manual_manual" }],
    });
    // A location that turned a provider off lists it no more; another location still does.
    await t.admin.post(`/admin/stock-locations/${location.id}/fulfillment-providers`, { remove: ["ful_test"] });
    const depot = await t.admin.get(`/admin/fulfillment-providers?stock_location_id=${location.id}&fields=id`);
    expect(depot.json().fulfillment_providers).toEqual([{ id: "manual_manual" }]);
    const shop = (await t.admin.post("/admin/stock-locations", { name: "Shop" })).json().stock_location;
    const both = await t.admin.get(
      `/admin/fulfillment-providers?stock_location_id=${location.id}&stock_location_id=${shop.id}&fields=id`,
    );
    expect(both.json().fulfillment_providers).toEqual([{ id: "ful_test" }, { id: "manual_manual" }]);
    expect((await t.admin.get("/admin/fulfillment-providers?stock_location_id[0]=sloc_missing")).json().count).toBe(0);
    expect((await t.admin.get("/admin/fulfillment-providers?is_enabled=false")).json().count).toBe(0);
    expect((await t.admin.get("/admin/fulfillment-providers?id[]=other")).json().count).toBe(0);
    expect((await t.admin.get("/admin/fulfillment-providers?q=manual&offset=1")).json()).toEqual({
      fulfillment_providers: [],
      count: 1,
      offset: 1,
      limit: 15,
    });
    expect(
      (await t.admin.get("/admin/fulfillment-providers?order=-id&fields=id")).json().fulfillment_providers,
    ).toEqual([{ id: "manual_manual" }, { id: "ful_test" }]);
  });

  it("answers each provider's own options; an unknown provider is 404", async () => {
    expect((await t.admin.get("/admin/fulfillment-providers/manual_manual/options")).json()).toEqual({
      fulfillment_options: [{ id: "manual-fulfillment" }, { id: "manual-fulfillment-return", is_return: true }],
    });
    expect((await t.admin.get("/admin/fulfillment-providers/ful_test/options")).json()).toEqual({
      fulfillment_options: [{ id: "ful-test" }, { id: "ful-test-return", is_return: true }],
    });
    expect((await t.admin.get("/admin/fulfillment-providers/fedex/options")).statusCode).toBe(404);
  });

  it("refuses bad queries and non-admins", async () => {
    await expectInvalidData(
      t.admin,
      "/admin/fulfillment-providers?",
      "order=name",
      "limit=-1",
      "is_enabled=maybe",
      "unknown=1",
    );
    expect((await t.store.get("/admin/fulfillment-providers")).statusCode).toBe(401);
  });
});
