import type { Sql } from "postgres";

/**
 * How many distinct statement texts a process prepares at most. Each is parsed and planned once
 * per connection and kept there (and in postgres.js's per-connection cache) for the connection's
 * life, so the number is bounded; the hot paths send well under a hundred.
 */
const MAX_PREPARED_TEXTS = 500;

/** How many distinct texts are remembered while waiting for their second use. */
const MAX_SEEN_TEXTS = 5_000;

/** Which statement texts are worth a prepared statement: the ones sent a second time, while there is room. */
export function repeatedTexts(maxPrepared = MAX_PREPARED_TEXTS) {
  const seen = new Set<string>();
  const prepared = new Set<string>();
  return (text: string): boolean => {
    if (prepared.has(text)) return true;
    if (prepared.size >= maxPrepared) return false;
    if (!seen.has(text)) {
      if (seen.size >= MAX_SEEN_TEXTS) seen.clear();
      seen.add(text);
      return false;
    }
    seen.delete(text);
    prepared.add(text);
    return true;
  };
}

type Unsafe = (text: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;
type Scoped = (fn: (sql: Sql) => unknown) => unknown;

/**
 * The postgres.js client drizzle is given, with every statement sent more than once prepared
 * (named) on its connection, in transactions too. Drizzle sends its queries unnamed; postgres.js
 * then asks the server to describe each parameterized statement before it can send the values:
 * two writes and two round trips per statement, and PostgreSQL parses and plans it every time. A
 * prepared one, after its first use on a connection, is one write and one round trip, parsed and
 * planned once there (what `builtOnce` queries already get). Texts beyond {@link MAX_PREPARED_TEXTS}
 * (a statement whose text varies with its input) stay unnamed.
 */
export function preparingRepeated(client: Sql, isRepeated = repeatedTexts()): Sql {
  // Made once per handle, not per read: drizzle reads `unsafe` for every statement it sends.
  const unsafe: Unsafe = (text, params, options) =>
    (client.unsafe as Unsafe)(
      text,
      params,
      options?.prepare || !isRepeated(text) ? options : { ...options, prepare: true },
    );
  // `begin([options,] fn)`, `savepoint([name,] fn)`: the callback's handle prepares the same way.
  const scoped =
    (name: "begin" | "savepoint") =>
    (...args: unknown[]): unknown => {
      const fn = args.pop() as Parameters<Scoped>[0];
      // `savepoint` is a transaction handle's (postgres.js types it on TransactionSql only).
      const open = (client as unknown as Record<typeof name, (...args: unknown[]) => unknown>)[name];
      return open.call(client, ...args, (sql: Sql) => fn(preparingRepeated(sql, isRepeated)));
    };
  const begin = scoped("begin");
  const savepoint = scoped("savepoint");
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === "unsafe") return unsafe;
      if (key === "begin") return begin;
      if (key === "savepoint") return savepoint;
      return Reflect.get(target, key, receiver);
    },
  });
}
