import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { errors } from "@kasse/core";
import { db as ambient, onDatabase, transaction } from "@kasse/db";
import { onPostgres, useTestDatabase } from "@kasse/db/testing";
import { createEngine, type Engine } from "@kasse/workflows";
import { step, workflow } from "./definitions";
import { createModules, type Modules } from "@kasse/modules";
import { createCartService } from "@kasse/modules/cart";
import {
  createPaymentService,
  createPaymentSessionStep,
  createProviderRegistry,
  type PaymentProvider,
  type ProviderCall,
} from "@kasse/modules/payment";
import { syncCartPaymentAmount } from "./cart-payment-amount";
import { eventOutbox } from "@kasse/modules/event";

const database = useTestDatabase({ poolSize: 4 });

/** A provider that records what it is asked. */
const calls: Array<{ op: string; key: string }> = [];
const spy: PaymentProvider = {
  id: "pp_spy",
  initiate: async (call: ProviderCall) => (calls.push({ op: "initiate", key: call.idempotencyKey }), { data: {} }),
  authorize: async () => ({ status: "authorized", data: {} }),
  capture: async (call) => ({ data: call.data }),
  refund: async (call) => ({ data: call.data }),
  cancel: async (call: ProviderCall) => (calls.push({ op: "cancel", key: call.idempotencyKey }), { data: {} }),
  getStatus: async () => "pending",
};

/** The modules with a payment module that knows the spy provider too. */
function modulesWithSpy(): Modules {
  const modules = createModules();
  const payment = createPaymentService(createProviderRegistry([spy]));
  return new Proxy(modules, { get: (target, key) => (key === "payment" ? payment : Reflect.get(target, key)) });
}

// Built once, like the composition root builds it: each call runs on the current handle.
const carts = createCartService();

let engine: Engine;
beforeAll(() => {
  engine = createEngine({ events: eventOutbox, db: database.db, modules: modulesWithSpy });
});

/** A cart whose stored total is `total`, with a collection for `amount` and a pending session. */
async function cartWithCollection(total: number, amount: number) {
  const db = database.db;
  const cart = await carts.create({
    region_id: null,
    sales_channel_id: "sc_web",
    currency_code: "eur",
  });
  await db.execute(sql`update cart set total = ${total} where id = ${cart.id}`);
  const payments = createPaymentService();
  const collection = await payments.createCollection({ cart_id: cart.id, currency_code: "eur", amount });
  await payments.createSession(collection.id, { provider_id: "pp_system_default" });
  return { cartId: cart.id, collectionId: collection.id, payments };
}

describe.runIf(onPostgres())("a collection following its cart's total", () => {
  it("the sync waits for the cart's lock and sets the total committed by the write holding it", async () => {
    const { cartId, collectionId, payments } = await cartWithCollection(1000, 500);
    // A cart write holds the lock and moves the total while a sync (of an earlier write) starts.
    const pending = await transaction(async () => {
      // The cart module joins the ambient transaction.
      await carts.lock(cartId);
      await ambient.execute(sql`update cart set total = 2000 where id = ${cartId}`);
      // Started as another request is, outside this transaction.
      const sync = onDatabase(database.db, () => syncCartPaymentAmount(createModules(), cartId));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await payments.collectionRow(collectionId)).amount).toBe(500);
      return { sync };
    });
    expect(await pending.sync).toBe(2000);
    const after = await payments.retrieveCollection(collectionId);
    expect(after.amount).toBe(2000);
    expect(after.payment_sessions.map((s) => s.amount)).toEqual([2000]);
  });
});

describe("payment.syncCartAmount", () => {
  it("leaves an authorized collection and its sessions as they are", async () => {
    const { cartId, collectionId, payments } = await cartWithCollection(1000, 1000);
    const session = (await payments.retrieveCollection(collectionId)).payment_sessions[0]!;
    await payments.authorizeSession(collectionId, session.id);
    expect(await payments.syncCartAmount(cartId, 3000)).toBe(false);
    expect(await payments.retrieveCollection(collectionId)).toMatchObject({ amount: 1000, authorized_amount: 1000 });
  });
});

const failingStep = step("test-fail-after-session", {
  invoke: async () => {
    throw errors.invalidData("a later step failed");
  },
});
const sessionThenFailure = workflow(
  "test-payment-session-then-failure",
  async (input: { collection_id: string; provider_id: string }, ctx) => {
    await ctx.run(createPaymentSessionStep, input);
    await ctx.run(failingStep, {});
  },
);

describe("create-payment-session's step", () => {
  it("initiates with the step's idempotency key; its compensation cancels with the provider and removes the session", async () => {
    const { collectionId, payments } = await cartWithCollection(1000, 1000);
    calls.length = 0;
    await expect(
      engine.execute(sessionThenFailure, { collection_id: collectionId, provider_id: "pp_spy" }),
    ).rejects.toMatchObject({ type: "invalid_data" });
    expect(calls.map((c) => c.op)).toEqual(["initiate", "cancel"]);
    expect(calls[0]!.key).toMatch(/:0$/);
    expect(calls[1]!.key).toBe(`${calls[0]!.key}:cancel`);
    // The session it replaced is gone too (replaced, as Medusa does); the new one was removed.
    expect((await payments.retrieveCollection(collectionId)).payment_sessions).toEqual([]);
  });
});
