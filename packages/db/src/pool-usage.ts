import type { Sql } from "postgres";

/** How much of a PostgreSQL pool is taken (the process's metrics read it at each scrape). */
export interface PoolUsage {
  /** The pool's connections at most. */
  size: number;
  /** Connections taken: statements answering outside a transaction, and open transactions, up to `size`. */
  inUse: number;
  /** Statements and transactions beyond `size`: postgres.js queues them, or pipelines them behind others. */
  waiting: number;
}

/**
 * `client`, counting what holds one of its `size` connections: a statement sent outside a
 * transaction until it answers, a transaction until it ends (its statements run on its
 * connection). postgres.js says nothing of its pool; this costs a counter and a callback per
 * statement. A statement is counted from when it is made, which drizzle does as it sends it.
 */
export function countingUse(client: Sql, size: number): { client: Sql; usage(): PoolUsage } {
  let inFlight = 0;
  const done = () => {
    inFlight--;
  };
  const counting =
    <A extends unknown[]>(call: (...args: A) => unknown) =>
    (...args: A): unknown => {
      const pending = call(...args);
      inFlight++;
      // Promise's own `then`: a postgres.js query's `then` would send it before the caller asked.
      Promise.prototype.then.call(pending, done, done);
      return pending;
    };
  // Made once, not per read: drizzle reads `unsafe` for every statement it sends.
  const unsafe = counting(client.unsafe.bind(client));
  const begin = counting(client.begin.bind(client) as (...args: unknown[]) => unknown);
  const counted = new Proxy(client, {
    get(target, key, receiver) {
      if (key === "unsafe") return unsafe;
      if (key === "begin") return begin;
      return Reflect.get(target, key, receiver);
    },
  });
  return {
    client: counted,
    usage: () => ({ size, inUse: Math.min(inFlight, size), waiting: Math.max(0, inFlight - size) }),
  };
}
