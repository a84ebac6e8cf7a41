import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db, Tx } from "./types";

/**
 * True when `db` is a transaction: its statements go down one connection in the order they are
 * sent, so a write may send several at once (pipelined) and PostgreSQL still runs them in order.
 * @deprecated The form of modules not yet converted ([16]): converted code asks `inTransaction()`.
 */
export const isTransaction = (db: Db | Tx): boolean => db instanceof PgTransaction;
