import { AsyncResource } from "node:async_hooks";
import { inTransaction, transaction } from "@kasse/db";
import { createEventService, onEventsReleased } from "./service";
import { sendWebhook, type SendResult } from "./send";
import { eventQueries as q } from "./queries";
import type { EventRow, WebhookDeliveryRow, WebhookRow } from "./schema";
import { newDelivery, type WebhookService } from "./webhooks";

/** An in-process subscriber: registered statically in code. `handle` must be idempotent (at least once). */
export interface EventSubscriber {
  name: string;
  /** Event names it handles (or `*`). */
  events: readonly string[];
  handle(event: EventRow): Promise<void>;
}

/**
 * The default retry schedule of a failed delivery: the delay before each retry (7 retries after the
 * first attempt, 27 h 35 min in all), each with ±20 % jitter. `WEBHOOK_RETRY_SCHEDULE` replaces it.
 */
export const DEFAULT_RETRY_SCHEDULE = "5s,5m,30m,2h,5h,10h,10h";

/** Dispatched events and finished delivery attempts are kept this long (the delivery log, redelivery). */
const RETENTION_DAYS = 30;

/** An endpoint whose every delivery has failed for this long is disabled. */
export const DISABLE_AFTER_MS = 24 * 3_600_000;

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `"5s,5m,30m,2h"` as milliseconds; throws on a malformed entry. */
export function parseRetrySchedule(text: string): number[] {
  return text.split(",").map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`Invalid retry delay '${part}' (write e.g. 5s, 5m, 2h)`);
    return Math.round(Number(match[1]) * UNITS[match[2]!]!);
  });
}

interface DispatcherLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface EventDispatcherOptions {
  webhooks: WebhookService;
  subscribers: readonly EventSubscriber[];
  /** Delays before each retry, ms (`parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)` by default). */
  retrySchedule?: readonly number[];
  /** Disable an endpoint failing for this long (24 h). */
  disableAfterMs?: number;
  /** Per request (10 s). */
  timeoutMs?: number;
  /** Jitter as a fraction of each delay (0.2). */
  jitter?: number;
  logger?: DispatcherLogger;
  /** Events and deliveries taken per round (50). */
  batch?: number;
  /**
   * How long a claim lasts before another dispatcher may take the work over (a dispatcher that
   * died mid-way): an event's dispatch (60 s), a delivery beyond its request timeout (30 s).
   */
  claimLeaseMs?: number;
  /** Told each delivery attempt's outcome once it is recorded (the process's metrics). */
  onDelivery?: (outcome: DeliveryOutcome) => void;
}

/** A delivery attempt's outcome: answered 2xx, failed with a retry scheduled, or failed with none left. */
export type DeliveryOutcome = "succeeded" | "failed" | "abandoned";

/** Events whose subscribers run at once in one dispatcher. */
const SUBSCRIBER_CONCURRENCY = 4;
/** Claimed events waiting for their subscribers in one dispatcher, at most (the rest wait for another round). */
const MAX_SUBSCRIBER_BACKLOG = 200;

const silent: DispatcherLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** What a thrown value says. */
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A send that never got an answer. */
const unsent = (error: string): SendResult => ({ status_code: null, duration_ms: 0, error });

const matches = (patterns: readonly string[], name: string) => patterns.includes("*") || patterns.includes(name);

/** The Standard Webhooks body of an event: the same bytes on every attempt. */
export function webhookBody(row: Pick<EventRow, "id" | "name" | "created_at" | "data">): string {
  return JSON.stringify({ id: row.id, type: row.name, timestamp: row.created_at.toISOString(), data: row.data });
}

/**
 * Delivers released events, after commit, at least once: to the in-process subscribers, then to
 * every enabled webhook endpoint subscribed to them, signed (Standard Webhooks), retried on the
 * schedule. Runs in the worker (a maintenance job every half second, and at once when a workflow
 * in this process releases events); any number of dispatchers may run (claims are leases).
 * Made outside any transaction, it works on the process's database.
 */
export function createEventDispatcher(options: EventDispatcherOptions) {
  if (inTransaction()) throw new Error("An event dispatcher is made outside any transaction");
  // Every pass runs where the dispatcher was made (outside any transaction), whoever asks for it:
  // a release is announced by the write that made it, possibly from inside a transaction the
  // caller's joined, where a claim would see (and deliver) events that may yet roll back.
  const home = new AsyncResource("kasse.event-dispatcher");
  const atHome = <T>(fn: () => T): T => home.runInAsyncScope(fn);
  const events = createEventService();
  const schedule = options.retrySchedule ?? parseRetrySchedule(DEFAULT_RETRY_SCHEDULE);
  const disableAfterMs = options.disableAfterMs ?? DISABLE_AFTER_MS;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const jitter = options.jitter ?? 0.2;
  const logger = options.logger ?? silent;
  const batch = options.batch ?? 50;
  const claimLeaseMs = options.claimLeaseMs ?? 60_000;
  const sendLeaseMs = timeoutMs + (options.claimLeaseMs ?? 30_000);
  const webhooks = options.webhooks;

  const delayBefore = (retry: number): number | null => {
    const base = schedule[retry - 1];
    if (base === undefined) return null;
    return Math.max(0, Math.round(base * (1 + (Math.random() * 2 - 1) * jitter)));
  };

  /** Runs the subscribers of one claimed event, then marks it dispatched (or due again after a failure). */
  async function dispatchOne(row: EventRow): Promise<void> {
    const failures: string[] = [];
    for (const subscriber of options.subscribers) {
      if (!matches(subscriber.events, row.name)) continue;
      try {
        await subscriber.handle(row);
      } catch (error) {
        failures.push(`${subscriber.name}: ${messageOf(error)}`);
        logger.warn(
          { err: error, event: row.id, name: row.name, subscriber: subscriber.name },
          "event subscriber failed",
        );
      }
    }
    if (failures.length === 0) return events.markDispatched([row.id]);
    const delay = delayBefore(row.attempts);
    if (delay === null) {
      logger.error(
        { event: row.id, name: row.name, failures },
        "event subscribers still fail after the whole retry schedule; giving up",
      );
      // Dispatched, with their errors: it is not tried again.
      await events.markDispatched([row.id], failures.join("; "));
      return;
    }
    await events.markFailed(row.id, failures.join("; "), delay);
  }

  // Subscriber work runs in the background, at most SUBSCRIBER_CONCURRENCY events at once, so a
  // round (claim, schedule the webhooks, send them) never waits for a slow subscriber.
  const waiting: EventRow[] = [];
  const handling = new Set<Promise<void>>();
  let onIdle: Array<() => void> = [];

  function pump(): void {
    while (handling.size < SUBSCRIBER_CONCURRENCY && waiting.length > 0) {
      const row = waiting.shift()!;
      const job: Promise<void> = dispatchOne(row)
        .catch((error: unknown) =>
          logger.error({ err: error, event: row.id }, "event dispatch failed; retried after its lease"),
        )
        .finally(() => {
          handling.delete(job);
          pump();
          if (handling.size === 0 && waiting.length === 0) {
            const resolve = onIdle;
            onIdle = [];
            resolve.forEach((fn) => fn());
          }
        });
      handling.add(job);
    }
  }

  /** Resolves once no subscriber work is queued or running in this dispatcher. */
  const subscribersIdle = (): Promise<void> =>
    handling.size === 0 && waiting.length === 0 ? Promise.resolve() : new Promise((resolve) => onIdle.push(resolve));

  /**
   * Claims released events (while this dispatcher's subscriber backlog has room), schedules their
   * webhook deliveries and starts sending them, and queues the events for their subscribers.
   * Answers how many events it took, and whether it took as many as it asked for (more may be due).
   */
  async function claimRound(): Promise<{ taken: number; full: boolean }> {
    const room = MAX_SUBSCRIBER_BACKLOG - waiting.length - handling.size;
    if (room <= 0) return { taken: 0, full: false };
    const limit = Math.min(batch, room);
    const claimed = await events.claim(limit, claimLeaseMs);
    if (claimed.length === 0) return { taken: 0, full: false };
    const hooks = await q.enabledHooks();
    const deliveries = claimed.flatMap((row) =>
      hooks
        .filter((h) => matches(h.events, row.name))
        .map((h) => newDelivery(h.id, { event_id: row.id, event_name: row.name }, 1, new Date())),
    );
    // Idempotent: a dispatch taken over after a crash finds them there.
    if (deliveries.length > 0) {
      await q.insertDeliveries(deliveries);
      deliverSoon();
    }
    // An event no subscriber handles is done once its deliveries are scheduled: one statement for all of them.
    const subscribed = (row: EventRow) => options.subscribers.some((s) => matches(s.events, row.name));
    await events.markDispatched(claimed.filter((row) => !subscribed(row)).map((row) => row.id));
    waiting.push(...claimed.filter(subscribed));
    pump();
    return { taken: claimed.length, full: claimed.length === limit };
  }

  /** Records one attempt's outcome, schedules the retry, and disables an endpoint failing for too long. */
  async function record(delivery: WebhookDeliveryRow, hook: WebhookRow, result: SendResult): Promise<void> {
    const now = new Date();
    const { id, attempt } = delivery;
    const { status_code, duration_ms } = result;
    const outcome = await transaction(async (): Promise<DeliveryOutcome> => {
      if (result.error === null) {
        await q.finishDelivery({
          id,
          status: "succeeded",
          status_code,
          duration_ms,
          error: null,
          now,
          next_retry_at: null,
        });
        await q.hookRecovered({ id: hook.id, now });
        return "succeeded";
      }
      const delay = delayBefore(attempt);
      const nextAt = delay === null ? null : new Date(now.getTime() + delay);
      const error = result.error.slice(0, 2000);
      await q.finishDelivery({ id, status: "failed", status_code, duration_ms, error, now, next_retry_at: nextAt });
      const current = await q.hookFailing({ id: hook.id, since: now.toISOString(), now });
      const since = current?.failing_since ?? now;
      if (now.getTime() - since.getTime() >= disableAfterMs || (nextAt === null && current?.enabled)) {
        const reason =
          `Disabled on ${now.toISOString()}: every delivery has failed since ${since.toISOString()}${nextAt === null ? " and an event exhausted its retry schedule" : ""}; last error: ${result.error}`.slice(
            0,
            2000,
          );
        await q.disableHook({ id: hook.id, reason, now });
        logger.warn({ webhook: hook.id, reason }, "webhook endpoint disabled");
      }
      if (nextAt) await q.insertDeliveries([newDelivery(hook.id, delivery, attempt + 1, nextAt)]);
      return nextAt ? "failed" : "abandoned";
    });
    options.onDelivery?.(outcome);
  }

  /** One round: claims due deliveries (of enabled endpoints) and sends them. Returns how many. */
  async function deliver(): Promise<number> {
    const deliveries = await q.claimDeliveries({ lease: sendLeaseMs / 1000, limit: batch });
    if (deliveries.length === 0) return 0;
    const [hooks, rows] = await Promise.all([
      q.hooksById([...new Set(deliveries.map((d) => d.webhook_id))]),
      q.eventsById([...new Set(deliveries.map((d) => d.event_id))]),
    ]);
    const hookOf = new Map(hooks.map((h) => [h.id, h]));
    const eventOf = new Map(rows.map((e) => [e.id, e]));
    await Promise.all(
      deliveries.map(async (delivery) => {
        const hook = hookOf.get(delivery.webhook_id)!;
        const row = eventOf.get(delivery.event_id);
        let result = unsent(`Event ${delivery.event_id} no longer exists`);
        if (row) {
          try {
            result = await sendWebhook({
              url: hook.url,
              secret: webhooks.openSecret(hook),
              id: row.id,
              body: webhookBody(row),
              allowPrivate: webhooks.allowPrivate,
              timeoutMs,
            });
          } catch (error) {
            result = unsent(messageOf(error));
          }
        }
        await record(delivery, hook, result).catch((error: unknown) =>
          logger.error(
            { err: error, delivery: delivery.id },
            "could not record a webhook delivery; it is retried after its lease",
          ),
        );
      }),
    );
    return deliveries.length;
  }

  let closed = false;

  /**
   * Runs `pass` again and again while it does some work (answers more than 0) and the dispatcher is
   * open, one loop at a time in this process: a call while the loop runs asks it for one more pass
   * and answers the running loop. `then` runs when a loop ends.
   */
  function serialLoop(pass: () => Promise<number>, then?: () => void) {
    let running: Promise<void> | undefined;
    let again = false;
    return {
      run(): Promise<void> {
        if (running) {
          again = true;
          return running;
        }
        running = (async () => {
          try {
            do {
              again = false;
              if ((await pass()) > 0) again = true;
            } while (again && !closed);
          } finally {
            running = undefined;
          }
          then?.();
        })();
        return running;
      },
      /** The loop in progress, if any. */
      current: () => running,
    };
  }

  // A pass that took fewer than it asked for left nothing due behind it: its loop ends there,
  // without a pass that finds nothing (a statement each); work released meanwhile asks for another.
  /** Sends due deliveries until none is due (one sender at a time in this process). */
  const delivering = serialLoop(async () => {
    const sent = await deliver();
    return sent >= batch ? sent : 0;
  });
  const deliverAll = (): Promise<void> => delivering.run();
  /** Starts sending in the background. */
  const deliverSoon = () =>
    void deliverAll().catch((error: unknown) => logger.error({ err: error }, "webhook delivery round failed"));

  /** Claims, schedules and sends until nothing is due; then the retries that came due are sent by their own loop, so a wake during a send is never lost. */
  const rounds = serialLoop(async () => {
    const { taken, full } = await claimRound();
    return full ? taken : 0;
  }, deliverSoon);

  /** A round (one at a time in this process); subscribers go on in the background. */
  function round(): Promise<void> {
    if (closed) return Promise.resolve();
    return rounds.run();
  }

  /** A round, then waits for the subscribers of what it took and for the sends, then once more for what came due meanwhile. */
  async function run(): Promise<void> {
    for (let i = 0; i < 2; i++) {
      await round();
      await subscribersIdle();
      await deliverAll();
    }
  }

  const wake = () =>
    atHome(() => void round().catch((error: unknown) => logger.error({ err: error }, "event dispatch round failed")));
  const unsubscribe = onEventsReleased(wake);

  return {
    /** A round of claims alone: how many events it took. */
    dispatch: () => atHome(async () => (await claimRound()).taken),
    deliver: () => atHome(deliver),
    /** The worker's poll: a round, not waiting for subscribers. */
    poll: () => atHome(round),
    /** A round and its subscribers (tests, and a caller that must know the work is done). */
    run: () => atHome(run),
    /** Runs a round soon (a workflow released events). */
    wake,
    /** Deletes the events of compensated executions (never released), and what is past retention (`RETENTION_DAYS`). */
    purge: () => atHome(async () => (await events.purgeDiscarded()) + (await events.purgeDelivered(RETENTION_DAYS))),
    /** Stops reacting to releases and waits for the round in progress. */
    async close(): Promise<void> {
      closed = true;
      unsubscribe();
      await Promise.all([rounds.current()?.catch(() => {}), delivering.current()?.catch(() => {}), subscribersIdle()]);
    },
  };
}

export type EventDispatcher = ReturnType<typeof createEventDispatcher>;
