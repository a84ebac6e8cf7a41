import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { checkInvariants } from "@kasse/operations";
import { useTestApp } from "../../testing";
import { createFixtureProduct } from "../../testing/catalog";
import { withFailure } from "../../testing/inject-failure";

const t = useTestApp({}, { adminId: "user_draft_orders" });
let LOC: string;
let CHANNEL: string;
let REGION: string;
let OPTION: string;
let CUSTOMER: string;
const tee = { variant: "", item: "" };
const cap = { variant: "", item: "" };
const ADDRESS = {
  first_name: "Ada",
  last_name: "Lovelace",
  address_1: "Unter den Linden 1",
  city: "Berlin",
  country_code: "de",
  postal_code: "10117",
};

/** A fixture product with one variant stocked at the warehouse: its variant and inventory item. */
async function stocked(title: string, amount: number, stock: number) {
  const product = await createFixtureProduct(
    t,
    {
      title,
      status: "published",
      variants: [{ title: "One size", size: "One", prices: [{ currency_code: "eur", amount }], stock }],
    },
    LOC,
  );
  const variant = product.variantIds[0]!;
  const links = await t.app.modules.inventory.listVariantInventoryItems([variant]);
  return { variant, item: links.get(variant)![0]!.inventory_item_id };
}

beforeAll(async () => {
  LOC = (await t.app.modules.stockLocation.create({ name: "Drafts warehouse" })).id;
  CHANNEL = (await t.app.modules.salesChannel.create({ name: "Phone orders" })).id;
  await t.app.modules.stockLocation.updateSalesChannels(LOC, { add: [CHANNEL] });
  REGION = (await t.app.modules.region.create({ name: "Germany", currency_code: "eur", countries: ["de"] })).id;
  const tax = await t.admin.post("/admin/tax-regions", {
    country_code: "DE",
    default_tax_rate: { rate: 19, code: "DE", name: "MwSt" },
  });
  expect(tax.statusCode, tax.body).toBe(200);
  Object.assign(tee, await stocked("Draft tee", 2000, 10));
  Object.assign(cap, await stocked("Draft cap", 500, 10));
  OPTION = (
    await t.app.modules.fulfillment.createOption({ name: "Courier", prices: [{ currency_code: "eur", amount: 900 }] })
  ).id;
  CUSTOMER = (await t.app.modules.customer.create({ email: "grace@example.com", first_name: "Grace" })).id;
});

const reserved = async (item: string) =>
  (await t.app.modules.inventory.retrieveLevel(item, LOC)).reserved_quantity as number;
const stock = async () => ({ tee: await reserved(tee.item), cap: await reserved(cap.item) });
/** The events about the order that are released (recorded outside a workflow, or by one that succeeded). */
const eventNames = async (orderId: string): Promise<string[]> => {
  const result = (await t.database.db.execute(
    sql`select e.name from event e left join workflow_executions x on x.id = e.execution_id
        where e.data->>'id' = ${orderId} and (e.execution_id is null or x.state = 'succeeded')
        order by e.created_at, e.id`,
  )) as unknown as Array<{ name: string }> | { rows: Array<{ name: string }> };
  return (Array.isArray(result) ? result : result.rows).map((r) => r.name);
};
/** A 4xx `{type, message}` answer. */
function refused(res: { statusCode: number; json: () => unknown; body: string }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { type: string; message: string };
  expect(typeof body.type).toBe("string");
  expect(typeof body.message).toBe("string");
}
/** A draft of 2 tees (20.00), a custom gift wrap (3.00) and the courier (9.00), shipped to Berlin (19% tax). */
async function draft(overrides: Record<string, unknown> = {}) {
  const res = await t.admin.post("/admin/draft-orders", {
    email: "ada@example.com",
    region_id: REGION,
    sales_channel_id: CHANNEL,
    shipping_address: ADDRESS,
    billing_address: ADDRESS,
    items: [
      { variant_id: tee.variant, quantity: 2 },
      { title: "Gift wrap", quantity: 1, unit_price: 300 },
    ],
    shipping_methods: [{ shipping_option_id: OPTION }],
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().draft_order as {
    id: string;
    items: Array<{ id: string; variant_id: string | null; quantity: number }>;
  };
}
const adminOrderIds = async () =>
  ((await t.admin.get("/admin/orders?limit=1000")).json().orders as Array<{ id: string }>).map((o) => o.id);

describe("draft orders", () => {
  it("creates a draft, edits it (a line added, a quantity changed) and converts it to an order", async () => {
    const before = await stock();
    const created = await draft();
    expect(created).toMatchObject({
      status: "draft",
      is_draft_order: true,
      version: 1,
      email: "ada@example.com",
      currency_code: "eur",
      payment_status: "not_paid",
      item_subtotal: 4300,
      item_tax_total: 817,
      shipping_total: 1071,
      total: 6188,
      payment_collections: [],
    });
    expect(created.items.map((i) => [i.variant_id, i.quantity])).toEqual([
      [tee.variant, 2],
      [null, 1],
    ]);
    // Not an order yet: no stock held, absent from the order lists and from the store.
    expect(await stock()).toEqual(before);
    expect(await adminOrderIds()).not.toContain(created.id);
    refused(await t.store.get(`/store/orders/${created.id}`), 404);
    const listed = (await t.admin.get(`/admin/draft-orders?region_id=${REGION}&limit=100`)).json();
    expect(listed.draft_orders.map((d: { id: string }) => d.id)).toContain(created.id);
    expect((await t.admin.get(`/admin/draft-orders/${created.id}`)).json().draft_order.id).toBe(created.id);

    // The edit: one more tee line quantity, a cap added; nothing moves before the confirmation.
    const begun = await t.admin.post(`/admin/draft-orders/${created.id}/edit`, {});
    expect(begun.statusCode, begun.body).toBe(200);
    expect(begun.json().draft_order_preview.order_change).toMatchObject({ change_type: "edit", status: "pending" });
    refused(await t.admin.post(`/admin/draft-orders/${created.id}/edit`, {}), 400); // a second active edit
    refused(await t.admin.post(`/admin/draft-orders/${created.id}/convert-to-order`, {}), 400); // edit pending
    const teeLine = created.items.find((i) => i.variant_id === tee.variant)!;
    const updated = await t.admin.post(`/admin/draft-orders/${created.id}/edit/items/item/${teeLine.id}`, {
      quantity: 3,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const added = await t.admin.post(`/admin/draft-orders/${created.id}/edit/items`, {
      items: [{ variant_id: cap.variant, quantity: 1 }],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().draft_order_preview).toMatchObject({ item_subtotal: 6800, total: 9163, version: 1 });
    refused(
      await t.admin.post(`/admin/draft-orders/${created.id}/edit/items`, {
        items: [{ variant_id: cap.variant, quantity: 0 }],
      }),
      400,
    );
    expect((await t.admin.get(`/admin/draft-orders/${created.id}`)).json().draft_order.total).toBe(6188);
    const confirmed = await t.admin.post(`/admin/draft-orders/${created.id}/edit/confirm`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const edited = (await t.admin.get(`/admin/draft-orders/${created.id}`)).json().draft_order;
    expect(edited).toMatchObject({
      status: "draft",
      version: 2,
      item_subtotal: 6800,
      item_tax_total: 1292,
      total: 9163,
    });
    expect(await stock()).toEqual(before);

    // The conversion: an order, its lines reserved, `order.placed`, a collection for its total.
    const converted = await t.admin.post(`/admin/draft-orders/${created.id}/convert-to-order`, {});
    expect(converted.statusCode, converted.body).toBe(200);
    const order = converted.json().order;
    expect(order).toMatchObject({
      id: created.id,
      status: "pending",
      version: 2,
      total: 9163,
      tax_total: 1463,
      payment_status: "awaiting",
      fulfillment_status: "not_fulfilled",
    });
    expect(order.payment_collections).toHaveLength(1);
    expect(order.payment_collections[0]).toMatchObject({ amount: 9163, currency_code: "eur", status: "not_paid" });
    expect(await stock()).toEqual({ tee: before.tee + 3, cap: before.cap + 1 });
    expect(await eventNames(created.id)).toContain("order.placed");
    expect(await adminOrderIds()).toContain(created.id);
    const violations = (await checkInvariants(t.app.modules, { leaseMs: 9_000, recoveryEveryMs: 5_000 })).flatMap((r) =>
      r.violations.filter((v) => [created.id, ...edited.items.map((i: { id: string }) => i.id)].includes(v.id)),
    );
    expect(violations).toEqual([]);

    // Converted: no longer a draft, no second conversion, no draft edit.
    refused(await t.admin.get(`/admin/draft-orders/${created.id}`), 404);
    refused(await t.admin.post(`/admin/draft-orders/${created.id}/convert-to-order`, {}), 400);
    refused(await t.admin.post(`/admin/draft-orders/${created.id}/edit`, {}), 400);
    refused(await t.admin.post(`/admin/draft-orders/${created.id}`, { email: "x@example.com" }), 400);
    refused(await t.admin.delete(`/admin/draft-orders/${created.id}`), 400);
    expect(await stock()).toEqual({ tee: before.tee + 3, cap: before.cap + 1 });
  });

  it("an edit takes off a shipping method the draft already has", async () => {
    const created = await draft();
    const full = (await t.admin.get(`/admin/draft-orders/${created.id}`)).json().draft_order;
    const method = full.shipping_methods[0].id as string;
    expect(full).toMatchObject({ shipping_total: 1071, total: 6188 });
    const base = `/admin/draft-orders/${created.id}/edit`;
    refused(await t.admin.delete(`${base}/shipping-methods/method/${method}`), 400); // no active edit
    expect((await t.admin.post(base, {})).statusCode).toBe(200);
    refused(await t.admin.delete(`${base}/shipping-methods/method/ordsm_nope`), 400);
    refused(await t.admin.delete(`${base}/shipping-methods/${method}`), 404); // an action id, not a method's
    const removed = await t.admin.delete(`${base}/shipping-methods/method/${method}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const preview = removed.json().draft_order_preview;
    expect(preview).toMatchObject({ shipping_methods: [], shipping_total: 0, total: 5117, version: 1 });
    expect(preview.summary).toMatchObject({ pending_difference: 5117 });
    expect(preview.order_change.actions).toEqual([
      expect.objectContaining({ action: "SHIPPING_REMOVE", reference: "shipping_method", reference_id: method }),
    ]);
    refused(await t.admin.delete(`${base}/shipping-methods/method/${method}`), 400); // already taken off
    // Nothing moves before the confirmation.
    expect((await t.admin.get(`/admin/draft-orders/${created.id}`)).json().draft_order).toMatchObject({
      total: 6188,
      shipping_methods: [expect.objectContaining({ id: method })],
    });
    const added = await t.admin.post(`${base}/shipping-methods`, { shipping_option_id: OPTION, custom_amount: 500 });
    expect(added.statusCode, added.body).toBe(200);
    const confirmed = await t.admin.post(`${base}/confirm`, {});
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const after = (await t.admin.get(`/admin/draft-orders/${created.id}`)).json().draft_order;
    expect(after).toMatchObject({ version: 2, shipping_total: 595, total: 5712 });
    expect(after.shipping_methods).toEqual([expect.objectContaining({ amount: 500, total: 595 })]);
    // The replaced version keeps the method.
    const kept = await t.app.modules.orderEdit.version(created.id, 1);
    expect(kept).toMatchObject({ total: 6188, shipping_methods: [expect.objectContaining({ id: method })] });
    const converted = await t.admin.post(`/admin/draft-orders/${created.id}/convert-to-order`, {});
    expect(converted.statusCode, converted.body).toBe(200);
    expect(converted.json().order.payment_collections[0]).toMatchObject({ amount: 5712 });
  });

  it("drafts for a customer take the customer's email and stay out of the customer's orders", async () => {
    const created = await draft({ email: undefined, customer_id: CUSTOMER });
    expect(created).toMatchObject({ customer_id: CUSTOMER, email: "grace@example.com" });
    const own = (await t.customer(CUSTOMER).get("/store/orders")).json();
    expect(own.orders.map((o: { id: string }) => o.id)).not.toContain(created.id);
    refused(await t.customer(CUSTOMER).get(`/store/orders/${created.id}`), 404);
    const me = (await t.customer(CUSTOMER).get("/store/customers/me")).json().customer;
    expect((me.orders ?? []).map((o: { id: string }) => o.id)).not.toContain(created.id);
    // Drafts are not orders to the order routes either.
    refused(await t.admin.post(`/admin/order-edits`, { order_id: created.id }), 400);
    expect((await t.admin.post(`/admin/draft-orders/${created.id}/edit`, {})).statusCode).toBe(200);
    refused(await t.admin.post(`/admin/order-edits/${created.id}/confirm`, {}), 400); // the order's saga would reserve
    refused(
      await t.admin.post(`/admin/orders/${created.id}/fulfillments`, {
        items: [{ id: created.items[0]!.id, quantity: 1 }],
        location_id: LOC,
      }),
      400,
    );
    refused(await t.admin.post(`/admin/orders/${created.id}/cancel`, {}), 400);
    refused(await t.admin.post(`/admin/orders/${created.id}/complete`, {}), 400);
    const canceled = await t.admin.delete(`/admin/draft-orders/${created.id}/edit`);
    expect(canceled.json()).toEqual({ id: created.id, object: "draft-order-edit", deleted: true });
  });

  it("updates a draft's email, customer and address, and deletes it", async () => {
    const created = await draft();
    const res = await t.admin.post(`/admin/draft-orders/${created.id}`, {
      email: "ada.l@example.com",
      customer_id: CUSTOMER,
      shipping_address: { city: "Hamburg" },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().draft_order).toMatchObject({
      email: "ada.l@example.com",
      customer_id: CUSTOMER,
      shipping_address: { city: "Hamburg", address_1: "Unter den Linden 1" },
    });
    refused(await t.admin.post(`/admin/draft-orders/${created.id}`, { customer_id: "cus_missing" }), 400);
    refused(await t.admin.post(`/admin/draft-orders/${created.id}`, { sales_channel_id: "sc_missing" }), 400);
    refused(await t.admin.post(`/admin/draft-orders/${created.id}`, { status: "pending" }), 400);
    const gone = await t.admin.delete(`/admin/draft-orders/${created.id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ id: created.id, object: "draft-order", deleted: true });
    refused(await t.admin.get(`/admin/draft-orders/${created.id}`), 404);
  });

  it("refuses bad input with 4xx and writes nothing", async () => {
    const count = async () => (await t.admin.get("/admin/draft-orders?limit=1")).json().count as number;
    const before = await count();
    const base = { email: "ada@example.com", region_id: REGION, items: [{ variant_id: tee.variant, quantity: 1 }] };
    const bad: Array<[string, Record<string, unknown>]> = [
      ["no email nor customer", { ...base, email: undefined }],
      ["unknown region", { ...base, region_id: "reg_missing" }],
      ["unknown customer", { ...base, customer_id: "cus_missing" }],
      ["unknown sales channel", { ...base, sales_channel_id: "sc_missing" }],
      ["unknown variant", { ...base, items: [{ variant_id: "variant_missing", quantity: 1 }] }],
      ["zero quantity", { ...base, items: [{ variant_id: tee.variant, quantity: 0 }] }],
      ["negative quantity", { ...base, items: [{ variant_id: tee.variant, quantity: -2 }] }],
      ["negative price", { ...base, items: [{ title: "Fee", quantity: 1, unit_price: -5 }] }],
      ["custom line without price", { ...base, items: [{ title: "Fee", quantity: 1 }] }],
      ["line without variant or title", { ...base, items: [{ quantity: 1, unit_price: 100 }] }],
      ["unknown shipping option", { ...base, shipping_methods: [{ shipping_option_id: "so_missing" }] }],
      ["another currency than the region's", { ...base, currency_code: "usd" }],
      ["no region", { email: "ada@example.com" }],
      ["unknown field", { ...base, status: "pending" }],
      ["quantity as a string", { ...base, items: [{ variant_id: tee.variant, quantity: "1" }] }],
    ];
    for (const [what, body] of bad) {
      const res = await t.admin.post("/admin/draft-orders", body);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      refused(res, 400);
    }
    expect(await count()).toBe(before);
    refused(await t.admin.get("/admin/draft-orders/order_missing"), 404);
    refused(await t.admin.post("/admin/draft-orders/order_missing/convert-to-order", {}), 404);
    refused(await t.admin.post("/admin/draft-orders/order_missing/edit", {}), 404);
    refused(await t.store.get("/admin/draft-orders"), 401);
    // An empty draft cannot be converted; an edit step without an active edit is refused.
    const empty = await draft({ items: [], shipping_methods: [] });
    refused(await t.admin.post(`/admin/draft-orders/${empty.id}/convert-to-order`, {}), 400);
    refused(
      await t.admin.post(`/admin/draft-orders/${empty.id}/edit/items`, {
        items: [{ variant_id: tee.variant, quantity: 1 }],
      }),
      400,
    );
    refused(await t.admin.post(`/admin/draft-orders/${empty.id}/edit/confirm`, {}), 400);
    // Stock it cannot have: no location serves a draft without a sales channel; more than is stocked.
    const held = await stock();
    const nowhere = await draft({ sales_channel_id: undefined });
    refused(await t.admin.post(`/admin/draft-orders/${nowhere.id}/convert-to-order`, {}), 400);
    const tooMany = await draft({ items: [{ variant_id: tee.variant, quantity: 500 }] });
    refused(await t.admin.post(`/admin/draft-orders/${tooMany.id}/convert-to-order`, {}), 400);
    for (const id of [nowhere.id, tooMany.id])
      expect((await t.admin.get(`/admin/draft-orders/${id}`)).json().draft_order).toMatchObject({
        status: "draft",
        payment_collections: [],
      });
    expect(await stock()).toEqual(held);
  });

  it("a failure at any step of the conversion leaves the draft and the stock as they were", async () => {
    const created = await draft();
    const before = await stock();
    const failures: Array<[string, "INSERT" | "UPDATE", string]> = [
      ["reservation_item", "INSERT", "true"], // the stock
      ["payment_collection", "INSERT", "true"], // the collection for its total
      ["order", "UPDATE", "NEW.payment_collection_ids <> OLD.payment_collection_ids"], // attached to the order
    ];
    for (const [table, op, when] of failures) {
      const res = await withFailure(t.database.db, table, op, when, () =>
        t.admin.post(`/admin/draft-orders/${created.id}/convert-to-order`, {}),
      );
      expect(res.statusCode, `${table}: ${res.body}`).toBe(500);
      const now = (await t.admin.get(`/admin/draft-orders/${created.id}`)).json().draft_order;
      expect(now, table).toMatchObject({ status: "draft", payment_status: "not_paid", payment_collections: [] });
      expect(await stock(), table).toEqual(before);
      expect(await adminOrderIds(), table).not.toContain(created.id);
    }
    // Announced only once a conversion succeeds.
    expect(await eventNames(created.id)).not.toContain("order.placed");
    const res = await t.admin.post(`/admin/draft-orders/${created.id}/convert-to-order`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(await stock()).toEqual({ ...before, tee: before.tee + 2 });
    expect((await eventNames(created.id)).filter((n) => n === "order.placed")).toHaveLength(1);
  });

  it("of two conversions at once, one wins and the stock is reserved once", async () => {
    const created = await draft();
    const before = await stock();
    const answers = await Promise.all([
      t.admin.post(`/admin/draft-orders/${created.id}/convert-to-order`, {}),
      t.admin.post(`/admin/draft-orders/${created.id}/convert-to-order`, {}),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    refused(
      answers.find((r) => r.statusCode === 400)!,
      400,
    );
    expect(await stock()).toEqual({ ...before, tee: before.tee + 2 });
    const order = (await t.admin.get(`/admin/orders/${created.id}`)).json().order;
    expect(order.payment_collections).toHaveLength(1);
    expect((await eventNames(created.id)).filter((n) => n === "order.placed")).toHaveLength(1);
  });

  it("reads and answers amounts in major units in Medusa's dialect", async () => {
    const res = await t.admin.post("/medusa/admin/draft-orders", {
      email: "ada@example.com",
      region_id: REGION,
      items: [{ title: "Engraving", quantity: 2, unit_price: 4.5 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().draft_order;
    expect(created.items[0]).toMatchObject({ unit_price: 4.5, quantity: 2 });
    expect((await t.admin.get(`/admin/draft-orders/${created.id}`)).json().draft_order.items[0].unit_price).toBe(450);
    await t.admin.post(`/medusa/admin/draft-orders/${created.id}/edit`, {});
    const line = created.items[0].id;
    const preview = await t.admin.post(`/medusa/admin/draft-orders/${created.id}/edit/items/item/${line}`, {
      quantity: 2,
      unit_price: 5,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().draft_order_preview.items[0].unit_price).toBe(5);
    const canceled = await t.admin.delete(`/medusa/admin/draft-orders/${created.id}/edit`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect((await t.admin.get(`/admin/draft-orders/${created.id}`)).json().draft_order.items[0].unit_price).toBe(450);
  });
});
