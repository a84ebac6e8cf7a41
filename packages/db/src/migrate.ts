import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { Database } from "./types";

/** The repository's one ordered migration history (drizzle-kit output). */
export const migrationsFolder = fileURLToPath(new URL("../../../drizzle", import.meta.url));

/** Applies every pending migration in `drizzle/`, on either driver. */
export async function migrate(database: Database): Promise<void> {
  if (!existsSync(join(migrationsFolder, "meta", "_journal.json"))) return; // no migration generated yet
  const config = { migrationsFolder, migrationsSchema: "drizzle" };
  if (database.kind === "pglite") await migratePglite(database.db as unknown as PgliteDatabase, config);
  else await migratePostgres(database.db as unknown as PostgresJsDatabase, config);
}
