import type { Logger } from "drizzle-orm";
import type { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "../types";

/**
 * A drizzle query logger on every test database: it records the statements run while a test
 * records (inside transactions too), so a test can pin how many statements a request costs; and,
 * watching the database's dialect, the SQL texts drizzle assembles meanwhile (`builds`), so a test
 * can pin how many a request still builds instead of running one built once (`builtOnce`).
 * Nothing is kept outside a recording.
 * @example
 * const n = await t.database.statements.count(() => t.app.inject({ method: "GET", url: "/store/regions" }));
 */
export class StatementLog implements Logger {
  private readonly recordings: string[][] = [];
  private readonly buildRecordings: string[][] = [];

  logQuery(query: string): void {
    for (const recording of this.recordings) recording.push(query);
  }

  /**
   * Has {@link builds} see the SQL texts `db` assembles: every statement drizzle turns into text
   * goes through its dialect's `sqlToQuery` (transactions share the dialect), so that one is wrapped.
   */
  watchBuilds(db: Db): void {
    const dialect = (db as unknown as { dialect: PgDialect }).dialect;
    const sqlToQuery = dialect.sqlToQuery.bind(dialect);
    dialect.sqlToQuery = (...args: Parameters<PgDialect["sqlToQuery"]>) => {
      const query = sqlToQuery(...args);
      for (const recording of this.buildRecordings) recording.push(query.sql);
      return query;
    };
  }

  /** Runs `fn` and returns the SQL text of every statement run meanwhile, in order (anything else running on the database counts too). */
  record(fn: () => Promise<unknown>): Promise<string[]> {
    return collect(this.recordings, fn);
  }

  /** Runs `fn` and returns how many statements ran meanwhile. */
  async count(fn: () => Promise<unknown>): Promise<number> {
    return (await this.record(fn)).length;
  }

  /** Runs `fn` and returns the SQL texts drizzle assembled meanwhile, in order (a statement built once is not among them after its first use). */
  builds(fn: () => Promise<unknown>): Promise<string[]> {
    return collect(this.buildRecordings, fn);
  }
}

/** Adds a recording to `recordings` while `fn` runs, and returns it. */
async function collect(recordings: string[][], fn: () => Promise<unknown>): Promise<string[]> {
  const recording: string[] = [];
  recordings.push(recording);
  try {
    await fn();
  } finally {
    recordings.splice(recordings.indexOf(recording), 1);
  }
  return recording;
}
