import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { createStripeAccount, newId, type Operation } from "./stripe-account";
import { StripeFailure, decodeForm } from "./stripe-form";
import { createForwarder, sendEvents, webhookRequest, type SendOptions, type WebhookTarget } from "./stripe-webhooks";

/**
 * A failure of the next calls of an operation: a 500 `api_error`, no answer at all (`hang`, until
 * the client gives up), or the connection dropped (`unreachable`: the client sees a network
 * error). `afterEffect`: the call takes effect (and its answer is kept under its idempotency key)
 * but its answer is lost, as when Stripe did the work and the network failed on the way back.
 */
export interface Fault {
  mode: "500" | "hang" | "unreachable";
  /** How many requests it hits (default 1). The SDK retries a dropped connection once by itself. */
  times?: number;
  afterEffect?: boolean;
}

/** A request the fake received and what it did with it. */
export interface RecordedRequest {
  operation: Operation | null;
  method: string;
  path: string;
  idempotency_key: string | null;
  /** Answered from an earlier request with the same idempotency key. */
  replayed: boolean;
  status: number | "hang" | "unreachable";
}

const ROUTES: Array<{ method: string; pattern: RegExp; operation: Operation }> = [
  { method: "POST", pattern: /^\/v1\/payment_intents$/, operation: "payment_intents.create" },
  { method: "GET", pattern: /^\/v1\/payment_intents\/([^/]+)$/, operation: "payment_intents.retrieve" },
  { method: "POST", pattern: /^\/v1\/payment_intents\/([^/]+)$/, operation: "payment_intents.update" },
  { method: "POST", pattern: /^\/v1\/payment_intents\/([^/]+)\/confirm$/, operation: "payment_intents.confirm" },
  { method: "POST", pattern: /^\/v1\/payment_intents\/([^/]+)\/capture$/, operation: "payment_intents.capture" },
  { method: "POST", pattern: /^\/v1\/payment_intents\/([^/]+)\/cancel$/, operation: "payment_intents.cancel" },
  { method: "POST", pattern: /^\/v1\/refunds$/, operation: "refunds.create" },
  { method: "GET", pattern: /^\/v1\/refunds\/([^/]+)$/, operation: "refunds.retrieve" },
];

/** An answer as Stripe keeps it under an idempotency key, with what it was an answer to. */
interface Kept {
  endpoint: string;
  params: string;
  status: number;
  body: unknown;
}

/** The parameters in one canonical text (keys sorted), to compare a repeated key's request with the first. */
const canonical = (value: unknown): string =>
  typeof value !== "object" || value === null
    ? JSON.stringify(value)
    : Array.isArray(value)
      ? `[${value.map(canonical).join(",")}]`
      : `{${Object.keys(value)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
          .join(",")}}`;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A stateful fake of Stripe's API for tests, on a real HTTP server on loopback, which the official
 * SDK is pointed at (`fake.client()`, or `host`/`port`/`protocol` from `fake.url`). It keeps
 * PaymentIntents, charges and refunds as Stripe does, answers Stripe's shapes and errors, replays
 * idempotent requests, counts what was done, fails on demand, and makes Stripe Events that it
 * can deliver signed, delayed, repeated and reordered. Nothing reaches the internet.
 * @example
 * const fake = await startStripeFake();
 * const stripe = fake.client();
 * const intent = await stripe.paymentIntents.create({ amount: 1000, currency: "usd", capture_method: "manual" });
 */
export async function startStripeFake(options: { apiKey?: string; webhookSecret?: string } = {}) {
  const apiKey = options.apiKey ?? "sk_test_kasse_fake";
  const webhookSecret = options.webhookSecret ?? "whsec_kasse_fake";
  const forwarder = createForwarder(webhookSecret);
  const account = createStripeAccount((event) => forwarder.push(event));
  const requests: RecordedRequest[] = [];
  const kept = new Map<string, Kept>();
  const faults = new Map<Operation | "*", Fault & { left: number }>();

  function takeFault(operation: Operation): Fault | undefined {
    for (const key of [operation, "*"] as const) {
      const fault = faults.get(key);
      if (!fault) continue;
      if (--fault.left <= 0) faults.delete(key);
      return fault;
    }
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const url = new URL(req.url ?? "/", "http://stripe.fake");
    const method = req.method ?? "GET";
    const header = req.headers["idempotency-key"];
    const key = method === "POST" && typeof header === "string" ? header : null;
    const requestId = newId("req");
    const route = ROUTES.find((r) => r.method === method && r.pattern.test(url.pathname));
    const record = (status: RecordedRequest["status"], replayed = false) =>
      requests.push({
        operation: route?.operation ?? null,
        method,
        path: url.pathname,
        idempotency_key: key,
        replayed,
        status,
      });
    const answer = (status: number, json: unknown, replayed = false) => {
      record(status, replayed);
      res.writeHead(status, {
        "content-type": "application/json",
        "request-id": requestId,
        ...(key ? { "idempotency-key": key } : {}),
        ...(replayed ? { "idempotent-replayed": "true" } : {}),
      });
      res.end(JSON.stringify(json, null, 2));
    };
    const injure = (fault: Fault) => {
      if (fault.mode === "500")
        return answer(500, { error: { type: "api_error", message: "An unknown error occurred" } });
      record(fault.mode);
      if (fault.mode === "unreachable") req.socket.destroy();
    };

    if (req.headers.authorization !== `Bearer ${apiKey}`)
      return answer(401, {
        error: {
          type: "invalid_request_error",
          message: req.headers.authorization
            ? "Invalid API Key provided."
            : "You did not provide an API key. You need to provide your API key in the Authorization header.",
        },
      });
    if (!route)
      return answer(404, {
        error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${url.pathname}).` },
      });
    const fault = takeFault(route.operation);
    if (fault && !fault.afterEffect) return injure(fault);

    const params = decodeForm(method === "GET" ? url.search.slice(1) : body);
    const earlier = key === null ? undefined : kept.get(key);
    if (earlier) {
      if (earlier.endpoint !== `${method} ${url.pathname}`)
        return answer(400, {
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${earlier.endpoint}' vs '${method} ${url.pathname}'). Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        });
      if (earlier.params !== canonical(params))
        return answer(400, {
          error: {
            type: "idempotency_error",
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        });
      return fault ? injure(fault) : answer(earlier.status, earlier.body, true);
    }

    const id = decodeURIComponent(route.pattern.exec(url.pathname)![1] ?? "") || undefined;
    let status = 200;
    let result: unknown;
    let saved = true;
    try {
      result = structuredClone(account.call(route.operation, params, id, { id: requestId, idempotency_key: key }));
    } catch (error) {
      if (!(error instanceof StripeFailure)) throw error;
      ({ status, saved } = error);
      result = { error: error.error };
    }
    if (key !== null && saved)
      kept.set(key, { endpoint: `${method} ${url.pathname}`, params: canonical(params), status, body: result });
    if (fault) return injure(fault);
    answer(status, result);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A fault of the fake itself: answered as Stripe's 500, with what went wrong.
      if (res.headersSent) return;
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: `Stripe fake failed: ${String(error)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    /** The fake's base URL (`STRIPE_API_URL`). */
    url,
    apiKey,
    /** The signing secret of the webhook endpoint (`STRIPE_WEBHOOK_SECRET`). */
    webhookSecret,
    /** Every request received, in order. */
    requests,
    /** Every event made, in order. */
    events: account.events,
    intent: account.intent,
    counts: account.counts,
    simulate: account.simulate,

    /** An SDK client pointed at the fake (no automatic retries unless `config` says so). */
    client(config: Stripe.StripeConfig = {}): Stripe {
      return new Stripe(apiKey, { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0, ...config });
    },

    /** The events about one PaymentIntent: its own, and its charges' and refunds'. */
    eventsOf(intentId: string): Stripe.Event[] {
      return account.events.filter((event) => {
        const object = event.data.object as { id?: string; payment_intent?: unknown };
        return object.id === intentId || object.payment_intent === intentId;
      });
    },

    /** Makes the next `fault.times` requests of `operation` (`*`: of any) fail as `fault` says. */
    fail(operation: Operation | "*", fault: Fault): void {
      faults.set(operation, { ...fault, left: fault.times ?? 1 });
    },

    /** The request Stripe would send to a webhook endpoint for `event`, signed with {@link webhookSecret}. */
    webhookRequest: (event: Stripe.Event, timestamp?: number) => webhookRequest(event, webhookSecret, timestamp),

    /** Sends `events` to `target` now, delayed, repeated and reordered as `options` say. */
    sendEvents: (target: WebhookTarget, events: Stripe.Event[], sendOptions?: SendOptions) =>
      sendEvents(target, events, webhookSecret, sendOptions),

    /**
     * Delivers every event made from now on to `target` (null: stops), as Stripe does: after
     * `delayMs`, tried again up to `retries` times while the endpoint does not answer 2xx.
     */
    forwardEvents: forwarder.to,
    /** Waits for the forwarded deliveries under way; answers every forwarded delivery so far. */
    forwarded: forwarder.settled,

    /** Stops the server, dropping hung requests and pending deliveries. */
    async close(): Promise<void> {
      forwarder.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A running Stripe fake (see {@link startStripeFake}). */
export type StripeFake = Awaited<ReturnType<typeof startStripeFake>>;
