import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder } from "../../testing/orders";
import { expectInvalidData } from "../../testing/invalid";

const t = useTestApp({}, { adminId: "user_orders_admin" });

const ids = (res: { json(): { orders: Array<{ id: string }> } }) =>
  res
    .json()
    .orders.map((o) => o.id)
    .sort();

describe("admin orders: retrieve", () => {
  it("answers the Medusa order shape with line quantities, payments and paid/refunded totals", async () => {
    const { order, collection_id, payment_id } = await placeTestOrder(t.app, { customer_id: "cus_shape" });
    const res = await t.admin.get(`/admin/orders/${order.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json().order;
    expect(body).toMatchObject({
      id: order.id,
      display_id: order.display_id,
      status: "pending",
      payment_status: "authorized",
      fulfillment_status: "not_fulfilled",
      email: "buyer@example.com",
      currency_code: "eur",
      region_id: "reg_test",
      customer_id: "cus_shape",
      sales_channel_id: "sc_test",
      subtotal: 3200,
      discount_total: 0,
      tax_total: 0,
      shipping_total: 700,
      total: 3200,
      paid_total: 0,
      refunded_total: 0,
      fulfillments: [],
      metadata: null,
    });
    expect(body.items[0]).toMatchObject({
      title: "Shirt",
      variant_id: "variant_shirt",
      product_id: "prod_shirt",
      quantity: 2,
      unit_price: 1000,
      subtotal: 2000,
      total: 2000,
      fulfilled_quantity: 0,
      cart_line_item_id: order.items[0]!.cart_line_item_id,
    });
    expect(body.items[0].detail).toEqual({
      quantity: 2,
      fulfilled_quantity: 0,
      shipped_quantity: 0,
      delivered_quantity: 0,
      return_requested_quantity: 0,
      return_received_quantity: 0,
      // Read by the dashboard's returnable quantity; Kasse keeps no damaged units out of stock.
      return_dismissed_quantity: 0,
    });
    expect(body.shipping_methods).toEqual([
      expect.objectContaining({ name: "Standard", amount: 700, shipping_option_id: "so_test" }),
    ]);
    expect(body.payment_collections).toHaveLength(1);
    expect(body.payment_collections[0]).toMatchObject({
      id: collection_id,
      amount: 3200,
      authorized_amount: 3200,
      status: "authorized",
    });
    expect(body.payment_collections[0].payments).toEqual([
      expect.objectContaining({ id: payment_id, amount: 3200, provider_id: "pp_test" }),
    ]);
    expect(new Date(body.created_at).toISOString()).toBe(body.created_at);
    expect(body).not.toHaveProperty("payment_collection_ids");
    expect(body).not.toHaveProperty("deleted_at");

    // paid_total and refunded_total are read from the collection's captured and refunded amounts.
    await t.app.modules.payment.capturePayment(payment_id, { amount: 1200 });
    await t.app.modules.payment.refundPayment(payment_id, { amount: 200 });
    const after = (await t.admin.get(`/admin/orders/${order.id}`)).json().order;
    expect(after).toMatchObject({
      paid_total: 1200,
      refunded_total: 200,
      summary: { paid_total: 1200, refunded_total: 200, pending_difference: 2200 },
    });
  });

  it("narrows with fields (payment and fulfillment status always come, as in Medusa)", async () => {
    const { order } = await placeTestOrder(t.app);
    const res = await t.admin.get(`/admin/orders/${order.id}?fields=id,display_id,items.quantity`);
    expect(res.json().order).toEqual({
      id: order.id,
      display_id: order.display_id,
      payment_status: "authorized",
      fulfillment_status: "not_fulfilled",
      items: [
        { id: order.items[0]!.id, quantity: 2 },
        { id: order.items[1]!.id, quantity: 1 },
      ],
    });
    expect(
      Object.keys(
        (await t.admin.get(`/admin/orders/${order.id}?fields=id,-payment_status,-fulfillment_status`)).json().order,
      ),
    ).toEqual(["id"]);
  });

  it("unknown id: 404 not_found", async () => {
    const res = await t.admin.get("/admin/orders/order_missing");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ type: "not_found", message: "Order with id: order_missing was not found" });
  });
});

describe("admin orders: list", () => {
  it("filters by every contract filter, q, order and paging", async () => {
    // Orders "a" and "b", each with its own email, customer, region and channel.
    const place = async (x: string) =>
      (
        await placeTestOrder(t.app, {
          email: `filter-${x}@example.com`,
          customer_id: `cus_f${x}`,
          region_id: `reg_f${x}`,
          sales_channel_id: `sc_f${x}`,
        })
      ).order;
    const a = await place("a");
    const b = await place("b");
    await t.app.modules.order.create({
      ...(await import("@kasse/modules/order/testing")).orderSnapshot({
        email: "filter-c@example.com",
        sales_channel_id: "sc_fa",
        status: "requires_action",
      }),
    });

    expect(ids(await t.admin.get("/admin/orders?customer_id=cus_fa"))).toEqual([a.id]);
    expect(ids(await t.admin.get("/admin/orders?customer_id[]=cus_fa&customer_id[]=cus_fb"))).toEqual(
      [a.id, b.id].sort(),
    );
    expect(ids(await t.admin.get("/admin/orders?email=filter-b@example.com"))).toEqual([b.id]);
    expect(ids(await t.admin.get("/admin/orders?region_id=reg_fa"))).toEqual([a.id]);
    expect((await t.admin.get("/admin/orders?sales_channel_id[]=sc_fa")).json().count).toBe(2);
    expect(
      (await t.admin.get("/admin/orders?sales_channel_id[]=sc_fa&status[]=pending"))
        .json()
        .orders.map((o: { id: string }) => o.id),
    ).toEqual([a.id]);
    expect((await t.admin.get("/admin/orders?sales_channel_id[]=sc_fa&status[0]=requires_action")).json().count).toBe(
      1,
    );
    expect((await t.admin.get("/admin/orders?sales_channel_id=sc_fa&payment_status[]=authorized")).json().count).toBe(
      1,
    );
    expect((await t.admin.get("/admin/orders?sales_channel_id=sc_fa&payment_status[]=not_paid")).json().count).toBe(1);
    expect(
      (
        await t.admin.get(
          "/admin/orders?sales_channel_id=sc_fa&fulfillment_status[]=not_fulfilled&fulfillment_status[]=shipped",
        )
      ).json().count,
    ).toBe(2);
    expect((await t.admin.get("/admin/orders?sales_channel_id=sc_fa&fulfillment_status=delivered")).json().count).toBe(
      0,
    );
    expect(ids(await t.admin.get(`/admin/orders?q=${a.display_id}`))).toEqual([a.id]);
    expect(ids(await t.admin.get("/admin/orders?q=FILTER-B"))).toEqual([b.id]);

    // Timestamps in the database have microseconds; the JS Date of `b` is floored to the millisecond.
    const bCreated = encodeURIComponent(b.created_at.toISOString());
    const before = encodeURIComponent(new Date(a.created_at.getTime() - 1).toISOString());
    const both = "customer_id[]=cus_fa&customer_id[]=cus_fb";
    expect(ids(await t.admin.get(`/admin/orders?${both}&created_at[gte]=${bCreated}`))).toEqual([b.id]);
    expect(ids(await t.admin.get(`/admin/orders?${both}&created_at[$lt]=${bCreated}`))).toEqual([a.id]);
    expect(ids(await t.admin.get(`/admin/orders?${both}&created_at[gt]=${before}`))).toEqual([a.id, b.id].sort());
    expect(ids(await t.admin.get(`/admin/orders?${both}&created_at[lte]=${before}`))).toEqual([]);

    const page = await t.admin.get(
      "/admin/orders?sales_channel_id[]=sc_fa&sales_channel_id[]=sc_fb&order=-display_id&limit=1&offset=1&fields=id,display_id",
    );
    expect(page.json()).toMatchObject({ count: 3, limit: 1, offset: 1 });
    expect(page.json().orders).toEqual([
      { id: b.id, display_id: b.display_id, payment_status: "authorized", fulfillment_status: "not_fulfilled" },
    ]);
    const defaults = (await t.admin.get("/admin/orders")).json();
    expect(defaults).toMatchObject({ limit: 15, offset: 0 });
    expect(defaults.orders[0].items.length).toBeGreaterThan(0);
  });

  it("rejects bad filters with 400 invalid_data", async () => {
    await expectInvalidData(
      t.admin,
      "/admin/orders?",
      "status[]=shipped",
      "payment_status=paid",
      "fulfillment_status[]=nope",
      "created_at[gte]=yesterday",
      "created_at[between]=x",
      "order=nope",
      "limit=-1",
      "unknown=1",
    );
  });
});

describe("admin orders: update and changes", () => {
  it("updates email, addresses and metadata, each change logged with who and before/after", async () => {
    const { order } = await placeTestOrder(t.app);
    const res = await t.admin.post(`/admin/orders/${order.id}`, {
      email: "changed@example.com",
      shipping_address: { city: "Hamburg", postal_code: "20095" },
      billing_address: { company: "ACME" },
      metadata: { note: "vip" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({
      id: order.id,
      email: "changed@example.com",
      shipping_address: { city: "Hamburg", postal_code: "20095", address_1: "1 Main St" },
      billing_address: { company: "ACME" },
      metadata: { note: "vip" },
    });
    expect(res.json().order.items).toHaveLength(2);

    const changes = await t.admin.get(`/admin/orders/${order.id}/changes`);
    expect(changes.statusCode).toBe(200);
    expect(changes.json()).toMatchObject({ count: 2, offset: 0, limit: 15 });
    const [placed, updated] = changes.json().order_changes;
    expect(placed).toMatchObject({ order_id: order.id, action: "order_placed", before: null });
    expect(updated).toMatchObject({
      order_id: order.id,
      action: "order_updated",
      actor_type: "user",
      actor_id: "user_orders_admin",
    });
    expect(updated.before).toMatchObject({
      email: "buyer@example.com",
      metadata: null,
      shipping_address: { city: "Berlin" },
      billing_address: { company: null },
    });
    expect(updated.after).toMatchObject({
      email: "changed@example.com",
      metadata: { note: "vip" },
      shipping_address: { city: "Hamburg" },
      billing_address: { company: "ACME" },
    });
    expect(new Date(updated.created_at).toISOString()).toBe(updated.created_at);
    expect(
      (await t.admin.get(`/admin/orders/${order.id}/changes?limit=1&offset=1&fields=action`)).json().order_changes,
    ).toEqual([{ id: updated.id, action: "order_updated" }]);
  });

  it("rejects bad bodies with 400 and writes nothing", async () => {
    const { order } = await placeTestOrder(t.app);
    for (const body of [
      { email: "not-an-email" },
      { email: 5 },
      { status: "canceled" },
      { shipping_address: { country_code: "deu" } },
      { shipping_address: { street: "x" } },
      { metadata: "x" },
      { items: [] },
    ]) {
      const res = await t.admin.post(`/admin/orders/${order.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await t.admin.get(`/admin/orders/${order.id}`)).json().order).toMatchObject({
      email: "buyer@example.com",
      status: "pending",
      metadata: null,
    });
    expect((await t.admin.get(`/admin/orders/${order.id}/changes`)).json().count).toBe(1);
  });

  it("unknown ids: 404 on update and changes", async () => {
    expect((await t.admin.post("/admin/orders/order_missing", { email: "a@example.com" })).statusCode).toBe(404);
    const res = await t.admin.get("/admin/orders/order_missing/changes");
    expect(res.statusCode).toBe(404);
    expect(res.json().type).toBe("not_found");
  });
});

describe("admin orders: authorization", () => {
  it("401 without credentials, 403 for a customer", async () => {
    const { order } = await placeTestOrder(t.app, { customer_id: "cus_auth" });
    for (const [method, url] of [
      ["GET", "/admin/orders"],
      ["GET", `/admin/orders/${order.id}`],
      ["POST", `/admin/orders/${order.id}`],
      ["GET", `/admin/orders/${order.id}/changes`],
    ] as const) {
      expect(
        (await t.app.inject({ method, url, payload: method === "POST" ? { email: "x@example.com" } : undefined }))
          .statusCode,
      ).toBe(401);
      const res = await t.app.inject({
        method,
        url,
        headers: await t.customerHeaders("cus_auth"),
        payload: method === "POST" ? { email: "x@example.com" } : undefined,
      });
      expect(res.statusCode).toBe(403);
    }
    expect((await t.app.modules.order.retrieve(order.id)).email).toBe("buyer@example.com");
  });
});
