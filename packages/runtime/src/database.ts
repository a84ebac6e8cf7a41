import { connect, useDatabase, type Database } from "@kasse/db";
import type { BaseConfig } from "./config";

/**
 * Opens the configured database and makes it the process's (`useDatabase`: what every query runs
 * on): PGlite under `<KASSE_DATA_DIR>/data` in embedded mode, else PostgreSQL at `DATABASE_URL`.
 */
export async function openDatabase(config: BaseConfig): Promise<Database> {
  const database = await connect({
    url: config.databaseUrl,
    dataDir: config.embedded ? `${config.dataDir}/data` : undefined,
  });
  useDatabase(database.db);
  return database;
}
