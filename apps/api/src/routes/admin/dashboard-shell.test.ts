import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { expectInvalidData } from "../../testing/invalid";

const t = useTestApp();

describe("what the admin dashboard asks on every page", () => {
  it("answers that no optional feature is on, before login too", async () => {
    expect((await t.store.get("/admin/feature-flags")).statusCode).toBe(200);
    const res = await t.admin.get("/admin/feature-flags");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      feature_flags: {
        view_configurations: false,
        rbac: false,
        translation: false,
        index_engine: false,
        caching: false,
      },
    });
  });

  it("answers that no layout is saved, for every view the dashboard names", async () => {
    for (const entity of [
      "sidebar",
      "topbar",
      "settings.sidebar",
      "order.list",
      "inventory_item.details",
      "price_list.list",
    ]) {
      const res = await t.admin.get(`/admin/layouts/${entity}/configuration`);
      expect(res.statusCode, entity).toBe(200);
      expect(res.json()).toEqual({
        personal_configuration: null,
        default_configuration: null,
        active_scope: "default",
      });
    }
    const list = await t.admin.get("/admin/layouts/configurations?limit=1&fields=id");
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ layout_configurations: [], count: 0, offset: 0, limit: 1 });
  });

  it("answers that there are no search indexes and no plugins", async () => {
    expect((await t.admin.get("/admin/search-indexes")).json()).toEqual({ search_indexes: [], enabled: false });
    expect((await t.admin.get("/admin/plugins")).json()).toEqual({ plugins: [] });
  });

  it("refuses bad input and callers who are not admins", async () => {
    await expectInvalidData(
      t.admin,
      "/admin/",
      "feature-flags?x=1",
      "layouts/Order%20List/configuration",
      "layouts/a..b/configuration",
      "layouts/configurations?limit=-1",
      "plugins?x=1",
    );
    for (const url of ["/admin/layouts/sidebar/configuration", "/admin/search-indexes", "/admin/plugins"]) {
      expect((await t.store.get(url)).statusCode, url).toBe(401);
      expect((await t.store.get(url, await t.customerHeaders("cus_1"))).statusCode, url).toBe(403);
    }
  });
});

describe("before login", () => {
  it("lists the sign-in methods: email and password as a form", async () => {
    for (const actor of ["user", "customer"]) {
      const res = await t.store.get(`/auth/${actor}/providers`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        providers: [
          { id: "emailpass", identifier: "emailpass", display_name: "Email and password", flow: "credentials" },
        ],
      });
    }
    const bad = await t.store.get("/auth/robot/providers");
    expect(bad.statusCode).toBe(400);
    expect((await t.store.get("/auth/user/providers?x=1")).statusCode).toBe(400);
  });

  it("says that no cloud sign-in is offered", async () => {
    const res = await t.store.get("/cloud/auth");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ enabled: false });
    expect((await t.store.get("/cloud/auth?x=1")).statusCode).toBe(400);
    // The dashboard built for Medusa's dialect asks it under the dialect's base path, as every shell request.
    for (const url of ["/medusa/cloud/auth", "/medusa/auth/user/providers", "/medusa/admin/feature-flags"])
      expect((await t.store.get(url)).statusCode, url).toBe(200);
    expect((await t.admin.get("/medusa/admin/stores")).statusCode).toBe(200);
  });
});
