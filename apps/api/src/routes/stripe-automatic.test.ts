import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  payIntent,
  payLink,
  payOrderDifference,
  startStripeTestApp,
  stripeCart,
  type StripeTestApp,
} from "../testing/stripe";
import { orderBooks, paymentViolations } from "../testing/books";
import { withFailure } from "../testing/inject-failure";

// pp_stripe_stripe with STRIPE_CAPTURE=automatic: Stripe charges when the shopper pays.

let auto: StripeTestApp;
beforeAll(async () => {
  auto = await startStripeTestApp({ STRIPE_CAPTURE: "automatic" });
});
afterAll(() => auto?.close());

describe("automatic capture", () => {
  it("the order is captured with the authorization; a checkout failing after it refunds, never voids", async () => {
    const cart = await stripeCart(auto);
    expect(auto.fake.intent(cart.intent_id).capture_method).toBe("automatic");
    await payIntent(auto.fake, cart.intent_id);
    const failed = await withFailure(auto.t.database.db, "order", "INSERT", "true", () =>
      auto.t.store.post(`/store/carts/${cart.cart_id}/complete`),
    );
    expect(failed.json().type).toBe("cart");
    expect(auto.fake.counts(cart.intent_id)).toMatchObject({ captures: 0, refunds: 1 });
    expect(auto.fake.intent(cart.intent_id).status).toBe("succeeded");
    // The cart can be paid again: its collection counts no live payment.
    const undone = (await auto.t.store.get(`/store/carts/${cart.cart_id}`)).json().cart.payment_collection;
    expect(undone).toMatchObject({ authorized_amount: 0, captured_amount: 0, refunded_amount: 0 });

    const paid = await stripeCart(auto);
    await payIntent(auto.fake, paid.intent_id);
    const done = await auto.t.store.post(`/store/carts/${paid.cart_id}/complete`);
    expect(done.json().order).toMatchObject({ payment_status: "captured" });
    expect(done.json().order.payment_collections[0]).toMatchObject({ captured_amount: paid.total });
    const paymentId = done.json().order.payment_collections[0].payments[0].id;
    const again = await auto.t.admin.post(`/admin/payments/${paymentId}/capture`, {});
    expect(again.statusCode).toBe(400);
    expect(auto.fake.counts(paid.intent_id)).toMatchObject({ authorizations: 1, refunds: 0 });
  });

  it("an order's payment link is charged at once: nothing is owed any more", async () => {
    const { orderId, link, intent, paid } = await payOrderDifference(auto);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().payment_collection).toMatchObject({ id: link, captured_amount: 20 });
    expect(auto.fake.intent(intent).status).toBe("succeeded");
    expect(await orderBooks(auto.t, orderId)).toMatchObject({
      payment_status: "captured",
      paid_total: 6500,
      pending_difference: 0,
    });
    // Paid: the link takes no new session.
    const again = await auto.t.store.post(`/store/payment-collections/${link}/payment-sessions`, {
      provider_id: "pp_stripe_stripe",
    });
    expect(again.statusCode, again.body).toBe(400);
    expect(auto.fake.counts(intent)).toMatchObject({ authorizations: 1, refunds: 0 });
    // `kasse check` clean, the compensated checkout of the test above included: its undone
    // automatic capture is off its collection's amounts with its authorization.
    expect(await paymentViolations(auto.t)).toEqual([]);
  });

  it("a payment link whose saga fails after Stripe took the money refunds it, and the link stays payable", async () => {
    const failing = await payOrderDifference(auto, (authorize) =>
      withFailure(auto.t.database.db, "order_change", "INSERT", "NEW.action = 'payment_authorized'", authorize),
    );
    expect(failing.paid.statusCode).toBe(500);
    expect(auto.fake.counts(failing.intent)).toMatchObject({ refunds: 1 });
    expect(await orderBooks(auto.t, failing.orderId)).toMatchObject({ pending_difference: 2000 });
    const link = (await auto.t.admin.get(`/admin/orders/${failing.orderId}`))
      .json()
      .order.payment_collections.find((c: { id: string }) => c.id === failing.link);
    expect(link).toMatchObject({ status: "not_paid", authorized_amount: 0, captured_amount: 0, refunded_amount: 0 });

    const again = await payLink(auto, failing.link);
    expect(again.paid.statusCode, again.paid.body).toBe(200);
    expect(await orderBooks(auto.t, failing.orderId)).toMatchObject({
      payment_status: "captured",
      pending_difference: 0,
    });
    expect(await paymentViolations(auto.t)).toEqual([]);
  });
});
