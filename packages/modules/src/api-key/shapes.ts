import { Type, type Static } from "@sinclair/typebox";
import { Title, Strict, LinkChanges } from "@kasse/core";
import { TimestampView, type ListFilters } from "@kasse/db";
import { type ApiKeyRow } from "./schema";

/**
 * API keys. Secret keys (`sk_…`) authenticate admin requests; only their sha256 is stored,
 * so `token` is null and `redacted` is what is shown. Publishable keys (`pk_…`) select the
 * store's sales channels; their token is not secret and is kept in full.
 */
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
  revoked_at: Type.Optional(Type.Union([TimestampView(), Type.Null()])),
  sales_channels: Type.Optional(Type.Array(Type.Object({ id: Type.String() }))),
  created_at: Type.Optional(TimestampView()),
  updated_at: Type.Optional(TimestampView()),
  deleted_at: Type.Optional(Type.Union([TimestampView(), Type.Null()])),
});

/** Filters of `GET /admin/api-keys`. */
export interface ApiKeyFilters extends ListFilters {
  type?: ApiKeyType;
  /** true: only revoked keys; false: only active ones. */
  revoked?: boolean;
}

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export { type ApiKeyRow } from "./schema";
