import { lockKeys, migrate, transaction, type Database } from "@kasse/db";

/**
 * Applies pending migrations while holding a PostgreSQL advisory lock, so two processes
 * started together (a rolling deploy) migrate one after the other: the second waits, then finds
 * nothing left to do. PGlite has one process by construction and needs no lock.
 */
export async function migrateExclusively(database: Database): Promise<void> {
  if (database.kind === "pglite") return migrate(database);
  // The lock is held by this transaction's connection; the migrator runs on another one of the pool.
  await transaction(database.db, async (tx) => {
    await lockKeys(tx, ["kasse:migrate"]);
    await migrate(database);
  });
}
