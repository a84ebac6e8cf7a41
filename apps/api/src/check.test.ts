import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db as ambient, onDatabase, queryRows, readSnapshot } from "@kasse/db";
import { checkInvariants, seedDemoStore, type CheckResult, type DemoStore } from "@kasse/operations";
import { createTestApp, type TestApp } from "./testing";
import { checkoutReadyCart } from "./testing/checkout";

let t: TestApp;
let orderId: string;
let cartId: string;
let paymentId: string;
let collectionId: string;
let levelId: string;
let store: DemoStore;
let optionId: string;
let variantId: string;
let headers: Record<string, string>;

const run = (statement: string) => t.database.db.execute(sql.raw(statement));
// As a store configured with a 5 s lease and a 2 s sweep: an execution is stuck 11 s after its lease expired.
const check = () => checkInvariants(t.app.modules, { leaseMs: 5_000, recoveryEveryMs: 2_000 });
const failures = (results: CheckResult[]) =>
  results.filter((r) => r.violations.length).map((r) => ({ name: r.name.split(":")[0], violations: r.violations }));

beforeAll(async () => {
  t = await createTestApp();
  store = (await seedDemoStore(t.app.modules))!;
  headers = { "x-publishable-api-key": store.publishable_api_key };
  const db = t.database.db;
  const [option] = await queryRows<{ id: string }>(
    db,
    sql`select id from shipping_option where region_id = ${store.region_ids.us} limit 1`,
  );
  const [variant] = await queryRows<{ id: string }>(
    db,
    sql`select id from product_variant where deleted_at is null order by id limit 1`,
  );
  optionId = option!.id;
  variantId = variant!.id;
  const cart = await checkoutReadyCart(t, {
    region_id: store.region_ids.us,
    option_id: option!.id,
    variant_id: variant!.id,
    quantity: 2,
    headers,
  });
  await checkoutReadyCart(t, {
    region_id: store.region_ids.us,
    option_id: option!.id,
    variant_id: variant!.id,
    quantity: 1,
    headers,
  }); // left open
  const completed = await t.app.inject({ method: "POST", url: `/store/carts/${cart.id}/complete`, headers });
  expect(completed.json().type, completed.body).toBe("order");
  orderId = completed.json().order.id;
  cartId = cart.id;
  const [payment] = await queryRows<{ id: string; payment_collection_id: string }>(
    db,
    sql`select id, payment_collection_id from payment order by created_at desc limit 1`,
  );
  paymentId = payment!.id;
  collectionId = payment!.payment_collection_id;
  const [reservation] = await queryRows<{ inventory_item_id: string; location_id: string }>(
    db,
    sql`select inventory_item_id, location_id from reservation_item limit 1`,
  );
  const [level] = await queryRows<{ id: string }>(
    db,
    sql`select id from inventory_level where inventory_item_id = ${reservation!.inventory_item_id} and location_id = ${reservation!.location_id}`,
  );
  levelId = level!.id;
}, 120_000);
afterAll(() => t?.close());

describe("checkInvariants (kasse check)", () => {
  it("passes on the demo store with a placed order", async () => {
    const results = await check();
    expect(results).toHaveLength(8);
    expect(failures(results)).toEqual([]);
    // The checks read one snapshot, in a transaction that cannot write.
    const write = await onDatabase(t.database.db, () =>
      readSnapshot(() => ambient.execute(sql`update cart set email = 'x@example.com'`)),
    ).then(
      () => null,
      (error: Error) => error,
    );
    expect((write?.cause as Error | undefined)?.message).toMatch(/read-only transaction/);
  });

  it("names a level whose reserved quantity is not the sum of its reservations", async () => {
    await run(`update inventory_level set reserved_quantity = reserved_quantity + 3 where id = '${levelId}'`);
    try {
      const [failed] = failures(await check());
      expect(failed).toEqual({
        name: "inventory levels",
        violations: [{ id: levelId, problem: expect.stringMatching(/^reserved \d+ but its reservations hold \d+$/) }],
      });
    } finally {
      await run(`update inventory_level set reserved_quantity = reserved_quantity - 3 where id = '${levelId}'`);
    }
  });

  it("names a reservation for a line of no live order", async () => {
    const [reservation] = await queryRows<{
      id: string;
      inventory_item_id: string;
      location_id: string;
      quantity: number;
    }>(t.database.db, sql`select id, inventory_item_id, location_id, quantity from reservation_item limit 1`);
    await run(`update reservation_item set line_item_id = 'ordli_gone' where id = '${reservation!.id}'`);
    try {
      const found = failures(await check());
      const [line] = await queryRows<{ id: string }>(
        t.database.db,
        sql`select id from order_line_item where order_id = ${orderId}`,
      );
      expect(found).toEqual([
        {
          name: "reservations",
          violations: [{ id: reservation!.id, problem: expect.stringContaining("line item ordli_gone") }],
        },
        // The order's line lost the reservation it needs.
        {
          name: "order lines",
          violations: [
            {
              id: line!.id,
              problem: expect.stringMatching(
                /^2 unit\(s\) of variant \S+ not fulfilled, but its reservations hold 0 \(expected 2\)$/,
              ),
            },
          ],
        },
      ]);
      // A reservation of a canceled order is as orphaned.
      await run(
        `update reservation_item set line_item_id = (select cart_line_item_id from order_line_item where order_id = '${orderId}' limit 1) where id = '${reservation!.id}'`,
      );
      expect(failures(await check())).toEqual([]);
      await run(`update "order" set canceled_at = now() where id = '${orderId}'`);
      expect(failures(await check()).map((f) => f.violations[0]!.id)).toEqual([reservation!.id]);
    } finally {
      await run(`update "order" set canceled_at = null where id = '${orderId}'`);
    }
    expect(failures(await check())).toEqual([]);
  });

  it("accepts a reservation for an open cart's line only while that cart's completion runs", async () => {
    const db = t.database.db;
    const [line] = await queryRows<{ id: string; cart_id: string }>(
      db,
      sql`select l.id, l.cart_id from cart_line_item l join cart c on c.id = l.cart_id where c.completed_at is null limit 1`,
    );
    const [level] = await queryRows<{ inventory_item_id: string; location_id: string }>(
      db,
      sql`select inventory_item_id, location_id from inventory_level where id = ${levelId}`,
    );
    await run(
      `insert into reservation_item (id, inventory_item_id, location_id, quantity, line_item_id) values ('resitem_check', '${level!.inventory_item_id}', '${level!.location_id}', 1, '${line!.id}')`,
    );
    await run(`update inventory_level set reserved_quantity = reserved_quantity + 1 where id = '${levelId}'`);
    try {
      expect(failures(await check())).toEqual([
        {
          name: "reservations",
          violations: [
            {
              id: "resitem_check",
              problem: `reserves for line item ${line!.id} of cart ${line!.cart_id}, which is not being completed`,
            },
          ],
        },
      ]);
      await run(
        `insert into workflow_executions (id, workflow_id, idempotency_key, transaction_id, state, lease_owner, lease_expires_at) values ('wfe_check', 'complete-cart', '${line!.cart_id}', '${line!.cart_id}', 'running', 'me', now() + interval '1 minute')`,
      );
      expect(failures(await check())).toEqual([]);
    } finally {
      await run(`delete from workflow_executions where id = 'wfe_check'`);
      await run(`delete from reservation_item where id = 'resitem_check'`);
      await run(`update inventory_level set reserved_quantity = reserved_quantity - 1 where id = '${levelId}'`);
    }
  });

  it("names a payment refunded beyond its captures and a collection captured beyond its authorization", async () => {
    await run(`insert into payment_refund (id, payment_id, amount) values ('ref_check', '${paymentId}', 100)`);
    await run(`update payment_collection set captured_amount = authorized_amount + 1 where id = '${collectionId}'`);
    try {
      const [failed, orderLevel, ...rest] = failures(await check());
      expect(rest).toEqual([]);
      expect(failed!.name).toBe("payments");
      expect(failed!.violations.map((v) => v.id).sort()).toEqual([paymentId, collectionId].sort());
      expect(failed!.violations.find((v) => v.id === paymentId)!.problem).toMatch(/captured 0, refunded 100$/);
      // Captured beyond its authorization is also captured beyond its order's total.
      expect(orderLevel).toEqual({ name: "payments", violations: [{ id: orderId, problem: expect.any(String) }] });
    } finally {
      await run(`delete from payment_refund where id = 'ref_check'`);
      await run(`update payment_collection set captured_amount = 0 where id = '${collectionId}'`);
    }
  });

  it("names an order whose live authorization or captures exceed its total", async () => {
    const [order] = await queryRows<{ total: string }>(
      t.database.db,
      sql`select total from "order" where id = ${orderId}`,
    );
    const total = Number(order!.total);
    // Authorized for more than the order (the hole a cart shrunk after authorization left open).
    await run(`update payment set amount = amount + 500 where id = '${paymentId}'`);
    await run(`update payment_collection set authorized_amount = authorized_amount + 500 where id = '${collectionId}'`);
    try {
      expect(failures(await check())).toEqual([
        {
          name: "payments",
          violations: [
            {
              id: orderId,
              problem: `its total is ${total} but its payments hold ${total + 500} authorized (not voided) and 0 captured`,
            },
          ],
        },
      ]);
      // Voided, the authorization no longer counts.
      await run(`update payment set canceled_at = now() where id = '${paymentId}'`);
      expect(failures(await check())).toEqual([]);
    } finally {
      await run(`update payment set amount = amount - 500, canceled_at = null where id = '${paymentId}'`);
      await run(
        `update payment_collection set authorized_amount = authorized_amount - 500 where id = '${collectionId}'`,
      );
    }
    expect(failures(await check())).toEqual([]);
  });

  it("names a completed cart without an order and a cart with two orders", async () => {
    await run(`update "order" set cart_id = null where id = '${orderId}'`);
    try {
      expect(failures(await check())).toContainEqual({
        name: "carts",
        violations: [{ id: cartId, problem: "is completed but has no order" }],
      });
    } finally {
      await run(`update "order" set cart_id = '${cartId}' where id = '${orderId}'`);
    }
    const second = "order_dup";
    await run(`insert into "order" (id, cart_id, currency_code) values ('${second}', '${cartId}', 'usd')`);
    try {
      const found = failures(await check());
      expect(found).toEqual([
        {
          name: "carts",
          violations: [{ id: cartId, problem: `has 2 orders: ${[orderId, second].sort().join(", ")}` }],
        },
      ]);
    } finally {
      await run(`delete from "order" where id = '${second}'`);
    }
    expect(failures(await check())).toEqual([]);
  });
  it("names an order line whose reservations do not hold what is left to fulfil", async () => {
    const [line] = await queryRows<{ id: string; reservation_id: string }>(
      t.database.db,
      sql`select l.id, r.id as reservation_id from order_line_item l join reservation_item r on r.line_item_id = l.cart_line_item_id where l.order_id = ${orderId}`,
    );
    // Level and reservation move together, so only the order line's invariant breaks.
    await run(`update reservation_item set quantity = quantity - 1 where id = '${line!.reservation_id}'`);
    await run(`update inventory_level set reserved_quantity = reserved_quantity - 1 where id = '${levelId}'`);
    try {
      expect(failures(await check())).toEqual([
        {
          name: "order lines",
          violations: [{ id: line!.id, problem: expect.stringMatching(/but its reservations hold 1 \(expected 2\)$/) }],
        },
      ]);
      // Fulfilled units need no reservation.
      await run(`update order_line_item set fulfilled_quantity = 1 where id = '${line!.id}'`);
      expect(failures(await check())).toEqual([]);
    } finally {
      await run(`update order_line_item set fulfilled_quantity = 0 where id = '${line!.id}'`);
      await run(`update reservation_item set quantity = quantity + 1 where id = '${line!.reservation_id}'`);
      await run(`update inventory_level set reserved_quantity = reserved_quantity + 1 where id = '${levelId}'`);
    }
    expect(failures(await check())).toEqual([]);
  });

  it("names a campaign whose budget usage differs from the orders that used its promotions", async () => {
    const m = t.app.modules;
    const campaign = await m.promotion.createCampaign({
      name: "Check",
      campaign_identifier: "check",
      budget: { type: "usage", limit: 10 },
    });
    await m.promotion.create({
      code: "CHECK10",
      type: "standard",
      campaign_id: campaign.id,
      application_method: { type: "percentage", target_type: "items", allocation: "across", value: 10 },
    });
    const cart = await checkoutReadyCart(t, {
      region_id: store.region_ids.us,
      option_id: optionId,
      variant_id: variantId,
      quantity: 1,
      promo: "CHECK10",
      headers,
    });
    const completed = await t.app.inject({ method: "POST", url: `/store/carts/${cart.id}/complete`, headers });
    expect(completed.json().type, completed.body).toBe("order");
    // The order records the promotion it used, and the campaign counted it.
    const [used] = await queryRows<{ order_id: string; amount: number }>(
      t.database.db,
      sql`select order_id, amount::int from order_promotion where order_id = ${completed.json().order.id}`,
    );
    expect(used).toEqual({ order_id: completed.json().order.id, amount: cart.discount_total });
    expect(failures(await check())).toEqual([]);
    await run(`update promotion_campaign_budget set used = used + 1 where campaign_id = '${campaign.id}'`);
    try {
      expect(failures(await check())).toEqual([
        {
          name: "promotions",
          violations: [
            {
              id: campaign.id,
              problem: `its usage budget counts 2 but the orders that used its promotions make 1 (1 order(s), ${cart.discount_total} discounted)`,
            },
          ],
        },
      ]);
    } finally {
      await run(`update promotion_campaign_budget set used = used - 1 where campaign_id = '${campaign.id}'`);
    }
    expect(failures(await check())).toEqual([]);
  });

  it("names an execution left running with an expired lease and a failed compensation without a retry", async () => {
    const [execution] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from workflow_executions where workflow_id = 'complete-cart' limit 1`,
    );
    const id = execution!.id;
    await run(
      `update workflow_executions set state = 'running', lease_owner = 'gone', lease_expires_at = now() - interval '3 seconds' where id = '${id}'`,
    );
    expect(failures(await check())).toEqual([]);
    // Late by four sweeps (a process under load renewing late, a sweep still to come) is not stuck yet.
    await run(`update workflow_executions set lease_expires_at = now() - interval '8 seconds' where id = '${id}'`);
    expect(failures(await check())).toEqual([]);
    const checked = await check();
    expect(checked.map((c) => c.name)).toContain(
      "workflow executions: none running with a lease expired over 11 s ago, none compensation_failed without a retry planned",
    );
    await run(`update workflow_executions set lease_expires_at = now() - interval '1 minute' where id = '${id}'`);
    expect(failures(await check())).toEqual([
      {
        name: "workflow executions",
        violations: [
          {
            id,
            problem: expect.stringMatching(
              /^complete-cart: running but its lease expired .* and no process resumed it$/,
            ),
          },
        ],
      },
    ]);
    await run(
      `update workflow_executions set state = 'compensation_failed', lease_owner = null, lease_expires_at = null, next_retry_at = now() + interval '1 minute' where id = '${id}'`,
    );
    expect(failures(await check())).toEqual([]);
    await run(`update workflow_executions set next_retry_at = null, dead_lettered_at = now() where id = '${id}'`);
    expect(failures(await check())).toEqual([
      {
        name: "workflow executions",
        violations: [
          {
            id,
            problem: expect.stringMatching(
              /^complete-cart: compensation failed and no retry is planned \(dead-lettered /,
            ),
          },
        ],
      },
    ]);
    await run(
      `update workflow_executions set state = 'succeeded', next_retry_at = null, dead_lettered_at = null where id = '${id}'`,
    );
    expect(failures(await check())).toEqual([]);
  });
});
