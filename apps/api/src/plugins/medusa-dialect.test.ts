import { beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { useTestApp } from "../testing";
import { US_ADDRESS } from "../testing/checkout";
import { withCurrencyFields } from "./medusa-dialect";

/**
 * The same flows through the contract's root (integer minor units) and Medusa's dialect under
 * `/medusa` (major units): a product priced by the admin in one dialect reads the same in the
 * other, a checkout gives the same order, a capture and a refund move the same money.
 */
const t = useTestApp();
let admin: Record<string, string>;
let channelId: string;
const regions: Record<"usd" | "jpy" | "kwd", string> = { usd: "", jpy: "", kwd: "" };
const country = { usd: "us", jpy: "jp", kwd: "kw" } as const;

beforeAll(async () => {
  admin = await t.adminHeaders();
  const m = t.app.modules;
  channelId = (await m.salesChannel.getOrCreateDefault()).id;
  for (const code of ["usd", "jpy", "kwd"] as const) {
    regions[code] = (
      await m.region.create({
        name: code.toUpperCase(),
        currency_code: code,
        countries: [country[code]],
        automatic_taxes: false,
      })
    ).id;
  }
}, 60_000);

type Dialect = "" | "/medusa";
const DIALECTS: [string, Dialect][] = [
  ["root", ""],
  ["medusa", "/medusa"],
];
/** An amount as a dialect speaks it: minor units at the root, major units under /medusa. */
const money = (d: Dialect, minor: number, digits = 2) => (d === "" ? minor : minor / 10 ** digits);

async function call(
  method: "GET" | "POST" | "DELETE",
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}
async function ok(
  method: "GET" | "POST" | "DELETE",
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await call(method, url, payload, headers);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
  return res.json();
}

/** A product with one variant priced in USD, JPY and KWD (`1999` minor units each), created through `d`. */
async function createProduct(d: Dialect, title: string) {
  const prices = [
    { currency_code: "usd", amount: money(d, 1999, 2) },
    { currency_code: "jpy", amount: money(d, 1999, 0) },
    { currency_code: "kwd", amount: money(d, 1999, 3) },
  ];
  const body = {
    title,
    status: "published",
    sales_channels: [{ id: channelId }],
    options: [{ title: "Size", values: ["M"] }],
    variants: [{ title: "M", manage_inventory: false, options: { Size: "M" }, prices }],
  };
  return (await ok("POST", `${d}/admin/products`, body, admin)).product;
}

describe("withCurrencyFields", () => {
  it("names currency_code beside every narrowed selection, and leaves default-keeping ones", () => {
    expect(withCurrencyFields("id,total")).toBe("id,total,currency_code");
    expect(withCurrencyFields("id,items.total,payment_collections.payments.amount")).toBe(
      "id,items.total,payment_collections.payments.amount,currency_code,items.currency_code,payment_collections.currency_code,payment_collections.payments.currency_code",
    );
    expect(withCurrencyFields("*variants.calculated_price,+metadata")).toBe("*variants.calculated_price,+metadata");
    expect(withCurrencyFields("id,currency_code")).toBe("id,currency_code");
    expect(withCurrencyFields("*,-currency_code,-items.currency_code")).toBe("*");
  });
});

describe("Medusa's dialect: money in major units at the boundary", () => {
  for (const [name, d] of DIALECTS) {
    it(`${name}: the admin prices a product, each dialect reads it in its own units, for 0, 2 and 3 decimal currencies`, async () => {
      const product = await createProduct(d, `Shirt ${name}`);
      const written = Object.fromEntries(
        product.variants[0].prices.map((p: { currency_code: string; amount: number }) => [p.currency_code, p.amount]),
      );
      expect(written).toEqual({ usd: money(d, 1999, 2), jpy: 1999, kwd: money(d, 1999, 3) });

      // Stored once, in minor units: both dialects read the same price.
      for (const [code, digits] of [
        ["usd", 2],
        ["jpy", 0],
        ["kwd", 3],
      ] as const) {
        const root = (
          await ok("GET", `/store/products/${product.id}?region_id=${regions[code]}&fields=*variants.calculated_price`)
        ).product;
        expect(root.variants[0].calculated_price).toMatchObject({
          calculated_amount: 1999,
          original_amount: 1999,
          currency_code: code,
        });
        const medusa = (
          await ok(
            "GET",
            `/medusa/store/products/${product.id}?region_id=${regions[code]}&fields=*variants.calculated_price`,
          )
        ).product;
        expect(medusa.variants[0].calculated_price).toMatchObject({
          calculated_amount: 1999 / 10 ** digits,
          original_amount: 1999 / 10 ** digits,
          currency_code: code,
        });
      }
      const raw = await call("GET", `/medusa/admin/products/${product.id}`, undefined, admin);
      expect(raw.body).toContain('"amount":19.99');
      expect(raw.body).toContain('"amount":1.999');
    });

    it(`${name}: a checkout gives the same order, and a capture and a refund move the same money`, async () => {
      const product = await createProduct(d, `Checkout ${name}`);
      const variantId = product.variants[0].id;
      // A price given for a region is read in the region's currency.
      const regional = (
        await ok(
          "POST",
          `${d}/admin/shipping-options`,
          {
            name: `Regional ${name}`,
            price_type: "flat",
            prices: [
              { region_id: regions.kwd, amount: money(d, 1500, 3) },
              { region_id: regions.jpy, amount: 700 },
            ],
          },
          admin,
        )
      ).shipping_option;
      expect(
        (await ok("GET", `/admin/shipping-options/${regional.id}`, undefined, admin)).shipping_option.prices
          .map((p: { amount: number }) => p.amount)
          .sort(),
      ).toEqual([1500, 700].sort());
      const option = (
        await ok(
          "POST",
          `${d}/admin/shipping-options`,
          { name: `Standard ${name}`, price_type: "flat", prices: [{ currency_code: "usd", amount: money(d, 500) }] },
          admin,
        )
      ).shipping_option;
      expect(option.prices[0]).toMatchObject({ currency_code: "usd", amount: money(d, 500) });

      const { cart } = await ok("POST", `${d}/store/carts`, { region_id: regions.usd });
      const withLine = (
        await ok("POST", `${d}/store/carts/${cart.id}/line-items`, { variant_id: variantId, quantity: 3 })
      ).cart;
      expect(withLine.items[0]).toMatchObject({
        quantity: 3,
        unit_price: money(d, 1999),
        subtotal: money(d, 5997),
        total: money(d, 5997),
      });
      await ok("POST", `${d}/store/carts/${cart.id}`, {
        email: "ada@example.com",
        shipping_address: US_ADDRESS,
        billing_address: US_ADDRESS,
      });
      const options = (await ok("GET", `${d}/store/shipping-options?cart_id=${cart.id}`)).shipping_options;
      expect(options.find((o: { id: string }) => o.id === option.id)).toMatchObject({
        amount: money(d, 500),
        calculated_price: { calculated_amount: money(d, 500), currency_code: "usd" },
      });
      const shipped = (await ok("POST", `${d}/store/carts/${cart.id}/shipping-methods`, { option_id: option.id })).cart;
      expect(shipped).toMatchObject({
        item_subtotal: money(d, 5997),
        shipping_total: money(d, 500),
        total: money(d, 6497),
      });
      const { payment_collection } = await ok("POST", `${d}/store/payment-collections`, { cart_id: cart.id });
      expect(payment_collection.amount).toBe(money(d, 6497));
      await ok("POST", `${d}/store/payment-collections/${payment_collection.id}/payment-sessions`, {
        provider_id: "pp_system_default",
      });
      const placed = await ok("POST", `${d}/store/carts/${cart.id}/complete`);
      expect(placed.type).toBe("order");
      expect(placed.order).toMatchObject({
        currency_code: "usd",
        total: money(d, 6497),
        subtotal: money(d, 5997),
        shipping_total: money(d, 500),
      });

      const orderId = placed.order.id;
      const root = (await ok("GET", `/admin/orders/${orderId}`, undefined, admin)).order;
      expect(root).toMatchObject({ total: 6497, item_total: 5997 });
      const paymentId = root.payment_collections[0].payments[0].id;
      if (d) {
        const finer = await call("POST", `${d}/admin/payments/${paymentId}/capture`, { amount: 10.015 }, admin);
        expect(finer.statusCode).toBe(400);
        expect(finer.json()).toEqual({
          type: "invalid_data",
          message: "amount: 10.015 is not an amount in USD, which has 2 decimal digits",
        });
      }
      const captured = (await ok("POST", `${d}/admin/payments/${paymentId}/capture`, { amount: money(d, 1001) }, admin))
        .payment;
      expect(captured.captures.map((c: { amount: number }) => c.amount)).toEqual([money(d, 1001)]);
      const refunded = (await ok("POST", `${d}/admin/payments/${paymentId}/refund`, { amount: money(d, 550) }, admin))
        .payment;
      expect(refunded.refunds.map((r: { amount: number }) => r.amount)).toEqual([money(d, 550)]);

      // What was stored is minor units, whichever dialect wrote it.
      const after = (await ok("GET", `/admin/orders/${orderId}`, undefined, admin)).order;
      expect(after).toMatchObject({ paid_total: 1001, refunded_total: 550 });
      const viaMedusa = (await ok("GET", `/medusa/admin/orders/${orderId}`, undefined, admin)).order;
      expect(viaMedusa).toMatchObject({
        total: 64.97,
        paid_total: 10.01,
        refunded_total: 5.5,
        summary: { paid_total: 10.01, refunded_total: 5.5 },
      });
      expect(viaMedusa.items[0]).toMatchObject({ quantity: 3, unit_price: 19.99 });
      // A narrowed answer keeps the currency its amounts are in (and, as Medusa, the order's payment and fulfillment status).
      expect((await ok("GET", `/medusa/admin/orders/${orderId}?fields=id,total`, undefined, admin)).order).toEqual({
        id: orderId,
        currency_code: "usd",
        total: 64.97,
        payment_status: after.payment_status,
        fulfillment_status: after.fulfillment_status,
      });
    });
  }

  it("refuses an amount finer than its currency (400 invalid_data) and writes nothing", async () => {
    const before = (await ok("GET", "/admin/products?limit=1", undefined, admin)).count;
    for (const [code, amount] of [
      ["usd", 19.999],
      ["jpy", 0.5],
      ["kwd", 1.9999],
    ] as const) {
      const res = await call(
        "POST",
        "/medusa/admin/products",
        {
          title: `Bad ${code}`,
          options: [{ title: "Size", values: ["M"] }],
          variants: [{ title: "M", options: { Size: "M" }, prices: [{ currency_code: code, amount }] }],
        },
        admin,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        type: "invalid_data",
        message: expect.stringContaining(
          `variants[0].prices[0].amount: ${amount} is not an amount in ${code.toUpperCase()}`,
        ),
      });
    }
    // The root takes minor units only.
    const root = await call(
      "POST",
      "/admin/products",
      {
        title: "Bad root",
        options: [{ title: "Size", values: ["M"] }],
        variants: [{ title: "M", options: { Size: "M" }, prices: [{ currency_code: "usd", amount: 19.99 }] }],
      },
      admin,
    );
    expect(root.statusCode).toBe(400);
    expect((await ok("GET", "/admin/products?limit=1", undefined, admin)).count).toBe(before);
  });

  it("404s a capture of an unknown payment before reading its amount", async () => {
    const res = await call("POST", "/medusa/admin/payments/pay_unknown/capture", { amount: 1.5 }, admin);
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe("not_found");
  });

  it("converts a fixed promotion value and a spend budget in their currency, and leaves percentages alone", async () => {
    // Written through the dialect (major units), read as Kasse stores it (minor units).
    const viaDialect = (path: string, body: object) => ok("POST", `/medusa/admin/${path}`, body, admin);
    const asStored = (path: string) => ok("GET", `/admin/${path}`, undefined, admin);
    const campaignViaDialect = async (name: string, campaign_identifier: string, budget: object) =>
      (await viaDialect("campaigns", { name, campaign_identifier, budget })).campaign;
    const fixed = (
      await viaDialect("promotions", {
        code: "TENFIFTY",
        type: "standard",
        application_method: { type: "fixed", target_type: "order", value: 10.5, currency_code: "kwd" },
      })
    ).promotion;
    expect(fixed.application_method).toMatchObject({ type: "fixed", value: 10.5, currency_code: "kwd" });
    expect((await asStored(`promotions/${fixed.id}`)).promotion.application_method.value).toBe(10500);
    // A partial update reads the value with the stored type and currency.
    await ok("POST", `/medusa/admin/promotions/${fixed.id}`, { application_method: { value: 2.25 } }, admin);
    expect((await asStored(`promotions/${fixed.id}`)).promotion.application_method.value).toBe(2250);
    expect(
      (await call("POST", `/medusa/admin/promotions/${fixed.id}`, { application_method: { value: 2.2501 } }, admin))
        .statusCode,
    ).toBe(400);

    // A cart-total rule is read in the promotion's currency; a quantity rule is left alone.
    const ruled = (
      await viaDialect("promotions", {
        code: "BIGCART",
        type: "standard",
        application_method: { type: "fixed", target_type: "order", value: 5, currency_code: "usd" },
        rules: [
          { attribute: "subtotal", operator: "gte", values: "100.5" },
          { attribute: "quantity", operator: "gte", values: "3" },
        ],
      })
    ).promotion;
    const stored = (await asStored(`promotions/${ruled.id}`)).promotion.rules;
    expect(
      Object.fromEntries(
        stored.map((r: { attribute: string; values: { value: string }[] }) => [
          r.attribute,
          r.values.map((v) => v.value),
        ]),
      ),
    ).toEqual({ subtotal: ["10050"], quantity: ["3"] });
    const answered = ruled.rules.find((r: { attribute: string }) => r.attribute === "subtotal");
    expect(answered.values.map((v: { value: string }) => v.value)).toEqual(["100.5"]);
    await ok(
      "POST",
      `/medusa/admin/promotions/${ruled.id}/rules/batch`,
      { create: [{ attribute: "item_total", operator: "lte", values: ["1000"] }] },
      admin,
    );
    const batched = (await asStored(`promotions/${ruled.id}`)).promotion.rules.find(
      (r: { attribute: string }) => r.attribute === "item_total",
    );
    expect(batched.values.map((v: { value: string }) => v.value)).toEqual(["100000"]);
    // An update that leaves `attribute` out is read with the stored rule's: money on a cart total, a count otherwise.
    const storedRules = (await asStored(`promotions/${ruled.id}`)).promotion.rules as {
      id: string;
      attribute: string;
    }[];
    const ruleId = (attribute: string) => storedRules.find((r) => r.attribute === attribute)!.id;
    await ok(
      "POST",
      `/medusa/admin/promotions/${ruled.id}/rules/batch`,
      {
        update: [
          { id: ruleId("item_total"), values: ["60"] },
          { id: ruleId("quantity"), values: ["4"] },
        ],
      },
      admin,
    );
    const updated = (await asStored(`promotions/${ruled.id}`)).promotion.rules as {
      attribute: string;
      values: { value: string }[];
    }[];
    expect(Object.fromEntries(updated.map((r) => [r.attribute, r.values.map((v) => v.value)]))).toMatchObject({
      item_total: ["6000"],
      quantity: ["4"],
    });
    // A rule id the promotion does not have: nothing says whether it is an amount, so nothing is written.
    const unknown = await call(
      "POST",
      `/medusa/admin/promotions/${ruled.id}/rules/batch`,
      { update: [{ id: "prorul_unknown", values: ["60"] }] },
      admin,
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ type: "invalid_data" });

    const percent = (
      await viaDialect("promotions", {
        code: "PCT",
        type: "standard",
        application_method: { type: "percentage", target_type: "order", value: 12.5 },
      })
    ).promotion;
    expect(percent.application_method.value).toBe(12.5);
    expect((await asStored(`promotions/${percent.id}`)).promotion.application_method.value).toBe(12.5);

    const spend = await campaignViaDialect("Spend", "spend-jpy", { type: "spend", limit: 5000, currency_code: "jpy" });
    expect(spend.budget).toMatchObject({ type: "spend", limit: 5000, used: 0 });
    // A budget without a type is a spend budget: its limit is money.
    const untyped = await campaignViaDialect("Untyped", "untyped", { limit: 12.5, currency_code: "usd" });
    expect(untyped.budget).toMatchObject({ type: "spend", limit: 12.5, used: 0 });
    expect((await asStored(`campaigns/${untyped.id}`)).campaign.budget.limit).toBe(1250);
    const usage = await campaignViaDialect("Usage", "usage", { type: "usage", limit: 3 });
    expect(usage.budget).toMatchObject({ type: "usage", limit: 3 });
    const usd = await campaignViaDialect("Spend USD", "spend-usd", {
      type: "spend",
      limit: 100.5,
      currency_code: "usd",
    });
    expect((await asStored(`campaigns/${usd.id}`)).campaign.budget.limit).toBe(10050);
    await ok("POST", `/medusa/admin/campaigns/${usd.id}`, { budget: { limit: 200 } }, admin);
    expect((await asStored(`campaigns/${usd.id}`)).campaign.budget.limit).toBe(20000);
  });

  it("lists with Medusa's default limit under /medusa and the contract's at the root", async () => {
    expect((await ok("GET", "/admin/products", undefined, admin)).limit).toBe(15);
    expect((await ok("GET", "/medusa/admin/products", undefined, admin)).limit).toBe(50);
    expect((await ok("GET", "/medusa/store/regions")).limit).toBe(50);
    expect((await ok("GET", "/medusa/store/regions?limit=2")).limit).toBe(2);
    // Where Medusa's route has its own default.
    expect((await ok("GET", "/medusa/admin/orders", undefined, admin)).limit).toBe(15);
    expect((await ok("GET", "/medusa/admin/stock-locations", undefined, admin)).limit).toBe(20);
  });

  it("the production serializer (no response check) writes major units as they are, and integers at the root", async () => {
    const product = await createProduct("", "Serialized");
    const production = await buildApp({ config: t.config, infra: t.app.infra, logger: false });
    try {
      const medusa = await production.inject({
        method: "GET",
        url: `/medusa/admin/products/${product.id}`,
        headers: admin,
      });
      expect(medusa.statusCode).toBe(200);
      expect(medusa.body).toContain('"currency_code":"usd","amount":19.99');
      expect(medusa.body).toContain('"currency_code":"kwd","amount":1.999');
      const root = await production.inject({ method: "GET", url: `/admin/products/${product.id}`, headers: admin });
      expect(root.body).toContain('"currency_code":"usd","amount":1999');
    } finally {
      await production.close();
    }
  });

  it("serves only the API under the base path; auth and errors are the same", async () => {
    expect((await call("GET", "/medusa/health")).statusCode).toBe(404);
    expect((await call("GET", "/medusa/app")).statusCode).toBe(404);
    expect((await call("GET", "/medusastore/products")).statusCode).toBe(404);
    // A browser storefront on another origin gets the store group's CORS answer there too.
    const preflight = await t.app.inject({
      method: "OPTIONS",
      url: "/medusa/store/products",
      headers: { origin: "https://shop.example", "access-control-request-method": "GET" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("https://shop.example");
    expect((await call("GET", "/medusa/admin/products")).statusCode).toBe(401);
    const res = await call("GET", "/medusa/store/products/prod_missing");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ type: "not_found" });
  });
});
