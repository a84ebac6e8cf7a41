import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, timestamptz } from "./columns";

/**
 * HTTP `Idempotency-Key` records (docs/CONTRACT.md, Stripe's semantics): one row per caller scope and
 * key, `running` while the first request runs, then `completed` with the response to replay.
 */
export const idempotencyKey = pgTable(
  "idempotency_key",
  {
    /** Who may replay the key: an actor, an API key, or anonymous + publishable key + ip. */
    scope: text("scope").notNull(),
    /** sha256 of the client's key: the key itself decrypts the stored response, so it is not kept. */
    key: text("key").notNull(),
    /** HMAC of method, path and canonical body: a repeat with another request is a conflict. */
    fingerprint: text("fingerprint").notNull(),
    state: text("state").$type<"running" | "completed">().notNull(),
    response_status: integer("response_status"),
    response_content_type: text("response_content_type"),
    /** The response body, encrypted with a key derived from the client's key (it may hold secrets). */
    response_body: text("response_body"),
    /** When the current run started; a `running` row older than the stale limit belongs to a dead process. */
    locked_at: timestamptz("locked_at").notNull().defaultNow(),
    created_at: createdAt(),
    expires_at: timestamptz("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_key_expires_at_idx").on(t.expires_at)],
);

export type IdempotencyKeyRow = typeof idempotencyKey.$inferSelect;

/**
 * The catalog's version: one row, bumped by a statement trigger on every table a store catalog
 * answer is read from (`CATALOG_TABLES`, migration 0010), in the writing transaction. Each API
 * process keeps its catalog answers under the version it read before reading them, so a write is
 * seen by every process as soon as it commits. `cart_version` moves with it and also with every
 * other table a cart's prices, promotions and shipping are computed from (`CART_TABLES`): a cart
 * stamped with it is known to be computed from what the store offers while it has not moved.
 */
export const catalogVersion = pgTable("catalog_version", {
  id: integer("id").primaryKey().default(1),
  version: bigint("version", { mode: "number" }).notNull().default(0),
  cart_version: bigint("cart_version", { mode: "number" }).notNull().default(0),
});
