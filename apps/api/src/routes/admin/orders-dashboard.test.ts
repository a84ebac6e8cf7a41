import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { orderSnapshot } from "@kasse/modules/order/testing";
import { placeTestOrder } from "../../testing/orders";

const t = useTestApp({}, { adminId: "user_orders_dashboard" });

const expect400 = async (url: string) => {
  const res = await t.admin.get(url);
  expect(res.statusCode, url).toBe(400);
  expect(res.json().type).toBe("invalid_data");
};

describe("what the dashboard's order page reads", () => {
  it("previews an order: with no pending change, the order as it is, shaped by fields", async () => {
    const { order } = await placeTestOrder(t.app, { customer_id: "cus_preview" });
    const detail = (await t.admin.get(`/admin/orders/${order.id}`)).json().order;
    const res = await t.admin.get(`/admin/orders/${order.id}/preview`);
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toEqual(detail);
    expect((await t.admin.get(`/admin/orders/${order.id}/preview?fields=id,total`)).json()).toEqual({
      order: { id: order.id, total: detail.total, payment_status: "authorized", fulfillment_status: "not_fulfilled" },
    });
    expect((await t.admin.get("/admin/orders/order_missing/preview")).statusCode).toBe(404);
    await expect400(`/admin/orders/${order.id}/preview?version=1&x=1`);
  });

  it("answers the order's only version, 1, and no other", async () => {
    const { order } = await placeTestOrder(t.app, { customer_id: "cus_version" });
    const res = await t.admin.get(`/admin/orders/${order.id}?version=1&fields=id`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      order: { id: order.id, payment_status: "authorized", fulfillment_status: "not_fulfilled" },
    });
    const later = await t.admin.get(`/admin/orders/${order.id}?version=2`);
    expect(later.statusCode).toBe(404);
    expect(later.json()).toEqual({ type: "not_found", message: `Order ${order.id} has no version 2` });
    await expect400(`/admin/orders/${order.id}?version=0`);
    await expect400(`/admin/orders/${order.id}?version=abc`);
  });

  it("lists order changes by Medusa change type: none on an order never edited, the log unfiltered", async () => {
    const { order } = await placeTestOrder(t.app, { customer_id: "cus_changes" });
    const all = (await t.admin.get(`/admin/orders/${order.id}/changes`)).json();
    expect(all.count).toBeGreaterThan(0);
    const first = all.order_changes[0];
    expect((await t.admin.get(`/admin/orders/${order.id}/changes?id[0]=${first.id}`)).json()).toMatchObject({
      count: 1,
      order_changes: [{ id: first.id }],
    });
    const typed = await t.admin.get(
      `/admin/orders/${order.id}/changes?change_type[0]=edit&change_type[1]=claim&change_type[2]=exchange&change_type[3]=return&change_type[4]=transfer&change_type[5]=update_order`,
    );
    expect(typed.statusCode).toBe(200);
    expect(typed.json()).toEqual({ order_changes: [], count: 0, offset: 0, limit: 15 });
    expect((await t.admin.get(`/admin/orders/${order.id}/changes?status=pending`)).json().count).toBe(0);
    await expect400(`/admin/orders/${order.id}/changes?change_type[0]=rename`);
    await expect400(`/admin/orders/${order.id}/changes?status=open`);
    expect((await t.admin.get("/admin/orders/order_missing/changes?change_type=edit")).statusCode).toBe(404);
  });

  it("lists claims and exchanges with Medusa's filters (none on a new order); an unknown id is not found", async () => {
    const { order } = await placeTestOrder(t.app, { customer_id: "cus_claims" });
    for (const plural of ["claims", "exchanges"]) {
      const res = await t.admin.get(`/admin/${plural}?order_id=${order.id}&fields=*additional_items&limit=20`);
      expect(res.statusCode, plural).toBe(200);
      expect(res.json()).toEqual({ [plural]: [], count: 0, offset: 0, limit: 20 });
      expect((await t.admin.get(`/admin/${plural}?status[]=requested&created_at[gte]=2024-01-01&q=x`)).statusCode).toBe(
        200,
      );
      const one = await t.admin.get(`/admin/${plural}/x_1`);
      expect(one.statusCode).toBe(404);
      expect(one.json().type).toBe("not_found");
      await expect400(`/admin/${plural}?status=lost`);
      await expect400(`/admin/${plural}?unknown=1`);
      expect((await t.store.get(`/admin/${plural}`, {})).statusCode).toBe(401);
    }
  });
});

describe("the fields the dashboard asks of an order", () => {
  it("always answers payment and fulfillment status, and on request the customer, sales channel, region and each line's variant", async () => {
    const customer = (await t.admin.post("/admin/customers", { email: "ana@example.com", first_name: "Ana" })).json()
      .customer;
    const channel = (await t.admin.post("/admin/sales-channels", { name: "Shop" })).json().sales_channel;
    const product = (
      await t.admin.post("/admin/products", {
        title: "Mug",
        options: [{ title: "Size", values: ["L"] }],
        variants: [
          { title: "L", sku: "MUG-L", options: { Size: "L" }, prices: [{ currency_code: "eur", amount: 1000 }] },
        ],
      })
    ).json().product;
    const variant = product.variants[0];
    const snapshot = orderSnapshot({});
    const items = snapshot.items.map((item, i) => (i === 0 ? { ...item, variant_id: variant.id } : item));
    const { order } = await placeTestOrder(t.app, { customer_id: customer.id, sales_channel_id: channel.id, items });

    const fields =
      "id,total,*customer,*sales_channel,*items,*items.variant,*items.variant.product,*items.variant.options,+items.variant.manage_inventory,region.automatic_taxes,original_total,original_tax_total,credit_line_total,refundable_total";
    const res = await t.admin.get(`/admin/orders/${order.id}?fields=${encodeURIComponent(fields)}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().order;
    expect(body).toMatchObject({
      id: order.id,
      payment_status: "authorized",
      fulfillment_status: "not_fulfilled",
      customer: { id: customer.id, email: "ana@example.com", first_name: "Ana" },
      sales_channel: { id: channel.id, name: "Shop" },
      credit_line_total: 0,
      refundable_total: 0,
    });
    // No discount: the totals before discounts are the totals.
    expect(body.original_total).toBe(body.total);
    expect(body.items[0].variant).toMatchObject({
      id: variant.id,
      sku: "MUG-L",
      options: [expect.objectContaining({ value: "L" })],
      product: { id: product.id, title: "Mug" },
    });
    // A line whose variant is gone (or never existed here) answers variant null.
    expect(body.items[1].variant).toBeNull();
    expect(body).toHaveProperty("region");
    expect(body).not.toHaveProperty("email");

    // The list answers the same, one query per relation for the page.
    const list = await t.admin.get(`/admin/orders?customer_id=${customer.id}&fields=id,*customer,*sales_channel`);
    expect(list.json().orders).toEqual([
      expect.objectContaining({
        id: order.id,
        payment_status: "authorized",
        customer: expect.objectContaining({ id: customer.id }),
        sales_channel: expect.objectContaining({ id: channel.id }),
      }),
    ]);
    // Without fields, no relation is loaded but the computed totals are there.
    const plain = (await t.admin.get(`/admin/orders/${order.id}`)).json().order;
    expect(plain).not.toHaveProperty("customer");
    expect(plain).toMatchObject({ credit_lines: [], credit_line_total: 0, original_total: plain.total });
  });

  it("answers the promotions an order used (*promotions), with what each gave it, in each dialect's units", async () => {
    const promotion = (
      await t.admin.post("/admin/promotions", {
        code: "ORDER10",
        type: "standard",
        application_method: { type: "fixed", target_type: "order", value: 1000, currency_code: "usd" },
      })
    ).json().promotion;
    const gone = (
      await t.admin.post("/admin/promotions", {
        code: "GONE5",
        type: "standard",
        application_method: { type: "percentage", target_type: "items", allocation: "each", value: 5 },
      })
    ).json().promotion;
    const { order } = await placeTestOrder(t.app, {
      customer_id: "cus_promotions",
      currency_code: "usd",
      promotions: [
        { promotion_id: promotion.id, amount: 1000 },
        { promotion_id: gone.id, amount: 250 },
      ],
    });
    expect((await t.admin.delete(`/admin/promotions/${gone.id}`)).statusCode).toBe(200);
    const { order: plain } = await placeTestOrder(t.app, { customer_id: "cus_promotions" });

    const res = await t.admin.get(`/admin/orders/${order.id}?fields=id,*promotions`);
    expect(res.statusCode, res.body).toBe(200);
    // A deleted promotion is no longer shown, as Medusa drops its link with it.
    expect(res.json().order.promotions).toEqual([
      {
        id: promotion.id,
        code: "ORDER10",
        type: "standard",
        status: "active",
        is_automatic: false,
        campaign_id: null,
        metadata: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        deleted_at: null,
        amount: 1000,
      },
    ]);
    const medusa = await t.app.inject({
      method: "GET",
      url: `/medusa/admin/orders/${order.id}?fields=id,*promotions`,
      headers: await t.adminHeaders(),
    });
    expect(medusa.statusCode, medusa.body).toBe(200);
    expect(medusa.json().order.promotions).toEqual([expect.objectContaining({ id: promotion.id, amount: 10 })]);

    // The list answers each order its own, and an order that used none, none.
    const list = (await t.admin.get(`/admin/orders?customer_id=cus_promotions&fields=id,*promotions`)).json().orders;
    expect(new Map(list.map((o: { id: string; promotions: unknown[] }) => [o.id, o.promotions.length]))).toEqual(
      new Map([
        [order.id, 1],
        [plain.id, 0],
      ]),
    );
    expect((await t.admin.get(`/admin/orders/${order.id}`)).json().order).not.toHaveProperty("promotions");
  });
});
