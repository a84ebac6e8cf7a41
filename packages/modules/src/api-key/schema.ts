import { index, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { Type, type Static } from "@sinclair/typebox";
import { Title, Strict, LinkChanges } from "@kasse/core";
import { entityTable, parentId, timestamptz, createdAt, indexes, type ListFilters } from "@kasse/db";

/**
 * API keys. Secret keys (`sk_…`) authenticate admin requests; only their sha256 is stored,
 * so `token` is null and `redacted` is what is shown. Publishable keys (`pk_…`) select the
 * store's sales channels; their token is not secret and is kept in full.
 */
/** A timestamp in a response schema: a `Date` in code, ISO 8601 on the wire. */
const Timestamp = () => Type.Unsafe<Date>({ type: "string", format: "date-time" });

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
export type ApiKeyType = ApiKeyRow["type"];

export const ApiKeyTypeSchema = Type.Union([Type.Literal("secret"), Type.Literal("publishable")]);

/** Body of `POST /admin/api-keys`. */
export const ApiKeyCreate = Strict({ title: Title({ minLength: 1, maxLength: 200 }), type: ApiKeyTypeSchema });
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;

/** Body of `POST /admin/api-keys/{id}`. */
export const ApiKeyUpdate = Strict({ title: Type.Optional(Title({ minLength: 1, maxLength: 200 })) });
export type ApiKeyUpdate = Static<typeof ApiKeyUpdate>;

/** Body of `POST /admin/api-keys/{id}/sales-channels`. */
export const ApiKeySalesChannels = LinkChanges(1000);
export type ApiKeySalesChannels = Static<typeof ApiKeySalesChannels>;

/**
 * An API key as the API answers it. `token` is present only for publishable keys and in the
 * response creating a secret key; the hash is never part of it.
 */
export const ApiKeyView = Type.Object({
  id: Type.String(),
  token: Type.Optional(Type.String()),
  redacted: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  type: Type.Optional(ApiKeyTypeSchema),
  created_by: Type.Optional(Type.String()),
  revoked_by: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  revoked_at: Type.Optional(Type.Union([Timestamp(), Type.Null()])),
  sales_channels: Type.Optional(Type.Array(Type.Object({ id: Type.String() }))),
  created_at: Type.Optional(Timestamp()),
  updated_at: Type.Optional(Timestamp()),
  deleted_at: Type.Optional(Type.Union([Timestamp(), Type.Null()])),
});

/** Filters of `GET /admin/api-keys`. */
export interface ApiKeyFilters extends ListFilters {
  type?: ApiKeyType;
  /** true: only revoked keys; false: only active ones. */
  revoked?: boolean;
}
