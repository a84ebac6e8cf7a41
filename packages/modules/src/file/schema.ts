import { integer, text } from "@kasse/db";
import { entityTable } from "@kasse/db";

/**
 * The files stored through the file module, one row per file (its key as id): what the upload
 * quota counts. A deleted file's row is soft-deleted and no longer counts.
 */
export const storedFile = entityTable("file", {
  mime: text("mime").notNull(),
  size: integer("size").notNull(),
});
