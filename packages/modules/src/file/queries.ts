import { and, count, eq, isNull, sql, sum } from "drizzle-orm";
import { db, first, statement, type Placeholders } from "@kasse/db";
import { storedFile } from "./schema";

// The file module's SQL: the only file of the module that imports drizzle and its table.

const live = isNull(storedFile.deleted_at);

const usage = first(
  statement(() =>
    db
      .select({ bytes: sum(storedFile.size).mapWith(Number), files: count() })
      .from(storedFile)
      .where(live),
  ),
);

/** Named statements on the `file` table, run on the current handle. */
export const fileQueries = {
  /** What the live files take: their bytes and their number. */
  usage: async (): Promise<{ bytes: number; files: number }> => {
    const row = await usage();
    return { bytes: row?.bytes ?? 0, files: row?.files ?? 0 };
  },
  /** Records a stored file. */
  insert: statement((v: Placeholders<{ id: string; mime: string; size: number }>) => db.insert(storedFile).values(v)),
  /** Marks a file deleted; undefined when it was not live. */
  softDelete: first(
    statement((v: Placeholders<{ id: string }>) =>
      db
        .update(storedFile)
        .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
        .where(and(eq(storedFile.id, v.id), live))
        .returning({ id: storedFile.id }),
    ),
  ),
};
