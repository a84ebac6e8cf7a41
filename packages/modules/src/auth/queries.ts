import { and, asc, eq, gt, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { db, groupBy, inList, insertRows, rowsOf, statement, type Placeholders } from "@kasse/db";
import {
  authIdentity,
  authMfaChallenge,
  authMfaFactor,
  authMfaRecoveryCode,
  authOneTimeToken,
  providerIdentity,
  type OneTimeTokenKind,
  type AuthIdentityRow,
  type MfaChallengeRow,
  type MfaFactorRow,
  type OneTimeTokenRow,
  type ProviderIdentityRow,
} from "./schema";
import type { MfaMethod } from "./shapes";

// The auth module's SQL (identities and their sign-ins, one-time tokens, second factors): the only
// file of the module that imports drizzle and its tables.

const liveIdentity = isNull(authIdentity.deleted_at);
/** `app_metadata ->> key`: the actor an identity is linked to as one type (`user_id`, `customer_id`). */
const linkedTo = (key: SQL) => sql`${authIdentity.app_metadata} ->> ${key}`;

// ---- identities

const identityById = statement((v: Placeholders<{ id: string }>) =>
  db
    .select()
    .from(authIdentity)
    .where(and(eq(authIdentity.id, v.id), liveIdentity)),
);

const providersOf = rowsOf(providerIdentity, providerIdentity.auth_identity_id, {
  order: [asc(providerIdentity.created_at), asc(providerIdentity.id)],
});

const identityByProvider = statement((v: Placeholders<{ provider: string; entity_id: string }>) =>
  db
    .select({ identity: authIdentity })
    .from(providerIdentity)
    .innerJoin(authIdentity, eq(authIdentity.id, providerIdentity.auth_identity_id))
    .where(and(eq(providerIdentity.provider, v.provider), eq(providerIdentity.entity_id, v.entity_id), liveIdentity)),
);

const insertIdentity = statement((v: Placeholders<{ id: string; app_metadata: Record<string, unknown> }>) =>
  db.insert(authIdentity).values({ id: v.id, app_metadata: v.app_metadata }).returning(),
);

type ProviderIdentityInsert = Pick<
  ProviderIdentityRow,
  "id" | "entity_id" | "provider" | "auth_identity_id" | "user_metadata" | "provider_metadata" | "verified_email"
>;

const insertProviderIdentity = statement((v: Placeholders<ProviderIdentityInsert>) =>
  db.insert(providerIdentity).values(v).returning(),
);

const deleteIdentity = statement((v: Placeholders<{ id: string }>) =>
  db.delete(authIdentity).where(eq(authIdentity.id, v.id)).returning({ id: authIdentity.id }),
);

// Linking to the same actor again changes nothing; an identity linked to another actor of the type is left as it is.
const linkActor = statement((v: Placeholders<{ id: string; key: string; actor: string; updated_at: Date }>) =>
  db
    .update(authIdentity)
    .set({
      app_metadata: sql`${authIdentity.app_metadata} || jsonb_build_object(${v.key}::text, ${v.actor}::text)`,
      updated_at: v.updated_at,
    })
    .where(and(eq(authIdentity.id, v.id), liveIdentity, sql`coalesce(${linkedTo(v.key)}, ${v.actor}) = ${v.actor}`))
    .returning({ id: authIdentity.id }),
);

const unlinkActor = statement((v: Placeholders<{ id: string; key: string; updated_at: Date }>) =>
  db
    .update(authIdentity)
    .set({ app_metadata: sql`${authIdentity.app_metadata} - ${v.key}::text`, updated_at: v.updated_at })
    .where(eq(authIdentity.id, v.id)),
);

const identityIdsOfActor = statement((v: Placeholders<{ key: string; actor: string }>) =>
  db
    .select({ id: authIdentity.id })
    .from(authIdentity)
    .where(and(sql`${linkedTo(v.key)} = ${v.actor}`, liveIdentity)),
);

const identitiesOfActor = statement((v: Placeholders<{ key: string; actor: string }>) =>
  db
    .select()
    .from(authIdentity)
    .where(and(sql`${linkedTo(v.key)} = ${v.actor}`, liveIdentity)),
);

const providerIdsOfActor = statement((v: Placeholders<{ key: string; actor: string }>) =>
  db
    .selectDistinct({ provider: providerIdentity.provider })
    .from(providerIdentity)
    .innerJoin(authIdentity, eq(authIdentity.id, providerIdentity.auth_identity_id))
    .where(and(sql`${linkedTo(v.key)} = ${v.actor}`, liveIdentity))
    .orderBy(asc(providerIdentity.provider)),
);

const endSessions = statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
  db
    .update(authIdentity)
    .set({ credentials_version: sql`${authIdentity.credentials_version} + 1`, updated_at: v.updated_at })
    .where(eq(authIdentity.id, v.id)),
);

// A token's check on every request that presents one (`sessionAlive`).
const aliveIdentity = statement((v: Placeholders<{ id: string; version: number }>) =>
  db
    .select({ id: authIdentity.id })
    .from(authIdentity)
    .where(and(eq(authIdentity.id, v.id), liveIdentity, eq(authIdentity.credentials_version, v.version))),
);

const aliveLinkedIdentity = statement((v: Placeholders<{ id: string; version: number; key: string; actor: string }>) =>
  db
    .select({ id: authIdentity.id })
    .from(authIdentity)
    .where(
      and(
        eq(authIdentity.id, v.id),
        liveIdentity,
        eq(authIdentity.credentials_version, v.version),
        sql`${linkedTo(v.key)} = ${v.actor}`,
      ),
    ),
);

const lockLiveIdentities = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .select()
    .from(authIdentity)
    .where(and(inList(authIdentity.id, v.ids), liveIdentity))
    .orderBy(asc(authIdentity.id))
    .for("update"),
);

const disableIdentities = statement((v: Placeholders<{ ids: string[]; at: Date }>) =>
  db.update(authIdentity).set({ deleted_at: v.at, updated_at: v.at }).where(inList(authIdentity.id, v.ids)),
);

const enableIdentities = statement((v: Placeholders<{ ids: string[]; at: Date }>) =>
  db.update(authIdentity).set({ deleted_at: null, updated_at: v.at }).where(inList(authIdentity.id, v.ids)),
);

const purgeDisabled = statement((v: Placeholders<{ ids: string[] }>) =>
  db
    .delete(authIdentity)
    .where(and(inList(authIdentity.id, v.ids), isNotNull(authIdentity.deleted_at)))
    .returning({ id: authIdentity.id }),
);

const deleteTokensOf = statement((v: Placeholders<{ ids: string[] }>) =>
  db.delete(authOneTimeToken).where(inList(authOneTimeToken.auth_identity_id, v.ids)),
);

const moveLogin = statement((v: Placeholders<{ ids: string[]; provider: string; email: string; updated_at: Date }>) =>
  db
    .update(providerIdentity)
    .set({ entity_id: v.email, verified_email: v.email, updated_at: v.updated_at })
    .where(and(inList(providerIdentity.auth_identity_id, v.ids), eq(providerIdentity.provider, v.provider))),
);

// ---- one-time tokens

type TokenInsert = Omit<OneTimeTokenRow, "used_at" | "created_at">;

const insertToken = statement((v: Placeholders<TokenInsert>) => db.insert(authOneTimeToken).values(v).returning());

/** What a token must match besides its secret and kind: a key left undefined is not checked. */
type TokenMatch = {
  actor_type?: string;
  provider?: string;
  entity_id?: string;
  auth_identity_id?: string;
};

// One statement per set of keys given (a key left undefined is a shape of its own, unchecked).
const consumeToken = statement((v: Placeholders<{ token_hash: string; kind: OneTimeTokenKind } & TokenMatch>) =>
  db
    .update(authOneTimeToken)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(authOneTimeToken.token_hash, v.token_hash),
        eq(authOneTimeToken.kind, v.kind),
        isNull(authOneTimeToken.used_at),
        gt(authOneTimeToken.expires_at, sql`now()`),
        v.actor_type === undefined ? undefined : eq(authOneTimeToken.actor_type, v.actor_type),
        v.provider === undefined ? undefined : eq(authOneTimeToken.provider, v.provider),
        v.entity_id === undefined ? undefined : eq(authOneTimeToken.entity_id, v.entity_id),
        v.auth_identity_id === undefined ? undefined : eq(authOneTimeToken.auth_identity_id, v.auth_identity_id),
      ),
    )
    .returning(),
);

const releaseToken = statement((v: Placeholders<{ id: string }>) =>
  db.update(authOneTimeToken).set({ used_at: null }).where(eq(authOneTimeToken.id, v.id)),
);

const revokeTokens = statement((v: Placeholders<{ kind: OneTimeTokenKind; auth_identity_id: string }>) =>
  db
    .update(authOneTimeToken)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(authOneTimeToken.kind, v.kind),
        eq(authOneTimeToken.auth_identity_id, v.auth_identity_id),
        isNull(authOneTimeToken.used_at),
      ),
    ),
);

// ---- second factors

const lockOwnFactor = statement((v: Placeholders<{ identity_id: string; id: string }>) =>
  db
    .select()
    .from(authMfaFactor)
    .where(and(eq(authMfaFactor.id, v.id), eq(authMfaFactor.auth_identity_id, v.identity_id)))
    .for("update"),
);

const lockFactorOfProvider = statement((v: Placeholders<{ identity_id: string; provider: string }>) =>
  db
    .select()
    .from(authMfaFactor)
    .where(and(eq(authMfaFactor.auth_identity_id, v.identity_id), eq(authMfaFactor.provider, v.provider)))
    .for("update"),
);

const factorsOf = statement((v: Placeholders<{ identity_id: string }>) =>
  db
    .select()
    .from(authMfaFactor)
    .where(eq(authMfaFactor.auth_identity_id, v.identity_id))
    .orderBy(asc(authMfaFactor.created_at), asc(authMfaFactor.id)),
);

const enabledFactorOf = statement((v: Placeholders<{ identity_id: string; provider: string }>) =>
  db
    .select()
    .from(authMfaFactor)
    .where(
      and(
        eq(authMfaFactor.auth_identity_id, v.identity_id),
        eq(authMfaFactor.provider, v.provider),
        eq(authMfaFactor.status, "enabled"),
      ),
    ),
);

const enabledFactorIds = statement((v: Placeholders<{ identity_id: string }>) =>
  db
    .select({ id: authMfaFactor.id })
    .from(authMfaFactor)
    .where(and(eq(authMfaFactor.auth_identity_id, v.identity_id), eq(authMfaFactor.status, "enabled"))),
);

// A code of a later time step than any accepted before (none accepted yet: any).
const useTotpStep = statement((v: Placeholders<{ id: string; step: number; updated_at: Date }>) =>
  db
    .update(authMfaFactor)
    .set({ last_used_step: v.step, updated_at: v.updated_at })
    .where(
      and(
        eq(authMfaFactor.id, v.id),
        or(isNull(authMfaFactor.last_used_step), lt(authMfaFactor.last_used_step, v.step)),
      ),
    )
    .returning({ id: authMfaFactor.id }),
);

const useRecoveryCode = statement((v: Placeholders<{ identity_id: string; code_hash: string }>) =>
  db
    .update(authMfaRecoveryCode)
    .set({ used_at: sql`now()` })
    .where(
      and(
        eq(authMfaRecoveryCode.auth_identity_id, v.identity_id),
        eq(authMfaRecoveryCode.code_hash, v.code_hash),
        isNull(authMfaRecoveryCode.used_at),
      ),
    )
    .returning({ id: authMfaRecoveryCode.id }),
);

const deleteFactor = statement((v: Placeholders<{ id: string }>) =>
  db.delete(authMfaFactor).where(eq(authMfaFactor.id, v.id)),
);

const firstLogin = statement((v: Placeholders<{ identity_id: string }>) =>
  db
    .select({ entity_id: providerIdentity.entity_id })
    .from(providerIdentity)
    .where(eq(providerIdentity.auth_identity_id, v.identity_id))
    .orderBy(asc(providerIdentity.created_at), asc(providerIdentity.id))
    .limit(1),
);

type FactorInsert = Pick<
  MfaFactorRow,
  "id" | "auth_identity_id" | "provider" | "status" | "label" | "secret" | "metadata"
>;

const insertFactor = statement((v: Placeholders<FactorInsert>) => db.insert(authMfaFactor).values(v).returning());

const enableFactor = statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
  db
    .update(authMfaFactor)
    .set({ status: "enabled", updated_at: v.updated_at })
    .where(eq(authMfaFactor.id, v.id))
    .returning(),
);

const deleteChallengesOf = statement((v: Placeholders<{ identity_id: string }>) =>
  db.delete(authMfaChallenge).where(eq(authMfaChallenge.auth_identity_id, v.identity_id)),
);
const deleteRecoveryCodesOf = statement((v: Placeholders<{ identity_id: string }>) =>
  db.delete(authMfaRecoveryCode).where(eq(authMfaRecoveryCode.auth_identity_id, v.identity_id)),
);
const deleteFactorsOf = statement((v: Placeholders<{ identity_id: string }>) =>
  db.delete(authMfaFactor).where(eq(authMfaFactor.auth_identity_id, v.identity_id)),
);

const insertRecoveryCodes = insertRows(authMfaRecoveryCode);

const unusedRecoveryCode = statement((v: Placeholders<{ identity_id: string }>) =>
  db
    .select({ id: authMfaRecoveryCode.id })
    .from(authMfaRecoveryCode)
    .where(and(eq(authMfaRecoveryCode.auth_identity_id, v.identity_id), isNull(authMfaRecoveryCode.used_at)))
    .limit(1),
);

// `since` as ISO text: compared with the column, a placeholder skips the column's encoder.
const failedAttemptsSince = statement((v: Placeholders<{ identity_id: string; since: string }>) =>
  db
    .select({ failed: sql<number>`coalesce(sum(${authMfaChallenge.attempts}), 0)::int` })
    .from(authMfaChallenge)
    .where(
      and(
        eq(authMfaChallenge.auth_identity_id, v.identity_id),
        isNull(authMfaChallenge.completed_at),
        gt(authMfaChallenge.created_at, v.since),
      ),
    ),
);

const deleteDeadChallenges = statement((v: Placeholders<{ identity_id: string }>) =>
  db
    .delete(authMfaChallenge)
    .where(
      and(
        eq(authMfaChallenge.auth_identity_id, v.identity_id),
        lt(authMfaChallenge.expires_at, sql`now() - interval '1 day'`),
      ),
    ),
);

type ChallengeInsert = Pick<
  MfaChallengeRow,
  "id" | "auth_identity_id" | "actor_type" | "auth_provider" | "methods" | "max_attempts" | "expires_at"
>;

const insertChallenge = statement((v: Placeholders<ChallengeInsert>) =>
  db.insert(authMfaChallenge).values(v).returning(),
);

const attemptChallenge = statement((v: Placeholders<{ id: string }>) =>
  db
    .update(authMfaChallenge)
    .set({ attempts: sql`${authMfaChallenge.attempts} + 1` })
    .where(
      and(
        eq(authMfaChallenge.id, v.id),
        isNull(authMfaChallenge.completed_at),
        gt(authMfaChallenge.expires_at, sql`now()`),
        lt(authMfaChallenge.attempts, authMfaChallenge.max_attempts),
      ),
    )
    .returning(),
);

const challengeById = statement((v: Placeholders<{ id: string }>) =>
  db.select().from(authMfaChallenge).where(eq(authMfaChallenge.id, v.id)),
);

const completeChallenge = statement((v: Placeholders<{ id: string }>) =>
  db
    .update(authMfaChallenge)
    .set({ completed_at: sql`now()` })
    .where(eq(authMfaChallenge.id, v.id)),
);

/** Named statements on the auth tables, run on the current handle. */
export const authQueries = {
  // --- identities
  identity: async (id: string): Promise<AuthIdentityRow | undefined> => (await identityById({ id }))[0],
  /** The provider identities of the identities `ids`, oldest first, by identity id (every one has an entry). */
  async providersOf(ids: string[]): Promise<Map<string, ProviderIdentityRow[]>> {
    if (ids.length === 0) return new Map();
    return groupBy(await providersOf(ids), (p) => p.auth_identity_id, { keys: ids });
  },
  /** The live identity signing in with `provider` as `entityId`. */
  identityByProvider: async (provider: string, entityId: string): Promise<AuthIdentityRow[]> =>
    (await identityByProvider({ provider, entity_id: entityId })).map((r) => r.identity),
  insertIdentity: async (id: string, appMetadata: Record<string, unknown>): Promise<AuthIdentityRow> =>
    (await insertIdentity({ id, app_metadata: appMetadata }))[0]!,
  insertProviderIdentity: async (row: ProviderIdentityInsert): Promise<ProviderIdentityRow> =>
    (await insertProviderIdentity(row))[0]!,
  /** Sets `changes` on the provider identity (its `updated_at` too); the row, if there is one. */
  async updateProviderIdentity(
    id: string,
    changes: Partial<Pick<ProviderIdentityRow, "user_metadata" | "provider_metadata" | "verified_email">>,
  ): Promise<ProviderIdentityRow | undefined> {
    const [row] = await db
      .update(providerIdentity)
      .set({ ...changes, updated_at: new Date() })
      .where(eq(providerIdentity.id, id))
      .returning();
    return row;
  },
  /** Deletes the identity (its provider identities go with it); whether there was one. */
  deleteIdentity: async (id: string): Promise<boolean> => (await deleteIdentity({ id })).length > 0,
  /** Links the live identity to `actor` under `key` unless it is linked to another; whether it is linked to it now. */
  linkActor: async (id: string, key: string, actor: string): Promise<boolean> =>
    (await linkActor({ id, key, actor, updated_at: new Date() })).length > 0,
  unlinkActor: async (id: string, key: string): Promise<void> => {
    await unlinkActor({ id, key, updated_at: new Date() });
  },
  /** The ids of the live identities linked to `actor` under `key`. */
  identityIdsOfActor: async (key: string, actor: string): Promise<string[]> =>
    (await identityIdsOfActor({ key, actor })).map((r) => r.id),
  /** The live identities linked to `actor` under `key`. */
  identitiesOfActor: (key: string, actor: string): Promise<AuthIdentityRow[]> => identitiesOfActor({ key, actor }),
  /** The providers the live identities linked to `actor` under `key` sign in with, by name. */
  providerIdsOfActor: async (key: string, actor: string): Promise<string[]> =>
    (await providerIdsOfActor({ key, actor })).map((r) => r.provider),
  endSessions: async (id: string): Promise<void> => {
    await endSessions({ id, updated_at: new Date() });
  },
  /** Whether the identity is live at `version` and, with `linked`, linked to that actor. */
  async alive(id: string, version: number, linked?: { key: string; actor: string }): Promise<boolean> {
    const rows = linked ? await aliveLinkedIdentity({ id, version, ...linked }) : await aliveIdentity({ id, version });
    return rows.length > 0;
  },
  /** The live identities among `ids`, locked for the rest of the transaction, by id. */
  lockLiveIdentities: (ids: string[]): Promise<AuthIdentityRow[]> => lockLiveIdentities({ ids }),
  disableIdentities: async (ids: string[]): Promise<void> => {
    await disableIdentities({ ids, at: new Date() });
  },
  enableIdentities: async (ids: string[]): Promise<void> => {
    await enableIdentities({ ids, at: new Date() });
  },
  /** Deletes the disabled identities among `ids` and their one-time tokens. */
  async purgeDisabled(ids: string[]): Promise<void> {
    const purged = (await purgeDisabled({ ids })).map((row) => row.id);
    if (purged.length) await deleteTokensOf({ ids: purged });
  },
  /** Moves the `provider` login of the identities `ids` to `email`, proven. */
  moveLogin: async (ids: string[], provider: string, email: string): Promise<void> => {
    await moveLogin({ ids, provider, email, updated_at: new Date() });
  },

  // --- one-time tokens
  insertToken: async (row: TokenInsert): Promise<OneTimeTokenRow> => (await insertToken(row))[0]!,
  /** Marks the unused, unexpired token of `kind` with the hash `tokenHash` matching `where` used; the row, if so. */
  consumeToken: async (
    kind: OneTimeTokenKind,
    tokenHash: string,
    where: TokenMatch,
  ): Promise<OneTimeTokenRow | undefined> =>
    (
      await consumeToken({
        token_hash: tokenHash,
        kind,
        actor_type: where.actor_type,
        provider: where.provider,
        entity_id: where.entity_id,
        auth_identity_id: where.auth_identity_id,
      })
    )[0],
  releaseToken: async (id: string): Promise<void> => {
    await releaseToken({ id });
  },
  revokeTokens: async (kind: OneTimeTokenKind, authIdentityId: string): Promise<void> => {
    await revokeTokens({ kind, auth_identity_id: authIdentityId });
  },

  // --- second factors
  /** The identity's factor `id`, locked for the rest of the transaction. */
  lockOwnFactor: async (identityId: string, id: string): Promise<MfaFactorRow | undefined> =>
    (await lockOwnFactor({ identity_id: identityId, id }))[0],
  lockFactorOfProvider: async (identityId: string, provider: string): Promise<MfaFactorRow | undefined> =>
    (await lockFactorOfProvider({ identity_id: identityId, provider }))[0],
  factorsOf: (identityId: string): Promise<MfaFactorRow[]> => factorsOf({ identity_id: identityId }),
  enabledFactorOf: async (identityId: string, provider: MfaMethod): Promise<MfaFactorRow | undefined> =>
    (await enabledFactorOf({ identity_id: identityId, provider }))[0],
  hasEnabledFactor: async (identityId: string): Promise<boolean> =>
    (await enabledFactorIds({ identity_id: identityId })).length > 0,
  /** Records `step` as the factor's last accepted one, if it is later; whether it was. */
  useTotpStep: async (id: string, step: number): Promise<boolean> =>
    (await useTotpStep({ id, step, updated_at: new Date() })).length > 0,
  /** Marks the identity's unused recovery code of `codeHash` used; whether there was one. */
  useRecoveryCode: async (identityId: string, codeHash: string): Promise<boolean> =>
    (await useRecoveryCode({ identity_id: identityId, code_hash: codeHash })).length > 0,
  deleteFactor: async (id: string): Promise<void> => {
    await deleteFactor({ id });
  },
  /** The entity id (email) of the identity's first sign-in. */
  firstLogin: async (identityId: string): Promise<string | undefined> =>
    (await firstLogin({ identity_id: identityId }))[0]?.entity_id,
  insertFactor: async (row: FactorInsert): Promise<MfaFactorRow> => (await insertFactor(row))[0]!,
  enableFactor: async (id: string): Promise<MfaFactorRow> => (await enableFactor({ id, updated_at: new Date() }))[0]!,
  deleteChallengesOf: async (identityId: string): Promise<void> => {
    await deleteChallengesOf({ identity_id: identityId });
  },
  deleteRecoveryCodesOf: async (identityId: string): Promise<void> => {
    await deleteRecoveryCodesOf({ identity_id: identityId });
  },
  deleteFactorsOf: async (identityId: string): Promise<void> => {
    await deleteFactorsOf({ identity_id: identityId });
  },
  insertRecoveryCodes: async (rows: Array<{ id: string; auth_identity_id: string; code_hash: string }>) => {
    await insertRecoveryCodes(rows);
  },
  hasUnusedRecoveryCode: async (identityId: string): Promise<boolean> =>
    (await unusedRecoveryCode({ identity_id: identityId })).length > 0,
  /** The wrong codes of the identity's unfinished challenges opened after `since`. */
  failedAttemptsSince: async (identityId: string, since: Date): Promise<number> =>
    (await failedAttemptsSince({ identity_id: identityId, since: since.toISOString() }))[0]!.failed,
  deleteDeadChallenges: async (identityId: string): Promise<void> => {
    await deleteDeadChallenges({ identity_id: identityId });
  },
  insertChallenge: async (row: ChallengeInsert): Promise<MfaChallengeRow> => (await insertChallenge(row))[0]!,
  /** Counts an attempt at the open, unexpired, not exhausted challenge; the row, if it was one. */
  attemptChallenge: async (id: string): Promise<MfaChallengeRow | undefined> => (await attemptChallenge({ id }))[0],
  challenge: async (id: string): Promise<MfaChallengeRow | undefined> => (await challengeById({ id }))[0],
  completeChallenge: async (id: string): Promise<void> => {
    await completeChallenge({ id });
  },
};
