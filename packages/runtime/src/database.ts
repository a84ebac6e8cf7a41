import { connect, type Database } from "@kasse/db";
import type { BaseConfig } from "./config";

/** Opens the configured database: PGlite under `<KASSE_DATA_DIR>/data` in embedded mode, else PostgreSQL at `DATABASE_URL`. */
export function openDatabase(config: BaseConfig): Promise<Database> {
  return connect({ url: config.databaseUrl, dataDir: config.embedded ? `${config.dataDir}/data` : undefined });
}
