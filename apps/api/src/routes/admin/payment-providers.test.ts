import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { expectInvalidData } from "../../testing/invalid";

const t = useTestApp();

describe("admin payment providers", () => {
  it("lists the providers this process runs, all enabled, with filters, order, fields and paging", async () => {
    const all = await t.admin.get("/admin/payments/payment-providers");
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({
      payment_providers: [
        { id: "pp_system_default", is_enabled: true },
        { id: "pp_test", is_enabled: true },
      ],
      count: 2,
      offset: 0,
      limit: 15,
    });
    expect((await t.admin.get("/admin/payments/payment-providers?id[]=pp_test")).json()).toMatchObject({
      count: 1,
      payment_providers: [{ id: "pp_test" }],
    });
    expect((await t.admin.get("/admin/payments/payment-providers?is_enabled=false")).json()).toMatchObject({
      count: 0,
      payment_providers: [],
    });
    expect((await t.admin.get("/admin/payments/payment-providers?order=-id&limit=1")).json()).toEqual({
      payment_providers: [{ id: "pp_test", is_enabled: true }],
      count: 2,
      offset: 0,
      limit: 1,
    });
    expect(
      (await t.admin.get("/admin/payments/payment-providers?offset=1&fields=id")).json().payment_providers,
    ).toEqual([{ id: "pp_test" }]);
  });

  it("rejects bad queries with 400 and requires an admin", async () => {
    await expectInvalidData(
      t.admin,
      "/admin/payments/payment-providers?",
      "order=name",
      "limit=-1",
      "is_enabled=maybe",
      "unknown=1",
    );
    expect((await t.store.get("/admin/payments/payment-providers", {})).statusCode).toBe(401);
    expect((await t.store.get("/admin/payments/payment-providers", await t.customerHeaders("cus_1"))).statusCode).toBe(
      403,
    );
  });
});
