import { randomBytes } from "node:crypto";
import { generateId, hashSecret } from "@kasse/core";
import { transaction } from "@kasse/db";
import { authQueries as q, type TokenMatch } from "./queries";
import type { OneTimeTokenKind, OneTimeTokenRow } from "./schema";

/**
 * Issues and consumes one-time tokens: single-use, expiring secrets of the auth flows (password
 * reset and email change tokens, OAuth `state` values). Only a SHA-256 of a secret is stored; using
 * one marks it used in the statement that checks it, so two concurrent uses cannot both succeed.
 * Built once per process; every method runs in the transaction in progress, if any.
 * @example
 * const tokens = createOneTimeTokenService();
 * const { secret } = await tokens.issue({ kind: "password_reset", actor_type: "customer", provider: "emailpass", ttlMs: 15 * 60_000 });
 * const row = await tokens.consume("password_reset", secret); // null when unknown, used or expired
 */
export function createOneTimeTokenService() {
  const service = {
    /**
     * A new random secret (256 bits) and its stored row; the secret itself is never stored. With
     * `replace`, the identity's unused tokens of the kind stop working first (only the latest link works).
     */
    async issue(
      input: Pick<OneTimeTokenRow, "kind" | "actor_type" | "provider"> &
        Partial<Pick<OneTimeTokenRow, "auth_identity_id" | "entity_id" | "data">> & {
          ttlMs: number;
          secret?: string;
          replace?: boolean;
        },
    ): Promise<{ secret: string; row: OneTimeTokenRow }> {
      if (input.replace && input.auth_identity_id)
        return transaction(async () => {
          await service.revokeForIdentity(input.kind, input.auth_identity_id!);
          return service.issue({ ...input, replace: false });
        });
      const secret = input.secret ?? randomBytes(32).toString("base64url");
      const [row] = await q.insertToken({
        id: generateId("otok"),
        kind: input.kind,
        token_hash: hashSecret(secret),
        actor_type: input.actor_type,
        provider: input.provider,
        auth_identity_id: input.auth_identity_id ?? null,
        entity_id: input.entity_id ?? null,
        data: input.data ?? {},
        expires_at: new Date(Date.now() + input.ttlMs),
      });
      return { secret, row: row! };
    },

    /**
     * Marks the token used and returns it, if it is of `kind`, unused, unexpired and matches
     * `where`; otherwise null and nothing changes. Atomic: one UPDATE decides.
     */
    async consume(kind: OneTimeTokenKind, secret: string, where: TokenMatch = {}): Promise<OneTimeTokenRow | null> {
      return (await q.consumeToken({ ...where, kind, token_hash: hashSecret(secret) })) ?? null;
    },

    /** Makes a consumed token usable again until it expires (the undo of {@link consume} when what it allowed failed). */
    async release(id: string): Promise<void> {
      await q.releaseToken({ id });
    },

    /** Voids every unused token of `kind` for an identity (after a password change, older reset links stop working). */
    async revokeForIdentity(kind: OneTimeTokenKind, authIdentityId: string): Promise<void> {
      await q.revokeTokens({ kind, auth_identity_id: authIdentityId });
    },
  };
  return service;
}

export type OneTimeTokenService = ReturnType<typeof createOneTimeTokenService>;
