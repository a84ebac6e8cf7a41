import { and, eq, gt, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import { db, inFilters, inList, liveRecords, rowsOf, statement, textSearch, type Placeholders } from "@kasse/db";
import { apiKey, apiKeySalesChannel, type ApiKeyRow } from "./schema";
import type { ApiKeyFilters, ApiKeyType } from "./shapes";

// The api-key module's SQL: the only file of the module that imports drizzle and its tables.

const keys = liveRecords(apiKey, "API key", { title: apiKey.title, revoked_at: apiKey.revoked_at });
const links = apiKeySalesChannel;

/**
 * Revocation takes effect at `revoked_at`; a key is active until then. `now` is the caller's clock: a
 * statement's placeholder is given it as an ISO 8601 text, what the column's encoder makes of a `Date`
 * (a placeholder compared with a column skips the encoder).
 */
const activeAt = (now: SQL | Date) => or(isNull(apiKey.revoked_at), gt(apiKey.revoked_at, now))!;
const revokedAt = (now: SQL | Date) => and(isNotNull(apiKey.revoked_at), lte(apiKey.revoked_at, now))!;

const insert = statement(
  (
    v: Placeholders<{
      id: string;
      token: string | null;
      token_hash: string;
      redacted: string;
      title: string;
      type: ApiKeyType;
      created_by: string;
    }>,
  ) => db.insert(apiKey).values(v).returning(),
);

const revoke = statement((v: Placeholders<{ id: string; by: string; now: string; at: Date }>) =>
  db
    .update(apiKey)
    .set({ revoked_at: v.at, revoked_by: v.by, updated_at: v.at })
    .where(and(eq(apiKey.id, v.id), keys.live, activeAt(v.now)))
    .returning({ id: apiKey.id }),
);

const softDeleteRevoked = statement((v: Placeholders<{ id: string; now: string; at: Date }>) =>
  db
    .update(apiKey)
    .set({ deleted_at: v.at, updated_at: v.at })
    .where(and(eq(apiKey.id, v.id), keys.live, revokedAt(v.now)))
    .returning({ id: apiKey.id }),
);

const touch = statement((v: Placeholders<{ id: string; at: Date }>) =>
  db.update(apiKey).set({ updated_at: v.at }).where(eq(apiKey.id, v.id)),
);

const channelsOf = rowsOf(links, links.api_key_id, { order: [links.created_at, links.sales_channel_id] });

const unlink = statement((v: Placeholders<{ id: string; channels: string[] }>) =>
  db.delete(links).where(and(eq(links.api_key_id, v.id), inList(links.sales_channel_id, v.channels))),
);

// Every request with a key looks it up by its token's hash.
const activeByHash = statement((v: Placeholders<{ hash: string; type: ApiKeyType; now: string }>) =>
  db
    .select({ id: apiKey.id, created_by: apiKey.created_by })
    .from(apiKey)
    .where(and(eq(apiKey.token_hash, v.hash), eq(apiKey.type, v.type), keys.live, activeAt(v.now))),
);

const activeSecretById = statement((v: Placeholders<{ id: string; now: string }>) =>
  db
    .select({ created_by: apiKey.created_by })
    .from(apiKey)
    .where(and(eq(apiKey.id, v.id), eq(apiKey.type, "secret"), keys.live, activeAt(v.now))),
);

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
  retrieve: keys.retrieve,
  /** Sets `fields` on the live key `id`. */
  update: keys.update,
  list: keys.listBy(conditions),
  insert: async (row: Parameters<typeof insert>[0]): Promise<ApiKeyRow> => (await insert(row))[0]!,
  /** Revokes the live, active key `id` now; false when there is no such key. */
  revoke: async (id: string, by: string): Promise<boolean> => {
    const at = new Date();
    return (await revoke({ id, by, at, now: at.toISOString() })).length > 0;
  },
  /** Soft-deletes the live key `id` if it is revoked; false when there is no such key. */
  softDeleteRevoked: async (id: string): Promise<boolean> => {
    const at = new Date();
    return (await softDeleteRevoked({ id, at, now: at.toISOString() })).length > 0;
  },
  /** Marks the key changed now (its sales channels changed). */
  touch: async (id: string): Promise<void> => {
    await touch({ id, at: new Date() });
  },
  /** The sales channel links of the keys `ids`, oldest first. */
  channelsOf,
  /** Links the key to the channels; a link that exists stays as it is. */
  async link(id: string, channels: string[]): Promise<void> {
    await db
      .insert(links)
      .values(channels.map((sales_channel_id) => ({ api_key_id: id, sales_channel_id })))
      .onConflictDoNothing();
  },
  unlink: async (id: string, channels: string[]): Promise<void> => {
    await unlink({ id, channels });
  },
  /** The live, active key of `type` whose token has this hash. */
  activeByHash: async (hash: string, type: ApiKeyType): Promise<Pick<ApiKeyRow, "id" | "created_by"> | undefined> =>
    (await activeByHash({ hash, type, now: new Date().toISOString() }))[0],
  /** Who made the live, active secret key `id`, if it is one. */
  makerOfActiveSecret: async (id: string): Promise<string | undefined> =>
    (await activeSecretById({ id, now: new Date().toISOString() }))[0]?.created_by,
};
