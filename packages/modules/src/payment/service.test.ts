import { describe, expect, it } from "vitest";
import { onPostgres, useTestDatabase } from "@kasse/db/testing";
import { isKasseError } from "@kasse/core";
import { createPaymentService } from "./index";

const database = useTestDatabase({ poolSize: 12 });
// Built once, like the composition root builds it: no handle; each call runs on the current one.
const payments = createPaymentService();

let cartSeq = 0;
const newCollection = (amount = 5000) =>
  payments.createCollection({ cart_id: `cart_${++cartSeq}`, currency_code: "USD", amount });

async function authorized(amount = 5000, data: Record<string, unknown> = {}) {
  const collection = await newCollection(amount);
  const withSession = await payments.createSession(collection.id, { provider_id: "pp_test", data });
  return payments.authorizeSession(collection.id, withSession.payment_sessions[0]!.id);
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isKasseError(error)) return error;
    throw error;
  }
  throw new Error("expected a failure");
}

describe("payment collections", () => {
  it("has one collection per cart, starting not_paid with the cart's amount", async () => {
    const first = await payments.createCollection({ cart_id: "cart_same", currency_code: "USD", amount: 1000 });
    const second = await payments.createCollection({ cart_id: "cart_same", currency_code: "usd", amount: 1000 });
    expect(second.id).toBe(first.id);
    expect(first).toMatchObject({ status: "not_paid", amount: 1000, currency_code: "usd", authorized_amount: 0 });
  });

  it("replaces the unauthorized session when a new one starts, and follows the cart's amount", async () => {
    const collection = await newCollection(1000);
    await payments.createSession(collection.id, { provider_id: "pp_system_default" });
    const again = await payments.createSession(collection.id, { provider_id: "pp_test" });
    expect(again.payment_sessions.map((s) => s.provider_id)).toEqual(["pp_test"]);
    expect(again.payment_sessions[0]).toMatchObject({ status: "pending", amount: 1000 });
    expect(await payments.syncCartAmount(collection.cart_id!, 1500)).toBe(true);
    expect(await payments.syncCartAmount(collection.cart_id!, 1500)).toBe(false);
    const after = await payments.retrieveCollection(collection.id);
    expect(after.amount).toBe(1500);
    expect(after.payment_sessions[0]!.amount).toBe(1500);
  });

  it("refuses an unknown provider", async () => {
    const collection = await newCollection();
    const error = await failure(payments.createSession(collection.id, { provider_id: "pp_nope" }));
    expect(error.type).toBe("invalid_data");
  });
});

describe("authorization with pp_test", () => {
  it("authorizes: session and collection authorized, a payment exists", async () => {
    const { collection, payment } = await authorized(5000);
    expect(collection).toMatchObject({ status: "authorized", authorized_amount: 5000 });
    expect(collection.payment_sessions[0]).toMatchObject({ status: "authorized" });
    expect(payment).toMatchObject({ amount: 5000, provider_id: "pp_test" });
  });

  it("a decline is payment_authorization_error and authorizes nothing", async () => {
    const collection = await newCollection();
    const session = (
      await payments.createSession(collection.id, { provider_id: "pp_test", data: { behavior: "decline" } })
    ).payment_sessions[0]!;
    const error = await failure(payments.authorizeSession(collection.id, session.id));
    expect(error).toMatchObject({ type: "payment_authorization_error", name: "PaymentAuthorizationError" });
    expect(await payments.retrieveCollection(collection.id)).toMatchObject({
      status: "not_paid",
      authorized_amount: 0,
      payments: [],
    });
  });

  it("requires_more is payment_requires_more_error", async () => {
    const collection = await newCollection();
    const session = (
      await payments.createSession(collection.id, { provider_id: "pp_test", data: { behavior: "requires_more" } })
    ).payment_sessions[0]!;
    expect((await failure(payments.authorizeSession(collection.id, session.id))).type).toBe(
      "payment_requires_more_error",
    );
  });

  it("a provider error is a provider_error and leaves the session pending", async () => {
    const collection = await newCollection();
    const session = (
      await payments.createSession(collection.id, { provider_id: "pp_test", data: { behavior: "error" } })
    ).payment_sessions[0]!;
    expect((await failure(payments.authorizeSession(collection.id, session.id))).type).toBe("provider_error");
    expect((await payments.retrieveCollection(collection.id)).payment_sessions[0]!.status).toBe("pending");
  });

  it("authorizing twice returns the same payment", async () => {
    const collection = await newCollection();
    const session = (await payments.createSession(collection.id, { provider_id: "pp_system_default" }))
      .payment_sessions[0]!;
    const a = await payments.authorizeSession(collection.id, session.id);
    const b = await payments.authorizeSession(collection.id, session.id);
    expect(b.payment.id).toBe(a.payment.id);
    expect(b.collection.authorized_amount).toBe(5000);
  });

  it("authorizing the same session from two requests at once answers one payment to both", async () => {
    for (let round = 0; round < 5; round++) {
      const collection = await newCollection();
      const session = (await payments.createSession(collection.id, { provider_id: "pp_system_default" }))
        .payment_sessions[0]!;
      const [a, b] = await Promise.all([
        payments.authorizeSession(collection.id, session.id),
        payments.authorizeSession(collection.id, session.id),
      ]);
      expect(b.payment.id).toBe(a.payment.id);
      const after = await payments.retrieveCollection(collection.id);
      expect(after.payments).toHaveLength(1);
      expect(after.authorized_amount).toBe(5000);
    }
  });

  it("cancel gives the authorization back, once", async () => {
    const { collection, payment } = await authorized();
    expect(await payments.cancelPayment(payment.id)).toBe(true);
    expect(await payments.cancelPayment(payment.id)).toBe(false);
    expect(await payments.retrieveCollection(collection.id)).toMatchObject({
      status: "canceled",
      authorized_amount: 0,
    });
  });

  it("a voided session is not authorized again (its payment stays the one voided); a new session pays", async () => {
    const { collection, payment } = await authorized();
    await payments.cancelPayment(payment.id);
    const error = await failure(payments.authorizeSession(collection.id, payment.payment_session_id!));
    expect(error).toMatchObject({ type: "not_allowed" });
    expect(error.message).toMatch(/canceled/);
    expect(await payments.retrieveCollection(collection.id)).toMatchObject({
      status: "canceled",
      authorized_amount: 0,
      payments: [{ id: payment.id }],
    });
    const fresh = (await payments.createSession(collection.id, { provider_id: "pp_test" })).payment_sessions[0]!;
    const paid = await payments.authorizeSession(collection.id, fresh.id);
    expect(paid.payment.id).not.toBe(payment.id);
    expect(paid.collection).toMatchObject({ status: "authorized", authorized_amount: 5000 });
  });

  it("reauthorize voids the authorization and authorizes the new amount with the same provider, once per key", async () => {
    const { collection, payment } = await authorized(5000, { behavior: "authorize" });
    const renewed = await payments.reauthorize(collection.id, 3500, { idempotencyKey: "reauth_1" });
    expect(renewed).toMatchObject({ amount: 3500, provider_id: "pp_test", canceled_at: null });
    // A retried or resumed step with the same key ends with the same single authorization.
    expect((await payments.reauthorize(collection.id, 3500, { idempotencyKey: "reauth_1" })).id).toBe(renewed.id);
    const after = await payments.retrieveCollection(collection.id);
    expect(after).toMatchObject({ status: "authorized", amount: 3500, authorized_amount: 3500 });
    expect(after.payments.map((p) => [p.id, p.amount, p.canceled_at !== null])).toEqual([
      [payment.id, 5000, true],
      [renewed.id, 3500, false],
    ]);
    // The new session carries the last authorization's provider data: a card that now declines declines.
    const other = await authorized(2000);
    await database.db.execute(`update payment set data = '{"behavior":"decline"}' where id = '${other.payment.id}'`);
    const refused = await failure(payments.reauthorize(other.collection.id, 1500, { idempotencyKey: "reauth_2" }));
    expect(refused.type).toBe("payment_authorization_error");
    // The stale authorization is voided all the same: nothing is held for an amount no order will have.
    expect(await payments.retrieveCollection(other.collection.id)).toMatchObject({
      authorized_amount: 0,
      amount: 1500,
    });
  });

  it("a partly captured payment cannot be voided (refund it instead)", async () => {
    const { collection, payment } = await authorized(5000);
    await payments.capturePayment(payment.id, { amount: 1000 });
    expect(await failure(payments.cancelPayment(payment.id))).toMatchObject({
      type: "not_allowed",
      message: `Payment ${payment.id} is captured; refund it instead`,
    });
    expect(await payments.retrieveCollection(collection.id)).toMatchObject({
      status: "authorized",
      authorized_amount: 5000,
      captured_amount: 1000,
    });
  });

  it.runIf(onPostgres())(
    "a cancel racing a capture: either the capture wins and the cancel is refused, or the payment is voided and the capture refused",
    async () => {
      for (let round = 0; round < 5; round++) {
        const { collection, payment } = await authorized(5000);
        const [canceled, captured] = await Promise.allSettled([
          payments.cancelPayment(payment.id),
          payments.capturePayment(payment.id, { amount: 1000 }),
        ]);
        const after = await payments.retrieveCollection(collection.id);
        if (captured.status === "fulfilled") {
          expect(canceled.status).toBe("rejected");
          expect(after).toMatchObject({ status: "authorized", captured_amount: 1000 });
        } else {
          expect(canceled).toMatchObject({ status: "fulfilled", value: true });
          expect(after).toMatchObject({ status: "canceled", authorized_amount: 0, captured_amount: 0 });
        }
      }
    },
  );
});

describe("capture and refund", () => {
  it("captures in parts up to the authorized amount, refunds up to the captured amount", async () => {
    const { collection, payment } = await authorized(5000);
    await payments.capturePayment(payment.id, { amount: 2000 });
    expect((await failure(payments.capturePayment(payment.id, { amount: 3001 }))).type).toBe("invalid_data");
    const captured = await payments.capturePayment(payment.id);
    expect(captured.captures.map((c) => c.amount)).toEqual([2000, 3000]);
    expect(captured.captured_at).not.toBeNull();
    await payments.refundPayment(payment.id, { amount: 1000, note: "damaged" });
    expect((await failure(payments.refundPayment(payment.id, { amount: 4001 }))).type).toBe("invalid_data");
    expect(await payments.retrieveCollection(collection.id)).toMatchObject({
      captured_amount: 5000,
      refunded_amount: 1000,
    });
    expect((await failure(payments.cancelPayment(payment.id))).type).toBe("not_allowed");
  });

  it("a failing provider capture records nothing", async () => {
    const { collection, payment } = await authorized(5000, { capture_behavior: "error" });
    expect((await failure(payments.capturePayment(payment.id))).type).toBe("provider_error");
    expect(await payments.retrieveCollection(collection.id)).toMatchObject({ captured_amount: 0 });
  });

  it.runIf(onPostgres())("two concurrent refunds can never sum over the captured amount", async () => {
    const { collection, payment } = await authorized(5000);
    await payments.capturePayment(payment.id);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => payments.refundPayment(payment.id, { amount: 1500 })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    expect(await payments.retrieveCollection(collection.id)).toMatchObject({ refunded_amount: 4500 });
  });
});
