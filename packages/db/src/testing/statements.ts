import type { Logger } from "drizzle-orm";

/**
 * A drizzle query logger on every test database: it records the statements run while a test
 * records (inside transactions too), so a test can pin how many statements a request costs.
 * Nothing is kept outside a recording.
 * @example
 * const n = await t.database.statements.count(() => t.app.inject({ method: "GET", url: "/store/regions" }));
 */
export class StatementLog implements Logger {
  private recordings: string[][] = [];

  logQuery(query: string): void {
    for (const recording of this.recordings) recording.push(query);
  }

  /** Runs `fn` and returns the SQL text of every statement run meanwhile, in order (anything else running on the database counts too). */
  async record(fn: () => Promise<unknown>): Promise<string[]> {
    const recording: string[] = [];
    this.recordings.push(recording);
    try {
      await fn();
    } finally {
      this.recordings = this.recordings.filter((r) => r !== recording);
    }
    return recording;
  }

  /** Runs `fn` and returns how many statements ran meanwhile. */
  async count(fn: () => Promise<unknown>): Promise<number> {
    return (await this.record(fn)).length;
  }
}
