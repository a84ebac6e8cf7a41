import { mkdirSync } from "node:fs";
import { sql, type Logger } from "drizzle-orm";
import { connectionFailure } from "./pg-error";
import { countingUse } from "./pool-usage";
import { preparingRepeated } from "./repeated-statements";
import { withTimeout } from "./timeout";
import type { Database, HeldLock } from "./types";

export interface ConnectOptions {
  /** PostgreSQL URL; without it Kasse runs on PGlite. */
  url?: string;
  /** PGlite data directory; `undefined` keeps the database in memory. */
  dataDir?: string;
  /** postgres.js pool size. */
  poolSize?: number;
  /** Sees every statement drizzle sends, in transactions too (the test helpers count them). */
  logger?: Logger;
  /**
   * PGlite in memory only: starts from this dump of a data directory (`Database.snapshot`) instead
   * of running initdb, which is most of an in-memory start (the test helper loads one migrated dump per file).
   */
  snapshot?: Blob;
  /**
   * PostgreSQL: count what holds the pool's connections (`Database.poolUsage`, for a process's
   * metrics). Off by default: the count costs every statement a wrapper and a callback.
   */
  countPoolUsage?: boolean;
}

/** How long opening a PostgreSQL connection may take (postgres.js waits 30 s by default): a wrong host is said within seconds. */
const CONNECT_TIMEOUT_S = 10;

/**
 * Opens the database: postgres.js when a URL is given, else PGlite (on disk or in memory). Each
 * driver is loaded only when used: a process runs on one of them, and loading the other cost a
 * start about 40 ms of CPU and a few MiB. A PostgreSQL database is reached once before this
 * resolves: one that cannot be used rejects with a `SetupError` naming the cause and the fix.
 * @example
 * const database = await connect({ url: process.env.DATABASE_URL, dataDir: ".kasse/data" });
 */
export async function connect(options: ConnectOptions = {}): Promise<Database> {
  if (options.url) return connectPostgres(options.url, options.poolSize ?? 10, options);
  return connectPglite(options);
}

async function connectPostgres(
  url: string,
  max: number,
  { logger, countPoolUsage }: ConnectOptions,
): Promise<Database> {
  const [{ default: postgres }, { drizzle: drizzlePostgres }] = await Promise.all([
    import("postgres"),
    import("drizzle-orm/postgres-js"),
  ]);
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_S,
    connection: { application_name: "kasse" },
  });
  try {
    // The first connection (kept in the pool): a wrong host, port, database or role is said here, once.
    await client`select 1`;
  } catch (error) {
    await client.end({ timeout: 0 }).catch(() => {});
    throw connectionFailure(error, url, CONNECT_TIMEOUT_S);
  }
  const counted = countPoolUsage ? countingUse(client, max) : undefined;
  const db = drizzlePostgres(preparingRepeated(counted?.client ?? client), { logger });
  const lockSessions = new Set<{ end(options?: { timeout?: number }): Promise<void> }>();
  return {
    db,
    kind: "postgres",
    ...(counted ? { poolUsage: counted.usage } : {}),
    ping: (timeoutMs = 2000) =>
      answered(
        db.execute(sql`select 1`).then(() => undefined),
        timeoutMs,
      ),
    holdLock: async (key) => {
      // A connection of its own, outside the pool: the lock lives exactly as long as it does.
      const session = postgres(url, {
        max: 1,
        idle_timeout: 0,
        onnotice: () => {},
        connect_timeout: CONNECT_TIMEOUT_S,
      });
      const [row] = await session<
        Array<{ held: boolean }>
      >`select pg_try_advisory_lock(hashtextextended(${key}, 0)) as held`.catch(async (error: unknown) => {
        await session.end({ timeout: 0 });
        throw error;
      });
      if (!row?.held) {
        await session.end({ timeout: 0 });
        return undefined;
      }
      lockSessions.add(session);
      return {
        release: async () => {
          lockSessions.delete(session);
          await session.end({ timeout: 5 });
        },
      };
    },
    close: async () => {
      await Promise.all([...lockSessions].map((session) => session.end({ timeout: 5 })));
      lockSessions.clear();
      await client.end({ timeout: 5 });
    },
  };
}

/**
 * PGlite's shared buffers. Its initdb writes PostgreSQL's 128MB, which every start zeroes inside
 * the WebAssembly memory: a tenth of a start's CPU and 110 MiB of resident memory for a database
 * of a few tens of MB. Pages beyond it are read from the operating system's file cache.
 */
export const PGLITE_SHARED_BUFFERS = "32MB";

async function connectPglite({ dataDir, logger, snapshot }: ConnectOptions): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("drizzle-orm/pglite"),
  ]);
  // pg_trgm backs the trigram indexes of product search (`q`); PGlite loads extensions at construction.
  const client = new PGlite({
    ...(dataDir ? { dataDir } : {}),
    ...(snapshot && !dataDir ? { loadDataDir: snapshot } : {}),
    extensions: { pg_trgm },
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  await client.waitReady;
  const db = drizzlePglite(client, { logger });
  let closed = false;
  return {
    db,
    kind: "pglite",
    ping: async (timeoutMs = 2000) => {
      if (closed) throw new Error("database is closed");
      await answered(
        client.query("select 1").then(() => undefined),
        timeoutMs,
      );
    },
    // Its one session is this process's: the lock is released when the database closes.
    holdLock: async (key): Promise<HeldLock | undefined> => {
      const { rows } = await client.query<{ held: boolean }>(
        "select pg_try_advisory_lock(hashtextextended($1, 0)) as held",
        [key],
      );
      if (!rows[0]?.held) return undefined;
      return {
        release: async () => {
          if (!closed) await client.query("select pg_advisory_unlock(hashtextextended($1, 0))", [key]);
        },
      };
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
    snapshot: () => client.dumpDataDir("none"),
  };
}

/** A ping's answer within `ms`, else "database did not answer within <ms> ms". */
const answered = (promise: Promise<void>, ms: number): Promise<void> =>
  withTimeout(promise, ms, () => new Error(`database did not answer within ${ms} ms`));
