import { index, pgTable, primaryKey, text, uniqueIndex } from "@kasse/db";
import { entityTable, parentId, timestamptz, createdAt, indexes } from "@kasse/db";

export const apiKey = entityTable(
  "api_key",
  {
    token: text("token"),
    token_hash: text("token_hash").notNull(),
    redacted: text("redacted").notNull(),
    title: text("title").notNull(),
    type: text("type").$type<"secret" | "publishable">().notNull(),
    created_by: text("created_by").notNull(),
    revoked_by: text("revoked_by"),
    revoked_at: timestamptz("revoked_at"),
  },
  (t) => [
    // Every authenticated request looks its key up by this hash.
    uniqueIndex("api_key_token_hash_uq").on(t.token_hash),
    ...indexes("api_key", { type: t.type, title: t.title, created_at: t.created_at }),
  ],
);

/** A publishable key's sales channels (plain ids: the sales-channel module owns the channels). */
export const apiKeySalesChannel = pgTable(
  "api_key_sales_channel",
  {
    api_key_id: parentId("api_key_id", () => apiKey.id, { onDelete: "cascade" }),
    sales_channel_id: text("sales_channel_id").notNull(),
    created_at: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.api_key_id, t.sales_channel_id] }),
    index("api_key_sales_channel_sales_channel_id_idx").on(t.sales_channel_id),
  ],
);
export type ApiKeyRow = typeof apiKey.$inferSelect;
