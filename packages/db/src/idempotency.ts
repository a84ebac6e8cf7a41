import { and, eq, lt, sql } from "drizzle-orm";
import { idempotencyKey } from "./schema";
import type { Db } from "./types";

/** How long a key is kept (docs/CONTRACT.md: at least 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** A `running` key older than this was left by a process that died mid-request and may be taken over. */
export const IDEMPOTENCY_STALE_MS = 5 * 60 * 1000;

/** A stored response, replayed as it was sent. */
export interface StoredResponse {
  status: number;
  contentType: string | null;
  body: string;
}

/** What {@link claimIdempotencyKey} found. */
export type IdempotencyClaim =
  | { outcome: "claimed" }
  | { outcome: "replay"; response: StoredResponse }
  | { outcome: "conflict"; reason: "different_request" | "in_progress" };

export interface ClaimInput {
  scope: string;
  key: string;
  fingerprint: string;
  ttlMs?: number;
  staleMs?: number;
}

/**
 * Claims `key` for one request in one statement, so two concurrent requests can never both run:
 * the first inserts a `running` row; later ones get the stored response, or a conflict while it
 * runs or when their request differs. An expired key, or a stale `running` one of the same
 * request, is taken over.
 */
export async function claimIdempotencyKey(db: Db, input: ClaimInput): Promise<IdempotencyClaim> {
  const ttl = input.ttlMs ?? IDEMPOTENCY_TTL_MS;
  const stale = input.staleMs ?? IDEMPOTENCY_STALE_MS;
  const fresh = {
    fingerprint: input.fingerprint,
    state: "running" as const,
    response_status: null,
    response_content_type: null,
    response_body: null,
    locked_at: sql`now()`,
    created_at: sql`now()`,
    expires_at: sql`now() + ${ttl} * interval '1 millisecond'`,
  };
  // A row deleted between the insert and the read (its request failed with a 5xx) is claimed again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await db
      .insert(idempotencyKey)
      .values({ scope: input.scope, key: input.key, ...fresh })
      .onConflictDoUpdate({
        target: [idempotencyKey.scope, idempotencyKey.key],
        set: fresh,
        setWhere: sql`${idempotencyKey.expires_at} < now() or (${idempotencyKey.state} = 'running' and ${idempotencyKey.locked_at} < now() - ${stale} * interval '1 millisecond' and ${idempotencyKey.fingerprint} = ${input.fingerprint})`,
      })
      .returning({ key: idempotencyKey.key });
    if (claimed.length > 0) return { outcome: "claimed" };
    const [row] = await db
      .select()
      .from(idempotencyKey)
      .where(and(eq(idempotencyKey.scope, input.scope), eq(idempotencyKey.key, input.key)));
    if (!row) continue;
    if (row.fingerprint !== input.fingerprint) return { outcome: "conflict", reason: "different_request" };
    if (row.state === "running") return { outcome: "conflict", reason: "in_progress" };
    return {
      outcome: "replay",
      response: {
        status: row.response_status ?? 200,
        contentType: row.response_content_type,
        body: row.response_body ?? "",
      },
    };
  }
  return { outcome: "conflict", reason: "in_progress" };
}

/** Stores the response of a claimed key so repeats replay it. */
export async function completeIdempotencyKey(
  db: Db,
  scope: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db
    .update(idempotencyKey)
    .set({
      state: "completed",
      response_status: response.status,
      response_content_type: response.contentType,
      response_body: response.body,
    })
    .where(and(eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, key), eq(idempotencyKey.state, "running")));
}

/** Forgets a claimed key whose request must be retryable (a 5xx, or a response that cannot be stored). */
export async function releaseIdempotencyKey(db: Db, scope: string, key: string): Promise<void> {
  await db
    .delete(idempotencyKey)
    .where(and(eq(idempotencyKey.scope, scope), eq(idempotencyKey.key, key), eq(idempotencyKey.state, "running")));
}

/**
 * Deletes expired idempotency keys; the worker's scheduled job calls it. Returns how many went.
 * @example
 * const purged = await purgeExpiredIdempotencyKeys(database.db);
 */
export async function purgeExpiredIdempotencyKeys(db: Db, now: Date = new Date()): Promise<number> {
  const deleted = await db
    .delete(idempotencyKey)
    .where(lt(idempotencyKey.expires_at, now))
    .returning({ key: idempotencyKey.key });
  return deleted.length;
}
