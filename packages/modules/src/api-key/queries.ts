import { and, eq, gt, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import {
  db,
  first,
  inFilters,
  inList,
  insertRows,
  liveRecords,
  rowsOf,
  statement,
  textSearch,
  type Placeholders,
} from "@kasse/db";
import { apiKey, apiKeySalesChannel as links } from "./schema";
import type { ApiKeyFilters, ApiKeyType } from "./shapes";

// The api-key module's SQL: the only file of the module that imports drizzle and its tables.

const keys = liveRecords(apiKey, "API key", { title: apiKey.title, revoked_at: apiKey.revoked_at });

/**
 * Revocation takes effect at `revoked_at`; a key is active until then. `now` is the caller's clock: a
 * statement's placeholder is given it as an ISO 8601 text, what the column's encoder makes of a `Date`
 * (a placeholder compared with a column skips the encoder).
 */
const activeAt = (now: SQL | Date) => or(isNull(apiKey.revoked_at), gt(apiKey.revoked_at, now))!;
const revokedAt = (now: SQL | Date) => and(isNotNull(apiKey.revoked_at), lte(apiKey.revoked_at, now))!;

/** The filters of a key list as conditions. */
function conditions(filters: ApiKeyFilters): SQL[] {
  const now = new Date();
  const out = inFilters(filters, { id: apiKey.id });
  if (filters.type) out.push(eq(apiKey.type, filters.type));
  if (filters.revoked === true) out.push(revokedAt(now));
  if (filters.revoked === false) out.push(activeAt(now));
  out.push(...textSearch(filters.q, [apiKey.title, apiKey.redacted]));
  return out;
}

/** Named statements on the api-key tables, run on the current handle. */
export const apiKeyQueries = {
  ...keys,
  list: keys.listBy(conditions),
  /** Revokes the live key `id` active at `now` (`at` as ISO text); undefined when there is no such key. */
  revoke: first(
    statement((v: Placeholders<{ id: string; by: string; now: string; at: Date }>) =>
      db
        .update(apiKey)
        .set({ revoked_at: v.at, revoked_by: v.by, updated_at: v.at })
        .where(and(eq(apiKey.id, v.id), keys.live, activeAt(v.now)))
        .returning({ id: apiKey.id }),
    ),
  ),
  /** Soft-deletes the live key `id` if it is revoked at `now`; undefined when there is no such key. */
  softDeleteRevoked: first(
    statement((v: Placeholders<{ id: string; now: string; at: Date }>) =>
      db
        .update(apiKey)
        .set({ deleted_at: v.at, updated_at: v.at })
        .where(and(eq(apiKey.id, v.id), keys.live, revokedAt(v.now)))
        .returning({ id: apiKey.id }),
    ),
  ),
  /** Marks the key changed at `at` (its sales channels changed). */
  touch: statement((v: Placeholders<{ id: string; at: Date }>) =>
    db.update(apiKey).set({ updated_at: v.at }).where(eq(apiKey.id, v.id)),
  ),
  /** The sales channel links of the keys `ids`, oldest first. */
  channelsOf: rowsOf(links, links.api_key_id, { order: [links.created_at, links.sales_channel_id] }),
  /** Inserts links of keys to channels; a link that exists stays as it is. */
  link: insertRows(links, { onConflictDoNothing: true }),
  unlink: statement((v: Placeholders<{ id: string; channels: string[] }>) =>
    db.delete(links).where(and(eq(links.api_key_id, v.id), inList(links.sales_channel_id, v.channels))),
  ),
  /** The live key of `type` active at `now` whose token has this hash: every request with a key looks it up. */
  activeByHash: first(
    statement((v: Placeholders<{ hash: string; type: ApiKeyType; now: string }>) =>
      db
        .select({ id: apiKey.id, created_by: apiKey.created_by })
        .from(apiKey)
        .where(and(eq(apiKey.token_hash, v.hash), eq(apiKey.type, v.type), keys.live, activeAt(v.now))),
    ),
  ),
  /** Who made the live secret key `id` active at `now`, if it is one. */
  activeSecretById: first(
    statement((v: Placeholders<{ id: string; now: string }>) =>
      db
        .select({ created_by: apiKey.created_by })
        .from(apiKey)
        .where(and(eq(apiKey.id, v.id), eq(apiKey.type, "secret"), keys.live, activeAt(v.now))),
    ),
  ),
};
