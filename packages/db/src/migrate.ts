import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import type { PgliteDatabase } from "drizzle-orm/pglite";
import type { PostgresJsDatabase } from "drizzle-orm/postgres-js";
import { queryRows } from "./rows";
import { SetupError } from "./setup-error";
import type { Database } from "./types";

/** The repository's one ordered migration history (drizzle-kit output). */
export const migrationsFolder = fileURLToPath(new URL("../../../drizzle", import.meta.url));

const MIGRATIONS_SCHEMA = "drizzle";

/** Applies every pending migration in `drizzle/`, on either driver. */
export async function migrate(database: Database): Promise<void> {
  if (!existsSync(join(migrationsFolder, "meta", "_journal.json"))) return; // no migration generated yet
  const config = { migrationsFolder, migrationsSchema: MIGRATIONS_SCHEMA };
  if (database.kind === "pglite") await migratePglite(database.db as unknown as PgliteDatabase, config);
  else await migratePostgres(database.db as unknown as PostgresJsDatabase, config);
}

/** How far a database's migrations are from this code's. */
export interface MigrationStatus {
  /** Migrations this code ships (`drizzle/meta/_journal.json`). */
  expected: number;
  /** Tags of the shipped migrations the database has not applied, oldest first. */
  pending: string[];
}

interface JournalEntry {
  tag: string;
  when: number;
}

let journal: JournalEntry[] | undefined;

/** The shipped migrations, read once per process: the code does not change while it runs. */
function shippedMigrations(): JournalEntry[] {
  if (journal) return journal;
  const file = join(migrationsFolder, "meta", "_journal.json");
  journal = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { entries: JournalEntry[] }).entries : [];
  return journal;
}

/**
 * Compares the database's migration table (`drizzle.__drizzle_migrations`) with the shipped
 * journal the way drizzle's migrator does: a migration is pending when it is newer than the
 * last one applied. Two small queries; a database never migrated has every migration pending.
 */
export async function migrationStatus(database: Database): Promise<MigrationStatus> {
  const shipped = shippedMigrations();
  const [table] = await queryRows<{ name: string | null }>(
    database.db,
    sql`select to_regclass(${`${MIGRATIONS_SCHEMA}.__drizzle_migrations`})::text as name`,
  );
  let last = -Infinity;
  if (table?.name) {
    const [row] = await queryRows<{ created_at: string | number | null }>(
      database.db,
      sql`select max(created_at) as created_at from ${sql.identifier(MIGRATIONS_SCHEMA)}.__drizzle_migrations`,
    );
    if (row?.created_at !== null && row?.created_at !== undefined) last = Number(row.created_at);
  }
  return { expected: shipped.length, pending: shipped.filter((m) => m.when > last).map((m) => m.tag) };
}

/** The database is missing migrations this code needs: serving it would fail on every request. */
export class MigrationsPendingError extends SetupError {
  override name = "MigrationsPendingError";
  constructor(readonly status: MigrationStatus) {
    const never = status.pending.length === status.expected;
    super(
      `${never ? "The database has not been migrated" : "The database is behind this version of Kasse"}: ` +
        `${status.pending.length} of ${status.expected} migrations pending (${status.pending.join(", ")}). Run \`kasse migrate\` first.`,
    );
  }
}

/** Throws a {@link MigrationsPendingError} unless every shipped migration is applied. */
export async function assertMigrated(database: Database): Promise<void> {
  const status = await migrationStatus(database);
  if (status.pending.length > 0) throw new MigrationsPendingError(status);
}
