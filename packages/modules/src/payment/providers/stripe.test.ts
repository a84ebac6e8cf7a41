import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { isKasseError, type KasseError } from "@kasse/core";
import { startStripeFake, type StripeFake } from "../testing";
import type { PaymentProvider, ProviderCall } from "./provider";
import { createStripeProvider, type StripeProviderOptions } from "./stripe";
import { fromStripeAmount, toStripeAmount } from "./stripe-amounts";

let fake: StripeFake;
let stripe: Stripe;
/** Manual capture, no automatic retries: each fault is seen as it is. */
let manual: PaymentProvider;
let automatic: PaymentProvider;

const providerOn = (options: Partial<StripeProviderOptions> = {}) =>
  createStripeProvider({
    apiKey: fake.apiKey,
    webhookSecret: fake.webhookSecret,
    apiUrl: fake.url,
    maxNetworkRetries: 0,
    ...options,
  });

beforeAll(async () => {
  fake = await startStripeFake();
  stripe = fake.client();
  manual = providerOn();
  automatic = providerOn({ capture: "automatic" });
});
afterAll(() => fake.close());

let seq = 0;
/** A call for a new session of `amount` (its own session id and idempotency key). */
const newCall = (amount = 1000, currency_code = "usd"): ProviderCall => ({
  amount,
  currency_code,
  data: {},
  sessionId: `payses_${++seq}`,
  idempotencyKey: `key_${seq}`,
});

/** Starts a session; answers the call with the session's data, as the next calls get it. */
async function started(provider = manual, amount = 1000, currency = "usd"): Promise<ProviderCall> {
  const call = newCall(amount, currency);
  const { data } = await provider.initiate(call);
  return { ...call, data, idempotencyKey: `${call.idempotencyKey}:next` };
}

/** The shopper confirms the session's intent in the browser (Stripe.js), with a test card. */
const pay = (call: ProviderCall, card = "pm_card_visa") =>
  stripe.paymentIntents.confirm(call.data.id as string, { payment_method: card }).catch(() => undefined);

async function failure(promise: Promise<unknown>): Promise<KasseError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isKasseError(outcome)) throw new Error(`expected a Kasse error, got ${String(outcome)}`);
  return outcome;
}

/** The signed request Stripe sends for the intent's events of `type`. */
const webhooks = (intentId: string, type: string) =>
  fake
    .eventsOf(intentId)
    .filter((e) => e.type === type)
    .map((e) => fake.webhookRequest(e));

describe("starting a session", () => {
  it("creates a PaymentIntent with the amount, capture method, session id and the caller's idempotency key", async () => {
    const call = newCall(2599, "EUR");
    const { data } = await manual.initiate({ ...call, data: { behavior: "shopper data reaches nothing" } });
    expect(data).toEqual({
      id: expect.stringMatching(/^pi_/),
      client_secret: expect.any(String),
      status: "requires_payment_method",
    });
    expect(fake.intent(data.id as string)).toMatchObject({
      amount: 2599,
      currency: "eur",
      capture_method: "manual",
      metadata: { session_id: call.sessionId },
      automatic_payment_methods: { enabled: true },
      client_secret: data.client_secret,
    });
    expect(fake.requests.at(-1)).toMatchObject({
      operation: "payment_intents.create",
      idempotency_key: call.idempotencyKey,
    });
  });

  it("makes one intent however often the same step asks", async () => {
    const before = fake.counts().intents;
    const call = newCall(500);
    const first = await manual.initiate(call);
    const again = await manual.initiate(call);
    expect(again.data.id).toBe(first.data.id);
    expect(fake.counts().intents).toBe(before + 1);
  });

  it("always sends the capture method: automatic when configured so", async () => {
    const call = await started(automatic);
    expect(fake.intent(call.data.id as string).capture_method).toBe("automatic");
  });

  it("needs the Kasse session id, and asks Stripe nothing without it", async () => {
    const before = fake.requests.length;
    const error = await failure(manual.initiate({ ...newCall(), sessionId: undefined }));
    expect(error.type).toBe("invalid_data");
    expect(fake.requests.length).toBe(before);
  });

  it("converts Kasse's minor units to Stripe's where they differ, and refuses what Stripe cannot take exactly", async () => {
    const forint = await started(manual, 1500, "huf");
    expect(fake.intent(forint.data.id as string).amount).toBe(150_000);
    const yen = await started(manual, 1500, "jpy");
    expect(fake.intent(yen.data.id as string).amount).toBe(1500);
    expect(toStripeAmount(1230, "KWD")).toBe(1230);
    expect(() => toStripeAmount(1234, "kwd")).toThrow(/exactly/);
    expect(fromStripeAmount(150_000, "huf")).toBe(1500);
    expect(() => fromStripeAmount(150_050, "huf")).toThrow(/no whole Kasse amount/);
    expect(toStripeAmount(1999, "usd")).toBe(1999);
  });
});

describe("changing the amount", () => {
  it("changes the intent's amount at Stripe before anything authorizes it, and not after", async () => {
    const call = await started(manual, 1000);
    const { data } = await manual.update!({ ...call, amount: 1250, idempotencyKey: `${call.sessionId}:amount:1250` });
    expect(data.id).toBe(call.data.id);
    expect(fake.intent(call.data.id as string).amount).toBe(1250);
    await pay(call);
    const error = await failure(
      manual.update!({ ...call, amount: 1400, idempotencyKey: `${call.sessionId}:amount:1400` }),
    );
    expect(error).toMatchObject({ type: "not_allowed", message: expect.stringContaining("requires_capture") });
    expect(fake.intent(call.data.id as string).amount_capturable).toBe(1250);
  });
});

describe("authorizing reads the intent", () => {
  it("requires_capture: authorized, with nothing captured", async () => {
    const call = await started();
    await pay(call);
    const outcome = await manual.authorize(call);
    expect(outcome).toEqual({ status: "authorized", data: expect.objectContaining({ status: "requires_capture" }) });
    expect(fake.counts(call.data.id as string)).toMatchObject({ authorizations: 1, captures: 0 });
  });

  it("succeeded (automatic capture): authorized and already captured", async () => {
    const call = await started(automatic);
    await pay(call);
    expect(await automatic.authorize(call)).toMatchObject({ status: "authorized", captured: true });
  });

  it("requires_action (3-D Secure): requires more, then authorized once the shopper passes the challenge", async () => {
    const call = await started();
    await pay(call, "pm_card_threeDSecure2Required");
    expect(await manual.authorize(call)).toMatchObject({ status: "requires_more" });
    fake.simulate.threeDSecure(call.data.id as string, "succeed");
    expect(await manual.authorize(call)).toMatchObject({ status: "authorized" });
  });

  it("requires_payment_method after a decline: declined, with Stripe's message", async () => {
    const call = await started();
    await pay(call, "pm_card_chargeDeclined");
    expect(await manual.authorize(call)).toMatchObject({ status: "declined", message: "Your card was declined." });
  });

  it("processing: pending (not authorized, no order yet)", async () => {
    const call = await started();
    fake.simulate.processing(call.data.id as string);
    expect(await manual.authorize(call)).toMatchObject({ status: "pending" });
  });

  it("not paid yet: requires more; canceled: declined", async () => {
    const call = await started();
    expect(await manual.authorize(call)).toMatchObject({ status: "requires_more" });
    await stripe.paymentIntents.cancel(call.data.id as string);
    expect(await manual.authorize(call)).toMatchObject({
      status: "declined",
      message: expect.stringContaining("canceled"),
    });
  });

  it("declines when Stripe holds another amount than the payment's", async () => {
    const call = await started(manual, 1000);
    await pay(call);
    const outcome = await manual.authorize({ ...call, amount: 1200 });
    expect(outcome).toMatchObject({ status: "declined", message: expect.stringContaining("Stripe holds 1000") });
  });
});

describe("capture, refund, cancel", () => {
  it("captures all or part of a hold with the caller's key, once", async () => {
    const call = await started(manual, 1000);
    await pay(call);
    await manual.capture({ ...call, amount: 600, idempotencyKey: "capture:a" });
    expect(fake.intent(call.data.id as string)).toMatchObject({ status: "succeeded", amount_received: 600 });
    expect(fake.requests.at(-1)).toMatchObject({ operation: "payment_intents.capture", idempotency_key: "capture:a" });
    // Stripe captures a payment once: the rest was released.
    const error = await failure(manual.capture({ ...call, amount: 400, idempotencyKey: "capture:b" }));
    expect(error).toMatchObject({ type: "not_allowed", message: expect.stringContaining("captures a payment once") });
    expect(fake.counts(call.data.id as string).captures).toBe(1);
  });

  it("finds a payment captured with its authorization already captured", async () => {
    const call = await started(automatic, 800);
    await pay(call);
    expect((await automatic.capture({ ...call, amount: 800 })).data.status).toBe("succeeded");
    expect(fake.counts(call.data.id as string).captures).toBe(0);
  });

  it("refunds in parts, never more than was captured", async () => {
    const call = await started(automatic, 1000);
    await pay(call);
    const { data } = await automatic.refund({ ...call, amount: 300, idempotencyKey: "refund:1" });
    expect(data.refund_id).toMatch(/^re_/);
    await automatic.refund({ ...call, amount: 700, idempotencyKey: "refund:2" });
    const error = await failure(automatic.refund({ ...call, amount: 1, idempotencyKey: "refund:3" }));
    expect(error.type).toBe("invalid_data");
    expect(fake.counts(call.data.id as string).refunds).toBe(2);
  });

  it("cancels a hold, again without harm, and refuses to cancel what was captured", async () => {
    const call = await started();
    await pay(call);
    expect((await manual.cancel(call)).data.status).toBe("canceled");
    expect((await manual.cancel({ ...call, idempotencyKey: "cancel:again" })).data.status).toBe("canceled");
    expect(fake.counts(call.data.id as string).cancels).toBe(1);
    const captured = await started(automatic);
    await pay(captured);
    expect((await failure(automatic.cancel(captured))).type).toBe("not_allowed");
    // A session that never reached Stripe has nothing to cancel there.
    expect(await manual.cancel({ ...newCall(), data: {} })).toEqual({ data: {} });
  });

  it("tells the intent's status", async () => {
    const call = await started();
    expect(await manual.getStatus(call)).toBe("pending");
    await pay(call, "pm_card_chargeDeclined");
    expect(await manual.getStatus(call)).toBe("error");
    await pay(call);
    expect(await manual.getStatus(call)).toBe("authorized");
    await manual.capture({ ...call, amount: 1000 });
    expect(await manual.getStatus(call)).toBe("captured");
  });
});

describe("Stripe unavailable", () => {
  it("answering 500: a retryable provider_error, nothing made", async () => {
    const before = fake.counts().intents;
    fake.fail("payment_intents.create", { mode: "500" });
    const error = await failure(manual.initiate(newCall()));
    expect(error).toMatchObject({
      type: "provider_error",
      retryable: true,
      details: { provider: "pp_stripe_stripe", reason: "server_error" },
    });
    expect(error.message).toContain("Stripe is unavailable");
    expect(fake.counts().intents).toBe(before);
  });

  it("a passing 500 is absorbed by the SDK's retry with the same idempotency key", async () => {
    const patient = providerOn({ maxNetworkRetries: 2 });
    fake.fail("payment_intents.create", { mode: "500" });
    const call = newCall();
    const { data } = await patient.initiate(call);
    const attempts = fake.requests.filter((r) => r.idempotency_key === call.idempotencyKey);
    expect(attempts.map((r) => r.status)).toEqual([500, 200]);
    expect(fake.intent(data.id as string).metadata.session_id).toBe(call.sessionId);
  });

  it("not answering: a retryable timeout", async () => {
    const impatient = providerOn({ timeoutMs: 200 });
    const call = await started();
    fake.fail("payment_intents.retrieve", { mode: "hang" });
    const error = await failure(impatient.authorize(call));
    expect(error).toMatchObject({ type: "provider_error", retryable: true, details: { reason: "timeout" } });
  });

  it("dropping the connection, or not listening at all: unreachable, retryable", async () => {
    fake.fail("payment_intents.create", { mode: "unreachable", times: 2 });
    const dropped = await failure(manual.initiate(newCall()));
    expect(dropped).toMatchObject({ type: "provider_error", retryable: true, details: { reason: "unreachable" } });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const nowhere = providerOn({ apiUrl: `http://127.0.0.1:${port}` });
    const refused = await failure(nowhere.initiate(newCall()));
    expect(refused).toMatchObject({ type: "provider_error", retryable: true, details: { reason: "unreachable" } });
  });

  it("refusing the API key: a provider_error retrying cannot help", async () => {
    const wrongKey = providerOn({ apiKey: "sk_test_wrong" });
    const error = await failure(wrongKey.initiate(newCall()));
    expect(error).toMatchObject({ type: "provider_error", retryable: false, details: { reason: "authentication" } });
  });

  it("a capture whose answer was lost: the retry with the same key captures once", async () => {
    const impatient = providerOn({ timeoutMs: 200 });
    const call = await started();
    await pay(call);
    fake.fail("payment_intents.capture", { mode: "hang", afterEffect: true });
    const capture = { ...call, amount: 1000, idempotencyKey: "capture:lost" };
    expect((await failure(impatient.capture(capture))).retryable).toBe(true);
    expect((await manual.capture(capture)).data.status).toBe("succeeded");
    expect(fake.counts(call.data.id as string).captures).toBe(1);
  });

  it("refuses a configuration it cannot use", () => {
    expect(() => providerOn({ apiKey: "" })).toThrow(/API key/);
    expect(() => providerOn({ apiUrl: "ftp://127.0.0.1" })).toThrow(/API URL/);
    expect(() => providerOn({ apiUrl: "http://127.0.0.1:1/v2" })).toThrow(/API URL/);
  });
});

describe("webhooks", () => {
  const parse = (request: { payload: string; headers: Record<string, string> }) =>
    manual.parseWebhook!(Buffer.from(request.payload), request.headers);

  it("an authorization names the session, the intent and the amount held", async () => {
    const call = await started(manual, 1500);
    await pay(call);
    const [request] = webhooks(call.data.id as string, "payment_intent.amount_capturable_updated");
    expect(await parse(request!)).toEqual({
      action: "authorized",
      event_id: expect.stringMatching(/^evt_/),
      session_id: call.sessionId,
      reference: call.data.id,
      amount: 1500,
    });
  });

  it("a success is a capture; a failure, a cancel: each named", async () => {
    const charged = await started(automatic, 700, "huf");
    await pay(charged);
    const [succeeded] = webhooks(charged.data.id as string, "payment_intent.succeeded");
    expect(await parse(succeeded!)).toMatchObject({ action: "captured", amount: 700, session_id: charged.sessionId });

    const declined = await started();
    await pay(declined, "pm_card_chargeDeclined");
    const [failed] = webhooks(declined.data.id as string, "payment_intent.payment_failed");
    expect(await parse(failed!)).toMatchObject({ action: "failed", session_id: declined.sessionId });

    const dropped = await started();
    await stripe.paymentIntents.cancel(dropped.data.id as string);
    const [canceled] = webhooks(dropped.data.id as string, "payment_intent.canceled");
    expect(await parse(canceled!)).toMatchObject({ action: "canceled", session_id: dropped.sessionId });
  });

  it("processing, creation and 3-D Secure place nothing", async () => {
    const call = await started();
    await pay(call, "pm_card_threeDSecure2Required");
    fake.simulate.threeDSecure(call.data.id as string, "fail");
    fake.simulate.processing(call.data.id as string);
    for (const type of ["payment_intent.created", "payment_intent.requires_action", "payment_intent.processing"]) {
      const [request] = webhooks(call.data.id as string, type);
      expect(await parse(request!)).toMatchObject({ action: "ignored" });
    }
  });

  it("a refund is the total refunded of what was captured; a released hold or rest is no refund", async () => {
    const call = await started(manual, 1000);
    await pay(call);
    await manual.capture({ ...call, amount: 600, idempotencyKey: "cap:w" });
    await stripe.refunds.create({ payment_intent: call.data.id as string, amount: 100 });
    const [released, refunded] = webhooks(call.data.id as string, "charge.refunded");
    expect(await parse(released!)).toMatchObject({ action: "ignored" });
    expect(await parse(refunded!)).toMatchObject({ action: "refunded", amount: 100, session_id: call.sessionId });

    const voided = await started();
    await pay(voided);
    await manual.cancel(voided);
    const [hold] = webhooks(voided.data.id as string, "charge.refunded");
    expect(await parse(hold!)).toMatchObject({ action: "ignored", reason: expect.stringContaining("authorization") });
  });

  it("ignores a payment Kasse did not make (no session id in its metadata)", async () => {
    const foreign = await stripe.paymentIntents.create({
      amount: 100,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
    });
    const [request] = webhooks(foreign.id, "payment_intent.succeeded");
    expect(await parse(request!)).toMatchObject({ action: "ignored", reason: expect.stringContaining("session_id") });
  });

  it("refuses a missing, wrong, stale or tampered signature", async () => {
    const call = await started();
    const [event] = fake.eventsOf(call.data.id as string);
    const good = fake.webhookRequest(event!);
    const cases = [
      { payload: good.payload, headers: {} },
      { payload: good.payload.replace(String(call.sessionId), "payses_other"), headers: good.headers },
      fake.webhookRequest(event!, Math.floor(Date.now() / 1000) - 3600),
    ];
    for (const request of cases) expect((await failure(parse(request))).type).toBe("invalid_data");
    const otherSecret = createStripeProvider({ apiKey: fake.apiKey, webhookSecret: "whsec_other", apiUrl: fake.url });
    expect((await failure(otherSecret.parseWebhook!(good.payload, good.headers))).type).toBe("invalid_data");
    expect(await parse(good)).toMatchObject({ action: "ignored" });
  });
});
