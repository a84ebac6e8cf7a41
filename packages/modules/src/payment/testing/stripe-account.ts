import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import {
  StripeFailure,
  flag,
  integer,
  invalidParam,
  metadata,
  object,
  oneOf,
  onlyParams,
  requiredText,
  text,
  type Params,
} from "./stripe-form";

/** The Stripe API operations the fake answers. */
export type Operation =
  | "payment_intents.create"
  | "payment_intents.retrieve"
  | "payment_intents.update"
  | "payment_intents.confirm"
  | "payment_intents.capture"
  | "payment_intents.cancel"
  | "refunds.create"
  | "refunds.retrieve";

/** What was done to PaymentIntents (one, or all of the account's), as a test counts it. */
export interface Counts {
  intents: number;
  /** Confirmation attempts that ran (declined and 3-D Secure ones included). */
  confirmations: number;
  /** Confirmations that put a hold on the card or charged it. */
  authorizations: number;
  captures: number;
  refunds: number;
  cancels: number;
  updates: number;
}

/** The request an event came from (`{ id: null, … }` for what a test or the shopper's bank did). */
type EventRequest = Stripe.Event.Request;

type EventOf<T extends Stripe.Event.Type> = Extract<Stripe.Event, { type: T }>;

/**
 * Stripe's test payment methods: what confirming a PaymentIntent with each does
 * (https://docs.stripe.com/testing#cards).
 */
const TEST_PAYMENT_METHODS = {
  pm_card_visa: "succeeds",
  pm_card_chargeDeclined: "declined",
  pm_card_threeDSecure2Required: "challenge",
} as const;
type TestPaymentMethod = keyof typeof TEST_PAYMENT_METHODS;

const CAPTURE_METHODS = ["automatic", "automatic_async", "manual"] as const;
const CANCELLATION_REASONS = ["duplicate", "fraudulent", "requested_by_customer", "abandoned"] as const;
const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const;
const CONFIRMABLE: Stripe.PaymentIntent.Status[] = [
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
];
const CANCELABLE: Stripe.PaymentIntent.Status[] = [...CONFIRMABLE, "requires_capture"];
/** The statuses in which the amount or the payment method may still change. */
const UPDATABLE = CONFIRMABLE;

const DECLINED = "Your card was declined.";
const AUTHENTICATION_FAILED =
  "The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.";

/** A Stripe-style id: the prefix and 24 random characters. */
export const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
const now = () => Math.floor(Date.now() / 1000);
const zero = (): Omit<Counts, "intents"> => ({
  confirmations: 0,
  authorizations: 0,
  captures: 0,
  refunds: 0,
  cancels: 0,
  updates: 0,
});

const notFound = (kind: string, id: string, param: string) =>
  new StripeFailure(
    404,
    { type: "invalid_request_error", code: "resource_missing", message: `No such ${kind}: '${id}'`, param },
    false,
  );

/** `payment_intent_unexpected_state`, carrying the intent as Stripe's error does. */
const unexpectedState = (intent: Stripe.PaymentIntent, message: string) =>
  new StripeFailure(400, {
    type: "invalid_request_error",
    code: "payment_intent_unexpected_state",
    message,
    payment_intent: structuredClone(intent),
  });

const statusList = (statuses: readonly string[]) => statuses.join(", ");

/**
 * The objects of one fake Stripe account (PaymentIntents, their charges, refunds) and how they
 * change, as Stripe's API changes them; every change records the Stripe Event it makes. Answers
 * are the SDK's own types, so a shape the SDK no longer has fails the typecheck.
 */
export function createStripeAccount(onEvent: (event: Stripe.Event) => void) {
  const intents = new Map<string, Stripe.PaymentIntent>();
  const charges = new Map<string, Stripe.Charge>();
  const refunds = new Map<string, Stripe.Refund>();
  const counts = new Map<string, Omit<Counts, "intents">>();
  const events: Stripe.Event[] = [];

  function emit<T extends Stripe.Event.Type>(
    type: T,
    object: EventOf<T>["data"]["object"],
    request: EventRequest,
    previous?: Partial<EventOf<T>["data"]["object"]>,
  ): void {
    const envelope: Stripe.EventBase = {
      id: newId("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: now(),
      data: {
        object: structuredClone(object),
        ...(previous ? { previous_attributes: structuredClone(previous) } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request,
      type,
    };
    const event = envelope as Stripe.Event;
    events.push(event);
    onEvent(event);
  }

  const count = (intentId: string, what: keyof Omit<Counts, "intents">) => counts.get(intentId)![what]++;

  function intentOf(id: string, param = "intent"): Stripe.PaymentIntent {
    const intent = intents.get(id);
    if (!intent) throw notFound("payment_intent", id, param);
    return intent;
  }

  function paymentMethod(params: Params, intent: Stripe.PaymentIntent): TestPaymentMethod | undefined {
    const id = text(params, "payment_method") ?? (intent.payment_method as string | null) ?? undefined;
    if (id === undefined) return undefined;
    if (!(id in TEST_PAYMENT_METHODS)) throw notFound("PaymentMethod", id, "payment_method");
    return id as TestPaymentMethod;
  }

  function newCharge(intent: Stripe.PaymentIntent, outcome: "authorized" | "failed"): Stripe.Charge {
    const failed = outcome === "failed";
    const charge: Stripe.Charge = {
      id: newId("ch"),
      object: "charge",
      amount: intent.amount,
      amount_captured: 0,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: null,
      billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
      calculated_statement_descriptor: "KASSE",
      captured: false,
      created: now(),
      currency: intent.currency,
      customer: null,
      description: intent.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: failed ? "card_declined" : null,
      failure_message: failed ? DECLINED : null,
      fraud_details: {},
      livemode: false,
      // Stripe copies the PaymentIntent's metadata onto the charge it makes.
      metadata: { ...intent.metadata },
      on_behalf_of: null,
      outcome: {
        advice_code: null,
        network_advice_code: null,
        network_decline_code: null,
        network_status: failed ? "declined_by_network" : "approved_by_network",
        reason: failed ? "generic_decline" : null,
        risk_level: "normal",
        seller_message: failed ? "The bank did not return any further details with this decline." : "Payment complete.",
        type: failed ? "issuer_declined" : "authorized",
      },
      paid: !failed,
      payment_intent: intent.id,
      payment_method: typeof intent.payment_method === "string" ? intent.payment_method : null,
      payment_method_details: null,
      receipt_email: intent.receipt_email,
      receipt_number: null,
      receipt_url: null,
      refunded: false,
      review: null,
      shipping: null,
      source: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: failed ? "failed" : "succeeded",
      transfer_data: null,
      transfer_group: null,
    };
    charges.set(charge.id, charge);
    intent.latest_charge = charge.id;
    return charge;
  }

  /** The card is authorized: a hold (manual capture) or a charge (automatic). */
  function authorize(intent: Stripe.PaymentIntent, request: EventRequest): void {
    const before = intent.status;
    const charge = newCharge(intent, "authorized");
    intent.next_action = null;
    intent.last_payment_error = null;
    count(intent.id, "authorizations");
    if (intent.capture_method === "manual") {
      intent.status = "requires_capture";
      intent.amount_capturable = intent.amount;
      emit("charge.succeeded", charge, request);
      emit("payment_intent.amount_capturable_updated", intent, request, { amount_capturable: 0 });
      return;
    }
    Object.assign(charge, { captured: true, amount_captured: charge.amount, balance_transaction: newId("txn") });
    intent.status = "succeeded";
    intent.amount_received = intent.amount;
    emit("charge.succeeded", charge, request);
    emit("payment_intent.succeeded", intent, request, { status: before });
  }

  /** The attempt failed: the intent wants another payment method, with the reason. */
  function fail(
    intent: Stripe.PaymentIntent,
    error: Stripe.PaymentIntent.LastPaymentError,
    request: EventRequest,
    charge?: Stripe.Charge,
  ): void {
    intent.status = "requires_payment_method";
    intent.next_action = null;
    intent.payment_method = null;
    intent.last_payment_error = { ...error, ...(charge ? { charge: charge.id } : {}) };
    if (charge) emit("charge.failed", charge, request);
    emit("payment_intent.payment_failed", intent, request);
  }

  /** Confirms with a test payment method; a decline answers 402 `card_error`, as Stripe does. */
  function confirm(intent: Stripe.PaymentIntent, method: TestPaymentMethod | undefined, request: EventRequest) {
    if (!CONFIRMABLE.includes(intent.status))
      throw unexpectedState(
        intent,
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: ${statusList(CONFIRMABLE)}.`,
      );
    if (method === undefined)
      throw unexpectedState(
        intent,
        "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
      );
    intent.payment_method = method;
    count(intent.id, "confirmations");
    const behavior = TEST_PAYMENT_METHODS[method];
    if (behavior === "succeeds") return authorize(intent, request);
    if (behavior === "challenge") {
      intent.status = "requires_action";
      intent.next_action = { type: "use_stripe_sdk", use_stripe_sdk: {} };
      emit("payment_intent.requires_action", intent, request);
      return;
    }
    const charge = newCharge(intent, "failed");
    const error = {
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      message: DECLINED,
    } as const;
    fail(intent, error, request, charge);
    throw new StripeFailure(402, { ...error, charge: charge.id, payment_intent: structuredClone(intent) });
  }

  const create = (params: Params, request: EventRequest): Stripe.PaymentIntent => {
    onlyParams(params, [
      "amount",
      "currency",
      "capture_method",
      "metadata",
      "automatic_payment_methods",
      "payment_method",
      "payment_method_types",
      "confirm",
      "return_url",
      "description",
      "receipt_email",
      "expand",
    ]);
    const amount = integer(params, "amount");
    if (amount === undefined) throw invalidParam("amount", "Missing required param: amount.", "parameter_missing");
    if (amount < 1) throw invalidParam("amount", "Amount must be at least 1.", "amount_too_small");
    const currency = requiredText(params, "currency").toLowerCase();
    if (!Intl.supportedValuesOf("currency").includes(currency.toUpperCase()))
      throw invalidParam("currency", `Invalid currency: ${currency}.`);
    const automatic = object(params, "automatic_payment_methods", ["enabled", "allow_redirects"]);
    const enabled = automatic && flag(automatic, "enabled");
    if (automatic && enabled === undefined)
      throw invalidParam(
        "automatic_payment_methods[enabled]",
        "Missing required param: automatic_payment_methods[enabled].",
        "parameter_missing",
      );
    const allowRedirects = automatic && oneOf(automatic, "allow_redirects", ["always", "never"] as const);
    const types = params.payment_method_types;
    const id = newId("pi");
    const intent: Stripe.PaymentIntent = {
      id,
      object: "payment_intent",
      allowed_payment_method_types: null,
      amount,
      amount_capturable: 0,
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods:
        enabled !== undefined ? { enabled, ...(allowRedirects ? { allow_redirects: allowRedirects } : {}) } : null,
      canceled_at: null,
      cancellation_reason: null,
      // Stripe's default when none is sent: the card is charged at once.
      capture_method: oneOf(params, "capture_method", CAPTURE_METHODS) ?? "automatic_async",
      client_secret: `${id}_secret_${randomUUID().replace(/-/g, "")}`,
      confirmation_method: "automatic",
      created: now(),
      currency,
      customer: null,
      customer_account: null,
      description: text(params, "description") ?? null,
      excluded_payment_method_types: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      managed_payments: null,
      metadata: metadata(params),
      next_action: null,
      on_behalf_of: null,
      payment_method: null,
      payment_method_configuration_details: null,
      payment_method_options: null,
      payment_method_types: Array.isArray(types) ? types.filter((t) => typeof t === "string") : ["card"],
      payment_record: null,
      processing: null,
      receipt_email: text(params, "receipt_email") ?? null,
      review: null,
      setup_future_usage: null,
      shipping: null,
      source: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: "requires_payment_method",
      transfer_group: null,
    };
    const method = paymentMethod(params, intent);
    if (method) Object.assign(intent, { payment_method: method, status: "requires_confirmation" });
    intents.set(id, intent);
    counts.set(id, zero());
    emit("payment_intent.created", intent, request);
    if (flag(params, "confirm")) confirm(intent, method, request);
    return intent;
  };

  const update = (intent: Stripe.PaymentIntent, params: Params): Stripe.PaymentIntent => {
    onlyParams(params, ["amount", "metadata", "description", "payment_method", "receipt_email", "expand"]);
    const amount = integer(params, "amount");
    const method = text(params, "payment_method") === undefined ? undefined : paymentMethod(params, intent);
    if ((amount !== undefined || method !== undefined) && !UPDATABLE.includes(intent.status))
      throw unexpectedState(
        intent,
        `You cannot update this PaymentIntent because it has a status of ${intent.status}. You may only update a PaymentIntent with one of the following statuses: ${statusList(UPDATABLE)}.`,
      );
    if (amount !== undefined && amount < 1)
      throw invalidParam("amount", "Amount must be at least 1.", "amount_too_small");
    intent.metadata = metadata(params, intent.metadata);
    intent.description = text(params, "description") ?? intent.description;
    intent.receipt_email = text(params, "receipt_email") ?? intent.receipt_email;
    if (amount !== undefined) intent.amount = amount;
    if (method !== undefined) intent.payment_method = method;
    // A new card, or a challenge met for the old amount, is confirmed again.
    if (method !== undefined || (amount !== undefined && intent.status === "requires_action"))
      Object.assign(intent, { status: "requires_confirmation", next_action: null });
    count(intent.id, "updates");
    return intent;
  };

  const capture = (intent: Stripe.PaymentIntent, params: Params, request: EventRequest): Stripe.PaymentIntent => {
    onlyParams(params, ["amount_to_capture", "metadata", "expand"]);
    if (intent.status !== "requires_capture")
      throw unexpectedState(
        intent,
        `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
      );
    const amount = integer(params, "amount_to_capture") ?? intent.amount_capturable;
    if (amount < 1) throw invalidParam("amount_to_capture", "Amount must be at least 1.", "amount_too_small");
    if (amount > intent.amount_capturable)
      throw new StripeFailure(400, {
        type: "invalid_request_error",
        code: "amount_too_large",
        param: "amount_to_capture",
        message: `The amount to capture (${amount}) must be less than or equal to the amount capturable (${intent.amount_capturable}).`,
      });
    const charge = charges.get(intent.latest_charge as string)!;
    // What is not captured is released: Stripe counts it as refunded on the charge.
    Object.assign(charge, {
      captured: true,
      amount_captured: amount,
      amount_refunded: charge.amount - amount,
      balance_transaction: newId("txn"),
    });
    Object.assign(intent, {
      status: "succeeded",
      amount_received: amount,
      amount_capturable: 0,
      metadata: metadata(params, intent.metadata),
    });
    count(intent.id, "captures");
    emit("charge.captured", charge, request);
    if (amount < charge.amount) emit("charge.refunded", charge, request, { amount_refunded: 0 });
    emit("payment_intent.succeeded", intent, request, { status: "requires_capture" });
    return intent;
  };

  const cancel = (intent: Stripe.PaymentIntent, params: Params, request: EventRequest): Stripe.PaymentIntent => {
    onlyParams(params, ["cancellation_reason", "expand"]);
    if (!CANCELABLE.includes(intent.status))
      throw unexpectedState(
        intent,
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${statusList(CANCELABLE)}.`,
      );
    const held = intent.status === "requires_capture" ? charges.get(intent.latest_charge as string)! : null;
    Object.assign(intent, {
      status: "canceled",
      canceled_at: now(),
      cancellation_reason: oneOf(params, "cancellation_reason", CANCELLATION_REASONS) ?? null,
      amount_capturable: 0,
      next_action: null,
    });
    count(intent.id, "cancels");
    if (held) {
      // The hold is released: the uncaptured charge shows fully refunded.
      Object.assign(held, { amount_refunded: held.amount, refunded: true });
      emit("charge.refunded", held, request, { amount_refunded: 0, refunded: false });
    }
    emit("payment_intent.canceled", intent, request);
    return intent;
  };

  const refund = (params: Params, request: EventRequest): Stripe.Refund => {
    onlyParams(params, ["payment_intent", "amount", "reason", "metadata", "expand"]);
    const intent = intentOf(requiredText(params, "payment_intent"), "payment_intent");
    const charge = intent.latest_charge ? charges.get(intent.latest_charge as string) : undefined;
    if (intent.status !== "succeeded" || !charge)
      throw new StripeFailure(400, {
        type: "invalid_request_error",
        message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        param: "payment_intent",
      });
    const released = charge.amount - charge.amount_captured;
    const left = charge.amount_captured - (charge.amount_refunded - released);
    if (left === 0)
      throw new StripeFailure(400, {
        type: "invalid_request_error",
        code: "charge_already_refunded",
        message: `Charge ${charge.id} has already been refunded.`,
      });
    const amount = integer(params, "amount") ?? left;
    if (amount < 1) throw invalidParam("amount", "Amount must be at least 1.", "amount_too_small");
    if (amount > left)
      throw new StripeFailure(400, {
        type: "invalid_request_error",
        code: "amount_too_large",
        param: "amount",
        message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
      });
    const created: Stripe.Refund = {
      id: newId("re"),
      object: "refund",
      amount,
      balance_transaction: newId("txn"),
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      customer: null,
      customer_account: null,
      metadata: metadata(params),
      payment_intent: intent.id,
      payment_method: charge.payment_method,
      reason: oneOf(params, "reason", REFUND_REASONS) ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: "succeeded",
      transfer_reversal: null,
    };
    refunds.set(created.id, created);
    const before = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    count(intent.id, "refunds");
    emit("refund.created", created, request);
    emit("charge.refunded", charge, request, before);
    return created;
  };

  return {
    events,

    /** Runs one API operation (`id`: the object's, from the path); throws a {@link StripeFailure} for an error answer. */
    call(operation: Operation, params: Params, id: string | undefined, request: EventRequest): object {
      switch (operation) {
        case "payment_intents.create":
          return create(params, request);
        case "payment_intents.retrieve":
          return intentOf(id!);
        case "payment_intents.update":
          return update(intentOf(id!), params);
        case "payment_intents.confirm": {
          onlyParams(params, ["payment_method", "return_url", "receipt_email", "expand"]);
          const intent = intentOf(id!);
          confirm(intent, paymentMethod(params, intent), request);
          return intent;
        }
        case "payment_intents.capture":
          return capture(intentOf(id!), params, request);
        case "payment_intents.cancel":
          return cancel(intentOf(id!), params, request);
        case "refunds.create":
          return refund(params, request);
        case "refunds.retrieve": {
          const found = refunds.get(id!);
          if (!found) throw notFound("refund", id!, "id");
          return found;
        }
      }
    },

    /** A copy of the PaymentIntent as Stripe holds it now. */
    intent(id: string): Stripe.PaymentIntent {
      return structuredClone(intentOf(id));
    },

    /** The account's counters, or one PaymentIntent's. */
    counts(intentId?: string): Counts {
      if (intentId !== undefined) {
        intentOf(intentId);
        return { intents: 1, ...counts.get(intentId)! };
      }
      const total: Counts = { intents: counts.size, ...zero() };
      for (const one of counts.values())
        for (const key of Object.keys(one) as Array<keyof typeof one>) total[key] += one[key];
      return total;
    },

    /** What happens outside the API: the shopper's bank, a 3-D Secure challenge. */
    simulate: {
      /** The shopper passes (`succeed`) or fails the 3-D Secure challenge of a `requires_action` intent. */
      threeDSecure(intentId: string, result: "succeed" | "fail"): void {
        const intent = intentOf(intentId);
        if (intent.status !== "requires_action")
          throw new Error(`${intentId} is ${intent.status}, not requires_action`);
        if (result === "succeed") return authorize(intent, { id: null, idempotency_key: null });
        const error = {
          type: "invalid_request_error",
          code: "payment_intent_authentication_failure",
          message: AUTHENTICATION_FAILED,
        } as const;
        fail(intent, error, { id: null, idempotency_key: null });
      },

      /**
       * Confirms with a payment method that settles later (a bank debit): the intent is
       * `processing` until {@link settle} decides it.
       */
      processing(intentId: string): void {
        const intent = intentOf(intentId);
        if (!CONFIRMABLE.includes(intent.status)) throw new Error(`${intentId} is ${intent.status}: not confirmable`);
        Object.assign(intent, { status: "processing", processing: { type: "card" }, next_action: null });
        count(intent.id, "confirmations");
        emit("payment_intent.processing", intent, { id: null, idempotency_key: null });
      },

      /** A `processing` intent's payment succeeds (authorized or charged, by its capture method) or fails. */
      settle(intentId: string, result: "succeeded" | "failed"): void {
        const intent = intentOf(intentId);
        if (intent.status !== "processing") throw new Error(`${intentId} is ${intent.status}, not processing`);
        intent.processing = null;
        const request = { id: null, idempotency_key: null };
        if (result === "succeeded") return authorize(intent, request);
        const error = { type: "card_error", code: "card_declined", message: DECLINED } as const;
        fail(intent, error, request, newCharge(intent, "failed"));
      },
    },
  };
}
