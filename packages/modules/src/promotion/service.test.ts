import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { errors, KasseError } from "@kasse/core";
import { useTestDatabase } from "@kasse/db/testing";
import { createEngine, definitions } from "@kasse/workflows";
import { campaignBudget, promotion } from "./schema";
import { createPromotionService } from "./service";
import { registerPromotionUsage } from "./steps";
import type { EngineCart } from "./compute-adjustments";
import { createModules, type Modules } from "../modules";
import { eventOutbox } from "@kasse/modules";

const { step, workflow } = definitions<Modules>();

const database = useTestDatabase({ poolSize: 20 });
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const service = createPromotionService();

let seq = 0;
const uid = (prefix: string) => `${prefix}-${++seq}-${Math.random().toString(36).slice(2, 8)}`;
const percent = (value = 10) => ({
  type: "percentage" as const,
  target_type: "items" as const,
  allocation: "each" as const,
  value,
});
const usageCampaign = (limit: number) =>
  service.createCampaign({ name: "Usage", campaign_identifier: uid("usage"), budget: { type: "usage", limit } });
/** A 10 % standard promotion coded `prefix…`, in the campaign `campaign_id` when one is given. */
const percentPromotion = (prefix: string, campaign_id?: string) =>
  service.create({ code: uid(prefix), type: "standard", campaign_id, application_method: percent() });
const usedOf = async (campaignId: string) =>
  (await database.db.select().from(campaignBudget).where(eq(campaignBudget.campaign_id, campaignId)))[0]!.used;

const cart: EngineCart = {
  currency_code: "eur",
  region_id: "reg_1",
  items: [
    { id: "li_1", product_id: "prod_1", quantity: 2, unit_price: 1000 },
    { id: "li_2", product_id: "prod_2", quantity: 1, unit_price: 500 },
  ],
};

describe("promotion service", () => {
  it("creates a promotion with rules, values as {id, value}, and reads it back", async () => {
    const created = await service.create({
      code: uid("SAVE"),
      type: "standard",
      application_method: {
        ...percent(),
        currency_code: "EUR",
        target_rules: [{ attribute: "product_id", operator: "in", values: ["prod_1", "prod_2"] }],
      },
      rules: [{ attribute: "subtotal", operator: "gte", values: 1000 }],
    });
    expect(created).toMatchObject({
      type: "standard",
      status: "active",
      is_automatic: false,
      campaign_id: null,
      campaign: null,
    });
    expect(created.application_method).toMatchObject({
      type: "percentage",
      target_type: "items",
      allocation: "each",
      value: 10,
      currency_code: "eur",
      buy_rules: [],
    });
    expect(created.application_method!.target_rules[0]!.values.map((v) => v.value)).toEqual(["prod_1", "prod_2"]);
    expect(created.application_method!.target_rules[0]!.values[0]!.id).toMatch(/^prorulval_/);
    expect(created.rules).toMatchObject([{ attribute: "subtotal", operator: "gte", values: [{ value: "1000" }] }]);
    expect(await service.retrieve(created.id)).toEqual(created);
  });

  it("codes are unique regardless of case; a deleted promotion frees its code", async () => {
    const code = uid("Unique");
    const first = await service.create({ code, type: "standard", application_method: percent() });
    await expect(
      service.create({ code: code.toUpperCase(), type: "standard", application_method: percent() }),
    ).rejects.toMatchObject({ type: "conflict" });
    await service.delete(first.id);
    await expect(
      service.create({ code: code.toLowerCase(), type: "standard", application_method: percent() }),
    ).resolves.toMatchObject({ code: code.toLowerCase() });
  });

  it("refuses what the engine could not honour", async () => {
    const bad = [
      { type: "standard" as const, application_method: percent() }, // no code
      { code: "X1", type: "standard" as const, application_method: percent(0) },
      { code: "X2", type: "standard" as const, application_method: percent(100.5) },
      {
        code: "X3",
        type: "standard" as const,
        application_method: { type: "fixed" as const, target_type: "items" as const, value: 100 },
      }, // no currency
      {
        code: "X4",
        type: "standard" as const,
        application_method: { type: "fixed" as const, target_type: "items" as const, value: 1.5, currency_code: "eur" },
      },
      { code: "X5", type: "standard" as const, application_method: { ...percent(), target_type: "order" as const } }, // order needs across
      {
        code: "X6",
        type: "standard" as const,
        application_method: { type: "free_shipping" as const, target_type: "items" as const },
      },
      { code: "X7", type: "buyget" as const, application_method: percent() }, // buyget without quantities or rules
      {
        code: "X8",
        type: "standard" as const,
        application_method: percent(),
        rules: [{ attribute: "nope", operator: "eq" as const, values: ["a"] }],
      },
      {
        code: "X9",
        type: "standard" as const,
        application_method: percent(),
        rules: [{ attribute: "region_id", operator: "gt" as const, values: ["a"] }],
      },
      {
        code: "X10",
        type: "standard" as const,
        application_method: percent(),
        rules: [{ attribute: "subtotal", operator: "gte" as const, values: ["ten"] }],
      },
      {
        code: "X11",
        type: "standard" as const,
        application_method: percent(),
        rules: [{ attribute: "region_id", operator: "eq" as const, values: ["a", "b"] }],
      },
      {
        code: "X12",
        type: "standard" as const,
        application_method: {
          ...percent(),
          buy_rules: [{ attribute: "product_id", operator: "eq" as const, values: ["p"] }],
        },
      },
    ];
    for (const input of bad)
      await expect(service.create(input), JSON.stringify(input)).rejects.toMatchObject({ type: "invalid_data" });
    await expect(
      service.create({ code: "X13", type: "standard", campaign_id: "procamp_missing", application_method: percent() }),
    ).rejects.toMatchObject({ type: "not_found" });
    const written = await database.db.select().from(promotion);
    expect(written.filter((p) => p.code && /^X\d+$/.test(p.code))).toEqual([]);
  });

  it("loads the cart's promotions in a constant number of queries, however many there are", async () => {
    // Counts the statements a call sends, as the test database's query logger sees them (a
    // statement built once calls no query builder after its first use, so builder calls are no measure).
    const camp = await usageCampaign(100);
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const code = uid("Many");
      codes.push(code);
      await service.create({
        code,
        type: "standard",
        campaign_id: camp.id,
        application_method: {
          ...percent(),
          target_rules: [{ attribute: "product_id", operator: "eq", values: ["prod_1"] }],
        },
      });
    }
    const one = await database.statements.record(async () => {
      expect((await service.loadForCart(codes.slice(0, 1))).promotions.length).toBeGreaterThanOrEqual(1);
    });
    const six = await database.statements.record(async () => {
      expect(
        (await service.loadForCart(codes)).promotions.filter((p) => p.code && codes.includes(p.code)),
      ).toHaveLength(6);
    });
    expect(six.length).toBe(one.length);
    expect(six.length).toBeLessThanOrEqual(5);
  });

  it("loads automatic promotions first, then codes case-insensitively", async () => {
    const auto = await service.create({ type: "standard", is_automatic: true, application_method: percent(5) });
    const code = uid("Cart");
    const coded = await service.create({
      code,
      type: "standard",
      application_method: { type: "fixed", target_type: "order", value: 300, currency_code: "eur" },
    });
    await service.create({
      code: uid("draft"),
      type: "standard",
      status: "draft",
      is_automatic: true,
      application_method: percent(50),
    });
    const result = await service.computeForCart(cart, [code.toLowerCase(), "NOPE"]);
    const applied = result.applied.filter((a) => a.promotion_id === auto.id || a.promotion_id === coded.id);
    expect(applied.map((a) => [a.promotion_id, a.amount])).toEqual([
      [auto.id, 125], // 5% of 2000 and 500
      [coded.id, 300],
    ]);
    expect(result.skipped).toContainEqual({ promotion_id: null, code: "NOPE", reason: "not_found" });
    expect(result.applied.some((a) => a.amount === 1250)).toBe(false); // the draft automatic one never loads
    await service.delete(auto.id);
  });

  it("reports a coded promotion whose campaign budget is used up as skipped", async () => {
    const camp = await usageCampaign(1);
    const code = uid("Budget");
    const p = await service.create({ code, type: "standard", campaign_id: camp.id, application_method: percent() });
    expect((await service.computeForCart(cart, [code])).applied.map((a) => a.promotion_id)).toContain(p.id);
    await service.registerUsage([{ promotion_id: p.id, amount: 250 }]);
    expect((await service.computeForCart(cart, [code])).skipped).toContainEqual({
      promotion_id: p.id,
      code,
      reason: "budget_exhausted",
    });
  });
});

describe("until when a cart's promotions hold", () => {
  it("computeForCart tells the next start or end of their campaigns (just past an end: it runs through it)", async () => {
    const ends = new Date(Date.now() + 60_000);
    const camp = await service.createCampaign({
      name: "Ends",
      campaign_identifier: uid("ends"),
      ends_at: ends.toISOString(),
    });
    const code = uid("Ends");
    await service.create({ code, type: "standard", campaign_id: camp.id, application_method: percent() });
    const result = await service.computeForCart(cart, [code]);
    expect(result.applied).toHaveLength(1);
    expect(result.valid_until?.getTime()).toBe(ends.getTime() + 1);
    expect((await service.computeForCart(cart, [code], { now: new Date(ends.getTime() + 1) })).applied).toEqual([]);
  });

  it("budgetsShort names the usages a budget cannot take any more, without taking anything", async () => {
    const camp = await usageCampaign(1);
    const p = await percentPromotion("Short", camp.id);
    const plain = await percentPromotion("Plain");
    const usages = [
      { promotion_id: p.id, amount: 100 },
      { promotion_id: plain.id, amount: 100 },
    ];
    expect(await service.budgetsShort(usages)).toEqual([]);
    await service.registerUsage([{ promotion_id: p.id, amount: 100 }]);
    expect(await service.budgetsShort(usages)).toEqual([{ promotion_id: p.id, campaign_id: camp.id }]);
    expect(await usedOf(camp.id)).toBe(1);
    expect(await service.budgetsShort([])).toEqual([]);
  });
});

describe("campaign budgets", () => {
  it("usage limit 10, 30 concurrent consumptions: exactly 10 succeed and used stops at 10", async () => {
    const camp = await usageCampaign(10);
    const results = await Promise.all(Array.from({ length: 30 }, () => service.consumeBudget(camp.id, 1)));
    expect(results.filter(Boolean)).toHaveLength(10);
    expect(await usedOf(camp.id)).toBe(10);
    expect((await service.retrieveCampaign(camp.id)).budget).toMatchObject({ type: "usage", limit: 10, used: 10 });
  });

  it("a spend budget takes amounts up to its limit; release gives back, never below zero", async () => {
    const camp = await service.createCampaign({
      name: "Spend",
      campaign_identifier: uid("spend"),
      budget: { type: "spend", limit: 1000, currency_code: "EUR" },
    });
    expect(camp.budget).toMatchObject({ type: "spend", limit: 1000, used: 0, currency_code: "eur" });
    expect(await service.consumeBudget(camp.id, 600)).toBe(true);
    expect(await service.consumeBudget(camp.id, 401)).toBe(false);
    expect(await service.consumeBudget(camp.id, 400)).toBe(true);
    expect(await usedOf(camp.id)).toBe(1000);
    await service.releaseBudget(camp.id, 300);
    expect(await usedOf(camp.id)).toBe(700);
    await service.releaseBudget(camp.id, 5000);
    expect(await usedOf(camp.id)).toBe(0);
  });

  it("a campaign without a budget (or without a limit) always has room", async () => {
    const none = await service.createCampaign({ name: "Free", campaign_identifier: uid("free") });
    expect(await service.consumeBudget(none.id, 1)).toBe(true);
    const unlimited = await service.createCampaign({
      name: "Unlimited",
      campaign_identifier: uid("unl"),
      budget: { type: "usage" },
    });
    expect(await service.consumeBudget(unlimited.id, 1)).toBe(true);
    expect(await usedOf(unlimited.id)).toBe(1);
  });

  it("registerUsage is all or nothing across campaigns and counts an order once per usage budget", async () => {
    const usage = await usageCampaign(5);
    const spend = await service.createCampaign({
      name: "Spend",
      campaign_identifier: uid("spend"),
      budget: { type: "spend", limit: 500, currency_code: "eur" },
    });
    const a = await percentPromotion("A", usage.id);
    const b = await percentPromotion("B", usage.id);
    const c = await percentPromotion("C", spend.id);
    const plain = await percentPromotion("D");

    const taken = await service.registerUsage([
      { promotion_id: a.id, amount: 100 },
      { promotion_id: b.id, amount: 50 },
      { promotion_id: c.id, amount: 300 },
      { promotion_id: plain.id, amount: 10 },
    ]);
    expect(taken).toEqual(
      [
        { campaign_id: usage.id, amount: 1 },
        { campaign_id: spend.id, amount: 300 },
      ].sort((x, y) => x.campaign_id.localeCompare(y.campaign_id)),
    );
    expect(await usedOf(usage.id)).toBe(1);
    expect(await usedOf(spend.id)).toBe(300);

    // The spend budget cannot take 201 more: nothing is taken from the usage budget either.
    const failure = await service
      .registerUsage([
        { promotion_id: a.id, amount: 1 },
        { promotion_id: c.id, amount: 201 },
      ])
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(KasseError);
    expect(failure).toMatchObject({ type: "invalid_data", retryable: false });
    expect(await usedOf(usage.id)).toBe(1);
    expect(await usedOf(spend.id)).toBe(300);

    await service.revertUsage(taken);
    expect(await usedOf(usage.id)).toBe(0);
    expect(await usedOf(spend.id)).toBe(0);
  });
});

describe("register-promotion-usage step", () => {
  const engine = () =>
    createEngine({ events: eventOutbox, db: database.db, modules: () => createModules(), leaseMs: 5_000 });
  const failLater = step("promotion-test-fail-later", {
    invoke: async (): Promise<{ output: null }> => {
      throw errors.invalidData("a later step failed");
    },
  });
  const checkout = workflow(
    "promotion-test-checkout",
    async (input: { usages: Array<{ promotion_id: string; amount: number }>; fail: boolean }, ctx) => {
      const taken = await ctx.run(registerPromotionUsage, { usages: input.usages });
      if (input.fail) await ctx.run(failLater, null);
      return taken;
    },
  );

  it("consumes the budget, and a later step's failure gives it back", async () => {
    const camp = await usageCampaign(3);
    const p = await percentPromotion("Step", camp.id);
    const usages = [{ promotion_id: p.id, amount: 100 }];
    await expect(engine().execute(checkout, { usages, fail: false })).resolves.toEqual([
      { campaign_id: camp.id, amount: 1 },
    ]);
    expect(await usedOf(camp.id)).toBe(1);
    await expect(engine().execute(checkout, { usages, fail: true })).rejects.toMatchObject({
      type: "invalid_data",
      message: "a later step failed",
    });
    expect(await usedOf(camp.id)).toBe(1);
  });

  it("30 concurrent checkouts against a usage limit of 10: exactly 10 complete, the rest fail cleanly", async () => {
    const camp = await usageCampaign(10);
    const p = await percentPromotion("Rush", camp.id);
    const e = engine();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, () =>
        e.execute(checkout, { usages: [{ promotion_id: p.id, amount: 100 }], fail: false }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(10);
    const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(failures).toHaveLength(20);
    for (const f of failures) expect(f.reason).toMatchObject({ type: "invalid_data" });
    expect(await usedOf(camp.id)).toBe(10);
  });
});
