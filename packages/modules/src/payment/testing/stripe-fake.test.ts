import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Stripe from "stripe";
import { startStripeFake, type StripeFake } from "./index";

let fake: StripeFake;
let stripe: Stripe;

beforeAll(async () => {
  fake = await startStripeFake();
  stripe = fake.client();
});
afterAll(() => fake.close());

/** The error a call fails with (it must fail). */
async function failure(call: Promise<unknown>): Promise<InstanceType<typeof Stripe.errors.StripeError>> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof Stripe.errors.StripeError))
    throw new Error(`expected a Stripe error, got ${String(outcome)}`);
  return outcome;
}

const manual = (amount = 2000, extra: Partial<Stripe.PaymentIntentCreateParams> = {}) =>
  stripe.paymentIntents.create({ amount, currency: "usd", capture_method: "manual", ...extra });
/** An intent confirmed at once with the test card (`capture_method` as given, Stripe's default when not). */
const paidByCard = (amount: number, capture_method?: Stripe.PaymentIntentCreateParams.CaptureMethod) =>
  stripe.paymentIntents.create({
    amount,
    currency: "usd",
    capture_method,
    payment_method: "pm_card_visa",
    confirm: true,
  });

const typesOf = (intentId: string) => fake.eventsOf(intentId).map((e) => e.type);

describe("PaymentIntents", () => {
  it("creates one as Stripe does: its amount, currency, capture method, metadata and a client secret", async () => {
    const intent = await manual(1999, {
      currency: "EUR",
      metadata: { session_id: "payses_1" },
      automatic_payment_methods: { enabled: true },
    });
    expect(intent).toMatchObject({
      object: "payment_intent",
      amount: 1999,
      currency: "eur",
      capture_method: "manual",
      status: "requires_payment_method",
      metadata: { session_id: "payses_1" },
      automatic_payment_methods: { enabled: true },
      amount_capturable: 0,
      amount_received: 0,
      livemode: false,
    });
    expect(intent.id).toMatch(/^pi_/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
    expect(await stripe.paymentIntents.retrieve(intent.id)).toEqual(intent);
    expect(typesOf(intent.id)).toEqual(["payment_intent.created"]);
  });

  it("captures at once when no capture method is sent (Stripe's default)", async () => {
    const intent = await paidByCard(500);
    expect(intent).toMatchObject({ capture_method: "automatic_async", status: "succeeded", amount_received: 500 });
    expect(typesOf(intent.id)).toEqual(["payment_intent.created", "charge.succeeded", "payment_intent.succeeded"]);
  });

  it("holds a visa card for a manual capture, then captures part of it and releases the rest", async () => {
    const intent = await manual(2000);
    const held = await stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" });
    expect(held).toMatchObject({ status: "requires_capture", amount_capturable: 2000, amount_received: 0 });
    const captured = await stripe.paymentIntents.capture(intent.id, { amount_to_capture: 1500 });
    expect(captured).toMatchObject({ status: "succeeded", amount_received: 1500, amount_capturable: 0 });
    expect(typesOf(intent.id)).toEqual([
      "payment_intent.created",
      "charge.succeeded",
      "payment_intent.amount_capturable_updated",
      "charge.captured",
      "charge.refunded",
      "payment_intent.succeeded",
    ]);
    const released = fake.eventsOf(intent.id).find((e) => e.type === "charge.refunded")!.data.object as Stripe.Charge;
    expect(released).toMatchObject({ amount: 2000, amount_captured: 1500, amount_refunded: 500, refunded: false });
    const again = await failure(stripe.paymentIntents.capture(intent.id));
    expect(again).toMatchObject({ statusCode: 400, code: "payment_intent_unexpected_state" });
    expect(again.payment_intent?.status).toBe("succeeded");
    expect(fake.counts(intent.id)).toMatchObject({ confirmations: 1, authorizations: 1, captures: 1 });
  });

  it("never captures more than it holds", async () => {
    const intent = await manual(1000, { payment_method: "pm_card_visa", confirm: true });
    const error = await failure(stripe.paymentIntents.capture(intent.id, { amount_to_capture: 1001 }));
    expect(error).toMatchObject({
      type: "StripeInvalidRequestError",
      code: "amount_too_large",
      param: "amount_to_capture",
    });
    expect(fake.intent(intent.id).status).toBe("requires_capture");
  });

  it("declines pm_card_chargeDeclined with a 402 card_error, leaving the intent awaiting a new payment method", async () => {
    const intent = await manual();
    const error = await failure(stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_chargeDeclined" }));
    expect(error).toMatchObject({
      type: "StripeCardError",
      statusCode: 402,
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
    });
    expect(error.payment_intent?.status).toBe("requires_payment_method");
    const after = await stripe.paymentIntents.retrieve(intent.id);
    expect(after).toMatchObject({
      status: "requires_payment_method",
      payment_method: null,
      last_payment_error: { type: "card_error", code: "card_declined" },
    });
    expect(typesOf(intent.id)).toEqual(["payment_intent.created", "charge.failed", "payment_intent.payment_failed"]);
    // The shopper tries another card.
    const retried = await stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" });
    expect(retried).toMatchObject({ status: "requires_capture", last_payment_error: null });
    expect(fake.counts(intent.id)).toMatchObject({ confirmations: 2, authorizations: 1 });
  });

  it("asks for 3-D Secure with pm_card_threeDSecure2Required; the challenge passed authorizes, failed declines", async () => {
    const passes = await manual(1200, { payment_method: "pm_card_threeDSecure2Required", confirm: true });
    expect(passes).toMatchObject({ status: "requires_action", next_action: { type: "use_stripe_sdk" } });
    fake.simulate.threeDSecure(passes.id, "succeed");
    expect(await stripe.paymentIntents.retrieve(passes.id)).toMatchObject({
      status: "requires_capture",
      amount_capturable: 1200,
      next_action: null,
    });

    const fails = await manual(1200, { payment_method: "pm_card_threeDSecure2Required", confirm: true });
    fake.simulate.threeDSecure(fails.id, "fail");
    expect(await stripe.paymentIntents.retrieve(fails.id)).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { code: "payment_intent_authentication_failure" },
    });
    expect(typesOf(fails.id)).toEqual([
      "payment_intent.created",
      "payment_intent.requires_action",
      "payment_intent.payment_failed",
    ]);
  });

  it("is processing while a delayed payment settles, then succeeds or fails", async () => {
    const intent = await manual(800);
    fake.simulate.processing(intent.id);
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe("processing");
    const refused = await failure(stripe.paymentIntents.capture(intent.id));
    expect(refused.code).toBe("payment_intent_unexpected_state");
    fake.simulate.settle(intent.id, "succeeded");
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe("requires_capture");

    const failing = await manual(800);
    fake.simulate.processing(failing.id);
    fake.simulate.settle(failing.id, "failed");
    expect(typesOf(failing.id)).toEqual([
      "payment_intent.created",
      "payment_intent.processing",
      "charge.failed",
      "payment_intent.payment_failed",
    ]);
  });

  it("changes the amount only before the card is authorized", async () => {
    const intent = await manual(1000);
    expect((await stripe.paymentIntents.update(intent.id, { amount: 1500 })).amount).toBe(1500);
    await stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" });
    const error = await failure(stripe.paymentIntents.update(intent.id, { amount: 2000 }));
    expect(error).toMatchObject({ code: "payment_intent_unexpected_state" });
    expect(error.message).toContain("status of requires_capture");
    // Metadata may still change.
    const tagged = await stripe.paymentIntents.update(intent.id, { metadata: { order_id: "order_1" } });
    expect(tagged).toMatchObject({ amount: 1500, amount_capturable: 1500, metadata: { order_id: "order_1" } });
  });

  it("cancels a hold, releasing it, and refuses to cancel twice or to cancel a captured payment", async () => {
    const intent = await manual(700, { payment_method: "pm_card_visa", confirm: true });
    const canceled = await stripe.paymentIntents.cancel(intent.id, { cancellation_reason: "abandoned" });
    expect(canceled).toMatchObject({ status: "canceled", cancellation_reason: "abandoned", amount_capturable: 0 });
    const released = fake.eventsOf(intent.id).find((e) => e.type === "charge.refunded")!.data.object as Stripe.Charge;
    expect(released).toMatchObject({ captured: false, refunded: true, amount_refunded: 700 });
    const twice = await failure(stripe.paymentIntents.cancel(intent.id));
    expect(twice).toMatchObject({ code: "payment_intent_unexpected_state" });
    expect(twice.payment_intent?.status).toBe("canceled");

    const charged = await paidByCard(300, "automatic");
    expect((await failure(stripe.paymentIntents.cancel(charged.id))).code).toBe("payment_intent_unexpected_state");
  });

  it("answers Stripe's errors for unknown objects and bad parameters", async () => {
    expect(await failure(stripe.paymentIntents.retrieve("pi_missing"))).toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 404,
      code: "resource_missing",
      param: "intent",
    });
    const missing = await failure(
      stripe.paymentIntents.create({ currency: "usd" } as unknown as Stripe.PaymentIntentCreateParams),
    );
    expect(missing).toMatchObject({ statusCode: 400, code: "parameter_missing", param: "amount" });
    const unknown = await failure(
      stripe.paymentIntents.create({ amount: 1, currency: "usd", colour: "red" } as Stripe.PaymentIntentCreateParams),
    );
    expect(unknown).toMatchObject({ code: "parameter_unknown", param: "colour" });
    const notInteger = await failure(
      stripe.paymentIntents.create({ amount: 1.5, currency: "usd" } as Stripe.PaymentIntentCreateParams),
    );
    expect(notInteger).toMatchObject({ code: "parameter_invalid_integer", param: "amount" });
    expect(await failure(stripe.paymentIntents.create({ amount: 100, currency: "xyz" }))).toMatchObject({
      param: "currency",
    });
    const noCard = await failure(manual(100, { payment_method: "pm_card_unknown" }));
    expect(noCard).toMatchObject({ code: "resource_missing", param: "payment_method" });
    const bare = await manual(100);
    expect(await failure(stripe.paymentIntents.confirm(bare.id))).toMatchObject({
      code: "payment_intent_unexpected_state",
    });
  });

  it("refuses a wrong API key", async () => {
    const { hostname, port } = new URL(fake.url);
    const stranger = new Stripe("sk_test_wrong", { host: hostname, port, protocol: "http", maxNetworkRetries: 0 });
    const error = await failure(stranger.paymentIntents.create({ amount: 100, currency: "usd" }));
    expect(error).toMatchObject({ type: "StripeAuthenticationError", statusCode: 401 });
  });
});

describe("refunds", () => {
  it("refunds a captured payment in parts, never above what was captured", async () => {
    const intent = await paidByCard(1000, "manual");
    await stripe.paymentIntents.capture(intent.id, { amount_to_capture: 900 });
    const first = await stripe.refunds.create({
      payment_intent: intent.id,
      amount: 400,
      reason: "requested_by_customer",
    });
    expect(first).toMatchObject({ object: "refund", amount: 400, status: "succeeded", payment_intent: intent.id });
    expect(await stripe.refunds.retrieve(first.id)).toEqual(first);
    const tooMuch = await failure(stripe.refunds.create({ payment_intent: intent.id, amount: 501 }));
    expect(tooMuch).toMatchObject({ code: "amount_too_large", param: "amount" });
    const rest = await stripe.refunds.create({ payment_intent: intent.id });
    expect(rest.amount).toBe(500);
    expect((await failure(stripe.refunds.create({ payment_intent: intent.id }))).code).toBe("charge_already_refunded");
    const charges = fake
      .eventsOf(intent.id)
      .filter((e) => e.type === "charge.refunded")
      .map((e) => e.data.object as Stripe.Charge);
    // The uncaptured 100 shows as refunded from the capture on: 100, then 500, then 1000.
    expect(charges.map((c) => [c.amount_refunded, c.refunded])).toEqual([
      [100, false],
      [500, false],
      [1000, true],
    ]);
    expect(fake.counts(intent.id).refunds).toBe(2);
  });

  it("refuses to refund a payment that is only held", async () => {
    const intent = await manual(1000, { payment_method: "pm_card_visa", confirm: true });
    const error = await failure(stripe.refunds.create({ payment_intent: intent.id }));
    expect(error).toMatchObject({ statusCode: 400, param: "payment_intent" });
    expect(await failure(stripe.refunds.retrieve("re_missing"))).toMatchObject({ code: "resource_missing" });
  });
});

describe("idempotency keys", () => {
  it("replays the first answer for the same key and parameters, and runs nothing again", async () => {
    const before = fake.counts().intents;
    const params = { amount: 4200, currency: "usd", capture_method: "manual" as const, metadata: { session_id: "s" } };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: "key-create-1" });
    const second = await stripe.paymentIntents.create(params, { idempotencyKey: "key-create-1" });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(fake.counts().intents).toBe(before + 1);
    expect(fake.requests.filter((r) => r.idempotency_key === "key-create-1").map((r) => r.replayed)).toEqual([
      false,
      true,
    ]);
  });

  it("replays an error answer too, and refuses the key with other parameters or another endpoint", async () => {
    const intent = await manual(1000);
    const declined = await failure(
      stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_chargeDeclined" }, { idempotencyKey: "k-d" }),
    );
    const replayed = await failure(
      stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_chargeDeclined" }, { idempotencyKey: "k-d" }),
    );
    expect(replayed).toMatchObject({ code: declined.code, statusCode: 402 });
    expect(fake.counts(intent.id).confirmations).toBe(1);
    const other = await failure(
      stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" }, { idempotencyKey: "k-d" }),
    );
    expect(other).toMatchObject({ type: "StripeIdempotencyError", statusCode: 400 });
    const elsewhere = await failure(stripe.paymentIntents.cancel(intent.id, {}, { idempotencyKey: "k-d" }));
    expect(elsewhere.type).toBe("StripeIdempotencyError");
  });

  it("keeps no answer for a request refused by parameter validation", async () => {
    await failure(stripe.paymentIntents.create({ amount: 0, currency: "usd" }, { idempotencyKey: "k-v" }));
    const created = await stripe.paymentIntents.create({ amount: 10, currency: "usd" }, { idempotencyKey: "k-v" });
    expect(created.amount).toBe(10);
  });
});

describe("faults", () => {
  it("answers 500 for the next calls of an operation, then works", async () => {
    fake.fail("payment_intents.create", { mode: "500", times: 2 });
    for (let i = 0; i < 2; i++)
      expect(await failure(manual())).toMatchObject({ type: "StripeAPIError", statusCode: 500 });
    expect((await manual()).status).toBe("requires_payment_method");
  });

  it("hangs until the client gives up", async () => {
    const intent = await manual();
    fake.fail("payment_intents.retrieve", { mode: "hang" });
    const impatient = fake.client({ timeout: 150 });
    const error = await failure(impatient.paymentIntents.retrieve(intent.id));
    expect(error.type).toBe("StripeConnectionError");
    expect(error.message).toContain("timeout");
    expect((await stripe.paymentIntents.retrieve(intent.id)).id).toBe(intent.id);
  });

  it("drops the connection: the client sees a network error (the SDK tries a dropped connection twice)", async () => {
    const intent = await manual();
    fake.fail("payment_intents.cancel", { mode: "unreachable", times: 2 });
    expect((await failure(stripe.paymentIntents.cancel(intent.id))).type).toBe("StripeConnectionError");
    expect(fake.requests.slice(-2).map((r) => r.status)).toEqual(["unreachable", "unreachable"]);
    expect(fake.intent(intent.id).status).toBe("requires_payment_method");
  });

  it("loses the answer of a call that took effect; retrying with its key gets the kept answer", async () => {
    const intent = await manual(1000, { payment_method: "pm_card_visa", confirm: true });
    fake.fail("payment_intents.capture", { mode: "500", afterEffect: true });
    await failure(stripe.paymentIntents.capture(intent.id, {}, { idempotencyKey: "cap-1" }));
    expect(fake.intent(intent.id).status).toBe("succeeded");
    const retried = await stripe.paymentIntents.capture(intent.id, {}, { idempotencyKey: "cap-1" });
    expect(retried).toMatchObject({ status: "succeeded", amount_received: 1000 });
    expect(fake.counts(intent.id).captures).toBe(1);
  });
});

describe("webhooks", () => {
  /** A real endpoint that verifies each delivery with the SDK, answering 400 for a bad signature. */
  async function endpoint(secret = fake.webhookSecret) {
    const received: Stripe.Event[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        try {
          received.push(
            stripe.webhooks.constructEvent(Buffer.concat(chunks), req.headers["stripe-signature"]!, secret),
          );
          res.writeHead(200).end();
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  it("makes events in Stripe's shape, signed so that the SDK's constructEvent accepts them", async () => {
    const hook = await endpoint();
    const intent = await manual(2500, { metadata: { session_id: "payses_w" } });
    await stripe.paymentIntents.confirm(intent.id, { payment_method: "pm_card_visa" }, { idempotencyKey: "conf-w" });
    const events = fake.eventsOf(intent.id);
    const deliveries = await fake.sendEvents(hook.url, events);
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
    const capturable = hook.received.find((e) => e.type === "payment_intent.amount_capturable_updated")!;
    expect(capturable).toMatchObject({
      object: "event",
      livemode: false,
      api_version: Stripe.API_VERSION,
      request: { idempotency_key: "conf-w" },
      data: { object: { id: intent.id, amount_capturable: 2500, metadata: { session_id: "payses_w" } } },
    });
    expect(capturable.id).toMatch(/^evt_/);
    expect(typeof capturable.created).toBe("number");
    // The event keeps the intent as it was then, not as it is now.
    await stripe.paymentIntents.cancel(intent.id);
    expect((hook.received[0]!.data.object as Stripe.PaymentIntent).status).toBe("requires_payment_method");
    await hook.close();
  });

  it("is refused by an endpoint with another secret, and by one checking a changed body", async () => {
    const hook = await endpoint("whsec_other");
    const [event] = fake.events;
    expect((await fake.sendEvents(hook.url, [event!]))[0]!.status).toBe(400);
    const request = fake.webhookRequest(event!);
    expect(() =>
      stripe.webhooks.constructEvent(
        request.payload.replace("event", "evenT"),
        request.headers["stripe-signature"]!,
        fake.webhookSecret,
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    await hook.close();
  });

  it("delays, repeats and reorders deliveries, to a URL or to a function", async () => {
    const intent = await manual(900, { payment_method: "pm_card_visa", confirm: true });
    const events = fake.eventsOf(intent.id);
    const seen: string[] = [];
    const target = async ({ headers, payload }: { headers: Record<string, string>; payload: string }) => {
      seen.push(stripe.webhooks.constructEvent(payload, headers["stripe-signature"]!, fake.webhookSecret).id);
      return 204;
    };
    const started = Date.now();
    await fake.sendEvents(target, events, { delayMs: 100, times: 2, order: "reversed" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    const ids = events.map((e) => e.id);
    expect(seen).toEqual([...ids, ...ids].reverse());

    seen.length = 0;
    await fake.sendEvents(target, events, { order: { seed: 7 }, concurrent: true });
    const firstShuffle = [...seen];
    seen.length = 0;
    await fake.sendEvents(target, events, { order: { seed: 7 } });
    expect(seen).toEqual(firstShuffle);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it("forwards every new event as Stripe does, trying again while the endpoint fails", async () => {
    let failuresLeft = 1;
    const got: string[] = [];
    fake.forwardEvents(
      async ({ payload }) => {
        if (failuresLeft-- > 0) return 503;
        got.push((JSON.parse(payload) as Stripe.Event).type);
        return 200;
      },
      { delayMs: 10, retries: 2 },
    );
    const intent = await manual(100);
    const deliveries = await fake.forwarded();
    fake.forwardEvents(null);
    expect(got).toEqual(["payment_intent.created"]);
    expect(deliveries.filter((d) => d.event_id === fake.eventsOf(intent.id)[0]!.id).map((d) => d.status)).toEqual([
      503, 200,
    ]);
  });
});
