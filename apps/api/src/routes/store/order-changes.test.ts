import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { exchangeScenario } from "../../testing/exchanges";
import { placeTestOrder } from "../../testing/orders";
import { expectRefused, useChangeFixtures } from "../../testing/order-changes";

const t = useTestApp({}, { adminId: "user_store_history" });
const f = useChangeFixtures(t, "Store history warehouse");
const { delivered } = exchangeScenario(t, f);
const CUSTOMER = "cus_history";

/** The admin-only keys an order change has that its customer must never be shown. */
const ADMIN_ONLY = [
  "internal_note",
  "description",
  "created_by",
  "requested_by",
  "requested_at",
  "confirmed_by",
  "declined_by",
  "declined_reason",
  "canceled_by",
  "metadata",
  "no_notification",
  "location_id",
];

type Action = {
  action: string;
  line_item_id: string | null;
  title: string | null;
  variant_title: string | null;
  quantity: number | null;
  unit_price: number | null;
  amount: number | null;
};
type Change = {
  id: string;
  change_type: string;
  status: string;
  version: number | null;
  return_id: string | null;
  created_at: string;
  confirmed_at: string | null;
  currency_code: string;
  actions: Action[];
};
type Page = { order_changes: Change[]; count: number; limit: number; offset: number };

const post = async (path: string, body: Record<string, unknown> = {}) => {
  const res = await t.admin.post(path, body);
  expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
  return res.json();
};

/** `GET {base}/store/orders/{id}/changes{query}` as `customer`: the answer. */
async function history(id: string, query = "", base = "", customer: string | null = CUSTOMER) {
  const headers = customer ? await t.customerHeaders(customer) : {};
  return t.app.inject({ method: "GET", url: `${base}/store/orders/${id}/changes${query}`, headers });
}

async function page(id: string, query = "", base = ""): Promise<Page> {
  const res = await history(id, query, base);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
}

describe("GET /store/orders/{id}/changes: the customer's history of their order (Kasse extension)", () => {
  const o = { id: "", shirt: "", mug: "", exchange: "", returnId: "" };

  it("is empty for an order as placed", async () => {
    Object.assign(o, await delivered({ customer: { customer_id: CUSTOMER, email: "history@example.com" } }));
    expect(await page(o.id)).toEqual({ order_changes: [], count: 0, limit: 15, offset: 0 });
  }, 60_000);

  it("after an edit, an exchange and a credit line: each confirmed change, newest first, with what it did", async () => {
    // A second mug (5.00).
    await post("/admin/order-edits", { order_id: o.id, internal_note: "customer phoned", description: "desk note" });
    await post(`/admin/order-edits/${o.id}/items/item/${o.mug}`, { quantity: 2, internal_note: "agreed by phone" });
    await post(`/admin/order-edits/${o.id}/request`);
    await post(`/admin/order-edits/${o.id}/confirm`);
    // One shirt (10.00) back for a cap (5.00).
    const { exchange } = await post("/admin/exchanges", { order_id: o.id, internal_note: "size swap" });
    o.exchange = exchange.id;
    o.returnId = exchange.return_id;
    await post(`/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: o.shirt, quantity: 1 }] });
    await post(`/admin/exchanges/${exchange.id}/outbound/items`, {
      items: [{ variant_id: f.cap.variant, quantity: 1 }],
    });
    await post(`/admin/returns/${exchange.return_id}`, { location_id: f.LOC });
    await post(`/admin/exchanges/${exchange.id}/request`);
    // A goodwill credit of 3.00.
    await post(`/admin/orders/${o.id}/credit-lines`, {
      amount: 300,
      reference: "goodwill",
      reference_id: "gw_1",
      metadata: { approved_by: "the manager" },
    });

    const seen = await page(o.id);
    expect(seen).toMatchObject({ count: 4, limit: 15, offset: 0 });
    expect(seen.order_changes.map((c) => [c.change_type, c.status, c.version])).toEqual([
      ["credit_line", "confirmed", 4],
      // The exchange's inbound: its return request, confirmed with it.
      ["return_request", "confirmed", null],
      ["exchange", "confirmed", 3],
      ["edit", "confirmed", 2],
    ]);
    const [credit, inbound, swap, edit] = seen.order_changes;
    expect(credit!.actions).toEqual([expect.objectContaining({ action: "CREDIT_LINE_ADD", amount: 300, title: null })]);
    expect(inbound!.return_id).toBe(o.returnId);
    expect(inbound!.actions).toEqual([
      expect.objectContaining({ action: "RETURN_ITEM", line_item_id: o.shirt, title: "Shirt", quantity: 1 }),
    ]);
    expect(swap!.actions).toEqual([
      expect.objectContaining({
        action: "ITEM_ADD",
        product_title: "Cap",
        variant_title: "One size",
        quantity: 1,
        unit_price: 500,
        amount: 500,
      }),
    ]);
    expect(edit!.actions).toEqual([
      expect.objectContaining({
        action: "ITEM_UPDATE",
        line_item_id: o.mug,
        title: "Mug",
        quantity: 2,
        unit_price: 500,
      }),
    ]);
    for (const change of seen.order_changes) {
      expect(change).toMatchObject({ order_id: o.id, currency_code: "eur" });
      expect(Date.parse(change.confirmed_at!)).toBeGreaterThanOrEqual(Date.parse(change.created_at));
      for (const key of ADMIN_ONLY) expect(change).not.toHaveProperty(key);
      for (const action of change.actions) for (const key of ADMIN_ONLY) expect(action).not.toHaveProperty(key);
    }
    expect(JSON.stringify(seen)).not.toMatch(/customer phoned|desk note|agreed by phone|size swap|the manager|gw_1/);
    expect(JSON.stringify(seen)).not.toContain("user_store_history");

    // Medusa's dialect: the same changes, the amounts in euros.
    const medusa = await page(o.id, "", "/medusa");
    expect(medusa.order_changes.map((c) => c.id)).toEqual(seen.order_changes.map((c) => c.id));
    expect(medusa.order_changes[0]!.actions[0]).toMatchObject({ amount: 3 });
    expect(medusa.order_changes[2]!.actions[0]).toMatchObject({ unit_price: 5, amount: 5 });
    expect(medusa.order_changes[3]!.actions[0]).toMatchObject({ unit_price: 5, amount: 10, quantity: 2 });
  }, 60_000);

  it("filters by change_type and pages newest first", async () => {
    const edits = await page(o.id, "?change_type=edit");
    expect(edits.order_changes.map((c) => c.version)).toEqual([2]);
    expect(edits.count).toBe(1);
    const both = await page(o.id, "?change_type[]=edit&change_type[]=credit_line");
    expect(both.order_changes.map((c) => c.change_type)).toEqual(["credit_line", "edit"]);
    const second = await page(o.id, "?limit=1&offset=1");
    expect(second).toMatchObject({ count: 4, limit: 1, offset: 1 });
    expect(second.order_changes.map((c) => c.change_type)).toEqual(["return_request"]);
    expect((await page(o.id, "?change_type=claim")).order_changes).toEqual([]);
  });

  it("does not show a change the admin has not confirmed", async () => {
    await post("/admin/order-edits", { order_id: o.id });
    await post(`/admin/order-edits/${o.id}/items`, { items: [{ variant_id: f.cap.variant, quantity: 3 }] });
    const pending = await page(o.id);
    expect(pending.count).toBe(4);
    expect(pending.order_changes.map((c) => c.status)).toEqual(["confirmed", "confirmed", "confirmed", "confirmed"]);
    await post(`/admin/order-edits/${o.id}/request`);
    expect((await page(o.id)).count).toBe(4);
    // Canceled before it was confirmed: it never changed the order.
    const canceled = await t.admin.delete(`/admin/order-edits/${o.id}`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect((await page(o.id)).count).toBe(4);
  }, 60_000);

  it("is the owner's alone: another customer, a guest order, an unknown id are 404; no customer is 401", async () => {
    for (const base of ["", "/medusa"]) {
      expectRefused(await history(o.id, "", base, "cus_someone_else"), 404);
      expectRefused(await history("order_nope", "", base), 404);
      const anonymous = await history(o.id, "", base, null);
      expectRefused(anonymous, 401);
    }
    const { order: guest } = await placeTestOrder(
      t.app,
      { sales_channel_id: f.CHANNEL, email: "guest@example.com" },
      { reserve_at: f.LOC },
    );
    expectRefused(await history(guest.id), 404);
    // The guest order itself stays reachable by its id, as before.
    expect((await t.store.get(`/store/orders/${guest.id}`)).statusCode).toBe(200);
  }, 60_000);

  it("answers 400 to a bad query", async () => {
    for (const query of ["?change_type=transfer", "?limit=-1", "?offset=x", "?status=confirmed", "?fields=*actions"]) {
      const res = await history(o.id, query);
      expectRefused(res, 400);
      expect(res.json()).toMatchObject({ type: "invalid_data" });
    }
  });
});
