import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { placeTestOrder, stockTestVariants, orderChangeActions } from "../../testing/orders";
import { withFailure } from "../../testing/inject-failure";

const t = useTestApp({}, { adminId: "user_ful" });
const LOC = "sloc_ful";
let items: Record<string, string>;
beforeAll(async () => {
  items = await stockTestVariants(t.app, [LOC, "sloc_other"]);
});

const get = async (id: string) => (await t.admin.get(`/admin/orders/${id}`)).json().order;
const level = async (variant: string) => {
  const l = await t.app.modules.inventory.retrieveLevel(items[variant]!, LOC);
  return { stocked: l.stocked_quantity, reserved: l.reserved_quantity };
};
const levels = async () => ({ shirt: await level("variant_shirt"), mug: await level("variant_mug") });
const place = () => placeTestOrder(t.app, {}, { reserve_at: LOC });
/** Fulfills `items` of the order from LOC (with `more` of the body). */
const createFulfillment = (
  orderId: string,
  items: Array<{ id: string; quantity: number }>,
  more: Record<string, unknown> = {},
) => t.admin.post(`/admin/orders/${orderId}/fulfillments`, { items, location_id: LOC, ...more });
const qty = (order: {
  items: Array<{ fulfilled_quantity: number; shipped_quantity: number; delivered_quantity: number }>;
}) => order.items.map((i) => [i.fulfilled_quantity, i.shipped_quantity, i.delivered_quantity]);

describe("fulfill, ship, deliver, cancel", () => {
  it("walks every fulfillment status with the stock numbers after each step", async () => {
    const { order } = await place();
    const [shirt, mug] = order.items;
    const start = await levels();

    const first = await createFulfillment(order.id, [{ id: shirt!.id, quantity: 1 }], { metadata: { box: 1 } });
    expect(first.statusCode).toBe(200);
    let body = first.json().order;
    expect(body.fulfillment_status).toBe("partially_fulfilled");
    expect(qty(body)).toEqual([
      [1, 0, 0],
      [0, 0, 0],
    ]);
    expect(body.items[0].detail.fulfilled_quantity).toBe(1);
    expect(body.fulfillments).toHaveLength(1);
    expect(body.fulfillments[0]).toMatchObject({
      location_id: LOC,
      metadata: { box: 1 },
      shipped_at: null,
      items: [{ line_item_id: shirt!.id, quantity: 1, title: "Shirt", sku: "SHIRT-M" }],
    });
    expect(await levels()).toEqual({
      shirt: { stocked: start.shirt.stocked - 1, reserved: start.shirt.reserved - 1 },
      mug: start.mug,
    });
    const f1 = body.fulfillments[0].id as string;

    body = (
      await createFulfillment(order.id, [
        { id: shirt!.id, quantity: 1 },
        { id: mug!.id, quantity: 1 },
      ])
    ).json().order;
    expect(body.fulfillment_status).toBe("fulfilled");
    expect(await levels()).toEqual({
      shirt: { stocked: start.shirt.stocked - 2, reserved: start.shirt.reserved - 2 },
      mug: { stocked: start.mug.stocked - 1, reserved: start.mug.reserved - 1 },
    });
    const f2 = body.fulfillments[1].id as string;

    const over = await createFulfillment(order.id, [{ id: mug!.id, quantity: 1 }]);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(`Cannot fulfill more than 0 of item ${mug!.id}`);

    body = (
      await t.admin.post(`/admin/orders/${order.id}/fulfillments/${f1}/shipments`, {
        items: [{ id: shirt!.id, quantity: 1 }],
      })
    ).json().order;
    expect(body.fulfillment_status).toBe("partially_shipped");
    expect(body.fulfillments[0].shipped_at).not.toBeNull();
    const cancelShipped = await t.admin.post(`/admin/orders/${order.id}/fulfillments/${f1}/cancel`, {});
    expect(cancelShipped.statusCode).toBe(400);
    expect(cancelShipped.json().message).toBe(`Fulfillment ${f1} is shipped and cannot be canceled`);
    expect(
      (await t.admin.post(`/admin/orders/${order.id}/fulfillments/${f2}/mark-as-delivered`, {})).json().message,
    ).toBe(`Fulfillment ${f2} is not shipped yet`);

    body = (await t.admin.post(`/admin/orders/${order.id}/fulfillments/${f1}/mark-as-delivered`, {})).json().order;
    expect(body.fulfillment_status).toBe("partially_delivered");
    expect((await t.admin.post(`/admin/orders/${order.id}/fulfillments/${f1}/shipments`, {})).json().message).toBe(
      `Fulfillment ${f1} is already shipped`,
    );
    body = (await t.admin.post(`/admin/orders/${order.id}/fulfillments/${f2}/shipments`, {})).json().order;
    expect(body.fulfillment_status).toBe("partially_delivered");
    body = (await t.admin.post(`/admin/orders/${order.id}/fulfillments/${f2}/mark-as-delivered`, {})).json().order;
    expect(body.fulfillment_status).toBe("delivered");
    expect(qty(body)).toEqual([
      [2, 2, 2],
      [1, 1, 1],
    ]);
    expect(
      (await t.admin.post(`/admin/orders/${order.id}/fulfillments/${f2}/mark-as-delivered`, {})).json().message,
    ).toBe(`Fulfillment ${f2} is already delivered`);

    const cancel = await t.admin.post(`/admin/orders/${order.id}/cancel`, {});
    expect(cancel.statusCode).toBe(400);
    expect(await orderChangeActions(t, order.id)).toEqual([
      "order_placed",
      "fulfillment_created",
      "fulfillment_created",
      "shipment_created",
      "fulfillment_delivered",
      "shipment_created",
      "fulfillment_delivered",
    ]);
  });

  it("cancel-fulfillment restores the quantities, the reservations and the stock", async () => {
    const { order } = await place();
    const start = await levels();
    const created = (
      await createFulfillment(
        order.id,
        order.items.map((i) => ({ id: i.id, quantity: i.quantity })),
      )
    ).json().order;
    expect(created.fulfillment_status).toBe("fulfilled");
    const res = await t.admin.post(`/admin/orders/${order.id}/fulfillments/${created.fulfillments[0].id}/cancel`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().order.fulfillment_status).toBe("not_fulfilled");
    expect(res.json().order.fulfillments[0].canceled_at).not.toBeNull();
    expect(qty(res.json().order)).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(await levels()).toEqual(start);
    expect(
      (await t.admin.post(`/admin/orders/${order.id}/fulfillments/${created.fulfillments[0].id}/cancel`, {})).json()
        .message,
    ).toBe(`Fulfillment ${created.fulfillments[0].id} is canceled`);
    // The order can be canceled again now nothing is fulfilled; its reservations are released.
    expect((await t.admin.post(`/admin/orders/${order.id}/cancel`, {})).statusCode).toBe(200);
  });

  it("refuses bad input with 400/404 and changes nothing", async () => {
    const { order } = await place();
    const other = (await place()).order;
    const start = await levels();
    const shirt = order.items[0]!.id;
    for (const body of [
      {},
      { items: [], location_id: LOC },
      { items: [{ id: shirt, quantity: 0 }], location_id: LOC },
      { items: [{ id: shirt, quantity: 3 }], location_id: LOC },
      { items: [{ id: other.items[0]!.id, quantity: 1 }], location_id: LOC },
      {
        items: [
          { id: shirt, quantity: 1 },
          { id: shirt, quantity: 1 },
        ],
        location_id: LOC,
      },
      { items: [{ id: shirt, quantity: 1 }] },
      { items: [{ id: shirt, quantity: 1 }], location_id: "sloc_other" },
      { items: [{ id: shirt, quantity: 1 }], location_id: LOC, x: 1 },
    ]) {
      const res = await t.admin.post(`/admin/orders/${order.id}/fulfillments`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect(
      (
        await t.admin.post("/admin/orders/order_missing/fulfillments", {
          items: [{ id: shirt, quantity: 1 }],
          location_id: LOC,
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.admin.post(`/admin/orders/${order.id}/fulfillments/ful_missing/shipments`, {})).statusCode).toBe(
      404,
    );
    expect((await t.admin.post(`/admin/orders/${order.id}/fulfillments/ful_missing/cancel`, {})).statusCode).toBe(404);
    const current = await get(order.id);
    expect(current.fulfillment_status).toBe("not_fulfilled");
    expect(current.fulfillments).toEqual([]);
    expect(await levels()).toEqual(start);

    await t.admin.post(`/admin/orders/${order.id}/cancel`, {});
    const canceled = await createFulfillment(order.id, [{ id: shirt, quantity: 1 }]);
    expect(canceled.statusCode).toBe(400);
    expect(canceled.json().message).toBe(`Order ${order.id} is canceled and cannot be fulfilled`);
  });

  it("a failure at each step of create-fulfillment, cancel-fulfillment and create-shipment undoes the steps before it", async () => {
    const db = t.database.db;
    const { order } = await place();
    const start = await levels();
    const body = { items: [{ id: order.items[0]!.id, quantity: 2 }], location_id: LOC };
    const unchanged = async (status: string, stock = start) => {
      const current = await get(order.id);
      expect(current.fulfillment_status).toBe(status);
      expect(await levels()).toEqual(stock);
      return current;
    };
    // Posts `payload` to `url` with each of `failures` injected: every attempt answers 500, then `check` runs.
    const failEach = async (
      url: string,
      payload: object,
      failures: ReadonlyArray<readonly [string, "INSERT" | "UPDATE", string]>,
      check: () => Promise<void>,
    ) => {
      for (const [table, op, when] of failures) {
        const res = await withFailure(db, table, op, when, () => t.admin.post(url, payload));
        expect(res.statusCode, table).toBe(500);
        await check();
      }
    };
    // create-fulfillment: fail at the order step, the stock step, the record step.
    await failEach(
      `/admin/orders/${order.id}/fulfillments`,
      body,
      [
        ["order_line_item", "UPDATE", "true"],
        ["reservation_item", "UPDATE", "true"],
        ["fulfillment", "INSERT", "true"],
      ],
      async () => expect((await unchanged("not_fulfilled")).fulfillments).toEqual([]),
    );
    const fulfilled = (await t.admin.post(`/admin/orders/${order.id}/fulfillments`, body)).json().order;
    const fid = fulfilled.fulfillments[0].id as string;
    const afterFulfill = await levels();

    // cancel-fulfillment: fail at the mark, the order step, the stock step.
    await failEach(
      `/admin/orders/${order.id}/fulfillments/${fid}/cancel`,
      {},
      [
        ["fulfillment", "UPDATE", "NEW.canceled_at is not null"],
        ["order_line_item", "UPDATE", "true"],
        ["inventory_level", "UPDATE", "true"],
      ],
      async () => expect((await unchanged("partially_fulfilled", afterFulfill)).fulfillments[0].canceled_at).toBeNull(),
    );
    // create-shipment: fail at the mark, the order step.
    await failEach(
      `/admin/orders/${order.id}/fulfillments/${fid}/shipments`,
      {},
      [
        ["fulfillment", "UPDATE", "NEW.shipped_at is not null"],
        ["order_line_item", "UPDATE", "true"],
      ],
      async () => expect((await unchanged("partially_fulfilled", afterFulfill)).fulfillments[0].shipped_at).toBeNull(),
    );
    expect(
      (await t.admin.post(`/admin/orders/${order.id}/fulfillments/${fid}/shipments`, {})).json().order
        .fulfillment_status,
    ).toBe("partially_shipped");
    // mark-delivered: fail at the mark, the order step.
    await failEach(
      `/admin/orders/${order.id}/fulfillments/${fid}/mark-as-delivered`,
      {},
      [
        ["fulfillment", "UPDATE", "NEW.delivered_at is not null"],
        ["order_line_item", "UPDATE", "true"],
      ],
      async () => expect((await unchanged("partially_shipped", afterFulfill)).fulfillments[0].delivered_at).toBeNull(),
    );
    expect(
      (await t.admin.post(`/admin/orders/${order.id}/fulfillments/${fid}/mark-as-delivered`, {})).json().order
        .fulfillment_status,
    ).toBe("partially_delivered");
  });

  it("a shipment carries the carrier's labels and must name exactly the fulfillment's items", async () => {
    const { order } = await place();
    const [shirt, mug] = order.items;
    const created = (
      await createFulfillment(order.id, [
        { id: shirt!.id, quantity: 2 },
        { id: mug!.id, quantity: 1 },
      ])
    ).json().order;
    const fulfillment = created.fulfillments[0];
    const url = `/admin/orders/${order.id}/fulfillments/${fulfillment.id}/shipments`;
    const label = {
      tracking_number: "1Z999",
      tracking_url: "https://track.example/1Z999",
      label_url: "https://labels.example/1Z999.pdf",
    };
    for (const [body, message] of [
      [
        {
          items: [
            { id: shirt!.id, quantity: 1 },
            { id: mug!.id, quantity: 1 },
          ],
        },
        `Fulfillment ${fulfillment.id} ships whole: item ${shirt!.id} has 2 units in it, 1 named`,
      ],
      [
        { items: [{ id: shirt!.id, quantity: 2 }] },
        `Fulfillment ${fulfillment.id} ships whole: item ${mug!.id} has 1 units in it, 0 named`,
      ],
      [
        { items: [{ id: "ordli_elsewhere", quantity: 1 }] },
        `Item ordli_elsewhere is not in fulfillment ${fulfillment.id}`,
      ],
    ] as const) {
      const res = await t.admin.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ type: "invalid_data", message });
    }
    for (const body of [
      { labels: [{ tracking_url: "x", label_url: "y" }] },
      { labels: [{ ...label, carrier: "ups" }] },
      { labels: "1Z999" },
      { items: [{ id: shirt!.id, quantity: 0 }] },
    ]) {
      const res = await t.admin.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await get(order.id)).fulfillments[0]).toMatchObject({ shipped_at: null, labels: [] });

    // Named by fulfillment item id (as Medusa's SDK docs do) or by order line id: both are the whole fulfillment.
    const shirtItem = fulfillment.items.find((i: { line_item_id: string }) => i.line_item_id === shirt!.id);
    const shipped = await t.admin.post(url, {
      items: [
        { id: shirtItem.id, quantity: 2 },
        { id: mug!.id, quantity: 1 },
      ],
      labels: [label],
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().order.fulfillment_status).toBe("shipped");
    expect(shipped.json().order.fulfillments[0].labels).toEqual([{ id: expect.stringMatching(/^fulla_/), ...label }]);
    expect(shipped.json().order.fulfillments[0].shipped_at).not.toBeNull();
  });

  it("cancel racing a fulfillment: one wins, the other is refused, the order stays consistent", async () => {
    for (let round = 0; round < 3; round++) {
      const { order } = await place();
      const start = await levels();
      const [fulfill, cancel] = await Promise.all([
        t.admin.post(`/admin/orders/${order.id}/fulfillments`, {
          items: [{ id: order.items[0]!.id, quantity: 1 }],
          location_id: LOC,
        }),
        t.admin.post(`/admin/orders/${order.id}/cancel`, {}),
      ]);
      expect([fulfill.statusCode, cancel.statusCode].sort()).toEqual([200, 400]);
      const final = await get(order.id);
      if (fulfill.statusCode === 200) {
        expect(final).toMatchObject({
          status: "pending",
          fulfillment_status: "partially_fulfilled",
          payment_status: "authorized",
        });
        expect((await levels()).shirt).toEqual({
          stocked: start.shirt.stocked - 1,
          reserved: start.shirt.reserved - 1,
        });
      } else {
        expect(final).toMatchObject({
          status: "canceled",
          fulfillment_status: "canceled",
          payment_status: "canceled",
          fulfillments: [],
        });
        expect((await levels()).shirt).toEqual({ stocked: start.shirt.stocked, reserved: start.shirt.reserved - 2 });
      }
    }
  });
});

describe("Medusa's dashboard forms", () => {
  it("fulfils with the option the merchant picked and says the fulfillment requires shipping; ships without a notice", async () => {
    const { order } = await place();
    const option = (
      await t.admin.post("/admin/shipping-options", {
        name: "Courier",
        provider_id: "manual_manual",
        prices: [{ currency_code: "usd", amount: 1500 }],
      })
    ).json().shipping_option;
    const unknown = await t.admin.post(`/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: order.items[0]!.id, quantity: 1 }],
      location_id: LOC,
      shipping_option_id: "so_missing",
      no_notification: true,
    });
    expect(unknown.statusCode).toBe(404);

    const res = await t.admin.post(`/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: order.items[0]!.id, quantity: 1 }],
      location_id: LOC,
      shipping_option_id: option.id,
      no_notification: true,
    });
    expect(res.statusCode).toBe(200);
    const fulfillment = res.json().order.fulfillments[0];
    expect(fulfillment).toMatchObject({ provider_id: "manual_manual", requires_shipping: true, location_id: LOC });

    const shipped = await t.admin.post(`/admin/orders/${order.id}/fulfillments/${fulfillment.id}/shipments`, {
      labels: [{ tracking_number: "1Z", tracking_url: "", label_url: "" }],
      no_notification: true,
    });
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json().order.fulfillments[0].shipped_at).not.toBeNull();
    const [event] = await t.app.modules.events
      .list({ name: ["shipment.created"] }, { limit: 100, offset: 0 })
      .then((r) => r.items.filter((e) => e.data.id === fulfillment.id));
    expect(event?.data).toMatchObject({
      id: fulfillment.id,
      order_id: order.id,
      tracking_numbers: ["1Z"],
      no_notification: true,
    });
  });
});
