import type { Redis } from "ioredis";
import { onEventsReleased } from "@kasse/modules/event";

/** The Redis channel on which a process announces that it released events. */
const CHANNEL = "kasse:events-released";

/**
 * Announces this process's event releases on Redis, so a dispatcher in another process (a
 * dedicated worker) sends them within milliseconds instead of at its next poll. At most one
 * message per tick, however many executions finished in it. Returns the unsubscribe.
 */
export function publishEventReleases(redis: Redis): () => void {
  let pending = false;
  return onEventsReleased(() => {
    if (pending) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      // A lost announcement costs only latency: the dispatcher's poll finds the events anyway.
      redis.publish(CHANNEL, "1").catch(() => {});
    });
  });
}

/**
 * Calls `wake` whenever any process announces released events (see {@link publishEventReleases}),
 * on a connection of its own (a subscribed ioredis connection can do nothing else). Returns the closer.
 */
export async function subscribeEventReleases(redis: Redis, wake: () => void): Promise<() => Promise<void>> {
  const subscriber = redis.duplicate();
  subscriber.on("message", () => wake());
  // ioredis reconnects and subscribes again by itself; meanwhile the poll keeps delivering.
  subscriber.on("error", () => {});
  await subscriber.subscribe(CHANNEL);
  return async () => {
    await subscriber.quit().catch(() => subscriber.disconnect());
  };
}
