import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { processDatabaseOf, useDatabase } from "../ambient";
import { connect, PGLITE_SHARED_BUFFERS } from "../connect";
import { migrate, migrationsFolder } from "../migrate";
import type { KasseError } from "@kasse/core";
import type { Database } from "../types";
import { StatementLog } from "./statements";

export interface TestDatabase extends Database {
  /** The PostgreSQL URL of this test's own database; undefined on PGlite. */
  url: string | undefined;
  /**
   * The query logger: records the statements sent through `db` (in transactions too), and the SQL
   * texts drizzle assembles for them, while a test asks it to.
   */
  statements: StatementLog;
}

/**
 * Gives the calling test file a fresh, migrated database of its own, dropped by `close()`:
 * on PostgreSQL (when `DATABASE_URL` is set) a new database cloned from a migrated template,
 * else an in-memory PGlite. Test files therefore run in parallel without sharing rows. The first one
 * open in the test process is its database (`useDatabase`: what converted modules run on outside a
 * request or `onDatabase`) until it closes.
 * @example
 * const database = await createTestDatabase();
 * afterAll(() => database.close());
 */
export async function createTestDatabase(options: { poolSize?: number } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  const statements = new StatementLog();
  if (!serverUrl) {
    const database = await connect({ logger: statements, snapshot: await migratedSnapshot() });
    statements.watchBuilds(database.db);
    return asProcessDatabase({ ...database, url: undefined, statements });
  }
  const template = await ensureTemplate(serverUrl);
  const name = `kasse_t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString("hex")}`;
  await withAdmin(serverUrl, (admin) => admin.unsafe(`create database ${name} template ${template}`));
  const url = databaseUrl(serverUrl, name);
  const database = await connect({ url, poolSize: options.poolSize ?? 10, logger: statements });
  statements.watchBuilds(database.db);
  return asProcessDatabase({
    ...database,
    url,
    statements,
    close: async () => {
      await database.close();
      await withAdmin(serverUrl, (admin) => admin.unsafe(`drop database if exists ${name} with (force)`));
    },
  });
}

/** The test process's database while it has none, given back when it closes. */
function asProcessDatabase(database: TestDatabase): TestDatabase {
  if (processDatabaseOf()) return database;
  useDatabase(database.db);
  return {
    ...database,
    close: async () => {
      if (processDatabaseOf() === database.db) useDatabase(undefined);
      await database.close();
    },
  };
}

/**
 * A second handle on another test's database, as a second process has: on PostgreSQL its own
 * connection pool (and statement log), on PGlite the same in-memory database. Closing it leaves
 * the database to its owner.
 */
export async function joinTestDatabase(owner: TestDatabase): Promise<TestDatabase> {
  if (!owner.url) return { ...owner, close: async () => {} };
  const statements = new StatementLog();
  const database = await connect({ url: owner.url, poolSize: 10, logger: statements });
  statements.watchBuilds(database.db);
  return { ...database, url: owner.url, statements };
}

/** Whether tests run on PostgreSQL (true) or on PGlite (false). */
/**
 * The error `promise` rejects with; fails the test when it resolves.
 * @example
 * expect((await failure(service.retrieve("nope"))).type).toBe("not_found");
 */
export const failure = (promise: Promise<unknown>): Promise<KasseError> =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: KasseError) => error,
  );

export const onPostgres = (): boolean => Boolean(process.env.DATABASE_URL);

function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    if (!file.endsWith(".sql") && !file.endsWith(".json")) continue;
    hash.update(file);
    hash.update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest("hex").slice(0, 12);
}

let snapshotReady: Promise<Blob> | undefined;

/**
 * PGlite's counterpart of the PostgreSQL template: a dump of a freshly migrated in-memory database,
 * kept in the temporary folder per migration history and PGlite version. Loading it takes about a
 * second; initdb and the migrations took 5 to 9 s per test file. The dump is read once per test worker
 * (the files a worker runs share its module cache: `isolate: false`).
 */
function migratedSnapshot(): Promise<Blob> {
  snapshotReady ??= (async () => {
    const pglite = pgliteVersion();
    const file = join(tmpdir(), `kasse-pglite-${migrationsHash()}-${pglite}-${PGLITE_SHARED_BUFFERS}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await connect({});
    try {
      await migrate(database);
      const dump = Buffer.from(await (await database.snapshot!()).arrayBuffer());
      // Written aside and renamed: a file running at the same time reads a whole dump or none.
      const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
      writeFileSync(partial, dump);
      renameSync(partial, file);
      return new Blob([dump]);
    } finally {
      await database.close();
    }
  })();
  return snapshotReady;
}

/** The installed PGlite's version (its package.json is not among its exports). */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const manifest = join(entry.slice(0, entry.lastIndexOf("/dist/")), "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

let templateReady: Promise<string> | undefined;

/** Creates (once per migration history) a migrated template database to clone from. */
function ensureTemplate(serverUrl: string): Promise<string> {
  templateReady ??= (async () => {
    const template = `kasse_tpl_${migrationsHash()}`;
    await withAdmin(serverUrl, async (admin) => {
      // A session lock on the single admin connection: CREATE DATABASE cannot run in a transaction.
      await admin`select pg_advisory_lock(8675309)`;
      try {
        await dropStale(admin, template);
        const [exists] = await admin`select 1 from pg_database where datname = ${template}`;
        if (exists) return;
        await admin.unsafe(`create database ${template}`);
        // Its birth time, so runs on another migration history (another branch) leave it alone for a while.
        await admin.unsafe(`comment on database ${template} is '${Math.floor(Date.now() / 1000)}'`);
        const database = await connect({ url: databaseUrl(serverUrl, template), poolSize: 1 });
        try {
          await migrate(database);
        } catch (error) {
          await database.close();
          await admin.unsafe(`drop database if exists ${template} with (force)`);
          throw error;
        }
        await database.close();
      } finally {
        await admin`select pg_advisory_unlock(8675309)`;
      }
    });
    return template;
  })();
  return templateReady;
}

/**
 * Drops test databases left by killed runs (> 2 h old) and other migration histories' templates
 * older than 6 h: a run on another branch may still be cloning a younger one.
 */
async function dropStale(admin: postgres.Sql, keep: string): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const rows =
    await admin`select datname, shobj_description(oid, 'pg_database') as born from pg_database where datname like 'kasse\_t%'`;
  for (const { datname, born } of rows as unknown as Array<{ datname: string; born: string | null }>) {
    if (datname === keep) continue;
    const stamp = /^kasse_t_(\d+)_/.exec(datname)?.[1];
    const template = datname.startsWith("kasse_tpl_");
    const stale = template ? Number(born ?? 0) < now - 6 * 3600 : stamp !== undefined && Number(stamp) < now - 7200;
    if (stale) await admin.unsafe(`drop database if exists ${datname} with (force)`).catch(() => {});
  }
}

async function withAdmin<T>(serverUrl: string, fn: (admin: postgres.Sql) => Promise<T>): Promise<T> {
  const admin = postgres(databaseUrl(serverUrl, "postgres"), { max: 1, onnotice: () => {} });
  try {
    return await fn(admin);
  } finally {
    await admin.end({ timeout: 5 });
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
