import { beforeAll, describe, expect, it } from "vitest";
import { onPostgres } from "@kasse/db/testing";
import { useTestApp } from "../../testing";
import { checkoutReadyCart, checkoutStore, US_ADDRESS } from "../../testing/checkout";

// A campaign's usage budget under concurrent checkouts: the budget is consumed by a
// guarded update inside the complete-cart saga, so it can never be overrun.
const t = useTestApp();
let regionId: string;
let optionId: string;
let variantId: string;
let campaignId: string;

beforeAll(async () => {
  const m = t.app.modules;
  const store = await checkoutStore(t, {
    region: { name: "US", currency_code: "usd", countries: ["us"] },
    title: "Mug",
    variants: [
      { title: "One", sku: "MUG-1", size: "One", stock: 1000, prices: [{ currency_code: "usd", amount: 1500 }] },
    ],
  });
  ({ regionId, optionId } = store);
  variantId = store.variantIds[0]!;
  campaignId = (
    await m.promotion.createCampaign({ name: "Ten", campaign_identifier: "ten", budget: { type: "usage", limit: 10 } })
  ).id;
  await m.promotion.create({
    code: "TEN",
    type: "standard",
    campaign_id: campaignId,
    application_method: { type: "percentage", target_type: "items", allocation: "across", value: 20 },
  });
}, 120_000);

const address = US_ADDRESS;

async function post(url: string, payload?: object) {
  const res = await t.app.inject({ method: "POST", url, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}

/** A cart with the code applied and a payment session, ready to complete. */
const cartWithCode = async (): Promise<string> =>
  (
    await checkoutReadyCart(t, {
      region_id: regionId,
      option_id: optionId,
      variant_id: variantId,
      quantity: 1,
      promo: "TEN",
      address,
    })
  ).id;

describe.runIf(onPostgres())("promotion budget under concurrent checkouts", () => {
  it("usage limit 10, 30 parallel checkouts with the code: exactly 10 orders carry the discount, used = 10", async () => {
    const carts: string[] = [];
    for (let i = 0; i < 30; i++) carts.push(await cartWithCode());
    const answers = await Promise.all(carts.map((id) => post(`/store/carts/${id}/complete`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const orders = answers.filter((a) => a.body.type === "order").map((a) => a.body.order);
    const refused = answers.filter((a) => a.body.type === "cart");
    expect(orders).toHaveLength(10);
    expect(refused).toHaveLength(20);
    // 20 % of 1500 on each discounted order.
    for (const order of orders) expect(order.discount_total).toBe(300);
    for (const answer of refused) expect(answer.body.error.message).toMatch(/budget/i);
    const campaign = await t.app.modules.promotion.retrieveCampaign(campaignId);
    expect(campaign.budget?.used).toBe(10);
  }, 180_000);
});
