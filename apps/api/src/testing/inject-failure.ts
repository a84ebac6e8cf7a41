import { sql } from "drizzle-orm";
import type { Db } from "@kasse/db";

/**
 * Test helper: makes every write of `op` on `table` (matching `when`, a trigger WHEN condition over
 * NEW/OLD) raise an error while `fn` runs, to fail one workflow step for real.
 * @example
 * await withFailure(db, "reservation_item", "UPDATE", "true", () => cancel());
 */
export async function withFailure<T>(
  db: Db,
  table: string,
  op: "INSERT" | "UPDATE" | "DELETE",
  when: string,
  fn: () => Promise<T>,
): Promise<T> {
  await db.execute(
    sql.raw(
      `create or replace function kasse_test_injected_failure() returns trigger language plpgsql as $$ begin raise exception 'injected failure on %', tg_table_name; end $$`,
    ),
  );
  await db.execute(
    sql.raw(
      `create trigger kasse_test_injected_failure before ${op} on "${table}" for each row when (${when}) execute function kasse_test_injected_failure()`,
    ),
  );
  try {
    return await fn();
  } finally {
    await db.execute(sql.raw(`drop trigger kasse_test_injected_failure on "${table}"`));
  }
}
