import { describe, expect, it } from "vitest";
import { useTestApp } from "../../testing";
import { eq } from "drizzle-orm";
import { orderLineItem } from "@kasse/modules/order/tables";
import { placeTestOrder } from "../../testing/orders";
import { createFixtureProduct } from "../../testing/catalog";

const t = useTestApp();

const get = async (url: string, customerId?: string) =>
  t.app.inject({ method: "GET", url, headers: customerId ? await t.customerHeaders(customerId) : {} });

describe("store orders", () => {
  it("adds each line's live variant and product when fields asks (*items.variant, *items.product), as Medusa's storefront does", async () => {
    const product = await createFixtureProduct(t, {
      title: "Linen Shirt",
      handle: "linen-shirt-o",
      status: "published",
      thumbnail: "https://img.example/l.png",
      variants: [{ title: "M", sku: "LIN-M", size: "M", prices: [{ currency_code: "usd", amount: 1000 }] }],
    });
    const placed = (await placeTestOrder(t.app, { customer_id: "cus_refs", email: "refs@example.com" })).order;
    const [first] = placed.items;
    await t.database.db
      .update(orderLineItem)
      .set({ variant_id: product.variantIds[0]!, product_id: product.id })
      .where(eq(orderLineItem.id, first!.id));
    const fields = "*payment_collections.payments,*items,*items.metadata,*items.variant,*items.product";
    const one = (await get(`/store/orders/${placed.id}?fields=${encodeURIComponent(fields)}`, "cus_refs")).json().order;
    const line = one.items.find((i: { id: string }) => i.id === first!.id);
    expect(line.variant).toEqual({
      id: product.variantIds[0],
      title: "M",
      sku: "LIN-M",
      product_id: product.id,
      options: [
        {
          id: expect.any(String),
          value: "M",
          option_id: expect.any(String),
          option: { id: expect.any(String), title: "Size" },
        },
      ],
    });
    expect(line.product).toEqual({
      id: product.id,
      title: "Linen Shirt",
      handle: "linen-shirt-o",
      subtitle: null,
      thumbnail: "https://img.example/l.png",
    });
    // A line whose variant no longer exists shows null, not someone else's data.
    expect(one.items.find((i: { id: string }) => i.id !== first!.id)).toMatchObject({ variant: null, product: null });
    expect(one.discount_subtotal).toBe(one.discount_total);
    // The history list does the same; without the fields the lines carry no such objects.
    const list = (
      await get(
        `/store/orders?fields=${encodeURIComponent("*items,+items.metadata,*items.variant,*items.product")}`,
        "cus_refs",
      )
    ).json();
    expect(list.orders[0].items.find((i: { id: string }) => i.id === first!.id).variant.title).toBe("M");
    const plain = (await get(`/store/orders/${placed.id}`, "cus_refs")).json().order;
    expect(plain.items[0]).not.toHaveProperty("variant");
    expect(plain.items[0]).not.toHaveProperty("product");
  });

  it("a customer lists and reads only their own orders; someone else's is 404", async () => {
    const mine = (await placeTestOrder(t.app, { customer_id: "cus_owner", email: "owner@example.com" })).order;
    const second = (await placeTestOrder(t.app, { customer_id: "cus_owner", email: "owner@example.com" })).order;
    const theirs = (await placeTestOrder(t.app, { customer_id: "cus_other", email: "other@example.com" })).order;

    for (const path of ["/store/orders", "/store/customers/me/orders"]) {
      const list = await get(`${path}?order=-display_id`, "cus_owner");
      expect(list.statusCode).toBe(200);
      expect(list.json()).toMatchObject({ count: 2, offset: 0, limit: 15 });
      expect(list.json().orders.map((o: { id: string }) => o.id)).toEqual([second.id, mine.id]);
    }
    const paged = await get(
      "/store/customers/me/orders?limit=1&offset=1&order=display_id&fields=id,display_id,total",
      "cus_owner",
    );
    expect(paged.json()).toEqual({
      orders: [{ id: second.id, display_id: second.display_id, total: 3200 }],
      count: 2,
      offset: 1,
      limit: 1,
    });

    const one = await get(`/store/orders/${mine.id}`, "cus_owner");
    expect(one.statusCode).toBe(200);
    expect(one.json().order).toMatchObject({
      id: mine.id,
      display_id: mine.display_id,
      status: "pending",
      payment_status: "authorized",
      total: 3200,
      items: [{ title: "Shirt", quantity: 2, unit_price: 1000, total: 2000 }, { title: "Mug" }],
    });
    // The store view carries no provider data (client secrets).
    const collection = one.json().order.payment_collections[0];
    expect(collection.payment_sessions[0]).not.toHaveProperty("data");
    expect(collection.payments[0]).not.toHaveProperty("data");

    for (const caller of ["cus_owner", "cus_other", undefined]) {
      const target = caller === "cus_other" ? mine : theirs;
      const res = await get(`/store/orders/${target.id}`, caller);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ type: "not_found", message: `Order with id: ${target.id} was not found` });
    }
  });

  it("a guest order is reachable by its id alone and listed for nobody", async () => {
    const guest = (await placeTestOrder(t.app, { customer_id: null, email: "guest@example.com" })).order;
    expect((await get(`/store/orders/${guest.id}`)).json().order.id).toBe(guest.id);
    expect((await get(`/store/orders/${guest.id}`, "cus_someone")).statusCode).toBe(200);
    expect((await get("/store/orders", "cus_someone")).json().count).toBe(0);
  });

  it("listing needs a customer token; bad queries are 400", async () => {
    expect((await get("/store/orders")).statusCode).toBe(401);
    expect((await get("/store/customers/me/orders")).statusCode).toBe(401);
    for (const query of ["limit=-1", "order=nope", "status=pending", "customer_id=cus_other"]) {
      const res = await get(`/store/orders?${query}`, "cus_owner");
      expect(res.statusCode, query).toBe(400);
      expect(res.json().type).toBe("invalid_data");
    }
    expect((await get("/store/orders/order_missing", "cus_owner")).statusCode).toBe(404);
  });
});

describe("customer order summaries", () => {
  it("GET /store/customers/me and GET /admin/customers/{id} carry the customer's orders", async () => {
    const admin = await t.adminHeaders();
    const created = await t.app.inject({
      method: "POST",
      url: "/admin/customers",
      headers: admin,
      payload: { email: "summary@example.com" },
    });
    const customerId = created.json().customer.id as string;
    const none = await get("/store/customers/me", customerId);
    expect(none.json().customer.orders).toEqual([]);

    const first = (await placeTestOrder(t.app, { customer_id: customerId })).order;
    const second = (await placeTestOrder(t.app, { customer_id: customerId })).order;
    await placeTestOrder(t.app, { customer_id: "cus_unrelated" });
    const summary = (o: typeof first) => ({
      id: o.id,
      display_id: o.display_id,
      status: "pending",
      payment_status: "authorized",
      fulfillment_status: "not_fulfilled",
      currency_code: "eur",
      total: 3200,
      created_at: o.created_at.toISOString(),
    });

    const me = await get("/store/customers/me", customerId);
    expect(me.statusCode).toBe(200);
    expect(me.json().customer.orders).toEqual([summary(second), summary(first)]);
    const adminView = await t.app.inject({ method: "GET", url: `/admin/customers/${customerId}`, headers: admin });
    expect(adminView.json().customer).toMatchObject({ id: customerId, email: "summary@example.com" });
    expect(adminView.json().customer.orders).toEqual([summary(second), summary(first)]);
    expect((await get("/store/customers/me?fields=id,email", customerId)).json().customer).toEqual({
      id: customerId,
      email: "summary@example.com",
    });
  });
});
