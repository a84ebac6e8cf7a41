import { AsyncLocalStorage } from "node:async_hooks";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "./types";

/** Where the code running now sends its statements: a database, and the transaction open on it, if any. */
interface Scope {
  database: Db;
  tx: Tx | undefined;
}

const scopes = new AsyncLocalStorage<Scope>();
let processDatabase: Db | undefined;

/**
 * How many scopes are open. On Node 20 an enabled AsyncLocalStorage makes every promise of the
 * process pay for hooks (measured: about 3 to 8 % of the CPU of an admin list request), so it is
 * enabled only while a scope is open: traffic without a transaction or an engine execution in
 * progress (catalog and admin reads) pays nothing. Outside every scope there is nothing to carry:
 * statements run on the process's database.
 */
let openScopes = 0;

/** Runs `fn` in `scope`, counted in {@link openScopes} until what it returns settles. */
function inScope<T>(scope: Scope, fn: () => T): T {
  openScopes++;
  let result: T;
  try {
    result = scopes.run(scope, fn);
  } catch (error) {
    leave();
    throw error;
  }
  if (result instanceof Promise) result.then(leave, leave);
  else leave();
  return result;
}

function leave(): void {
  if (--openScopes === 0) scopes.disable();
}

/**
 * Makes `database` the process's database: what every query and `transaction` uses outside
 * {@link onDatabase}. The composition root (`@kasse/runtime`) calls it once, when it opens the database.
 */
export function useDatabase(database: Db | undefined): void {
  processDatabase = database;
}

/** The process's database, if one is set ({@link useDatabase}). */
export const processDatabaseOf = (): Db | undefined => processDatabase;

/**
 * Runs `fn` on `database` instead of the process's, outside any transaction in progress: how the
 * engine runs an execution on its own handle, and how a test plays a second process on the same
 * database (`joinTestDatabase`).
 * @example
 * await onDatabase(second.db, () => engine.recover());
 */
export function onDatabase<T>(database: Db, fn: () => T): T {
  // Outside every scope, on the process's database: nothing to carry (and no hooks to pay for).
  if (database === processDatabase && !scopes.getStore()) return fn();
  return inScope({ database, tx: undefined }, fn);
}

function databaseOf(scope: Scope | undefined): Db {
  const database = scope?.database ?? processDatabase;
  if (!database) throw new Error("No database: the composition root calls useDatabase() when it opens one");
  return database;
}

/** The handle a statement runs on now: the transaction in progress, else the database. */
export function currentHandle(): Db {
  const scope = scopes.getStore();
  return (scope?.tx as Db | undefined) ?? databaseOf(scope);
}

/**
 * The transaction in progress, for a caller that opened it and hands it on as such (the engine's
 * step context); an error when none is open.
 */
export function currentTransaction(): Tx {
  const tx = scopes.getStore()?.tx;
  if (!tx) throw new Error("No transaction in progress");
  return tx;
}

/** What `handleOn(database)` stands for now: the transaction in progress on `database`, else `database`. */
function handleOnNow(database: Db): Db {
  const scope = scopes.getStore();
  return scope?.tx && scope.database === database ? scope.tx : database;
}

/** The database a proxy of {@link proxyOf} stands for (`null`: the current one, `db`). */
const proxied = new WeakMap<object, Db | null>();

function proxyOf(database: Db | null): Db {
  const target = () => (database ? handleOnNow(database) : currentHandle());
  const proxy = new Proxy({} as Db, {
    get(_, key) {
      const handle = target();
      const value: unknown = Reflect.get(handle, key, handle);
      return typeof value === "function" ? value.bind(handle) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
    // `instanceof PgTransaction` (legacy `isTransaction`) asks the handle it stands for.
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
  });
  proxied.set(proxy, database);
  return proxy;
}

const handles = new WeakMap<Db, Db>();

/**
 * `database` as a handle that follows the transaction in progress on it: what the runtime builds the
 * modules not yet converted over ([16]), so that they run in the ambient transaction too, on their
 * process's database (a test plays two processes on two databases).
 * @deprecated Goes with the last module converted.
 */
export function handleOn(database: Db): Db {
  let handle = handles.get(database);
  if (!handle) handles.set(database, (handle = proxyOf(database)));
  return handle;
}

/** The handle a legacy caller's `db` stands for now, and the database of a scope opened on it. */
function legacyTarget(first: Db, scope: Scope | undefined): { handle: Db; database: Db } {
  if (!proxied.has(first)) return { handle: first, database: scope?.database ?? processDatabase ?? first };
  const own = proxied.get(first) ?? null;
  return own ? { handle: handleOnNow(own), database: own } : { handle: currentHandle(), database: databaseOf(scope) };
}

/** Whether a transaction is in progress here (its statements go down one connection, in order). */
export const inTransaction = (): boolean => scopes.getStore()?.tx !== undefined;

/**
 * Runs `fn` in a transaction: everything it writes commits together or not at all. Inside a
 * transaction in progress it joins that one (a failure rolls the whole of it back), or, with
 * `savepoint`, runs in a savepoint whose failure rolls back `fn`'s writes alone. Queries read the
 * transaction from here (`db`, `statement`); nothing passes it.
 * @example
 * await transaction(async () => { await cartQueries.lockById(id); await cartQueries.addLine(line); });
 */
export function transaction<T>(fn: () => Promise<T>, options?: { savepoint?: boolean }): Promise<T>;
/**
 * The form of modules not yet converted to the ambient transaction ([16]): `fn` gets the handle, and
 * the modules it calls that read the ambient one run in the same transaction. Inside an open
 * transaction (`db` is one) it nests as a savepoint, as it always did.
 * @deprecated Write `transaction(() => …)`; the last module converted removes this form.
 */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T>;
export function transaction<T>(
  first: Db | (() => Promise<T>),
  second?: ((tx: Tx) => Promise<T>) | { savepoint?: boolean },
): Promise<T> {
  const scope = scopes.getStore();
  if (typeof first === "function") {
    if (scope?.tx && !(second as { savepoint?: boolean } | undefined)?.savepoint) return first();
    const database = databaseOf(scope);
    const outer = (scope?.tx as Db | undefined) ?? database;
    return outer.transaction((tx) => inScope({ database, tx }, first));
  }
  const fn = second as (tx: Tx) => Promise<T>;
  // The legacy handle may be an ambient one (`db`, `handleOn`): open the transaction on what it stands for now.
  const { handle, database } = legacyTarget(first, scope);
  return handle.transaction((tx) => inScope({ database, tx }, () => fn(tx)));
}

/**
 * Runs `fn` in a read-only repeatable-read transaction: every query it makes sees one snapshot of
 * the database (reports, `kasse check`), and any write fails.
 * @example
 * const report = await readSnapshot(() => checkIntegrity());
 */
export function readSnapshot<T>(fn: () => Promise<T>): Promise<T>;
/** @deprecated The form of modules not yet converted ([16]): write `readSnapshot(() => …)`. */
export function readSnapshot<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T>;
export function readSnapshot<T>(first: Db | (() => Promise<T>), second?: (tx: Tx) => Promise<T>): Promise<T> {
  const scope = scopes.getStore();
  const { handle, database } =
    typeof first === "function"
      ? { handle: databaseOf(scope), database: databaseOf(scope) }
      : legacyTarget(first, scope);
  return handle.transaction((tx) =>
    inScope({ database, tx }, async () => {
      await tx.execute(sql`set transaction isolation level repeatable read, read only`);
      return typeof first === "function" ? first() : second!(tx);
    }),
  );
}

/**
 * Takes transaction-scoped advisory locks on `keys` in the transaction in progress, in sorted
 * order so that two callers locking overlapping sets can never deadlock. Released at commit or rollback.
 * @example
 * await transaction(async () => { await lockKeys([`cart:${id}`]); ... });
 */
export async function lockKeys(keys: readonly string[]): Promise<void>;
/** @deprecated The form of modules not yet converted ([16]): write `lockKeys(keys)`. */
export async function lockKeys(tx: Tx | Db, keys: readonly string[]): Promise<void>;
export async function lockKeys(first: Tx | Db | readonly string[], second?: readonly string[]): Promise<void> {
  const handle = Array.isArray(first) ? currentHandle() : (first as Db);
  const keys = Array.isArray(first) ? (first as readonly string[]) : second!;
  for (const key of [...new Set(keys)].sort())
    await handle.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * The current handle as a drizzle database: each use reads the transaction in progress, else the
 * database ({@link transaction}, {@link onDatabase}). Queries files build their statements on it.
 * @example
 * const rows = await db.select().from(salesChannel).where(and(...conditions));
 */
export const db: Db = proxyOf(null);
