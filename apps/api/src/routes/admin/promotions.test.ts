import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

/** The application method of a buyget "buy two, get one free" (its rules added by each test). */
const buyTwoGetOne = {
  type: "percentage",
  target_type: "items",
  allocation: "each",
  value: 100,
  max_quantity: 1,
  buy_rules_min_quantity: 2,
  apply_to_quantity: 1,
};

const standard = (code: string, method: Record<string, unknown> = {}) => ({
  code,
  type: "standard",
  application_method: { type: "percentage", target_type: "items", allocation: "each", value: 10, ...method },
});
const count = async () => (await t.admin.get("/admin/promotions?limit=0")).json().count as number;

describe("admin promotions", () => {
  it("creates a promotion shaped as Medusa v2, retrieves, updates partially, lists and deletes", async () => {
    const created = await t.admin.post("/admin/promotions", {
      ...standard("SUMMER10", {
        max_quantity: 3,
        target_rules: [
          { attribute: "product_id", operator: "in", values: ["prod_1", "prod_2"], description: "shirts" },
        ],
      }),
      rules: [{ attribute: "currency_code", operator: "eq", values: "eur" }],
    });
    expect(created.statusCode).toBe(200);
    const promotion = created.json().promotion;
    expect(promotion).toMatchObject({
      code: "SUMMER10",
      type: "standard",
      status: "active",
      is_automatic: false,
      campaign_id: null,
      campaign: null,
    });
    expect(promotion.id).toMatch(/^promo_/);
    expect(promotion.application_method).toMatchObject({
      type: "percentage",
      target_type: "items",
      allocation: "each",
      value: 10,
      max_quantity: 3,
      currency_code: null,
      buy_rules: [],
    });
    expect(promotion.application_method.target_rules).toMatchObject([
      {
        attribute: "product_id",
        operator: "in",
        description: "shirts",
        values: [{ value: "prod_1" }, { value: "prod_2" }],
      },
    ]);
    expect(promotion.rules[0].values[0]).toEqual({ id: expect.stringMatching(/^prorulval_/), value: "eur" });
    expect(promotion.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    expect((await t.admin.get(`/admin/promotions/${promotion.id}`)).json().promotion).toEqual(promotion);

    const updated = await t.admin.post(`/admin/promotions/${promotion.id}`, {
      application_method: { value: 25 },
      status: "inactive",
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().promotion).toMatchObject({
      status: "inactive",
      application_method: { value: 25, type: "percentage", max_quantity: 3 },
    });
    expect(updated.json().promotion.application_method.target_rules).toHaveLength(1);

    const toFixed = await t.admin.post(`/admin/promotions/${promotion.id}`, {
      application_method: { type: "fixed", value: 500, currency_code: "EUR" },
    });
    expect(toFixed.json().promotion.application_method).toMatchObject({
      type: "fixed",
      value: 500,
      currency_code: "eur",
    });

    const fields = await t.admin.get(`/admin/promotions/${promotion.id}?fields=code,application_method.value`);
    expect(fields.json().promotion).toEqual({
      id: promotion.id,
      code: "SUMMER10",
      application_method: { id: promotion.application_method.id, value: 500 },
    });

    const deleted = await t.admin.delete(`/admin/promotions/${promotion.id}`);
    expect(deleted.json()).toEqual({ id: promotion.id, object: "promotion", deleted: true });
    expect((await t.admin.get(`/admin/promotions/${promotion.id}`)).statusCode).toBe(404);
  });

  it("lists with q over code, campaign_id, is_automatic and paging", async () => {
    const campaign = (
      await t.admin.post("/admin/campaigns", { name: "Spring", campaign_identifier: "spring-list" })
    ).json().campaign;
    await t.admin.post("/admin/promotions", { ...standard("LIST-A"), campaign_id: campaign.id });
    await t.admin.post("/admin/promotions", standard("LIST-B"));
    await t.admin.post("/admin/promotions", {
      type: "standard",
      is_automatic: true,
      application_method: { type: "percentage", target_type: "items", value: 5 },
    });

    const byQ = (await t.admin.get("/admin/promotions?q=list-")).json();
    expect(byQ.count).toBe(2);
    expect(byQ.promotions.map((p: { code: string }) => p.code).sort()).toEqual(["LIST-A", "LIST-B"]);

    const byCampaign = (await t.admin.get(`/admin/promotions?campaign_id=${campaign.id}`)).json();
    expect(byCampaign.promotions.map((p: { code: string }) => p.code)).toEqual(["LIST-A"]);
    expect(byCampaign.promotions[0].campaign).toMatchObject({
      id: campaign.id,
      campaign_identifier: "spring-list",
      budget: null,
    });

    const automatic = (await t.admin.get("/admin/promotions?is_automatic=true")).json();
    expect(automatic.promotions.every((p: { is_automatic: boolean }) => p.is_automatic)).toBe(true);
    expect(automatic.count).toBeGreaterThanOrEqual(1);

    const page = (await t.admin.get("/admin/promotions?q=list-&limit=1&offset=1&order=code")).json();
    expect(page).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(page.promotions.map((p: { code: string }) => p.code)).toEqual(["LIST-B"]);

    const narrow = (await t.admin.get("/admin/promotions?q=LIST-A&fields=code")).json();
    expect(Object.keys(narrow.promotions[0]).sort()).toEqual(["code", "id"]);
  });

  it("answers a duplicate code, in any case, with 409 conflict", async () => {
    expect((await t.admin.post("/admin/promotions", standard("DUPE"))).statusCode).toBe(200);
    const before = await count();
    const res = await t.admin.post("/admin/promotions", standard("dupe"));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ type: "conflict" });
    expect(await count()).toBe(before);
  });

  it("creates a buyget promotion with buy and target rules", async () => {
    const res = await t.admin.post("/admin/promotions", {
      code: "B2G1",
      type: "buyget",
      application_method: {
        ...buyTwoGetOne,
        buy_rules: [{ attribute: "product_id", operator: "eq", values: ["prod_shirt"] }],
        target_rules: [{ attribute: "product_id", operator: "eq", values: ["prod_shirt"] }],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().promotion.application_method).toMatchObject({
      buy_rules_min_quantity: 2,
      apply_to_quantity: 1,
      buy_rules: [{ attribute: "product_id" }],
      target_rules: [{ attribute: "product_id" }],
    });
  });

  it("rejects bad input with 400 invalid_data and writes nothing", async () => {
    const before = await count();
    const method = { type: "percentage", target_type: "items", value: 10 };
    const bodies: unknown[] = [
      {},
      { type: "standard", application_method: method }, // code required unless automatic
      { code: "", type: "standard", application_method: method },
      { code: "A", type: "other", application_method: method },
      { code: "A", type: "standard" },
      { code: "A", type: "standard", application_method: { ...method, value: 0 } },
      { code: "A", type: "standard", application_method: { ...method, value: 101 } },
      { code: "A", type: "standard", application_method: { ...method, value: -5 } },
      { code: "A", type: "standard", application_method: { ...method, value: "10" } },
      { code: "A", type: "standard", application_method: { ...method, type: "fixed", value: 100 } }, // fixed needs currency
      {
        code: "A",
        type: "standard",
        application_method: { ...method, type: "fixed", value: 10.5, currency_code: "eur" },
      },
      { code: "A", type: "standard", application_method: { ...method, currency_code: "euro" } },
      { code: "A", type: "standard", application_method: { ...method, target_type: "cart" } },
      { code: "A", type: "standard", application_method: { ...method, allocation: "some" } },
      { code: "A", type: "standard", application_method: { ...method, target_type: "order", allocation: "each" } },
      { code: "A", type: "standard", application_method: { ...method, max_quantity: 0 } },
      { code: "A", type: "standard", application_method: { ...method, max_quantity: 2 ** 40 } },
      {
        code: "A",
        type: "standard",
        application_method: { ...method, type: "fixed", value: 2 ** 60, currency_code: "eur" },
      },
      { code: "A", type: "standard", application_method: { ...method, type: "free_shipping", target_type: "items" } },
      { code: "A", type: "standard", application_method: { ...method, extra: 1 } },
      { code: "A", type: "standard", application_method: method, unknown: true },
      {
        code: "A",
        type: "standard",
        application_method: method,
        rules: [{ attribute: "region_id", operator: "like", values: ["x"] }],
      },
      { code: "A", type: "standard", application_method: method, rules: [{ attribute: "region_id", operator: "eq" }] },
      {
        code: "A",
        type: "standard",
        application_method: method,
        rules: [{ attribute: "region_id", operator: "eq", values: [] }],
      },
      {
        code: "A",
        type: "standard",
        application_method: method,
        rules: [{ attribute: "not_an_attribute", operator: "eq", values: ["x"] }],
      },
      {
        code: "A",
        type: "standard",
        application_method: method,
        rules: [{ attribute: "subtotal", operator: "gt", values: ["lots"] }],
      },
      {
        code: "A",
        type: "standard",
        application_method: method,
        rules: [{ attribute: "product_id", operator: "lt", values: ["p"] }],
      },
      { code: "A", type: "buyget", application_method: method }, // buyget needs quantities and rules
      {
        code: "A",
        type: "buyget",
        application_method: {
          ...method,
          buy_rules_min_quantity: 1,
          apply_to_quantity: 1,
          target_rules: [{ attribute: "product_id", operator: "eq", values: ["p"] }],
        },
      },
      {
        code: "A",
        type: "standard",
        application_method: { ...method, buy_rules: [{ attribute: "product_id", operator: "eq", values: ["p"] }] },
      },
    ];
    for (const body of bodies) {
      const res = await t.admin.post("/admin/promotions", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
      expect(typeof res.json().message).toBe("string");
    }
    const unknownCampaign = await t.admin.post("/admin/promotions", {
      ...standard("A"),
      campaign_id: "procamp_missing",
    });
    expect(unknownCampaign.statusCode).toBe(404);
    expect(await count()).toBe(before);
    expect((await t.admin.get("/admin/promotions?is_automatic=maybe")).statusCode).toBe(400);
    expect((await t.admin.get("/admin/promotions?order=nope")).json().type).toBe("invalid_data");
    expect((await t.admin.get("/admin/promotions?limit=-1")).statusCode).toBe(400);
  });

  it("rejects a bad update with 400 and leaves the promotion unchanged", async () => {
    const p = (await t.admin.post("/admin/promotions", standard("UPD"))).json().promotion;
    for (const body of [
      { application_method: { value: 150 } },
      { application_method: { type: "fixed" } },
      { is_automatic: false, code: null },
      { application_method: { target_rules: [] } },
      { code: 5 },
      { nope: 1 },
    ]) {
      const res = await t.admin.post(`/admin/promotions/${p.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get(`/admin/promotions/${p.id}`)).json().promotion).toEqual(p);
    expect((await t.admin.post(`/admin/promotions/${p.id}`, { code: "dupe" })).statusCode).toBe(409);
  });

  it("answers unknown ids with 404 not_found", async () => {
    for (const res of [
      await t.admin.get("/admin/promotions/promo_missing"),
      await t.admin.post("/admin/promotions/promo_missing", { status: "active" }),
      await t.admin.delete("/admin/promotions/promo_missing"),
      await t.admin.post("/admin/promotions/promo_missing/rules/batch", {}),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().type).toBe("not_found");
    }
  });

  it("batches rules, target rules and buy rules as Medusa", async () => {
    const p = (await t.admin.post("/admin/promotions", standard("BATCH"))).json().promotion;
    const created = await t.admin.post(`/admin/promotions/${p.id}/rules/batch`, {
      create: [
        { attribute: "region_id", operator: "eq", values: ["reg_1"] },
        { attribute: "customer_group_id", operator: "in", values: ["cg_1", "cg_2"] },
      ],
    });
    expect(created.statusCode).toBe(200);
    const body = created.json();
    expect(body.created).toHaveLength(2);
    expect(body.updated).toEqual([]);
    expect(body.deleted).toEqual({ ids: [], object: "promotion-rule", deleted: true });
    const [region, groups] = body.created;

    const changed = await t.admin.post(`/admin/promotions/${p.id}/rules/batch`, {
      update: [{ id: groups.id, values: ["cg_3"] }],
      delete: [region.id],
    });
    expect(changed.json().updated).toMatchObject([
      { id: groups.id, attribute: "customer_group_id", operator: "in", values: [{ value: "cg_3" }] },
    ]);
    expect(changed.json().deleted).toEqual({ ids: [region.id], object: "promotion-rule", deleted: true });
    expect(
      (await t.admin.get(`/admin/promotions/${p.id}`)).json().promotion.rules.map((r: { id: string }) => r.id),
    ).toEqual([groups.id]);

    const targets = await t.admin.post(`/admin/promotions/${p.id}/target-rules/batch`, {
      create: [{ attribute: "product_id", operator: "eq", values: ["prod_1"] }],
    });
    expect(targets.statusCode).toBe(200);
    expect(
      (await t.admin.get(`/admin/promotions/${p.id}`)).json().promotion.application_method.target_rules,
    ).toHaveLength(1);

    // Buy rules belong to buyget promotions only.
    const buy = await t.admin.post(`/admin/promotions/${p.id}/buy-rules/batch`, {
      create: [{ attribute: "product_id", operator: "eq", values: ["prod_1"] }],
    });
    expect(buy.statusCode).toBe(400);
  });

  it("rejects bad rule batches and writes nothing", async () => {
    const p = (await t.admin.post("/admin/promotions", standard("BADBATCH"))).json().promotion;
    const good = { attribute: "region_id", operator: "eq", values: ["reg_1"] };
    const cases: Array<[unknown, number]> = [
      [{ create: [{ ...good, operator: "between" }] }, 400],
      [{ create: [{ ...good, attribute: "nope" }] }, 400],
      [{ create: [good, { ...good, values: ["a", "b"] }] }, 400], // eq takes one value; the valid first one is not written either
      [{ update: [{ id: "prorul_missing", values: ["x"] }] }, 404],
      [{ delete: ["prorul_missing"] }, 404],
      [{ create: [good], other: [] }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await t.admin.post(`/admin/promotions/${p.id}/rules/batch`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
    }
    expect((await t.admin.get(`/admin/promotions/${p.id}`)).json().promotion.rules).toEqual([]);

    const bg = (
      await t.admin.post("/admin/promotions", {
        code: "BG-KEEP",
        type: "buyget",
        application_method: {
          type: "percentage",
          target_type: "items",
          value: 100,
          buy_rules_min_quantity: 1,
          apply_to_quantity: 1,
          buy_rules: [good],
          target_rules: [good],
        },
      })
    ).json().promotion;
    const emptied = await t.admin.post(`/admin/promotions/${bg.id}/buy-rules/batch`, {
      delete: [bg.application_method.buy_rules[0].id],
    });
    expect(emptied.statusCode).toBe(400);
    expect(
      (await t.admin.get(`/admin/promotions/${bg.id}`)).json().promotion.application_method.buy_rules,
    ).toHaveLength(1);
  });

  it("requires an admin: 401 without credentials, 403 for a customer", async () => {
    expect((await t.app.inject({ method: "GET", url: "/admin/promotions" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "POST", url: "/admin/promotions", payload: standard("NOAUTH") })).statusCode,
    ).toBe(401);
    const res = await t.app.inject({
      method: "GET",
      url: "/admin/promotions",
      headers: await t.customerHeaders("cus_1"),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe("not_allowed");
  });
});

describe("a promotion created with a new campaign, as Medusa's dashboard creates it", () => {
  const campaign = (identifier: string, budget: Record<string, unknown>) => ({
    name: `Campaign ${identifier}`,
    description: "",
    campaign_identifier: identifier,
    starts_at: null,
    ends_at: null,
    budget: { attribute: null, ...budget },
  });
  const body = (code: string, extra: Record<string, unknown>) => ({
    code,
    type: "standard",
    status: "draft",
    is_automatic: false,
    is_tax_inclusive: false,
    rules: [{ attribute: "region.id", operator: "in", values: ["reg_1"] }],
    application_method: {
      type: "fixed",
      target_type: "items",
      allocation: "each",
      max_quantity: 1,
      value: 1000,
      currency_code: "usd",
      target_rules: [],
      buy_rules: [],
    },
    ...extra,
  });

  it("creates the campaign and the promotion in it, in each dialect's units; a usage budget keeps no currency", async () => {
    const created = await post(
      "/admin/promotions",
      body("CAMP10", { campaign: campaign("camp-10", { type: "spend", limit: 50000, currency_code: "usd" }) }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const promotion = created.json().promotion;
    expect(promotion).toMatchObject({
      code: "CAMP10",
      status: "draft",
      campaign_id: promotion.campaign.id,
      application_method: { type: "fixed", value: 1000, currency_code: "usd" },
      rules: [
        expect.objectContaining({ attribute: "region.id", values: [expect.objectContaining({ value: "reg_1" })] }),
      ],
      campaign: {
        name: "Campaign camp-10",
        campaign_identifier: "camp-10",
        budget: expect.objectContaining({ type: "spend", limit: 50000, currency_code: "usd", used: 0 }),
      },
    });
    expect((await get(`/admin/campaigns/${promotion.campaign.id}`)).json().campaign.promotions).toEqual([
      expect.objectContaining({ id: promotion.id, code: "CAMP10" }),
    ]);

    // The dashboard fills a usage budget's currency with the promotion's: a usage budget counts orders.
    const usage = await post(
      "/admin/promotions",
      body("CAMP11", { campaign: campaign("camp-11", { type: "usage", limit: 100, currency_code: "usd" }) }),
    );
    expect(usage.statusCode, usage.body).toBe(200);
    expect(usage.json().promotion.campaign.budget).toMatchObject({ type: "usage", limit: 100, currency_code: null });

    // Medusa's dialect: the value in the method's currency, the spend limit in the budget's.
    const medusa = await t.app.inject({
      method: "POST",
      url: "/medusa/admin/promotions",
      headers: await t.adminHeaders(),
      payload: {
        ...body("CAMP12", { campaign: campaign("camp-12", { type: "spend", limit: 500, currency_code: "usd" }) }),
        application_method: { ...body("x", {}).application_method, value: 12.5 },
      },
    });
    expect(medusa.statusCode, medusa.body).toBe(200);
    const root = (await get(`/admin/promotions/${medusa.json().promotion.id}`)).json().promotion;
    expect(root.application_method.value).toBe(1250);
    expect(root.campaign.budget.limit).toBe(50000);
  });

  it("refuses a campaign with campaign_id, tax-inclusive amounts and attribute budgets, writing nothing", async () => {
    const existing = (await post("/admin/campaigns", { name: "Old", campaign_identifier: "camp-old" })).json().campaign;
    const before = await count();
    const campaigns = (await get("/admin/campaigns?limit=0")).json().count;
    const refused: Array<[Record<string, unknown>, number, string]> = [
      [{ campaign: campaign("camp-20", { type: "usage", limit: 1 }), campaign_id: existing.id }, 400, "invalid_data"],
      [{ is_tax_inclusive: true }, 400, "invalid_data"],
      [{ campaign: campaign("camp-21", { type: "usage", limit: 1, attribute: "customer_id" }) }, 400, "invalid_data"],
      // The campaign's identifier is taken: neither the campaign nor the promotion is written.
      [{ campaign: campaign("camp-old", { type: "usage", limit: 1 }) }, 409, "conflict"],
    ];
    for (const [extra, status, type] of refused) {
      const res = await post("/admin/promotions", body("NOPE", extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(status);
      expect(res.json().type).toBe(type);
    }
    expect(await count()).toBe(before);
    expect((await get("/admin/campaigns?limit=0")).json().count).toBe(campaigns);
  });
});

describe("admin promotion rules, read by kind", () => {
  it("answers each kind of rule with the labels the dashboard shows", async () => {
    const created = await post("/admin/promotions", {
      code: "BUY2",
      type: "buyget",
      rules: [
        { attribute: "customer.groups.id", operator: "in", values: ["cusgroup_1", "cusgroup_2"] },
        { attribute: "subtotal", operator: "gte", values: "5000" },
      ],
      application_method: {
        ...buyTwoGetOne,
        target_rules: [{ attribute: "items.product.id", operator: "eq", values: "prod_1" }],
        buy_rules: [{ attribute: "product_id", operator: "in", values: ["prod_2"] }],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().promotion.id;

    const rules = await get(`/admin/promotions/${id}/rules`);
    expect(rules.statusCode).toBe(200);
    // Rules created together share a timestamp: compare them in attribute order.
    const byAttribute = (rules.json().rules as Array<{ attribute: string }>).sort((a, b) =>
      a.attribute.localeCompare(b.attribute),
    );
    expect(byAttribute).toEqual([
      {
        id: expect.any(String),
        attribute: "customer.groups.id",
        operator: "in",
        description: null,
        attribute_label: "Customer Group",
        operator_label: "In",
        field_type: "multiselect",
        values: [
          { id: expect.any(String), value: "cusgroup_1", label: "cusgroup_1" },
          { id: expect.any(String), value: "cusgroup_2", label: "cusgroup_2" },
        ],
      },
      expect.objectContaining({
        attribute: "subtotal",
        operator: "gte",
        attribute_label: "Subtotal",
        operator_label: "Greater than or equal",
        field_type: "number",
        values: [expect.objectContaining({ value: "5000" })],
      }),
    ]);
    // The buy-get quantities are fields of the application method, which the form shows as
    // (disguised) rules after the promotion's own.
    const disguised = (attribute: string, attribute_label: string, value: string) => ({
      attribute,
      operator: "eq",
      description: null,
      attribute_label,
      operator_label: "Equals",
      field_type: "number",
      required: true,
      disguised: true,
      values: [{ value, label: value }],
    });
    expect((await get(`/admin/promotions/${id}/target-rules`)).json().rules).toEqual([
      expect.objectContaining({
        attribute: "items.product.id",
        attribute_label: "Product",
        operator_label: "Equals",
        values: [expect.objectContaining({ value: "prod_1" })],
      }),
      disguised("apply_to_quantity", "Quantity of items promotion will apply to", "1"),
    ]);
    expect((await get(`/admin/promotions/${id}/buy-rules?promotion_type=buyget`)).json().rules).toEqual([
      expect.objectContaining({ attribute: "product_id", operator: "in" }),
      disguised("buy_rules_min_quantity", "Minimum quantity of items", "2"),
    ]);

    // A promotion without buy rules answers none; bad queries 400.
    const plain = (await post("/admin/promotions", standard("PLAIN5"))).json().promotion;
    expect((await get(`/admin/promotions/${plain.id}/buy-rules`)).json()).toEqual({ rules: [] });
    expect((await get(`/admin/promotions/${plain.id}/rules`)).json()).toEqual({ rules: [] });
    // A fixed amount's currency is shown as a rule, with the stored value.
    const fixed = (
      await post("/admin/promotions", standard("FIXED5", { type: "fixed", value: 500, currency_code: "usd" }))
    ).json().promotion;
    expect((await get(`/admin/promotions/${fixed.id}/rules`)).json().rules).toEqual([
      expect.objectContaining({
        attribute: "currency_code",
        field_type: "select",
        required: true,
        disguised: true,
        values: [{ value: "usd", label: "usd" }],
      }),
    ]);
    // As in Medusa, a promotion not there has none of its own: the create form asks for `null`'s
    // with the promotion it is writing, and gets the disguised rules it must fill in.
    expect(
      (await get("/admin/promotions/null/rules?promotion_type=standard&application_method_type=fixed")).json(),
    ).toEqual({
      rules: [
        {
          attribute: "currency_code",
          operator: "eq",
          description: null,
          attribute_label: "Currency Code",
          operator_label: "Equals",
          field_type: "select",
          required: true,
          disguised: true,
          values: [],
        },
      ],
    });
    expect((await get("/admin/promotions/null/rules?application_method_type=percentage")).json()).toEqual({
      rules: [],
    });
    expect(
      (await get("/admin/promotions/null/buy-rules?promotion_type=buyget"))
        .json()
        .rules.map((r: { attribute: string; values: unknown[] }) => [r.attribute, r.values]),
    ).toEqual([["buy_rules_min_quantity", []]]);
    for (const query of ["x=1", "promotion_type=odd"]) {
      const res = await get(`/admin/promotions/${id}/rules?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.app.inject({ method: "GET", url: `/admin/promotions/${id}/rules` })).statusCode).toBe(401);
  });
});

describe("admin promotion rules, labelled", () => {
  it("labels each value by the record it names, as the form's value list does, and an unknown one by itself", async () => {
    const region = (await post("/admin/regions", { name: "Nordics", currency_code: "eur" })).json().region;
    const created = await post("/admin/promotions", {
      ...standard("NORDIC5"),
      rules: [{ attribute: "region.id", operator: "in", values: [region.id, "reg_gone"] }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const rules = (await get(`/admin/promotions/${created.json().promotion.id}/rules`)).json().rules;
    expect(rules).toEqual([
      expect.objectContaining({
        attribute: "region.id",
        attribute_label: "Region",
        values: [
          { id: expect.any(String), value: region.id, label: "Nordics" },
          { id: expect.any(String), value: "reg_gone", label: "reg_gone" },
        ],
      }),
    ]);
  });
});

// Requests as the admin, for the rule-read tests above.
const post = (url: string, payload: unknown) => t.admin.post(url, payload as object);
const get = (url: string) => t.admin.get(url);
