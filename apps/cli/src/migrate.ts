import { lockKeys, migrate, migrationStatus, onDatabase, transaction, type Database } from "@kasse/db";

/**
 * Applies pending migrations while holding a PostgreSQL advisory lock, so two processes
 * started together (a rolling deploy) migrate one after the other: the second waits, then finds
 * nothing left to do. PGlite has one process by construction and needs no lock.
 */
export async function migrateExclusively(database: Database): Promise<void> {
  // A restart finds nothing pending: two small queries instead of drizzle's reading and hashing every migration file.
  if (database.kind === "pglite")
    return (await migrationStatus(database)).pending.length > 0 ? migrate(database) : undefined;
  // The lock is held by this transaction's connection; the migrator runs on another one of the pool.
  await onDatabase(database.db, () =>
    transaction(async () => {
      await lockKeys(["kasse:migrate"]);
      await migrate(database);
    }),
  );
}
