import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing";
import { expectInvalidData } from "../../testing/invalid";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const attributes = async (path: string) => {
  const res = await t.admin.get(`/admin/promotions/rule-attribute-options/${path}`);
  expect(res.statusCode).toBe(200);
  return res.json().attributes as Array<{
    id: string;
    value: string;
    required: boolean;
    disguised?: boolean;
    operators: Array<{ value: string }>;
  }>;
};
const values = async (path: string) => {
  const res = await t.admin.get(`/admin/promotions/rule-value-options/${path}`);
  expect(res.statusCode).toBe(200);
  return res.json().values as Array<{ label: string; value: string }>;
};

describe("admin promotion rule options", () => {
  it("offers each rule type's attributes under Medusa's names, with only the operators Kasse evaluates", async () => {
    const rules = await attributes("rules?application_method_type=fixed");
    expect(rules.map((a) => a.id)).toEqual([
      "customer_group",
      "region",
      "product",
      "product_category",
      "product_collection",
      "product_tag",
      "shipping_option",
      "subtotal",
      "quantity",
      "currency_code",
    ]);
    expect(rules.find((a) => a.id === "customer_group")).toMatchObject({
      value: "customer.groups.id",
      label: "Customer Group",
      field_type: "multiselect",
      operators: [{ id: "in", value: "in", label: "In" }, { value: "eq" }, { value: "ne" }],
    });
    expect(rules.find((a) => a.id === "subtotal")).toMatchObject({
      field_type: "number",
      operators: ["eq", "ne", "gt", "gte", "lt", "lte"].map((value) => ({ value })),
    });
    expect(rules.find((a) => a.id === "currency_code")).toMatchObject({
      value: "currency_code",
      required: true,
      disguised: true,
      operators: [{ value: "eq" }],
    });
    expect(
      (await attributes("rules?application_method_type=percentage")).find((a) => a.id === "currency_code")?.required,
    ).toBe(false);

    expect((await attributes("target-rules")).map((a) => a.value)).toEqual([
      "items.product.id",
      "items.product.categories.id",
      "items.product.collection_id",
      "items.product.tags.id",
    ]);
    expect((await attributes("target-rules?application_method_target_type=shipping_methods")).map((a) => a.id)).toEqual(
      ["shipping_option"],
    );
    expect((await attributes("target-rules?promotion_type=buyget")).at(-1)).toMatchObject({
      id: "apply_to_quantity",
      field_type: "number",
      required: true,
      disguised: true,
    });
    expect((await attributes("buy-rules?promotion_type=buyget")).map((a) => a.id)).toEqual([
      "product",
      "product_category",
      "product_collection",
      "product_tag",
      "buy_rules_min_quantity",
    ]);
  });

  it("writes rules with the attributes it offers", async () => {
    const offered = (await attributes("rules")).filter((a) => !a.disguised);
    const res = await t.admin.post("/admin/promotions", {
      code: "OFFERED",
      type: "standard",
      application_method: { type: "percentage", target_type: "order", value: 10 },
      rules: offered.map((a) => ({ attribute: a.value, operator: a.operators[0]!.value, values: ["1"] })),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().promotion.rules).toHaveLength(offered.length);
  });

  it("lists the records a rule can name, searched with q and labelled by the chosen values", async () => {
    const region = (await t.admin.post("/admin/regions", { name: "Europe", currency_code: "eur" })).json().region;
    await t.admin.post("/admin/regions", { name: "Americas", currency_code: "usd" });
    expect(await values("rules/region?q=eur")).toEqual([{ label: "Europe", value: region.id }]);

    const [store] = (await t.admin.get("/admin/stores")).json().stores;
    await t.admin.post(`/admin/stores/${store.id}`, {
      supported_currencies: [{ currency_code: "eur", is_default: true }, { currency_code: "usd" }],
    });
    expect((await values("rules/currency_code?limit=50")).map((v) => v.value).sort()).toEqual(["eur", "usd"]);
    expect(await values("rules/currency_code?q=euro")).toEqual([{ label: "Euro", value: "eur" }]);
    expect(await values("rules/currency_code?value[]=usd")).toEqual([{ label: "US Dollar", value: "usd" }]);
    // The combobox labels the value it shows by `id`.
    expect(await values("rules/currency_code?id=eur&limit=1")).toEqual([{ label: "Euro", value: "eur" }]);
    // As the create form asks: the store's currencies, with the target type it writes.
    expect(
      await values(
        "rules/currency_code?limit=10&offset=0&value[0]=eur&value[1]=usd&application_method_target_type=items",
      ),
    ).toEqual([
      { label: "Euro", value: "eur" },
      { label: "US Dollar", value: "usd" },
    ]);

    const vip = (await t.admin.post("/admin/customer-groups", { name: "VIP" })).json().customer_group;
    await t.admin.post("/admin/customer-groups", { name: "Wholesale" });
    expect(await values("rules/customer_group?q=vi")).toEqual([{ label: "VIP", value: vip.id }]);

    const shirt = (
      await t.admin.post("/admin/products", { title: "Shirt", options: [{ title: "Size", values: ["M"] }] })
    ).json().product;
    await t.admin.post("/admin/products", { title: "Mug", options: [{ title: "Size", values: ["M"] }] });
    expect(await values("target-rules/product?q=shi")).toEqual([{ label: "Shirt", value: shirt.id }]);
    expect(await values(`buy-rules/product?value[]=${shirt.id}`)).toEqual([{ label: "Shirt", value: shirt.id }]);

    // A longer page costs no more statements: one list read, never one per record.
    const statements = async (path: string) => (await t.database.statements.record(() => values(path))).length;
    for (const attribute of ["product", "customer_group", "region", "currency_code"]) {
      expect(await statements(`rules/${attribute}?limit=50`), attribute).toBe(
        await statements(`rules/${attribute}?limit=1`),
      );
    }
  });

  it("refuses an unknown rule type or attribute, and attributes without a value list", async () => {
    await expectInvalidData(
      t.admin,
      "/admin/promotions/",
      "rule-attribute-options/other-rules",
      "rule-value-options/other-rules/region",
      "rule-value-options/rules/nonsense",
      "rule-value-options/target-rules/region",
      "rule-value-options/rules/subtotal",
    );
  });

  it("is for admins only", async () => {
    for (const url of [
      "/admin/promotions/rule-attribute-options/rules",
      "/admin/promotions/rule-value-options/rules/region",
    ]) {
      expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);
    }
  });
});
