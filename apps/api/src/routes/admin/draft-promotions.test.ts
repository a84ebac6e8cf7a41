import { beforeAll, describe, expect, it } from "vitest";
import { checkInvariants } from "@kasse/operations";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";
import { withFailure } from "../../testing/inject-failure";
import { expectRefused as refused } from "../../testing/order-changes";

// Medusa's draft-order promotions: codes added to and taken off a draft's edit, priced as a cart
// prices them, kept by the conversion, which counts their budgets as checkout does.

const t = useTestApp({}, { adminId: "user_draft_promotions" });
let LOC: string;
let CHANNEL: string;
let REGION: string;
let OPTION: string;
let TEE: string;
let TEE_ITEM: string;
const ADDRESS = {
  first_name: "Ada",
  last_name: "Lovelace",
  address_1: "Unter den Linden 1",
  city: "Berlin",
  country_code: "de",
  postal_code: "10117",
};

/** A promotion with a code, `percent` off what it targets, in a campaign whose usage budget is `limit` orders (none: no budget). */
async function promotion(
  code: string,
  percent: number,
  options: { target?: "items" | "shipping_methods"; limit?: number; status?: "active" | "inactive" | "draft" } = {},
) {
  const campaign =
    options.limit === undefined
      ? undefined
      : (
          await t.app.modules.promotion.createCampaign({
            name: `${code} campaign`,
            campaign_identifier: code.toLowerCase(),
            budget: { type: "usage", limit: options.limit },
          })
        ).id;
  const target = options.target ?? "items";
  const created = await t.app.modules.promotion.create({
    code,
    type: "standard",
    status: options.status ?? "active",
    ...(campaign ? { campaign_id: campaign } : {}),
    application_method: {
      type: "percentage",
      target_type: target,
      allocation: target === "items" ? "across" : "each",
      value: percent,
    },
  });
  return { id: created.id, campaign };
}

beforeAll(async () => {
  LOC = (await t.app.modules.stockLocation.create({ name: "Promo warehouse" })).id;
  CHANNEL = (await t.app.modules.salesChannel.create({ name: "Phone promos" })).id;
  await t.app.modules.stockLocation.updateSalesChannels(LOC, { add: [CHANNEL] });
  REGION = (await t.app.modules.region.create({ name: "Germany", currency_code: "eur", countries: ["de"] })).id;
  const tax = await t.admin.post("/admin/tax-regions", {
    country_code: "DE",
    default_tax_rate: { rate: 19, code: "DE", name: "MwSt" },
  });
  expect(tax.statusCode, tax.body).toBe(200);
  const product = await createFixtureProduct(
    t,
    {
      title: "Promo tee",
      status: "published",
      variants: [{ title: "One size", size: "One", prices: [{ currency_code: "eur", amount: 2000 }], stock: 100 }],
    },
    LOC,
  );
  TEE = product.variantIds[0]!;
  TEE_ITEM = (await t.app.modules.inventory.listVariantInventoryItems([TEE])).get(TEE)![0]!.inventory_item_id;
  OPTION = (
    await t.app.modules.fulfillment.createOption({ name: "Courier", prices: [{ currency_code: "eur", amount: 1000 }] })
  ).id;
});

/** A draft of 2 tees (40.00 before tax) and the courier (10.00), shipped to Berlin (19%), with its edit begun. */
async function editedDraft() {
  const res = await t.admin.post("/admin/draft-orders", {
    email: "ada@example.com",
    region_id: REGION,
    sales_channel_id: CHANNEL,
    shipping_address: ADDRESS,
    items: [{ variant_id: TEE, quantity: 2 }],
    shipping_methods: [{ shipping_option_id: OPTION }],
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().draft_order.id as string;
  const begun = await t.admin.post(`/admin/draft-orders/${id}/edit`, {});
  expect(begun.statusCode, begun.body).toBe(200);
  return id;
}

const codes = (id: string, promo_codes: unknown, method: "POST" | "DELETE" = "POST") =>
  method === "POST"
    ? t.admin.post(`/admin/draft-orders/${id}/edit/promotions`, { promo_codes })
    : t.admin.delete(`/admin/draft-orders/${id}/edit/promotions`, { promo_codes });
const confirm = async (id: string) => {
  expect((await t.admin.post(`/admin/draft-orders/${id}/edit/request`, {})).statusCode).toBe(200);
  const res = await t.admin.post(`/admin/draft-orders/${id}/edit/confirm`, {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json().draft_order_preview;
};
const stored = async (id: string) =>
  (await t.admin.get(`/admin/draft-orders/${id}?fields=*promotions,*items,*shipping_methods`)).json().draft_order;
const used = async (campaign: string) => (await t.app.modules.promotion.retrieveCampaign(campaign)).budget?.used;
const reserved = async () => (await t.app.modules.inventory.retrieveLevel(TEE_ITEM, LOC)).reserved_quantity as number;

describe("draft order promotions", () => {
  it("a code discounts the draft's lines in the preview, is kept by the confirmation and counted by the conversion", async () => {
    const promo = await promotion("DRAFT10", 10, { limit: 5 });
    const id = await editedDraft();
    const res = await codes(id, ["draft10"]);
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json().draft_order_preview;
    // 10% of 40.00 off the tees; taxed after the discount: 36.00 + 19% = 42.84; the courier 10.00 + 19%.
    expect(preview).toMatchObject({
      item_subtotal: 4000,
      item_discount_total: 400,
      item_tax_total: 684,
      item_total: 4284,
      shipping_total: 1190,
      discount_total: 400,
      total: 5474,
    });
    expect(preview.items[0]).toMatchObject({ quantity: 2, discount_total: 400, total: 4284 });
    expect(preview.order_change.actions).toEqual([
      expect.objectContaining({ action: "PROMOTION_ADD", reference: "promotion", reference_id: promo.id }),
    ]);
    expect(preview.order_change.actions[0].details).toEqual({ code: "DRAFT10" });
    expect(preview.summary).toMatchObject({ pending_difference: 5474 });
    // Nothing is written before the confirmation.
    expect(await stored(id)).toMatchObject({ version: 1, discount_total: 0, promotions: [] });

    const confirmed = await confirm(id);
    expect(confirmed).toMatchObject({ version: 2, discount_total: 400, total: 5474 });
    const draft = await stored(id);
    expect(draft).toMatchObject({ version: 2, discount_total: 400, total: 5474 });
    expect(draft.items[0]).toMatchObject({ discount_total: 400, total: 4284 });
    expect(draft.promotions).toEqual([expect.objectContaining({ id: promo.id, code: "DRAFT10", amount: 400 })]);
    // A draft uses no budget.
    expect(await used(promo.campaign!)).toBe(0);

    // A later edit prices the code on what it leaves: a third tee is discounted too.
    await t.admin.post(`/admin/draft-orders/${id}/edit`, {});
    const more = await t.admin.post(`/admin/draft-orders/${id}/edit/items/item/${draft.items[0].id}`, { quantity: 3 });
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json().draft_order_preview).toMatchObject({ item_subtotal: 6000, item_discount_total: 600 });
    await confirm(id);
    expect((await stored(id)).promotions).toEqual([expect.objectContaining({ code: "DRAFT10", amount: 600 })]);

    const converted = await t.admin.post(`/admin/draft-orders/${id}/convert-to-order`, {});
    expect(converted.statusCode, converted.body).toBe(200);
    const order = converted.json().order;
    expect(order).toMatchObject({ status: "pending", discount_total: 600, total: 5400 * 1.19 + 1190 });
    expect(order.payment_collections[0]).toMatchObject({ amount: order.total });
    expect(await used(promo.campaign!)).toBe(1);
    const promotions = (await t.admin.get(`/admin/orders/${id}?fields=*promotions`)).json().order.promotions;
    expect(promotions).toEqual([expect.objectContaining({ code: "DRAFT10", amount: 600 })]);
    const violations = (await checkInvariants(t.app.modules, { leaseMs: 9_000, recoveryEveryMs: 5_000 })).flatMap((r) =>
      r.violations.filter((v) => [id, promo.id, promo.campaign].includes(v.id)),
    );
    expect(violations).toEqual([]);
  });

  it("a shipping promotion discounts the draft's shipping method; taking the code off puts the price back", async () => {
    await promotion("FREESHIP", 100, { target: "shipping_methods" });
    const id = await editedDraft();
    const added = await codes(id, ["FREESHIP"]);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().draft_order_preview).toMatchObject({
      shipping_subtotal: 1000,
      shipping_discount_total: 1000,
      shipping_total: 0,
      item_discount_total: 0,
      total: 4760,
    });
    expect(await confirm(id)).toMatchObject({ shipping_total: 0, total: 4760 });
    const draft = await stored(id);
    expect(draft.shipping_methods[0]).toMatchObject({ amount: 1000, discount_total: 1000, total: 0 });

    await t.admin.post(`/admin/draft-orders/${id}/edit`, {});
    const removed = await codes(id, ["freeship"], "DELETE");
    expect(removed.statusCode, removed.body).toBe(200);
    const preview = removed.json().draft_order_preview;
    expect(preview).toMatchObject({ shipping_discount_total: 0, shipping_total: 1190, total: 5950 });
    expect(preview.order_change.actions).toEqual([
      expect.objectContaining({ action: "PROMOTION_REMOVE", details: { code: "FREESHIP" } }),
    ]);
    expect(await confirm(id)).toMatchObject({ shipping_total: 1190, total: 5950 });
    const after = await stored(id);
    expect(after).toMatchObject({ version: 3, total: 5950, promotions: [] });
    expect(after.shipping_methods[0]).toMatchObject({ discount_total: 0, total: 1190 });
  });

  it("a code added and taken off in the same edit leaves nothing behind", async () => {
    await promotion("BACKOUT", 20);
    const id = await editedDraft();
    expect((await codes(id, ["BACKOUT"])).statusCode).toBe(200);
    const res = await codes(id, ["BACKOUT"], "DELETE");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().draft_order_preview).toMatchObject({ discount_total: 0, total: 5950 });
    expect(res.json().draft_order_preview.order_change.actions).toEqual([]);
  });

  it("refuses an unknown, inactive or inapplicable code, a code not applied, bad bodies and non-drafts, writing nothing", async () => {
    await promotion("SLEEPING", 10, { status: "inactive" });
    await promotion("NOTYET", 10, { status: "draft" });
    await promotion("GOOD5", 5);
    const id = await editedDraft();
    const version = async () => (await t.admin.get(`/admin/draft-orders/${id}`)).json().draft_order.version;
    refused(await codes(id, ["NO-SUCH-CODE"]), 400);
    refused(await codes(id, ["SLEEPING"]), 400);
    refused(await codes(id, ["NOTYET"]), 400);
    // One bad code among good ones: none is added.
    refused(await codes(id, ["GOOD5", "NO-SUCH-CODE"]), 400);
    refused(await codes(id, ["GOOD5"], "DELETE"), 400);
    refused(await codes(id, []), 400);
    refused(await codes(id, "GOOD5"), 400);
    refused(await codes(id, [5]), 400);
    refused(await t.admin.post(`/admin/draft-orders/${id}/edit/promotions`, { promo_codes: ["GOOD5"], extra: 1 }), 400);
    refused(await t.admin.post(`/admin/draft-orders/${id}/edit/promotions`, {}), 400);
    expect((await t.app.modules.orderEdit.activeFor(id))!.actions).toEqual([]);
    expect(await version()).toBe(1);
    // No active edit, an unknown draft, an order that is no longer a draft.
    await t.admin.delete(`/admin/draft-orders/${id}/edit`);
    refused(await codes(id, ["GOOD5"]), 400);
    refused(await codes("order_missing", ["GOOD5"]), 404);
    const converted = await t.admin.post(`/admin/draft-orders/${id}/convert-to-order`, {});
    expect(converted.statusCode, converted.body).toBe(200);
    refused(await codes(id, ["GOOD5"]), 404);
    // A store customer reaches no draft.
    const anonymous = await t.store.post(`/admin/draft-orders/${id}/edit/promotions`, { promo_codes: ["GOOD5"] });
    expect(anonymous.statusCode).toBe(401);
  });

  it("a code whose promotion gives the draft nothing is refused", async () => {
    const usd = await t.app.modules.promotion.create({
      code: "DOLLARS",
      type: "standard",
      application_method: {
        type: "fixed",
        target_type: "items",
        allocation: "across",
        value: 500,
        currency_code: "usd",
      },
    });
    expect(usd.code).toBe("DOLLARS");
    const id = await editedDraft();
    refused(await codes(id, ["DOLLARS"]), 400);
  });

  it("of two drafts converted at once with the last use of a budget, one wins; the other stays a draft", async () => {
    const promo = await promotion("LASTONE", 10, { limit: 1 });
    const ids = [await editedDraft(), await editedDraft()];
    for (const id of ids) {
      expect((await codes(id, ["LASTONE"])).statusCode).toBe(200);
      await confirm(id);
    }
    const before = await reserved();
    const answers = await Promise.all(ids.map((id) => t.admin.post(`/admin/draft-orders/${id}/convert-to-order`, {})));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const loser = ids[answers.findIndex((a) => a.statusCode === 400)]!;
    refused(
      answers.find((a) => a.statusCode === 400)!,
      400,
    );
    expect(answers.find((a) => a.statusCode === 400)!.json().message).toMatch(/budget/);
    expect(await used(promo.campaign!)).toBe(1);
    expect(await reserved()).toBe(before + 2);
    expect(await stored(loser)).toMatchObject({ status: "draft", payment_collections: [] });
    // Taking the code off the loser lets it convert at full price.
    await t.admin.post(`/admin/draft-orders/${loser}/edit`, {});
    expect((await codes(loser, ["LASTONE"], "DELETE")).statusCode).toBe(200);
    await confirm(loser);
    const res = await t.admin.post(`/admin/draft-orders/${loser}/convert-to-order`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().order).toMatchObject({ discount_total: 0, total: 5950 });
    expect(await used(promo.campaign!)).toBe(1);
  });

  it("a failure after the budget was counted gives it back and leaves the draft a draft", async () => {
    const promo = await promotion("FAILSAFE", 10, { limit: 3 });
    const id = await editedDraft();
    expect((await codes(id, ["FAILSAFE"])).statusCode).toBe(200);
    await confirm(id);
    const before = await reserved();
    for (const [table, op] of [
      ["reservation_item", "INSERT"],
      ["payment_collection", "INSERT"],
    ] as const) {
      const res = await withFailure(t.database.db, table, op, "true", () =>
        t.admin.post(`/admin/draft-orders/${id}/convert-to-order`, {}),
      );
      expect(res.statusCode, `${table}: ${res.body}`).toBe(500);
      expect(await used(promo.campaign!), table).toBe(0);
      expect(await stored(id), table).toMatchObject({ status: "draft", payment_collections: [] });
      expect(await reserved(), table).toBe(before);
    }
    const res = await t.admin.post(`/admin/draft-orders/${id}/convert-to-order`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(await used(promo.campaign!)).toBe(1);
  });

  it("Medusa's dialect answers the discounts in major units", async () => {
    await promotion("MAJOR", 10);
    const id = await editedDraft();
    const res = await t.admin.post(`/medusa/admin/draft-orders/${id}/edit/promotions`, { promo_codes: ["MAJOR"] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().draft_order_preview).toMatchObject({ item_discount_total: 4, discount_total: 4, total: 54.74 });
    const removed = await t.admin.delete(`/medusa/admin/draft-orders/${id}/edit/promotions`, {
      promo_codes: ["MAJOR"],
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().draft_order_preview).toMatchObject({ discount_total: 0, total: 59.5 });
  });
});
