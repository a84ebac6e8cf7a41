import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();
let regionId: string;
beforeAll(async () => {
  const region = await t.app.modules.region.create({
    name: "US",
    currency_code: "usd",
    payment_providers: ["pp_system_default", "pp_test"],
  });
  regionId = region.id;
});

describe("GET /store/payment-providers", () => {
  it("lists the region's providers", async () => {
    const res = await t.app.inject({ method: "GET", url: `/store/payment-providers?region_id=${regionId}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      payment_providers: [
        { id: "pp_system_default", is_enabled: true },
        { id: "pp_test", is_enabled: true },
      ],
      count: 2,
      offset: 0,
      limit: 15,
    });
  });

  it("needs a known region", async () => {
    expect((await t.app.inject({ method: "GET", url: "/store/payment-providers" })).json().type).toBe("invalid_data");
    const unknown = await t.app.inject({ method: "GET", url: "/store/payment-providers?region_id=reg_missing" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().type).toBe("not_found");
  });
});
