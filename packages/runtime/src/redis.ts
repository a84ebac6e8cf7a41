import type { Redis } from "ioredis";
import { withTimeout } from "@kasse/db";
import type { EngineLogger } from "@kasse/workflows";

/** How long connecting to Redis may take before the attempt counts as failed (ioredis waits 10 s). */
const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long a command waits for Redis's answer: a rate-limit check or an enqueue fails (the limiter
 * then lets the request through) instead of hanging on a Redis that stopped answering.
 */
const COMMAND_TIMEOUT_MS = 2_000;
/** How long closing waits for Redis to acknowledge QUIT before it cuts the connection. */
const QUIT_TIMEOUT_MS = 1_000;

/** A process's Redis connection: the client, why it cannot be used now, and its closer. */
export interface RedisConnection {
  client: Redis;
  /** Why Redis cannot be used now (not connected, with the last error), or undefined while it answers. */
  problem(): string | undefined;
  /** Quits, or disconnects at once when Redis is not there to answer (a shutdown never waits on it). */
  close(): Promise<void>;
}

/** `host:port[/db]` of a Redis URL, without its credentials (for log lines and answers). */
function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const db = parsed.pathname.length > 1 ? parsed.pathname : "";
    return `${parsed.hostname}:${parsed.port || "6379"}${db}`;
  } catch {
    return "REDIS_URL";
  }
}

/**
 * Opens the process's Redis client for commands (the BullMQ queue, rate-limit counters, event
 * announcements, the readiness probe), made to fail fast rather than wait: no offline queue (a
 * command while disconnected fails at once), no retry of a command cut by a disconnection, a
 * bounded connect and answer time. It reconnects by itself (every 2 s at most). An outage is
 * logged once, as one line naming the address and the cause, and its end once; not each retry.
 * Does not wait for the connection: a process starts and serves while Redis is away.
 */
export async function openRedis(url: string, logger: EngineLogger): Promise<RedisConnection> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  const where = redisAddress(url);
  let lastError: string | undefined;
  let downSince: number | undefined;
  client.on("error", (error: Error) => {
    lastError = error.message;
    if (downSince !== undefined) return;
    downSince = Date.now();
    logger.error(
      { redis: where, error: error.message },
      `Redis at ${where} is unreachable (${error.message}): workflow jobs wait for it and rate limiting lets requests through; retrying`,
    );
  });
  client.on("ready", () => {
    lastError = undefined;
    if (downSince === undefined) return;
    logger.info({ redis: where, downMs: Date.now() - downSince }, `Redis at ${where} answers again`);
    downSince = undefined;
  });
  return {
    client,
    problem: () =>
      client.status === "ready" ? undefined : `not connected to ${where}${lastError ? ` (${lastError})` : ""}`,
    close: async () => {
      if (client.status !== "ready") return client.disconnect();
      await withTimeout(client.quit(), QUIT_TIMEOUT_MS, () => new Error("no answer to QUIT")).catch(() =>
        client.disconnect(),
      );
    },
  };
}
