import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing";

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminHeaders();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = admin) => t.app.inject({ method: "GET", url, headers });

describe("admin payment providers", () => {
  it("lists the providers this process runs, all enabled, with filters, order, fields and paging", async () => {
    const all = await get("/admin/payments/payment-providers");
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
    expect((await get("/admin/payments/payment-providers?id[]=pp_test")).json()).toMatchObject({ count: 1, payment_providers: [{ id: "pp_test" }] });
    expect((await get("/admin/payments/payment-providers?is_enabled=false")).json()).toMatchObject({ count: 0, payment_providers: [] });
    expect((await get("/admin/payments/payment-providers?order=-id&limit=1")).json()).toEqual({ payment_providers: [{ id: "pp_test", is_enabled: true }], count: 2, offset: 0, limit: 1 });
    expect((await get("/admin/payments/payment-providers?offset=1&fields=id")).json().payment_providers).toEqual([{ id: "pp_test" }]);
  });

  it("rejects bad queries with 400 and requires an admin", async () => {
    for (const query of ["order=name", "limit=-1", "is_enabled=maybe", "unknown=1"]) {
      const res = await get(`/admin/payments/payment-providers?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await get("/admin/payments/payment-providers", {})).statusCode).toBe(401);
    expect((await get("/admin/payments/payment-providers", await t.customerHeaders("cus_1"))).statusCode).toBe(403);
  });
});
