import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";
import { expectInvalidData } from "../../testing/invalid";

const t = useTestApp();
let variant1: string;
let variant2: string;
beforeAll(async () => {
  const product = await createFixtureProduct(t, {
    title: "Shirt",
    variants: [
      { title: "S", size: "S", prices: [] },
      { title: "M", size: "M", prices: [] },
    ],
  });
  [variant1, variant2] = product.variantIds as [string, string];
});

describe("admin price lists", () => {
  let list: { id: string; prices: Array<{ id: string }> };

  it("creates a draft list with rules and prices (contract rule form)", async () => {
    const res = await t.admin.post("/admin/price-lists", {
      title: "VIP",
      description: "For VIPs",
      type: "override",
      rules: [
        { rule_type: "customer_group_id", value: "cg_vip" },
        { rule_type: "customer_group_id", value: "cg_staff" },
      ],
      prices: [
        { variant_id: variant1, currency_code: "USD", amount: 900 },
        { variant_id: variant1, currency_code: "eur", amount: 800, min_quantity: 2, max_quantity: 5 },
      ],
    });
    expect(res.statusCode).toBe(200);
    list = res.json().price_list;
    expect(list).toMatchObject({
      title: "VIP",
      description: "For VIPs",
      type: "override",
      status: "draft",
      starts_at: null,
      ends_at: null,
      rules: { customer_group_id: ["cg_staff", "cg_vip"] },
      // Ordered by variant, currency, tier.
      prices: [
        { variant_id: variant1, currency_code: "eur", amount: 800, min_quantity: 2, max_quantity: 5 },
        {
          variant_id: variant1,
          currency_code: "usd",
          amount: 900,
          min_quantity: null,
          max_quantity: null,
          price_list_id: expect.any(String),
          rules: {},
        },
      ],
    });
    expect(list.id).toMatch(/^plist_/);
  });

  it("accepts Medusa's object rule form and dates", async () => {
    const res = await t.admin.post("/admin/price-lists", {
      title: "Summer",
      type: "sale",
      status: "active",
      starts_at: "2026-06-01T00:00:00.000Z",
      ends_at: "2026-09-01T00:00:00.000Z",
      rules: { region_id: ["reg_eu"] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().price_list).toMatchObject({
      status: "active",
      rules: { region_id: ["reg_eu"] },
      starts_at: "2026-06-01T00:00:00.000Z",
      prices: [],
    });
  });

  it("lists with status, type, q, paging and fields", async () => {
    expect((await t.admin.get("/admin/price-lists")).json()).toMatchObject({ count: 2, offset: 0, limit: 15 });
    expect(
      (await t.admin.get("/admin/price-lists?status[]=active"))
        .json()
        .price_lists.map((l: { title: string }) => l.title),
    ).toEqual(["Summer"]);
    expect(
      (await t.admin.get("/admin/price-lists?type=override")).json().price_lists.map((l: { title: string }) => l.title),
    ).toEqual(["VIP"]);
    expect((await t.admin.get("/admin/price-lists?q=vip")).json().count).toBe(1);
    const page = (await t.admin.get("/admin/price-lists?order=title&limit=1&offset=1&fields=title")).json();
    expect(page).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(page.price_lists).toEqual([{ id: list.id, title: "VIP" }]);
    expect((await t.admin.get("/admin/price-lists?status=paused")).statusCode).toBe(400);
  });

  it("updates fields and activates", async () => {
    const res = await t.admin.post(`/admin/price-lists/${list.id}`, { status: "active", title: "VIP 2" });
    expect(res.statusCode).toBe(200);
    expect(res.json().price_list).toMatchObject({
      status: "active",
      title: "VIP 2",
      rules: { customer_group_id: ["cg_staff", "cg_vip"] },
    });
    expect(res.json().price_list.prices).toHaveLength(2);
  });

  it("batch-creates, updates and deletes prices in one transaction", async () => {
    const [eur, usd] = list.prices;
    const res = await t.admin.post(`/admin/price-lists/${list.id}/prices/batch`, {
      create: [{ variant_id: variant2, currency_code: "usd", amount: 100 }],
      update: [{ id: usd!.id, amount: 850 }],
      delete: [eur!.id],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.created).toMatchObject([{ variant_id: variant2, amount: 100 }]);
    const unknownVariant = await t.admin.post(`/admin/price-lists/${list.id}/prices/batch`, {
      create: [{ variant_id: "variant_missing", currency_code: "usd", amount: 1 }],
    });
    expect(unknownVariant.statusCode).toBe(400);
    expect(unknownVariant.json().message).toContain("variant_missing");
    expect(body.updated).toMatchObject([{ id: usd!.id, amount: 850, currency_code: "usd" }]);
    expect(body.deleted).toEqual({ ids: [eur!.id], object: "price", deleted: true });
    const prices = (await t.admin.get(`/admin/price-lists/${list.id}`)).json().price_list.prices;
    expect(prices.map((p: { amount: number }) => p.amount).sort()).toEqual([100, 850]);
  });

  it("rolls back a whole batch when one part is bad", async () => {
    const before = (await t.admin.get(`/admin/price-lists/${list.id}`)).json().price_list.prices;
    const unknownPrice = await t.admin.post(`/admin/price-lists/${list.id}/prices/batch`, {
      create: [{ variant_id: variant1, currency_code: "usd", amount: 1 }],
      delete: ["price_missing"],
    });
    expect(unknownPrice.statusCode).toBe(404);
    const badCurrency = await t.admin.post(`/admin/price-lists/${list.id}/prices/batch`, {
      create: [{ variant_id: variant1, currency_code: "zzz", amount: 1 }],
      update: [{ id: before[0].id, amount: 1 }],
    });
    expect(badCurrency.statusCode).toBe(400);
    expect(badCurrency.json().type).toBe("invalid_data");
    const badUpdate = await t.admin.post(`/admin/price-lists/${list.id}/prices/batch`, {
      create: [{ variant_id: variant1, currency_code: "usd", amount: 1 }],
      update: [{ id: before[0].id, min_quantity: 9, max_quantity: 1 }],
    });
    expect(badUpdate.statusCode).toBe(400);
    for (const body of [
      { create: [{ variant_id: variant1, currency_code: "usd", amount: -5 }] },
      { create: [{ variant_id: variant1, currency_code: "usd" }] },
      { update: [{ amount: 1 }] },
      { delete: "x" },
      { nope: [] },
    ]) {
      const res = await t.admin.post(`/admin/price-lists/${list.id}/prices/batch`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get(`/admin/price-lists/${list.id}`)).json().price_list.prices).toEqual(before);
  });

  it("deletes a single price", async () => {
    const [price] = (await t.admin.get(`/admin/price-lists/${list.id}`)).json().price_list.prices;
    const res = await t.admin.delete(`/admin/price-lists/${list.id}/prices/${price.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: price.id, object: "price", deleted: true });
    expect((await t.admin.delete(`/admin/price-lists/${list.id}/prices/${price.id}`)).statusCode).toBe(404);
    expect((await t.admin.get(`/admin/price-lists/${list.id}`)).json().price_list.prices).toHaveLength(1);
  });

  it("rejects bad create bodies and writes nothing", async () => {
    const before = (await t.admin.get("/admin/price-lists")).json().count;
    const bodies = [
      {},
      { title: "x" },
      { title: "x", type: "discount" },
      { title: "x", type: "sale", status: "paused" },
      { title: "x", type: "sale", starts_at: "yesterday" },
      { title: "x", type: "sale", starts_at: "2026-02-01T00:00:00Z", ends_at: "2026-01-01T00:00:00Z" },
      { title: "x", type: "sale", rules: [{ rule_type: "country", value: "x" }] },
      { title: "x", type: "sale", prices: [{ variant_id: variant1, currency_code: "usd", amount: -1 }] },
      { title: "x", type: "sale", prices: [{ variant_id: variant1, currency_code: "usd", amount: 1.5 }] },
      { title: "x", type: "sale", prices: [{ variant_id: variant1, currency_code: "zzz", amount: 1 }] },
      { title: "x", type: "sale", prices: [{ variant_id: variant1, currency_code: "usd", amount: "1" }] },
      { title: "x", type: "sale", extra: true },
      { title: "x", type: "sale", prices: [{ variant_id: "variant_missing", currency_code: "usd", amount: 1 }] },
    ];
    for (const body of bodies) {
      const res = await t.admin.post("/admin/price-lists", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get("/admin/price-lists")).json().count).toBe(before);
    expect((await t.admin.post("/admin/price-lists/plist_missing", { title: "x" })).statusCode).toBe(404);
  });

  it("lists a list's prices a page at a time, with filters (the dashboard's override count)", async () => {
    const created = (
      await t.admin.post("/admin/price-lists", {
        title: "Paged",
        description: "Paged prices",
        type: "sale",
        prices: [
          { variant_id: variant1, currency_code: "usd", amount: 900 },
          { variant_id: variant1, currency_code: "eur", amount: 800 },
          { variant_id: variant2, currency_code: "eur", amount: 700 },
        ],
      })
    ).json().price_list;
    const first = await t.admin.get(`/admin/price-lists/${created.id}/prices?limit=1`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      count: 3,
      limit: 1,
      offset: 0,
      prices: [expect.objectContaining({ price_list_id: created.id })],
    });
    const eur = (
      await t.admin.get(`/admin/price-lists/${created.id}/prices?currency_code[0]=EUR&order=-amount`)
    ).json();
    expect(eur.prices.map((p: { amount: number }) => p.amount)).toEqual([800, 700]);
    expect(
      (await t.admin.get(`/admin/price-lists/${created.id}/prices?variant_id=${variant2}&fields=amount`)).json().prices,
    ).toEqual([{ id: expect.any(String), amount: 700 }]);
    expect((await t.admin.get(`/admin/price-lists/${created.id}/prices?id[]=${eur.prices[0].id}`)).json().count).toBe(
      1,
    );
    expect((await t.admin.get("/admin/price-lists/plist_missing/prices")).statusCode).toBe(404);
    await expectInvalidData(
      t.admin,
      `/admin/price-lists/${created.id}/prices?`,
      "limit=-1",
      "currency_code=euro",
      "order=rules",
      "unknown=1",
    );
  });

  it("soft-deletes a list", async () => {
    const res = await t.admin.delete(`/admin/price-lists/${list.id}`);
    expect(res.json()).toEqual({ id: list.id, object: "price-list", deleted: true });
    expect((await t.admin.get(`/admin/price-lists/${list.id}`)).statusCode).toBe(404);
    expect((await t.admin.post(`/admin/price-lists/${list.id}/prices/batch`, {})).statusCode).toBe(404);
  });
});
