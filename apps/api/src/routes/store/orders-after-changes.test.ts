import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { exchangeScenario } from "../../testing/exchanges";
import { useChangeFixtures } from "../../testing/order-changes";

const t = useTestApp({}, { adminId: "user_store_changes" });
const f = useChangeFixtures(t, "Store changes warehouse");
const { delivered } = exchangeScenario(t, f);

/** What Medusa's storefront asks for on its order page (`lib/data/orders.ts`: `retrieveOrder`). */
const STOREFRONT_FIELDS = "*payment_collections.payments,*items,*items.metadata,*items.variant,*items.product";

type Line = { id: string; variant_id: string | null; quantity: number; total: number };
type Seen = {
  version: number;
  total: number;
  items: Line[];
  summary: { pending_difference: number };
  returns: Array<{ id: string; items: Array<{ line_item_id: string; quantity: number }> }>;
};

/** The order as its customer reads it: native, then in Medusa's dialect (money in major units), with the storefront's fields. */
async function shopperSees(id: string, customerId: string) {
  const headers = await t.customerHeaders(customerId);
  const url = `/store/orders/${id}?fields=${encodeURIComponent(STOREFRONT_FIELDS)}`;
  const native = await t.app.inject({ method: "GET", url, headers });
  expect(native.statusCode, native.body).toBe(200);
  const medusa = await t.app.inject({ method: "GET", url: `/medusa${url}`, headers });
  expect(medusa.statusCode, medusa.body).toBe(200);
  return { order: native.json().order as Seen, medusa: medusa.json().order as Seen };
}

/** The same order as the admin reads it: what the shopper must see. */
const adminSees = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order as Seen;

/** Asserts the shopper sees the admin's version, lines, total and balance, and that nobody else can read it. */
async function expectShopperSeesCurrent(id: string) {
  const { order, medusa } = await shopperSees(id, "cus_changes");
  const admin = await adminSees(id);
  const lines = (o: Seen) => o.items.map((i) => ({ id: i.id, quantity: i.quantity, total: i.total }));
  expect(order.version).toBe(admin.version);
  expect(order.total).toBe(admin.total);
  expect(order.summary.pending_difference).toBe(admin.summary.pending_difference);
  expect(lines(order)).toEqual(lines(admin));
  expect(medusa.version).toBe(admin.version);
  expect(medusa.total).toBe(admin.total / 100);
  expect(medusa.items.map((i) => i.quantity)).toEqual(admin.items.map((i) => i.quantity));
  const other = await t.app.inject({
    method: "GET",
    url: `/store/orders/${id}`,
    headers: await t.customerHeaders("cus_someone_else"),
  });
  expect(other.statusCode).toBe(404);
  return order;
}

const post = async (path: string, body: Record<string, unknown> = {}) => {
  const res = await t.admin.post(path, body);
  expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
  return res.json();
};

describe("the shopper's order after a change (GET /store/orders/{id})", () => {
  // One order through an edit, an exchange and a claim, in turn (the tests of a file run in order).
  const o = { id: "", shirt: "", mug: "" };

  it("shows the order as placed; another customer gets 404", async () => {
    Object.assign(o, await delivered({ customer: { customer_id: "cus_changes", email: "changes@example.com" } }));
    expect(await expectShopperSeesCurrent(o.id)).toMatchObject({ version: 1, total: 3200 });
  }, 60_000);

  it("after an edit: the new quantity, total, balance and version", async () => {
    // A second mug (5.00), still to pay.
    await post("/admin/order-edits", { order_id: o.id });
    await post(`/admin/order-edits/${o.id}/items/item/${o.mug}`, { quantity: 2 });
    await post(`/admin/order-edits/${o.id}/request`);
    await post(`/admin/order-edits/${o.id}/confirm`);
    const edited = await expectShopperSeesCurrent(o.id);
    expect(edited).toMatchObject({ version: 2, total: 3700, summary: { pending_difference: 500 } });
    expect(edited.items.find((i) => i.id === o.mug)!.quantity).toBe(2);
  }, 60_000);

  it("after an exchange: the line sent out, the unit asked back among its returns", async () => {
    // One shirt (10.00) back for a cap (5.00).
    const { exchange } = await post("/admin/exchanges", { order_id: o.id });
    await post(`/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: o.shirt, quantity: 1 }] });
    await post(`/admin/exchanges/${exchange.id}/outbound/items`, {
      items: [{ variant_id: f.cap.variant, quantity: 1 }],
    });
    await post(`/admin/returns/${exchange.return_id}`, { location_id: f.LOC });
    await post(`/admin/exchanges/${exchange.id}/request`);
    const exchanged = await expectShopperSeesCurrent(o.id);
    expect(exchanged).toMatchObject({ version: 3, total: 3200, summary: { pending_difference: 0 } });
    expect(exchanged.items.filter((i) => i.variant_id === f.cap.variant).map((i) => i.quantity)).toEqual([1]);
    expect(exchanged.returns).toEqual([
      expect.objectContaining({
        id: exchange.return_id,
        items: [expect.objectContaining({ line_item_id: o.shirt, quantity: 1 })],
      }),
    ]);
  }, 60_000);

  it("after a replacement claim: the replacement line at no charge", async () => {
    // The other shirt claimed, a cap sent in its place.
    const { claim } = await post("/admin/claims", { order_id: o.id, type: "replace" });
    await post(`/admin/claims/${claim.id}/claim-items`, {
      items: [{ id: o.shirt, quantity: 1, reason: "wrong_item" }],
    });
    await post(`/admin/claims/${claim.id}/outbound/items`, { items: [{ variant_id: f.cap.variant, quantity: 1 }] });
    await post(`/admin/claims/${claim.id}/request`);
    const claimed = await expectShopperSeesCurrent(o.id);
    expect(claimed).toMatchObject({ version: 4, total: 3200, summary: { pending_difference: 0 } });
    expect(claimed.items.filter((i) => i.variant_id === f.cap.variant).map((i) => i.quantity)).toEqual([1, 1]);
  }, 60_000);
});
