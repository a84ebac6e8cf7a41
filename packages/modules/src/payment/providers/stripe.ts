import Stripe from "stripe";
import { KasseError, errors } from "@kasse/core";
import type { AuthorizeOutcome, PaymentProvider, ProviderCall, WebhookOutcome } from "./provider";
import { fromStripeAmount, toStripeAmount } from "./stripe-amounts";

/** The Stripe provider's id: Medusa's, which Medusa's storefront recognises by its `pp_stripe_` prefix. */
const PROVIDER_ID = "pp_stripe_stripe";

/** How Kasse reaches a Stripe account. */
export interface StripeProviderOptions {
  apiKey: string;
  /** The signing secret of the webhook endpoint (`whsec_…`). */
  webhookSecret: string;
  /** `manual` (default): authorized at checkout, captured later from the admin; `automatic`: charged at once. */
  capture?: "manual" | "automatic";
  /** A base URL the SDK is pointed at instead of Stripe's API (a test fake, a Stripe-compatible gateway). */
  apiUrl?: string;
  /** How long one request may take before it is given up (default 20 s). */
  timeoutMs?: number;
  /** How often the SDK tries a request again after a network failure or a 5xx (default 2); always with the same idempotency key. */
  maxNetworkRetries?: number;
}

/** The SDK's client for `options`, on `apiUrl` when given (host, port and protocol: the SDK takes no base URL). */
function stripeClient(options: StripeProviderOptions): Stripe {
  if (!options.apiKey || !options.webhookSecret)
    throw errors.invalidData(`${PROVIDER_ID}: an API key and a webhook signing secret are required`);
  const config: Stripe.StripeConfig = {
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
    appInfo: { name: "Kasse" },
  };
  if (!options.apiUrl) return new Stripe(options.apiKey, config);
  const url = new URL(options.apiUrl);
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.pathname !== "/")
    throw errors.invalidData(`${PROVIDER_ID}: the API URL must be http(s)://host[:port], got ${options.apiUrl}`);
  const protocol = url.protocol === "https:" ? "https" : "http";
  const port = url.port || (protocol === "https" ? "443" : "80");
  return new Stripe(options.apiKey, { ...config, host: url.hostname, port, protocol });
}

/** A failure of a call to Stripe as a Kasse error: whether Stripe is unavailable, and whether retrying can help. */
function failure(error: unknown, what: string): KasseError {
  if (error instanceof KasseError) return error;
  const details = (reason: string, code?: string) => ({ provider: PROVIDER_ID, reason, ...(code ? { code } : {}) });
  if (error instanceof Stripe.errors.StripeConnectionError) {
    const timedOut = /timeout/i.test(error.message);
    return errors.provider(
      `Stripe is unavailable: it ${timedOut ? "did not answer in time" : "could not be reached"} (${what}); retrying may help`,
      { retryable: true, details: details(timedOut ? "timeout" : "unreachable"), cause: error },
    );
  }
  if (error instanceof Stripe.errors.StripeAPIError || error instanceof Stripe.errors.StripeRateLimitError) {
    const limited = error instanceof Stripe.errors.StripeRateLimitError;
    return errors.provider(
      `Stripe is unavailable: it ${limited ? "limits Kasse's requests" : `failed (${error.statusCode ?? "no status"})`} (${what}); retrying may help`,
      { retryable: true, details: details(limited ? "rate_limited" : "server_error"), cause: error },
    );
  }
  if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError)
    return errors.provider(`Stripe refused Kasse's API key (${what}); retrying cannot help`, {
      retryable: false,
      details: details("authentication"),
      cause: error,
    });
  if (error instanceof Stripe.errors.StripeIdempotencyError)
    return errors.conflict(`Stripe refused the ${what}: its idempotency key was used for another request`, {
      details: details("idempotency"),
      cause: error,
    });
  if (error instanceof Stripe.errors.StripeError)
    return errors.invalidData(`Stripe refused the ${what}: ${error.message}`, {
      details: details("refused", error.code),
      cause: error,
    });
  return errors.provider(`Stripe failed (${what}): ${String(error)}`, { details: details("unknown"), cause: error });
}

/** The intent a `payment_intent_unexpected_state` refusal carries: Stripe's answer to an operation its status forbids. */
function refusedIntent(error: unknown): Stripe.PaymentIntent | undefined {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "payment_intent_unexpected_state"
    ? error.payment_intent
    : undefined;
}

/** The PaymentIntent of a session or payment (its data's `id`). */
function intentId(call: ProviderCall): string {
  const id = call.data.id;
  if (typeof id !== "string" || !id.startsWith("pi_"))
    throw errors.invalidData(`${PROVIDER_ID}: the payment's data names no Stripe PaymentIntent`);
  return id;
}

/** What a session keeps of its intent: the id, and the client secret the storefront confirms with. */
const sessionData = (intent: Stripe.PaymentIntent) => ({
  id: intent.id,
  client_secret: intent.client_secret,
  status: intent.status,
});

const ignored = (event: Stripe.Event, reason: string): WebhookOutcome => ({
  action: "ignored",
  event_id: event.id,
  reason,
});

/** A webhook about a Kasse payment (its metadata names the session); amounts in the payment's currency. */
function about(
  event: Stripe.Event,
  action: Exclude<WebhookOutcome["action"], "ignored">,
  object: { metadata: Stripe.Metadata | null; currency: string },
  reference: string,
  stripeAmount: number,
): WebhookOutcome {
  const sessionId = object.metadata?.session_id;
  if (!sessionId) return ignored(event, "not a Kasse payment: no metadata.session_id");
  return {
    action,
    event_id: event.id,
    session_id: sessionId,
    reference,
    amount: fromStripeAmount(stripeAmount, object.currency),
  };
}

/**
 * What a Stripe event means for Kasse. `payment_intent.processing`, `.created` and
 * `.requires_action` change nothing: a payment not yet decided places no order.
 */
function webhookOutcome(event: Stripe.Event): WebhookOutcome {
  switch (event.type) {
    case "payment_intent.amount_capturable_updated": {
      const intent = event.data.object;
      if (intent.amount_capturable === 0) return ignored(event, "nothing is capturable any more");
      return about(event, "authorized", intent, intent.id, intent.amount_capturable);
    }
    case "payment_intent.succeeded":
      return about(event, "captured", event.data.object, event.data.object.id, event.data.object.amount_received);
    case "payment_intent.payment_failed":
      return about(event, "failed", event.data.object, event.data.object.id, event.data.object.amount);
    case "payment_intent.canceled":
      return about(event, "canceled", event.data.object, event.data.object.id, event.data.object.amount);
    case "charge.refunded": {
      const charge = event.data.object;
      // A released hold shows as a refund of an uncaptured charge; a partial capture releases the
      // rest the same way. Only what was refunded of the captured amount is a refund.
      if (!charge.captured) return ignored(event, "an authorization released, not a refund");
      const refunded = charge.amount_refunded - (charge.amount - charge.amount_captured);
      if (refunded <= 0) return ignored(event, "only the uncaptured rest was released");
      const reference = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
      if (!reference) return ignored(event, "a charge without a PaymentIntent");
      return about(event, "refunded", charge, reference, refunded);
    }
    default:
      return ignored(event, `${event.type} changes nothing in Kasse`);
  }
}

/**
 * `pp_stripe_stripe`: payments as Stripe PaymentIntents through the official SDK. Every call
 * that changes something sends the caller's idempotency key as Stripe's `Idempotency-Key` (the
 * SDK would otherwise make one up per call, which does not survive a restart), and every intent
 * is made with its capture method (Stripe's default captures at once) and `metadata.session_id`.
 * Stripe unavailable (unreachable, timing out, failing) is a retryable `provider_error`.
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = stripeClient(options);
  const captureMethod = options.capture ?? "manual";

  /** Runs one call to Stripe, translating its failure. */
  const attempt = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw failure(error, what);
    }
  };
  /** A read: it changes nothing, so it needs no idempotency key. */
  const retrieve = (payment: ProviderCall) =>
    attempt("read of the payment", () => stripe.paymentIntents.retrieve(intentId(payment)));

  return {
    id: PROVIDER_ID,
    // The shopper's browser authorizes (confirming the intent); Kasse's authorize reads it.
    authorizeReads: true,

    async initiate(session) {
      // The caller's `data` is the shopper's: nothing of it reaches Stripe.
      const sessionId = session.sessionId;
      if (!sessionId) throw errors.invalidData(`${PROVIDER_ID}: a session starts with its Kasse session id`);
      const intent = await attempt("new payment", () =>
        stripe.paymentIntents.create(
          {
            amount: toStripeAmount(session.amount, session.currency_code),
            currency: session.currency_code.toLowerCase(),
            capture_method: captureMethod,
            metadata: { session_id: sessionId },
            automatic_payment_methods: { enabled: true },
          },
          { idempotencyKey: session.idempotencyKey },
        ),
      );
      return { data: sessionData(intent) };
    },

    async update(session) {
      const id = intentId(session);
      const amount = toStripeAmount(session.amount, session.currency_code);
      try {
        const intent = await stripe.paymentIntents.update(id, { amount }, { idempotencyKey: session.idempotencyKey });
        return { data: { ...session.data, ...sessionData(intent) } };
      } catch (error) {
        const intent = refusedIntent(error);
        if (intent)
          throw errors.notAllowed(`Payment ${id} is ${intent.status} at Stripe: its amount can no longer change`);
        throw failure(error, "change of the payment's amount");
      }
    },

    async authorize(session): Promise<AuthorizeOutcome> {
      const intent = await retrieve(session);
      const data = { ...session.data, ...sessionData(intent) };
      const expected = toStripeAmount(session.amount, session.currency_code);
      /** An order is never placed for an amount other than the one Stripe holds. */
      const mismatch = (held: number): AuthorizeOutcome => ({
        status: "declined",
        data,
        message: `Stripe holds ${fromStripeAmount(held, intent.currency)} but the payment is for ${session.amount}; start a new payment`,
      });
      switch (intent.status) {
        case "requires_capture":
          return intent.amount_capturable === expected
            ? { status: "authorized", data }
            : mismatch(intent.amount_capturable);
        case "succeeded":
          return intent.amount_received === expected
            ? { status: "authorized", captured: true, data }
            : mismatch(intent.amount_received);
        case "requires_action":
          return { status: "requires_more", data };
        case "processing":
          return { status: "pending", data };
        case "canceled":
          return { status: "declined", data, message: "The payment was canceled at Stripe; start a new payment" };
        default:
          // requires_payment_method or requires_confirmation: declined when an attempt failed,
          // otherwise the shopper has not paid yet.
          return intent.last_payment_error
            ? { status: "declined", data, message: intent.last_payment_error.message ?? "The payment was declined" }
            : { status: "requires_more", data };
      }
    },

    async capture(payment) {
      const id = intentId(payment);
      const amount = toStripeAmount(payment.amount, payment.currency_code);
      try {
        const intent = await stripe.paymentIntents.capture(
          id,
          { amount_to_capture: amount },
          { idempotencyKey: payment.idempotencyKey },
        );
        return { data: { ...payment.data, status: intent.status } };
      } catch (error) {
        const intent = refusedIntent(error);
        // Captured with the authorization (automatic capture): this capture is already done.
        if (intent?.status === "succeeded" && intent.amount_received === amount && intent.amount === amount)
          return { data: { ...payment.data, status: intent.status } };
        if (intent?.status === "succeeded")
          throw errors.notAllowed(
            `Stripe captures a payment once: ${fromStripeAmount(intent.amount_received, intent.currency)} of payment ${id} was captured and the rest released`,
          );
        if (intent) throw errors.notAllowed(`Payment ${id} is ${intent.status} at Stripe: nothing to capture`);
        throw failure(error, "capture");
      }
    },

    async refund(payment) {
      const id = intentId(payment);
      const refund = await attempt("refund", () =>
        stripe.refunds.create(
          { payment_intent: id, amount: toStripeAmount(payment.amount, payment.currency_code) },
          { idempotencyKey: payment.idempotencyKey },
        ),
      );
      return { data: { ...payment.data, refund_id: refund.id } };
    },

    async cancel(payment) {
      // A session whose intent was never made has nothing to cancel at Stripe.
      if (payment.data.id === undefined) return { data: payment.data };
      const id = intentId(payment);
      try {
        const intent = await stripe.paymentIntents.cancel(id, {}, { idempotencyKey: payment.idempotencyKey });
        return { data: { ...payment.data, status: intent.status } };
      } catch (error) {
        const intent = refusedIntent(error);
        if (intent?.status === "canceled") return { data: { ...payment.data, status: intent.status } };
        if (intent?.status === "succeeded")
          throw errors.notAllowed(`Payment ${id} is captured at Stripe; refund it instead`);
        if (intent) throw errors.notAllowed(`Payment ${id} is ${intent.status} at Stripe and cannot be canceled`);
        throw failure(error, "cancel");
      }
    },

    async getStatus(payment) {
      const intent = await retrieve(payment);
      if (intent.status === "requires_capture") return "authorized";
      if (intent.status === "succeeded") return "captured";
      if (intent.status === "canceled") return "canceled";
      if (intent.status === "requires_payment_method" && intent.last_payment_error) return "error";
      return "pending";
    },

    async parseWebhook(rawBody, headers) {
      const header = headers["stripe-signature"];
      const signature = Array.isArray(header) ? header[0] : header;
      if (!signature) throw errors.invalidData("The Stripe-Signature header is missing");
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch {
        throw errors.invalidData("The Stripe webhook signature is not valid");
      }
      return webhookOutcome(event);
    },
  };
}
