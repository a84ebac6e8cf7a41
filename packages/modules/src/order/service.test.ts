import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { errors } from "@kasse/core";
import { queryRows, type ListPaging } from "@kasse/db";
import { useTestDatabase } from "@kasse/db/testing";
import { createEngine, definitions, type Engine } from "@kasse/workflows";
import { createOrderService } from "./service";
import type { OrderFilters } from "./shapes";
import { createOrderStep } from "./steps";
import { orderSnapshot } from "./testing";
import { createModules, type Modules } from "../modules";
import { eventOutbox } from "@kasse/modules";

const { step, workflow } = definitions<Modules>();

const database = useTestDatabase();
let engine: Engine;
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const orders = createOrderService();
beforeAll(async () => {
  engine = createEngine({ events: eventOutbox, db: database.db, modules: () => createModules() });
});

const admin = { actor_type: "user", actor_id: "user_1" };
const fail = step("test-order-fails", {
  invoke: async (): Promise<{ output: null }> => {
    throw errors.invalidData("later step failed");
  },
});
const placeThenFail = workflow("test-place-order-then-fail", async (input: { email: string }, ctx) => {
  await ctx.run(createOrderStep, { order: orderSnapshot({ email: input.email }) });
  await ctx.run(fail, {});
});
const place = workflow("test-place-order", async (input: { email: string }, ctx) =>
  ctx.run(createOrderStep, {
    order: orderSnapshot({ email: input.email }),
    actor: { actor_type: "customer", actor_id: "cus_1" },
  }),
);

describe("order service", () => {
  it("creates an order from a snapshot with increasing display ids and logs the placement", async () => {
    const first = await orders.create(orderSnapshot(), admin);
    const second = await orders.create(orderSnapshot({ email: "other@example.com" }));
    expect(second.display_id).toBe(first.display_id + 1);
    expect(first).toMatchObject({
      status: "pending",
      payment_status: "not_paid",
      fulfillment_status: "not_fulfilled",
      currency_code: "eur",
      total: 3200,
      shipping_total: 700,
    });
    expect(first.shipping_address).toMatchObject({ country_code: "de", city: "Berlin" });
    expect(first.shipping_address!.id).toMatch(/^ordaddr_/);
    expect(first.items.map((i) => [i.title, i.quantity, i.fulfilled_quantity])).toEqual([
      ["Shirt", 2, 0],
      ["Mug", 1, 0],
    ]);
    expect(first.items.every((i) => i.cart_line_item_id!.startsWith("cali_"))).toBe(true);
    expect(first.shipping_methods).toHaveLength(1);
    const changes = await orders.listChanges(first.id, { limit: 10, offset: 0 });
    expect(changes.items.map((c) => [c.action, c.actor_id])).toEqual([["order_placed", "user_1"]]);
  });

  it("an order with a payment collection starts awaiting unless checkout says authorized", async () => {
    expect((await orders.create(orderSnapshot({ payment_collection_ids: ["paycol_1"] }))).payment_status).toBe(
      "awaiting",
    );
    expect(
      (await orders.create(orderSnapshot({ payment_collection_ids: ["paycol_1"], payment_status: "authorized" })))
        .payment_status,
    ).toBe("authorized");
  });

  it("updates email, addresses and metadata and logs only what changed", async () => {
    const order = await orders.create(orderSnapshot());
    const updated = await orders.update(
      order.id,
      { email: "new@example.com", shipping_address: { city: "Hamburg" }, metadata: { gift: true } },
      admin,
    );
    expect(updated.email).toBe("new@example.com");
    expect(updated.shipping_address).toMatchObject({
      id: order.shipping_address!.id,
      city: "Hamburg",
      address_1: "1 Main St",
    });
    expect(updated.metadata).toEqual({ gift: true });
    // Same values again: nothing changes, nothing logged.
    await orders.update(order.id, { email: "new@example.com" }, admin);
    const { items } = await orders.listChanges(order.id, { limit: 10, offset: 0 });
    expect(items.map((c) => c.action)).toEqual(["order_placed", "order_updated"]);
    expect(items[1]!.before).toEqual({
      email: "buyer@example.com",
      metadata: null,
      shipping_address: order.shipping_address,
    });
    expect(items[1]!.after).toMatchObject({
      email: "new@example.com",
      metadata: { gift: true },
      shipping_address: { city: "Hamburg" },
    });
    expect(items[1]).toMatchObject({ actor_type: "user", actor_id: "user_1" });
  });

  it("lists with filters, q over display id and email, and batched relations", async () => {
    const a = await orders.create(
      orderSnapshot({ email: "list-a@example.com", customer_id: "cus_list", region_id: "reg_list" }),
    );
    await orders.create(orderSnapshot({ email: "list-b@example.com", customer_id: "cus_list" }));
    const byCustomer = await orders.list({ customer_id: ["cus_list"] }, { limit: 10, offset: 0, order: "-display_id" });
    expect(byCustomer.count).toBe(2);
    expect(byCustomer.items[1]!.id).toBe(a.id);
    expect(byCustomer.items.every((o) => o.items.length === 2)).toBe(true);
    expect((await orders.list({ q: `#${a.display_id}` }, { limit: 10, offset: 0 })).items.map((o) => o.id)).toEqual([
      a.id,
    ]);
    expect((await orders.list({ q: "LIST-A@" }, { limit: 10, offset: 0 })).items.map((o) => o.id)).toEqual([a.id]);
    expect((await orders.list({ region_id: ["reg_list"], status: ["pending"] }, { limit: 10, offset: 0 })).count).toBe(
      1,
    );
    expect(
      (await orders.list({ customer_id: ["cus_list"], status: ["canceled"] }, { limit: 10, offset: 0 })).count,
    ).toBe(0);
    const summaries = await orders.summariesByCustomer(["cus_list", "cus_none"]);
    expect(summaries.get("cus_list")!.map((s) => s.total)).toEqual([3200, 3200]);
    expect(summaries.get("cus_none")).toEqual([]);
  });

  it("unknown ids are not_found", async () => {
    await expect(orders.retrieve("order_missing")).rejects.toMatchObject({ type: "not_found" });
    await expect(orders.update("order_missing", { email: "x@example.com" })).rejects.toMatchObject({
      type: "not_found",
    });
    await expect(orders.listChanges("order_missing", { limit: 1, offset: 0 })).rejects.toMatchObject({
      type: "not_found",
    });
  });

  it("createOrderStep: journals the ids; a later failure deletes the order with its lines and log", async () => {
    const created = await engine.execute(place, { email: "step-ok@example.com" });
    const stored = await orders.retrieve(created.id);
    expect(created.items).toEqual(
      stored.items.map((i) => ({
        id: i.id,
        cart_line_item_id: i.cart_line_item_id,
        variant_id: i.variant_id,
        quantity: i.quantity,
      })),
    );
    expect(stored.display_id).toBe(created.display_id);
    expect((await orders.listChanges(created.id, { limit: 5, offset: 0 })).items[0]).toMatchObject({
      action: "order_placed",
      actor_id: "cus_1",
    });

    await expect(engine.execute(placeThenFail, { email: "step-fail@example.com" })).rejects.toThrow(
      "later step failed",
    );
    expect((await orders.list({ email: ["step-fail@example.com"] }, { limit: 5, offset: 0 })).count).toBe(0);
    const [leftovers] = await queryRows<{ lines: number; changes: number }>(
      database.db,
      sql`select (select count(*) from order_line_item li where not exists (select 1 from "order" o where o.id = li.order_id))::int as lines, (select count(*) from order_change c where not exists (select 1 from "order" o where o.id = c.order_id))::int as changes`,
    );
    expect(leftovers).toEqual({ lines: 0, changes: 0 });
  });
  it("lists a page with its returns in one statement, as the returns' own reads give them", async () => {
    const returns = createModules().orderReturn;
    const placed = [];
    for (const email of ["r1@example.com", "r2@example.com", "r3@example.com"]) {
      const o = await orders.create(orderSnapshot({ email }));
      await orders.moveLineQuantities(o.id, {
        stage: "fulfilled_quantity",
        lines: o.items.map((i) => ({ id: i.id, quantity: i.quantity })),
        action: "fulfillment_created",
      });
      placed.push(o);
    }
    const [shirt, mug] = placed[0]!.items;
    await returns.create(placed[0]!.id, { location_id: "sloc_1", items: [{ id: shirt!.id, quantity: 1 }] }, admin);
    await returns.create(
      placed[0]!.id,
      { location_id: "sloc_1", items: [{ id: mug!.id, quantity: 1 }], metadata: { note: "second" } },
      admin,
    );
    await returns.create(
      placed[1]!.id,
      { location_id: "sloc_2", items: placed[1]!.items.map((i) => ({ id: i.id, quantity: 1 })) },
      admin,
    );
    const page = { limit: 1000, offset: 0 };
    for (const [filters, paging] of [
      [{}, page],
      [{ email: ["r1@example.com", "r2@example.com", "r3@example.com"] }, { ...page, order: "-display_id" }],
    ] as Array<[OrderFilters, ListPaging]>) {
      const listed = await orders.listWithReturns(filters, paging);
      expect(listed.items).toEqual((await orders.list(filters, paging)).items);
      expect(listed.returns).toEqual(await returns.listForOrders(listed.items.map((o) => o.id)));
      expect(placed.map((o) => listed.returns.get(o.id)!.map((r) => r.items.length))).toEqual([[1, 1], [2], []]);
    }
  });
});
