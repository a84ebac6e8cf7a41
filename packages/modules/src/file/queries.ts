import { and, count, eq, isNull, sql, sum } from "drizzle-orm";
import { db, statement, type Placeholders } from "@kasse/db";
import { storedFile } from "./schema";

// The file module's SQL: the only file of the module that imports drizzle and its table.

const live = isNull(storedFile.deleted_at);

const usage = statement(() =>
  db
    .select({ bytes: sum(storedFile.size).mapWith(Number), files: count() })
    .from(storedFile)
    .where(live),
);

const insert = statement((v: Placeholders<{ id: string; mime: string; size: number }>) =>
  db.insert(storedFile).values({ id: v.id, mime: v.mime, size: v.size }),
);

const softDelete = statement((v: Placeholders<{ id: string }>) =>
  db
    .update(storedFile)
    .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
    .where(and(eq(storedFile.id, v.id), live))
    .returning({ id: storedFile.id }),
);

/** Named statements on the `file` table, run on the current handle. */
export const fileQueries = {
  /** What the live files take: their bytes and their number. */
  usage: async (): Promise<{ bytes: number; files: number }> => {
    const [row] = await usage();
    return { bytes: row?.bytes ?? 0, files: row?.files ?? 0 };
  },
  /** Records a stored file. */
  insert: async (row: { id: string; mime: string; size: number }): Promise<void> => {
    await insert(row);
  },
  /** Marks a file deleted; true when it was live. */
  softDelete: async (id: string): Promise<boolean> => (await softDelete({ id })).length > 0,
};
