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
  if (runsOn(database)) return fn();
  return inScope({ database, tx: undefined }, fn);
}

/**
 * Whether code running now already sends its statements to `database` outside a transaction with
 * no scope open: there `onDatabase(database, fn)` only calls `fn` (nothing to carry, no hooks to pay for).
 */
export const runsOn = (database: Db): boolean => database === processDatabase && !scopes.getStore();

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

/** A stand-in for {@link currentHandle}: each use reads the transaction in progress, else the database. */
function ambientHandle(): Db {
  return new Proxy({} as Db, {
    get(_, key) {
      const handle = currentHandle();
      const value: unknown = Reflect.get(handle, key, handle);
      return typeof value === "function" ? value.bind(handle) : value;
    },
    set: (_, key, value) => Reflect.set(currentHandle(), key, value),
    has: (_, key) => Reflect.has(currentHandle(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(currentHandle()),
  });
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
export function transaction<T>(fn: () => Promise<T>, options?: { savepoint?: boolean }): Promise<T> {
  const scope = scopes.getStore();
  if (scope?.tx && !options?.savepoint) return fn();
  const database = databaseOf(scope);
  const outer = (scope?.tx as Db | undefined) ?? database;
  return outer.transaction((tx) => inScope({ database, tx }, fn));
}

/**
 * Runs `fn` in a read-only repeatable-read transaction: every query it makes sees one snapshot of
 * the database (reports, `kasse check`), and any write fails.
 * @example
 * const report = await readSnapshot(() => checkIntegrity());
 */
export function readSnapshot<T>(fn: () => Promise<T>): Promise<T> {
  const database = databaseOf(scopes.getStore());
  return database.transaction((tx) =>
    inScope({ database, tx }, async () => {
      await tx.execute(sql`set transaction isolation level repeatable read, read only`);
      return fn();
    }),
  );
}

/**
 * Takes transaction-scoped advisory locks on `keys` in the transaction in progress, in sorted
 * order so that two callers locking overlapping sets can never deadlock. Released at commit or rollback.
 * @example
 * await transaction(async () => { await lockKeys([`cart:${id}`]); ... });
 */
export async function lockKeys(keys: readonly string[]): Promise<void> {
  const handle = currentHandle();
  for (const key of [...new Set(keys)].sort())
    await handle.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * The current handle as a drizzle database: each use reads the transaction in progress, else the
 * database ({@link transaction}, {@link onDatabase}). Queries files build their statements on it.
 * @example
 * const rows = await db.select().from(salesChannel).where(and(...conditions));
 */
export const db: Db = ambientHandle();
