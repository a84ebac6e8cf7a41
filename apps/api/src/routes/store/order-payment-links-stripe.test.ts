import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventsOf,
  payOrderDifference,
  startStripeTestApp,
  webhooksSettled,
  webhookTarget,
  type StripeTestApp,
} from "../../testing/stripe";
import { orderBooks, paymentViolations } from "../../testing/books";

// An order's payment link paid with Stripe (the stateful fake): held for the admin's capture by
// default, as checkout's payment is (STRIPE_CAPTURE=automatic: stripe-automatic.test.ts).

let manual: StripeTestApp;
beforeAll(async () => {
  manual = await startStripeTestApp();
});
afterAll(() => manual?.close());

describe("an order's payment link paid with Stripe", () => {
  it("is authorized for the admin's capture (manual capture), which settles the difference", async () => {
    const { orderId, link, intent, paid } = await payOrderDifference(manual);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().payment_collection).toMatchObject({ id: link, status: "authorized", amount: 20 });
    expect(manual.fake.intent(intent).status).toBe("requires_capture");
    // Both collections held, nothing captured yet: the whole 65.00 is still to capture.
    expect(await orderBooks(manual.t, orderId)).toMatchObject({
      payment_status: "authorized",
      pending_difference: 6500,
      collections: [
        [4500, "authorized"],
        [2000, "authorized"],
      ],
    });

    const o = (await manual.t.admin.get(`/admin/orders/${orderId}`)).json().order;
    for (const collection of o.payment_collections as Array<{ payments: Array<{ id: string }> }>) {
      const captured = await manual.t.admin.post(`/admin/payments/${collection.payments[0]!.id}/capture`, {});
      expect(captured.statusCode, captured.body).toBe(200);
    }
    expect(await orderBooks(manual.t, orderId)).toMatchObject({
      payment_status: "captured",
      paid_total: 6500,
      pending_difference: 0,
    });
    expect(manual.fake.counts(intent)).toMatchObject({ authorizations: 1, captures: 1 });

    // A refund made in Stripe's dashboard on the link's payment reaches the order through the webhook.
    await manual.fake.client().refunds.create({ payment_intent: intent, amount: 500 });
    await manual.fake.sendEvents(webhookTarget(manual.t), eventsOf(manual.fake, intent, "charge.refunded"));
    await webhooksSettled(manual.t);
    expect(await orderBooks(manual.t, orderId)).toMatchObject({
      payment_status: "partially_refunded",
      refunded_total: 500,
      pending_difference: 500,
    });
    expect(await paymentViolations(manual.t)).toEqual([]);
  });
});
