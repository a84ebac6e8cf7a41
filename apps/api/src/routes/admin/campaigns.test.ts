import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";

const t = useTestApp();

const createCampaign = async (body: object) => (await t.admin.post("/admin/campaigns", body)).json().campaign;
const count = async () => (await t.admin.get("/admin/campaigns?limit=0")).json().count as number;
const promotion = async (code: string) =>
  (
    await t.admin.post("/admin/promotions", {
      code,
      type: "standard",
      application_method: { type: "percentage", target_type: "items", value: 10 },
    })
  ).json().promotion;

describe("admin campaigns", () => {
  it("creates with a budget (used shown), retrieves, updates, lists and deletes", async () => {
    const created = await t.admin.post("/admin/campaigns", {
      name: "Black Friday",
      description: "Deals",
      campaign_identifier: "bf-2026",
      starts_at: "2026-11-27T00:00:00.000Z",
      ends_at: "2026-11-30T23:59:59.000Z",
      budget: { type: "usage", limit: 100 },
    });
    expect(created.statusCode).toBe(200);
    const campaign = created.json().campaign;
    expect(campaign).toMatchObject({
      name: "Black Friday",
      description: "Deals",
      campaign_identifier: "bf-2026",
      starts_at: "2026-11-27T00:00:00.000Z",
      ends_at: "2026-11-30T23:59:59.000Z",
      budget: { type: "usage", limit: 100, used: 0, currency_code: null },
      promotions: [],
    });
    expect(campaign.id).toMatch(/^procamp_/);
    expect(campaign.budget.id).toMatch(/^probudg_/);
    expect((await t.admin.get(`/admin/campaigns/${campaign.id}`)).json().campaign).toEqual(campaign);

    const updated = await t.admin.post(`/admin/campaigns/${campaign.id}`, {
      name: "BF",
      budget: { limit: 50 },
      ends_at: null,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().campaign).toMatchObject({
      name: "BF",
      ends_at: null,
      budget: { type: "usage", limit: 50, used: 0 },
    });

    const spend = await createCampaign({
      name: "Spend",
      campaign_identifier: "spend-1",
      budget: { type: "spend", limit: 10000, currency_code: "USD" },
    });
    expect(spend.budget).toMatchObject({ type: "spend", limit: 10000, currency_code: "usd", used: 0 });

    const list = (await t.admin.get("/admin/campaigns?q=bf&limit=5")).json();
    expect(list).toMatchObject({ count: 1, limit: 5, offset: 0 });
    expect(list.campaigns[0].id).toBe(campaign.id);
    expect(list.campaigns[0].budget.limit).toBe(50);
    const narrow = (
      await t.admin.get("/admin/campaigns?fields=campaign_identifier,budget.used&order=campaign_identifier")
    ).json();
    expect(narrow.campaigns[0]).toEqual({
      id: campaign.id,
      campaign_identifier: "bf-2026",
      budget: { id: campaign.budget.id, used: 0 },
    });

    const withoutBudget = await t.admin.post(`/admin/campaigns/${spend.id}`, { budget: null });
    expect(withoutBudget.json().campaign.budget).toBeNull();

    expect((await t.admin.delete(`/admin/campaigns/${campaign.id}`)).json()).toEqual({
      id: campaign.id,
      object: "campaign",
      deleted: true,
    });
    expect((await t.admin.get(`/admin/campaigns/${campaign.id}`)).statusCode).toBe(404);
    // The identifier is free again once the campaign is deleted.
    expect((await t.admin.post("/admin/campaigns", { name: "Again", campaign_identifier: "bf-2026" })).statusCode).toBe(
      200,
    );
  });

  it("answers a taken campaign_identifier with 409 conflict", async () => {
    await t.admin.post("/admin/campaigns", { name: "One", campaign_identifier: "taken" });
    const before = await count();
    const res = await t.admin.post("/admin/campaigns", {
      name: "Two",
      campaign_identifier: "taken",
      budget: { type: "usage", limit: 1 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().type).toBe("conflict");
    expect(await count()).toBe(before);
  });

  it("adds and removes promotions; the promotion shows its campaign and budget", async () => {
    const campaign = await createCampaign({
      name: "Members",
      campaign_identifier: "members",
      budget: { type: "usage", limit: 10 },
    });
    const a = await promotion("MEM-A");
    const b = await promotion("MEM-B");
    const added = await t.admin.post(`/admin/campaigns/${campaign.id}/promotions`, { add: [a.id, b.id] });
    expect(added.statusCode).toBe(200);
    expect(
      added
        .json()
        .campaign.promotions.map((p: { id: string }) => p.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect((await t.admin.get(`/admin/promotions/${a.id}`)).json().promotion).toMatchObject({
      campaign_id: campaign.id,
      campaign: { id: campaign.id, budget: { type: "usage", limit: 10, used: 0 } },
    });

    const removed = await t.admin.post(`/admin/campaigns/${campaign.id}/promotions`, { remove: [a.id] });
    expect(removed.json().campaign.promotions.map((p: { id: string }) => p.id)).toEqual([b.id]);
    expect((await t.admin.get(`/admin/promotions/${a.id}`)).json().promotion.campaign_id).toBeNull();

    // Unknown ids, or removing one that is not in the campaign, change nothing.
    const c = await promotion("MEM-C");
    expect(
      (await t.admin.post(`/admin/campaigns/${campaign.id}/promotions`, { add: [c.id, "promo_missing"] })).statusCode,
    ).toBe(404);
    expect((await t.admin.post(`/admin/campaigns/${campaign.id}/promotions`, { remove: [c.id] })).statusCode).toBe(400);
    expect(
      (await t.admin.post(`/admin/campaigns/${campaign.id}/promotions`, { add: [c.id], remove: [c.id] })).statusCode,
    ).toBe(400);
    expect((await t.admin.get(`/admin/promotions/${c.id}`)).json().promotion.campaign_id).toBeNull();
    expect((await t.admin.post(`/admin/campaigns/${campaign.id}/promotions`, { add: "x" })).statusCode).toBe(400);
    expect((await t.admin.post(`/admin/campaigns/procamp_missing/promotions`, { add: [c.id] })).statusCode).toBe(404);

    // Deleting the campaign detaches its promotions.
    await t.admin.delete(`/admin/campaigns/${campaign.id}`);
    expect((await t.admin.get(`/admin/promotions/${b.id}`)).json().promotion).toMatchObject({
      campaign_id: null,
      campaign: null,
    });
  });

  it("rejects bad input with 400 invalid_data and writes nothing", async () => {
    const before = await count();
    const bodies: unknown[] = [
      {},
      { name: "x" },
      { campaign_identifier: "x" },
      { name: "", campaign_identifier: "x" },
      { name: "x", campaign_identifier: "x", starts_at: "tomorrow" },
      { name: "x", campaign_identifier: "x", starts_at: "2026-02-01T00:00:00Z", ends_at: "2026-01-01T00:00:00Z" },
      { name: "x", campaign_identifier: "x", budget: { type: "tickets", limit: 1 } },
      { name: "x", campaign_identifier: "x", budget: { type: "usage", limit: -1 } },
      { name: "x", campaign_identifier: "x", budget: { type: "usage", limit: 1.5 } },
      { name: "x", campaign_identifier: "x", budget: { type: "usage", limit: 2 ** 60 } },
      { name: "x", campaign_identifier: "x", budget: { type: "spend", limit: 100 } }, // spend needs a currency
      { name: "x", campaign_identifier: "x", budget: { type: "usage", limit: 1, currency_code: "eur" } },
      { name: "x", campaign_identifier: "x", budget: { type: "usage", limit: 1, used: 5 } }, // used is not writable
      { name: "x", campaign_identifier: "x", extra: true },
    ];
    for (const body of bodies) {
      const res = await t.admin.post("/admin/campaigns", body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect(await count()).toBe(before);

    const c = await createCampaign({
      name: "Fixed",
      campaign_identifier: "fixed-type",
      budget: { type: "usage", limit: 5 },
    });
    expect((await t.admin.post(`/admin/campaigns/${c.id}`, { budget: { type: "spend" } })).statusCode).toBe(400);
    expect(
      (
        await t.admin.post(`/admin/campaigns/${c.id}`, {
          ends_at: "2000-01-01T00:00:00Z",
          starts_at: "2001-01-01T00:00:00Z",
        })
      ).statusCode,
    ).toBe(400);
    expect((await t.admin.get(`/admin/campaigns/${c.id}`)).json().campaign).toEqual(c);
  });

  it("answers unknown ids with 404 and requires an admin", async () => {
    for (const res of [
      await t.admin.get("/admin/campaigns/procamp_missing"),
      await t.admin.post("/admin/campaigns/procamp_missing", { name: "x" }),
      await t.admin.delete("/admin/campaigns/procamp_missing"),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().type).toBe("not_found");
    }
    expect((await t.app.inject({ method: "GET", url: "/admin/campaigns" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: "GET", url: "/admin/campaigns", headers: await t.customerHeaders("cus_1") }))
        .statusCode,
    ).toBe(403);
  });
});
