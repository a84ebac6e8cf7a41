import { connect, useDatabase, type Database } from "@kasse/db";
import type { BaseConfig } from "./config";
import { lockStore, type StoreLock } from "./store-lock";

/** An open database and, in embedded mode, the lock on its data folder (released when the database closes). */
export interface OpenDatabase {
  database: Database;
  storeLock?: StoreLock;
}

/**
 * Opens the configured database and makes it the process's (`useDatabase`: what every query runs
 * on): PGlite under `<KASSE_DATA_DIR>/data` in embedded mode, after locking the data folder to this
 * process (a second process on it is refused, told which process holds it: `holder` says what this
 * one is), else PostgreSQL at `DATABASE_URL`, its pool's usage counted when `countPoolUsage` (a
 * process serving metrics).
 */
export async function openDatabase(
  config: BaseConfig,
  holder = "a Kasse process",
  { countPoolUsage = false }: { countPoolUsage?: boolean } = {},
): Promise<OpenDatabase> {
  if (!config.embedded) {
    const database = await connect({ url: config.databaseUrl, countPoolUsage });
    useDatabase(database.db);
    return { database };
  }
  const storeLock = lockStore(config.dataDir, holder);
  let database: Database;
  try {
    database = await connect({ dataDir: `${config.dataDir}/data` });
  } catch (error) {
    storeLock.release();
    throw error;
  }
  useDatabase(database.db);
  const close = database.close;
  return {
    database: {
      ...database,
      close: async () => {
        try {
          await close();
        } finally {
          storeLock.release();
        }
      },
    },
    storeLock,
  };
}
