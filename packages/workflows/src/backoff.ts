import type { Clock, RetryPolicy } from "./types";

/** Exponential backoff with equal jitter: between half and all of `backoffMs * 2^(attempt-1)`, capped. */
export function backoffDelay(
  policy: Required<RetryPolicy>,
  attempt: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A JSON copy: what the journal stores and what a replay returns, so first runs and replays agree. */
export function asJson<T>(value: T): T {
  return (value === undefined ? null : JSON.parse(JSON.stringify(value))) as T;
}
