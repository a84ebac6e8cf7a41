import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { generateId } from "@kasse/core";
import { transaction, type Db, timestamptz, createdAt } from "@kasse/db";

/**
 * Single-use, expiring secrets of the auth flows: password reset tokens, email change tokens and
 * OAuth `state` values. Only a SHA-256 of the secret is stored; using one marks it used in the
 * same statement that checks it, so two concurrent uses cannot both succeed.
 */
export const authOneTimeToken = pgTable(
  "auth_one_time_token",
  {
    id: text("id").primaryKey(),
    kind: text("kind").$type<OneTimeTokenKind>().notNull(),
    token_hash: text("token_hash").notNull(),
    actor_type: text("actor_type").notNull(),
    /** The provider (`emailpass`, `google`, ...) the token belongs to. */
    provider: text("provider").notNull(),
    /** The identity and email a reset or email change token was issued for (null for an OAuth state). */
    auth_identity_id: text("auth_identity_id"),
    entity_id: text("entity_id"),
    /** Flow data kept server-side (an OAuth PKCE verifier, the customer of an email change), never sent to the browser. */
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    expires_at: timestamptz("expires_at").notNull(),
    used_at: timestamptz("used_at"),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex("auth_one_time_token_hash_uq").on(t.token_hash),
    index("auth_one_time_token_identity_idx").on(t.auth_identity_id),
    index("auth_one_time_token_expires_idx").on(t.expires_at),
  ],
);

export type OneTimeTokenKind = "password_reset" | "email_change" | "oauth_state";
export type OneTimeTokenRow = typeof authOneTimeToken.$inferSelect;

const sha256 = (secret: string) => createHash("sha256").update(secret).digest("hex");

/**
 * Issues and consumes one-time tokens.
 * @example
 * const tokens = createOneTimeTokenService(db);
 * const { secret } = await tokens.issue({ kind: "password_reset", actor_type: "customer", provider: "emailpass", ttlMs: 15 * 60_000 });
 * const row = await tokens.consume("password_reset", secret); // null when unknown, used or expired
 */
export function createOneTimeTokenService(db: Db) {
  const service = {
    /**
     * A new random secret (256 bits) and its stored row; the secret itself is never stored. With
     * `replace`, the identity's unused tokens of the kind stop working first (only the latest link works).
     */
    async issue(input: {
      kind: OneTimeTokenKind;
      actor_type: string;
      provider: string;
      ttlMs: number;
      auth_identity_id?: string | null;
      entity_id?: string | null;
      data?: Record<string, unknown>;
      secret?: string;
      replace?: boolean;
    }): Promise<{ secret: string; row: OneTimeTokenRow }> {
      if (input.replace && input.auth_identity_id)
        return transaction(db, async (t) => {
          await createOneTimeTokenService(t).revokeForIdentity(input.kind, input.auth_identity_id!);
          return createOneTimeTokenService(t).issue({ ...input, replace: false });
        });
      const secret = input.secret ?? randomBytes(32).toString("base64url");
      const [row] = await db
        .insert(authOneTimeToken)
        .values({
          id: generateId("otok"),
          kind: input.kind,
          token_hash: sha256(secret),
          actor_type: input.actor_type,
          provider: input.provider,
          auth_identity_id: input.auth_identity_id ?? null,
          entity_id: input.entity_id ?? null,
          data: input.data ?? {},
          expires_at: new Date(Date.now() + input.ttlMs),
        })
        .returning();
      return { secret, row: row! };
    },

    /**
     * Marks the token used and returns it, if it is of `kind`, unused, unexpired and matches
     * `where`; otherwise null and nothing changes. Atomic: one UPDATE decides.
     */
    async consume(
      kind: OneTimeTokenKind,
      secret: string,
      where: { actor_type?: string; provider?: string; entity_id?: string; auth_identity_id?: string } = {},
    ): Promise<OneTimeTokenRow | null> {
      const [row] = await db
        .update(authOneTimeToken)
        .set({ used_at: sql`now()` })
        .where(
          and(
            eq(authOneTimeToken.token_hash, sha256(secret)),
            eq(authOneTimeToken.kind, kind),
            isNull(authOneTimeToken.used_at),
            gt(authOneTimeToken.expires_at, sql`now()`),
            where.actor_type === undefined ? undefined : eq(authOneTimeToken.actor_type, where.actor_type),
            where.provider === undefined ? undefined : eq(authOneTimeToken.provider, where.provider),
            where.entity_id === undefined ? undefined : eq(authOneTimeToken.entity_id, where.entity_id),
            where.auth_identity_id === undefined
              ? undefined
              : eq(authOneTimeToken.auth_identity_id, where.auth_identity_id),
          ),
        )
        .returning();
      return row ?? null;
    },

    /** Makes a consumed token usable again until it expires (the undo of {@link consume} when what it allowed failed). */
    async release(id: string): Promise<void> {
      await db.update(authOneTimeToken).set({ used_at: null }).where(eq(authOneTimeToken.id, id));
    },

    /** Voids every unused token of `kind` for an identity (after a password change, older reset links stop working). */
    async revokeForIdentity(kind: OneTimeTokenKind, authIdentityId: string): Promise<void> {
      await db
        .update(authOneTimeToken)
        .set({ used_at: sql`now()` })
        .where(
          and(
            eq(authOneTimeToken.kind, kind),
            eq(authOneTimeToken.auth_identity_id, authIdentityId),
            isNull(authOneTimeToken.used_at),
          ),
        );
    },
  };
  return service;
}

export type OneTimeTokenService = ReturnType<typeof createOneTimeTokenService>;
