import type { Redis } from "ioredis";
import { onEventsReleased } from "@kasse/modules/event";

/** The Redis channel on which this install's processes announce that they released events. */
const channelOf = (prefix: string) => `${prefix}:events-released`;

/**
 * Announces this process's event releases on Redis, so a dispatcher in another process (a
 * dedicated worker) sends them within milliseconds instead of at its next poll. At most one
 * message per tick, however many executions finished in it. Returns the unsubscribe.
 */
export function publishEventReleases(redis: Redis, prefix: string): () => void {
  const channel = channelOf(prefix);
  let pending = false;
  return onEventsReleased(() => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      // A lost announcement costs only latency: the dispatcher's poll finds the events anyway.
      redis.publish(channel, "1").catch(() => {});
    });
  });
}

/**
 * Calls `wake` whenever a process of the install announces released events (see
 * {@link publishEventReleases}), on a connection of its own (a subscribed ioredis connection can
 * do nothing else). Subscribes once Redis answers, without waiting for it: meanwhile the
 * dispatcher's poll delivers. Returns the closer.
 */
export function subscribeEventReleases(redis: Redis, prefix: string, wake: () => void): () => Promise<void> {
  // The subscription waits for the connection (an offline queue) and never times out: it is meant to last.
  const subscriber = redis.duplicate({
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    commandTimeout: undefined,
  });
  subscriber.on("message", () => wake());
  // ioredis reconnects and subscribes again by itself; the process's own client reports the outage.
  subscriber.on("error", () => {});
  subscriber.subscribe(channelOf(prefix)).catch(() => {});
  return async () => {
    if (subscriber.status !== "ready") return subscriber.disconnect();
    await subscriber.quit().catch(() => subscriber.disconnect());
  };
}
