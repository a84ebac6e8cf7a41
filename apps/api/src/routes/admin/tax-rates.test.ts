import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";
import { checkoutStore, TEST_ADDRESS } from "../../testing/checkout";

const t = useTestApp({}, { adminId: "user_taxrate" });

const region = async (country_code: string, rate = 19) => {
  const res = await t.admin.post("/admin/tax-regions", {
    country_code,
    default_tax_rate: { rate, code: `${country_code}-default`, name: "Default" },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().tax_region as { id: string; tax_rates: Array<{ id: string }> };
};
const product = async (title: string) =>
  (
    await createFixtureProduct(t, {
      title,
      status: "published",
      variants: [{ title: "One", size: "One", prices: [{ currency_code: "eur", amount: 100 }] }],
    })
  ).id;
const productType = async (value: string) =>
  (await t.admin.post("/admin/product-types", { value })).json().product_type.id as string;
const shape = (rules: Array<{ reference: string; reference_id: string }>) =>
  rules.map((r) => [r.reference, r.reference_id]);

describe("admin tax rates", () => {
  it("creates an override as the dashboard's form posts it, lists it with its rules, updates, edits rules and deletes", async () => {
    const fr = await region("fr", 20);
    const book = await product("Book");
    const food = await productType("Food");

    // Tax region page, "Create override": product and product type targets, not a default.
    const created = await t.admin.post("/medusa/admin/tax-rates", {
      name: "Reduced",
      tax_region_id: fr.id,
      rate: 5.5,
      code: "FR-REDUCED",
      is_combinable: false,
      rules: [
        { reference: "product", reference_id: book },
        { reference: "product_type", reference_id: food },
      ],
      is_default: false,
    });
    expect(created.statusCode, created.body).toBe(200);
    const rate = created.json().tax_rate;
    expect(rate).toMatchObject({
      id: expect.stringMatching(/^txr_/),
      tax_region_id: fr.id,
      rate: 5.5,
      code: "FR-REDUCED",
      name: "Reduced",
      is_default: false,
      created_by: "user_taxrate",
    });
    expect(shape(rate.rules)).toEqual([
      ["product", book],
      ["product_type", food],
    ]);

    // The region page's overrides section.
    const overrides = (await t.admin.get(`/admin/tax-rates?tax_region_id=${fr.id}&is_default=false`)).json();
    expect(overrides).toMatchObject({ count: 1, offset: 0, limit: 15 });
    expect(overrides.tax_rates[0].rules).toHaveLength(2);
    expect((await t.admin.get(`/admin/tax-rates?tax_region_id=${fr.id}&is_default=true`)).json().count).toBe(1);
    expect((await t.admin.get("/admin/tax-rates?q=reduced")).json().count).toBe(1);
    expect((await t.admin.get(`/admin/tax-rates/${rate.id}?fields=code,rules`)).json().tax_rate).toMatchObject({
      code: "FR-REDUCED",
      rules: [{ reference: "product" }, { reference: "product_type" }],
    });

    // Edit override: the rules given replace them.
    const updated = await t.admin.post(`/admin/tax-rates/${rate.id}`, {
      rate: 7,
      name: "Reduced 7",
      rules: [{ reference: "product", reference_id: book }],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().tax_rate).toMatchObject({ rate: 7, name: "Reduced 7", code: "FR-REDUCED" });
    expect(shape(updated.json().tax_rate.rules)).toEqual([["product", book]]);

    // One rule more, then one less.
    const added = await t.admin.post(`/admin/tax-rates/${rate.id}/rules`, {
      reference: "product_type",
      reference_id: food,
    });
    expect(added.statusCode, added.body).toBe(200);
    const rule = added.json().tax_rate.rules.find((r: { reference: string }) => r.reference === "product_type");
    expect(rule).toMatchObject({ id: expect.stringMatching(/^txrule_/), tax_rate_id: rate.id, reference_id: food });
    const removed = await t.admin.delete(`/admin/tax-rates/${rate.id}/rules/${rule.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ id: rule.id, object: "tax_rate_rule", deleted: true });
    expect(shape(removed.json().parent.rules)).toEqual([["product", book]]);

    // The region's default rate is edited through the same route.
    const defaultRate = fr.tax_rates[0]!.id;
    expect((await t.admin.post(`/admin/tax-rates/${defaultRate}`, { rate: 21 })).json().tax_rate.rate).toBe(21);

    const deleted = await t.admin.delete(`/admin/tax-rates/${rate.id}`);
    expect(deleted.json()).toEqual({ id: rate.id, object: "tax_rate", deleted: true });
    expect((await t.admin.get(`/admin/tax-rates/${rate.id}`)).statusCode).toBe(404);
    expect((await t.admin.get(`/admin/tax-rates?tax_region_id=${fr.id}`)).json().count).toBe(1);
  });

  it("rejects bad input, unknown regions and targets, a second default and duplicate rules, writing nothing", async () => {
    const it_ = await region("it", 22);
    const item = await product("Lamp");
    const count = async () => (await t.admin.get(`/admin/tax-rates?tax_region_id=${it_.id}`)).json().count;
    const before = await count();
    const base = { tax_region_id: it_.id, code: "IT-X", name: "X", rate: 10 };
    for (const body of [
      {},
      { ...base, tax_region_id: undefined },
      { ...base, code: "" },
      { ...base, name: undefined },
      { ...base, rate: -1 },
      { ...base, rate: 101 },
      { ...base, rate: "10" },
      { ...base, other: 1 },
      { ...base, rules: [{ reference: "customer_group", reference_id: "cusgroup_1" }] },
      { ...base, rules: [{ reference: "product" }] },
      { ...base, rules: [{ reference: "product", reference_id: item, extra: 1 }] },
    ]) {
      const res = await t.admin.post("/admin/tax-rates", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    const unknownRegion = await t.admin.post("/admin/tax-rates", { ...base, tax_region_id: "txreg_missing" });
    expect(unknownRegion.statusCode).toBe(400);
    expect(unknownRegion.json().message).toBe("Tax region with id: txreg_missing was not found");
    const unknownTargets = await t.admin.post("/admin/tax-rates", {
      ...base,
      rules: [
        { reference: "product", reference_id: "prod_missing" },
        { reference: "product_type", reference_id: "ptyp_missing" },
        { reference: "shipping_option", reference_id: "so_missing" },
      ],
    });
    expect(unknownTargets.statusCode).toBe(400);
    expect(unknownTargets.json()).toEqual({
      type: "invalid_data",
      message:
        "Tax rate rule targets were not found: product prod_missing, product type ptyp_missing, shipping option so_missing",
    });
    const secondDefault = await t.admin.post("/admin/tax-rates", { ...base, is_default: true });
    expect(secondDefault.statusCode).toBe(409);
    expect(secondDefault.json().type).toBe("conflict");
    const defaultWithRules = await t.admin.post("/admin/tax-rates", {
      ...base,
      is_default: true,
      rules: [{ reference: "product", reference_id: item }],
    });
    expect(defaultWithRules.statusCode).toBe(400);
    const twice = await t.admin.post("/admin/tax-rates", {
      ...base,
      rules: [
        { reference: "product", reference_id: item },
        { reference: "product", reference_id: item },
      ],
    });
    expect(twice.statusCode).toBe(409);
    expect(await count()).toBe(before);

    const rate = (
      await t.admin.post("/admin/tax-rates", { ...base, rules: [{ reference: "product", reference_id: item }] })
    ).json().tax_rate;
    const again = await t.admin.post(`/admin/tax-rates/${rate.id}/rules`, { reference: "product", reference_id: item });
    expect(again.statusCode).toBe(409);
    const badRule = await t.admin.post(`/admin/tax-rates/${rate.id}/rules`, {
      reference: "product",
      reference_id: "prod_x",
    });
    expect(badRule.statusCode).toBe(400);
    const badUpdate = await t.admin.post(`/admin/tax-rates/${rate.id}`, {
      name: "Renamed",
      rules: [{ reference: "product", reference_id: "prod_x" }],
    });
    expect(badUpdate.statusCode).toBe(400);
    const after = (await t.admin.get(`/admin/tax-rates/${rate.id}`)).json().tax_rate;
    expect(after.name).toBe("X");
    expect(shape(after.rules)).toEqual([["product", item]]);
    const defaultRate = it_.tax_rates[0]!.id;
    expect(
      (await t.admin.post(`/admin/tax-rates/${defaultRate}/rules`, { reference: "product", reference_id: item }))
        .statusCode,
    ).toBe(400);
    expect((await t.admin.delete(`/admin/tax-rates/${rate.id}/rules/txrule_missing`)).statusCode).toBe(404);
    expect((await t.admin.post("/admin/tax-rates/txr_missing", { name: "x" })).statusCode).toBe(404);
    expect((await t.admin.delete("/admin/tax-rates/txr_missing")).statusCode).toBe(404);
    expect(
      (await t.admin.post("/admin/tax-rates/txr_missing/rules", { reference: "product", reference_id: item }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: "POST", url: "/admin/tax-rates", payload: base })).statusCode).toBe(401);
  });

  it("a cart line whose product or product type an override names is taxed at the override; another line is not", async () => {
    const store = await checkoutStore(t, {
      region: { name: "Germany", currency_code: "eur", countries: ["de"] },
      title: "Shirt",
      variants: [{ title: "M", size: "M", stock: 10, prices: [{ currency_code: "eur", amount: 1000 }] }],
    });
    const books = await productType("Books");
    const novel = await createFixtureProduct(
      t,
      {
        title: "Novel",
        status: "published",
        type_id: books,
        sales_channels: [{ id: store.channelId }],
        variants: [{ title: "Paperback", size: "One", stock: 10, prices: [{ currency_code: "eur", amount: 2000 }] }],
      },
      store.locationId,
    );
    const de = await region("de", 19);
    /** A German rate for what `rule` names, made through the admin API. */
    const override = async (
      code: string,
      name: string,
      rate: number,
      rule: { reference: string; reference_id: string },
    ) => {
      const res = await t.admin.post("/admin/tax-rates", { tax_region_id: de.id, code, name, rate, rules: [rule] });
      return res.json().tax_rate;
    };

    const post = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: "POST", url, payload });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().cart;
    };
    const newCart = async () => {
      const { id } = await post("/store/carts", { region_id: store.regionId });
      await post(`/store/carts/${id}/line-items`, { variant_id: store.variantIds[0], quantity: 1 });
      await post(`/store/carts/${id}/line-items`, { variant_id: novel.variantIds[0], quantity: 1 });
      return post(`/store/carts/${id}`, { shipping_address: TEST_ADDRESS });
    };
    type Line = { product_id: string; tax_lines: Array<{ rate: number; code: string }>; tax_total: number };
    const taxes = (cart: { items: Line[] }) =>
      Object.fromEntries(
        cart.items.map((i) => [
          i.product_id === novel.id ? "novel" : "shirt",
          [i.tax_lines.map((l) => [l.code, l.rate]), i.tax_total],
        ]),
      );

    const before = await newCart();
    expect(taxes(before)).toEqual({ shirt: [[["de-default", 19]], 190], novel: [[["de-default", 19]], 380] });

    // An override for the product type: the novel's line only.
    const byType = await override("DE-BOOKS", "Books", 7, { reference: "product_type", reference_id: books });
    const typed = await newCart();
    expect(taxes(typed)).toEqual({ shirt: [[["de-default", 19]], 190], novel: [[["DE-BOOKS", 7]], 140] });
    expect(typed.tax_total).toBe(190 + 140 + (typed.shipping_tax_total ?? 0));

    // An override naming the product itself comes before its type's.
    await override("DE-NOVEL", "This novel", 0, { reference: "product", reference_id: novel.id });
    expect(taxes(await newCart())).toEqual({ shirt: [[["de-default", 19]], 190], novel: [[["DE-NOVEL", 0]], 0] });

    // A shipping method is taxed at an override naming its option; the lines are not.
    const withMethod = async () => {
      const cart = await newCart();
      return post(`/store/carts/${cart.id}/shipping-methods`, { option_id: store.optionId });
    };
    const method = (cart: { shipping_methods: Line[] }) =>
      cart.shipping_methods.map((m) => [m.tax_lines.map((l) => [l.code, l.rate]), m.tax_total]);
    expect(method(await withMethod())).toEqual([[[["de-default", 19]], 95]]);
    await override("DE-SHIP", "Shipping", 10, { reference: "shipping_option", reference_id: store.optionId });
    const shipped = await withMethod();
    expect(method(shipped)).toEqual([[[["DE-SHIP", 10]], 50]]);
    expect(taxes(shipped)).toEqual({ shirt: [[["de-default", 19]], 190], novel: [[["DE-NOVEL", 0]], 0] });

    // An existing cart follows the rates at its next write; deleting the overrides restores the default.
    await t.admin.delete(`/admin/tax-rates/${byType.id}`);
    const rates = (await t.admin.get(`/admin/tax-rates?tax_region_id=${de.id}&is_default=false`)).json().tax_rates;
    for (const r of rates) await t.admin.delete(`/admin/tax-rates/${r.id}`);
    const refreshed = await post(`/store/carts/${typed.id}`, { email: "ada@example.com" });
    expect(taxes(refreshed)).toEqual({ shirt: [[["de-default", 19]], 190], novel: [[["de-default", 19]], 380] });
  });
});
