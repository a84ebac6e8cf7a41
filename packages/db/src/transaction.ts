import { sql } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./types";

/**
 * Runs `fn` in one transaction: everything it writes commits together or not at all.
 * Inside an open transaction it nests as a savepoint.
 */
export function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Tx));
}

/**
 * True when `db` is a transaction: its statements go down one connection in the order they are
 * sent, so a write may send several at once (pipelined) and PostgreSQL still runs them in order.
 */
export const isTransaction = (db: Db | Tx): boolean => db instanceof PgTransaction;

/**
 * Takes transaction-scoped advisory locks on `keys`, in sorted order so that two
 * callers locking overlapping sets can never deadlock. Released at commit or rollback.
 * @example
 * await transaction(db, async (tx) => { await lockKeys(tx, [`cart:${id}`]); ... });
 */
export async function lockKeys(tx: Tx | Db, keys: readonly string[]): Promise<void> {
  const sorted = [...new Set(keys)].sort();
  for (const key of sorted) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  }
}

/**
 * Runs `fn` in a read-only repeatable-read transaction: every query it makes sees one snapshot of
 * the database (reports, `kasse check`), and any write fails.
 */
export function readSnapshot<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set transaction isolation level repeatable read, read only`);
    return fn(tx as unknown as Tx);
  });
}
