import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PoolUsage } from "./pool-usage";

/**
 * A drizzle handle over either driver (postgres.js or PGlite), or a transaction on one.
 * Services take this type so the same code runs inside and outside a transaction.
 */
export type Db = PgDatabase<PgQueryResultHKT, Record<string, never>, ExtractTablesWithRelations<Record<string, never>>>;

/** A drizzle transaction handle: what a workflow step receives. */
export type Tx = PgTransaction<
  PgQueryResultHKT,
  Record<string, never>,
  ExtractTablesWithRelations<Record<string, never>>
>;

/** Which driver a {@link Database} runs on. */
export type DriverKind = "postgres" | "pglite";

/** An open database: the drizzle handle plus its lifecycle. */
export interface Database {
  db: Db;
  kind: DriverKind;
  /** PostgreSQL only: how much of the connection pool is taken now. */
  poolUsage?(): PoolUsage;
  /** One trivial query; rejects when the database does not answer. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a dump of its data directory, to start another in-memory database from (`connect`'s `snapshot`). */
  snapshot?(): Promise<Blob>;
  /**
   * Takes a session advisory lock on `key` for as long as this process lives (on PostgreSQL, on a
   * connection of its own, so a crash releases it when the connection drops), or undefined when
   * another session holds it. Released by `release()` or when the database closes.
   */
  holdLock?(key: string): Promise<HeldLock | undefined>;
}

/** A session lock taken with {@link Database.holdLock}. */
export interface HeldLock {
  release(): Promise<void>;
}
