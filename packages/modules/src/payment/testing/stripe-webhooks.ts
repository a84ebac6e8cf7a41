import { createHmac } from "node:crypto";
import type Stripe from "stripe";

/** One webhook request as Stripe sends it: the signed headers and the raw JSON body. */
export interface WebhookRequest {
  headers: Record<string, string>;
  payload: string;
}

/** Where webhooks go: a URL, or a function given each request (e.g. one that calls `app.inject`) answering its status. */
export type WebhookTarget = string | ((request: WebhookRequest) => Promise<number>);

/** One delivery attempt and the endpoint's answer. */
export interface Delivery {
  event_id: string;
  type: string;
  status: number | "unreachable";
}

/** How {@link sendEvents} delivers. */
export interface SendOptions {
  /** Wait this long before the first delivery. */
  delayMs?: number;
  /** Deliver every event this many times (Stripe delivers at least once). Default 1. */
  times?: number;
  /** The order of the deliveries: as the events were made (default), reversed, or shuffled by a seed. */
  order?: "created" | "reversed" | { seed: number };
  /** Send them all at once instead of one after another's answer (Stripe delivers in parallel). */
  concurrent?: boolean;
}

const now = () => Math.floor(Date.now() / 1000);

/** `Stripe-Signature`: `t=<unix time>,v1=<HMAC-SHA256 of "t.payload" with the endpoint secret>`, as Stripe signs. */
function signatureHeader(payload: string, secret: string, timestamp = now()): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** The request Stripe would send for `event`: its JSON pretty-printed, as Stripe's is, and signed. */
export function webhookRequest(event: Stripe.Event, secret: string, timestamp?: number): WebhookRequest {
  const payload = JSON.stringify(event, null, 2);
  return {
    payload,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
      "stripe-signature": signatureHeader(payload, secret, timestamp),
    },
  };
}

/** Posts one webhook request; a network failure is `unreachable`. */
async function post(target: WebhookTarget, request: WebhookRequest): Promise<number | "unreachable"> {
  try {
    if (typeof target !== "string") return await target(request);
    const response = await fetch(target, { method: "POST", headers: request.headers, body: request.payload });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return "unreachable";
  }
}

/** Delivers `event` once to `target`. */
async function deliver(target: WebhookTarget, event: Stripe.Event, secret: string): Promise<Delivery> {
  return { event_id: event.id, type: event.type, status: await post(target, webhookRequest(event, secret)) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A seeded shuffle (mulberry32 and Fisher–Yates): the same seed, the same order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Sends `events` to `target`, delayed, repeated and reordered as `options` say; answers every attempt. */
export async function sendEvents(
  target: WebhookTarget,
  events: Stripe.Event[],
  secret: string,
  options: SendOptions = {},
): Promise<Delivery[]> {
  const repeated = Array.from({ length: options.times ?? 1 }, () => events).flat();
  const order = options.order ?? "created";
  const sequence =
    order === "created" ? repeated : order === "reversed" ? repeated.reverse() : shuffled(repeated, order.seed);
  if (options.delayMs) await sleep(options.delayMs);
  if (options.concurrent) return Promise.all(sequence.map((event) => deliver(target, event, secret)));
  const deliveries: Delivery[] = [];
  for (const event of sequence) deliveries.push(await deliver(target, event, secret));
  return deliveries;
}

/**
 * Stripe's own delivery: every new event goes to the endpoint after `delayMs`, and one not
 * answered 2xx is tried again, up to `retries` more times, `delayMs` apart.
 */
export function createForwarder(secret: string) {
  let endpoint: { target: WebhookTarget; delayMs: number; retries: number } | null = null;
  const pending = new Set<Promise<void>>();
  /** The waits under way, each with what ends it early. */
  const waits = new Map<NodeJS.Timeout, () => void>();
  const deliveries: Delivery[] = [];

  const later = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => (waits.delete(timer), resolve()), ms);
      waits.set(timer, resolve);
    });

  async function forward(event: Stripe.Event, to: NonNullable<typeof endpoint>): Promise<void> {
    for (let attempt = 0; attempt <= to.retries; attempt++) {
      await later(to.delayMs);
      if (endpoint !== to) return;
      const delivery = await deliver(to.target, event, secret);
      deliveries.push(delivery);
      if (typeof delivery.status === "number" && delivery.status < 300) return;
    }
  }

  return {
    deliveries,
    /** Starts (or, with null, stops) sending every new event to `target`. */
    to(target: WebhookTarget | null, options: { delayMs?: number; retries?: number } = {}): void {
      endpoint = target === null ? null : { target, delayMs: options.delayMs ?? 0, retries: options.retries ?? 3 };
    },
    push(event: Stripe.Event): void {
      if (!endpoint) return;
      const running = forward(event, endpoint).finally(() => pending.delete(running));
      pending.add(running);
    },
    /** Resolves when every delivery under way has ended; answers all made so far. */
    async settled(): Promise<Delivery[]> {
      while (pending.size > 0) await Promise.all([...pending]);
      return deliveries;
    },
    /** Drops what has not been sent. */
    stop(): void {
      endpoint = null;
      for (const [timer, resolve] of waits) {
        clearTimeout(timer);
        resolve();
      }
      waits.clear();
    },
  };
}
