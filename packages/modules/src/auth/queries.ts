import { and, asc, eq, gt, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { db, first, inList, insertRows, liveRecords, rowsOf, statement, type Placeholders } from "@kasse/db";
import {
  authIdentity,
  authMfaChallenge,
  authMfaFactor,
  authMfaRecoveryCode,
  authOneTimeToken,
  providerIdentity,
  type OneTimeTokenKind,
  type OneTimeTokenRow,
  type ProviderIdentityFields,
  type ProviderIdentityRow,
} from "./schema";
import type { MfaMethod } from "./shapes";

// The auth module's SQL (identities and their sign-ins, one-time tokens, second factors): the only
// file of the module that imports drizzle and its tables.

const identities = liveRecords(authIdentity, "Auth identity");
const logins = liveRecords(providerIdentity, "Provider identity");
const liveIdentity = identities.live;
/** `app_metadata ->> key`: the actor an identity is linked to as one type (`user_id`, `customer_id`). */
const linkedTo = (key: SQL) => sql`${authIdentity.app_metadata} ->> ${key}`;

/** The identity `id` if it is live at `version` and matches every one of `conditions`. */
const aliveWhere = (v: Placeholders<{ id: string; version: number }>, ...conditions: SQL[]) =>
  db
    .select({ id: authIdentity.id })
    .from(authIdentity)
    .where(
      and(eq(authIdentity.id, v.id), liveIdentity, eq(authIdentity.credentials_version, v.version), ...conditions),
    );

/** What a token must match besides its secret and kind: a key left undefined is not checked. */
export type TokenMatch = { actor_type?: string; provider?: string; entity_id?: string; auth_identity_id?: string };

/** Marks the unused tokens matching every one of `conditions` used. */
const useTokens = (...conditions: Array<SQL | undefined>) =>
  db
    .update(authOneTimeToken)
    .set({ used_at: sql`now()` })
    .where(and(isNull(authOneTimeToken.used_at), ...conditions));

/** The statement deleting an identity's rows of `table` (its challenges, recovery codes or factors). */
const deleteOfIdentity = (table: typeof authMfaChallenge | typeof authMfaRecoveryCode | typeof authMfaFactor) =>
  statement((v: Placeholders<{ identity_id: string }>) =>
    db.delete(table).where(eq(table.auth_identity_id, v.identity_id)),
  );

/** The identity's factors matching every one of `conditions`. */
const factorsWhere = (v: Placeholders<{ identity_id: string }>, ...conditions: SQL[]) =>
  db
    .select()
    .from(authMfaFactor)
    .where(and(eq(authMfaFactor.auth_identity_id, v.identity_id), ...conditions));

/** Named statements on the auth tables, run on the current handle. */
export const authQueries = {
  // --- identities
  /** The live identity `id`; `not_found` ("Auth identity with id: … was not found") when there is none. */
  retrieve: identities.retrieve,
  insertIdentity: identities.insert,
  insertProviderIdentity: logins.insert,
  /** The provider identities of the identities `ids`, oldest first. */
  providersOf: rowsOf(providerIdentity, providerIdentity.auth_identity_id, {
    order: [asc(providerIdentity.created_at), asc(providerIdentity.id)],
  }),
  /** The live identity signing in with `provider` as `entity_id`. */
  identityByProvider: statement((v: Placeholders<{ provider: string; entity_id: string }>) =>
    db
      .select({ identity: authIdentity })
      .from(providerIdentity)
      .innerJoin(authIdentity, eq(authIdentity.id, providerIdentity.auth_identity_id))
      .where(and(eq(providerIdentity.provider, v.provider), eq(providerIdentity.entity_id, v.entity_id), liveIdentity)),
  ),
  /** Sets `changes` on the provider identity (its `updated_at` too); `not_found` when there is none. */
  updateProviderIdentity: (id: string, changes: ProviderIdentityFields): Promise<ProviderIdentityRow> =>
    logins.update(id, { ...changes, updated_at: new Date() }),
  /** Deletes the identity (its provider identities go with it); undefined when there was none. */
  deleteIdentity: first(
    statement((v: Placeholders<{ id: string }>) =>
      db.delete(authIdentity).where(eq(authIdentity.id, v.id)).returning({ id: authIdentity.id }),
    ),
  ),
  /**
   * Links the live identity to `actor` under `key` unless it is linked to another; undefined unless it is
   * linked to it now (linking to the same actor again changes nothing).
   */
  linkActor: first(
    statement((v: Placeholders<{ id: string; key: string; actor: string; updated_at: Date }>) =>
      db
        .update(authIdentity)
        .set({
          app_metadata: sql`${authIdentity.app_metadata} || jsonb_build_object(${v.key}::text, ${v.actor}::text)`,
          updated_at: v.updated_at,
        })
        .where(and(eq(authIdentity.id, v.id), liveIdentity, sql`coalesce(${linkedTo(v.key)}, ${v.actor}) = ${v.actor}`))
        .returning({ id: authIdentity.id }),
    ),
  ),
  unlinkActor: statement((v: Placeholders<{ id: string; key: string; updated_at: Date }>) =>
    db
      .update(authIdentity)
      .set({ app_metadata: sql`${authIdentity.app_metadata} - ${v.key}::text`, updated_at: v.updated_at })
      .where(eq(authIdentity.id, v.id)),
  ),
  /** The live identities linked to `actor` under `key`. */
  identitiesOfActor: statement((v: Placeholders<{ key: string; actor: string }>) =>
    db
      .select()
      .from(authIdentity)
      .where(and(sql`${linkedTo(v.key)} = ${v.actor}`, liveIdentity)),
  ),
  /** The providers the live identities linked to `actor` under `key` sign in with, by name. */
  providerIdsOfActor: statement((v: Placeholders<{ key: string; actor: string }>) =>
    db
      .selectDistinct({ provider: providerIdentity.provider })
      .from(providerIdentity)
      .innerJoin(authIdentity, eq(authIdentity.id, providerIdentity.auth_identity_id))
      .where(and(sql`${linkedTo(v.key)} = ${v.actor}`, liveIdentity))
      .orderBy(asc(providerIdentity.provider)),
  ),
  endSessions: statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
    db
      .update(authIdentity)
      .set({ credentials_version: sql`${authIdentity.credentials_version} + 1`, updated_at: v.updated_at })
      .where(eq(authIdentity.id, v.id)),
  ),
  /** The identity if it is live at `version`: a token's check on every request that presents one. */
  aliveIdentity: first(statement((v: Placeholders<{ id: string; version: number }>) => aliveWhere(v))),
  /** The identity if it is live at `version` and linked to `actor` under `key`. */
  aliveLinkedIdentity: first(
    statement((v: Placeholders<{ id: string; version: number; key: string; actor: string }>) =>
      aliveWhere(v, sql`${linkedTo(v.key)} = ${v.actor}`),
    ),
  ),
  /** The live identities among `ids`, locked for the rest of the transaction, by id. */
  lockLiveIdentities: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .select()
      .from(authIdentity)
      .where(and(inList(authIdentity.id, v.ids), liveIdentity))
      .orderBy(asc(authIdentity.id))
      .for("update"),
  ),
  /** Disables the identities `ids` (`deleted_at` a time) or enables them again (null). */
  setIdentitiesDeleted: statement((v: Placeholders<{ ids: string[]; deleted_at: Date | null; at: Date }>) =>
    db.update(authIdentity).set({ deleted_at: v.deleted_at, updated_at: v.at }).where(inList(authIdentity.id, v.ids)),
  ),
  /** Deletes the disabled identities among `ids`; the ids deleted. */
  purgeDisabled: statement((v: Placeholders<{ ids: string[] }>) =>
    db
      .delete(authIdentity)
      .where(and(inList(authIdentity.id, v.ids), isNotNull(authIdentity.deleted_at)))
      .returning({ id: authIdentity.id }),
  ),
  /** Moves the `provider` login of the identities `ids` to `email`, proven. */
  moveLogin: statement((v: Placeholders<{ ids: string[]; provider: string; email: string; updated_at: Date }>) =>
    db
      .update(providerIdentity)
      .set({ entity_id: v.email, verified_email: v.email, updated_at: v.updated_at })
      .where(and(inList(providerIdentity.auth_identity_id, v.ids), eq(providerIdentity.provider, v.provider))),
  ),

  // --- one-time tokens
  insertToken: statement((v: Placeholders<Omit<OneTimeTokenRow, "used_at" | "created_at">>) =>
    db.insert(authOneTimeToken).values(v).returning(),
  ),
  /**
   * Marks the unused, unexpired token of `kind` with this hash matching the other keys given used; the
   * row, if so. One statement per set of keys given (a key left undefined is a shape of its own, unchecked).
   */
  consumeToken: first(
    statement((v: Placeholders<{ token_hash: string; kind: OneTimeTokenKind } & TokenMatch>) =>
      useTokens(
        eq(authOneTimeToken.token_hash, v.token_hash),
        eq(authOneTimeToken.kind, v.kind),
        gt(authOneTimeToken.expires_at, sql`now()`),
        v.actor_type === undefined ? undefined : eq(authOneTimeToken.actor_type, v.actor_type),
        v.provider === undefined ? undefined : eq(authOneTimeToken.provider, v.provider),
        v.entity_id === undefined ? undefined : eq(authOneTimeToken.entity_id, v.entity_id),
        v.auth_identity_id === undefined ? undefined : eq(authOneTimeToken.auth_identity_id, v.auth_identity_id),
      ).returning(),
    ),
  ),
  releaseToken: statement((v: Placeholders<{ id: string }>) =>
    db.update(authOneTimeToken).set({ used_at: null }).where(eq(authOneTimeToken.id, v.id)),
  ),
  /** Marks every unused token of `kind` of the identity used. */
  revokeTokens: statement((v: Placeholders<{ kind: OneTimeTokenKind; auth_identity_id: string }>) =>
    useTokens(eq(authOneTimeToken.kind, v.kind), eq(authOneTimeToken.auth_identity_id, v.auth_identity_id)),
  ),
  deleteTokensOf: statement((v: Placeholders<{ ids: string[] }>) =>
    db.delete(authOneTimeToken).where(inList(authOneTimeToken.auth_identity_id, v.ids)),
  ),

  // --- second factors
  /** The identity's factor `id`, locked for the rest of the transaction. */
  lockOwnFactor: first(
    statement((v: Placeholders<{ identity_id: string; id: string }>) =>
      factorsWhere(v, eq(authMfaFactor.id, v.id)).for("update"),
    ),
  ),
  /** The identity's factor of `provider`, locked for the rest of the transaction. */
  lockFactorOfProvider: first(
    statement((v: Placeholders<{ identity_id: string; provider: string }>) =>
      factorsWhere(v, eq(authMfaFactor.provider, v.provider)).for("update"),
    ),
  ),
  factorsOf: statement((v: Placeholders<{ identity_id: string }>) =>
    factorsWhere(v).orderBy(asc(authMfaFactor.created_at), asc(authMfaFactor.id)),
  ),
  enabledFactorOf: first(
    statement((v: Placeholders<{ identity_id: string; provider: MfaMethod }>) =>
      factorsWhere(v, eq(authMfaFactor.provider, v.provider), eq(authMfaFactor.status, "enabled")),
    ),
  ),
  /** An enabled factor of the identity, if it has one. */
  enabledFactor: first(
    statement((v: Placeholders<{ identity_id: string }>) => factorsWhere(v, eq(authMfaFactor.status, "enabled"))),
  ),
  /**
   * Records `step` as the factor's last accepted one if it is a later time step than any accepted
   * before (none accepted yet: any); undefined when it is not.
   */
  useTotpStep: first(
    statement((v: Placeholders<{ id: string; step: number; updated_at: Date }>) =>
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
    ),
  ),
  /** Marks the identity's unused recovery code of `code_hash` used; undefined when there is none. */
  useRecoveryCode: first(
    statement((v: Placeholders<{ identity_id: string; code_hash: string }>) =>
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
    ),
  ),
  deleteFactor: statement((v: Placeholders<{ id: string }>) =>
    db.delete(authMfaFactor).where(eq(authMfaFactor.id, v.id)),
  ),
  /** The identity's first sign-in (its entity id is the email). */
  firstLogin: first(
    statement((v: Placeholders<{ identity_id: string }>) =>
      db
        .select({ entity_id: providerIdentity.entity_id })
        .from(providerIdentity)
        .where(eq(providerIdentity.auth_identity_id, v.identity_id))
        .orderBy(asc(providerIdentity.created_at), asc(providerIdentity.id))
        .limit(1),
    ),
  ),
  insertFactor: statement((v: Placeholders<typeof authMfaFactor.$inferInsert>) =>
    db.insert(authMfaFactor).values(v).returning(),
  ),
  enableFactor: statement((v: Placeholders<{ id: string; updated_at: Date }>) =>
    db
      .update(authMfaFactor)
      .set({ status: "enabled", updated_at: v.updated_at })
      .where(eq(authMfaFactor.id, v.id))
      .returning(),
  ),
  deleteChallengesOf: deleteOfIdentity(authMfaChallenge),
  deleteRecoveryCodesOf: deleteOfIdentity(authMfaRecoveryCode),
  deleteFactorsOf: deleteOfIdentity(authMfaFactor),
  insertRecoveryCodes: insertRows(authMfaRecoveryCode),
  /** An unused recovery code of the identity, if it has one. */
  unusedRecoveryCode: first(
    statement((v: Placeholders<{ identity_id: string }>) =>
      db
        .select({ id: authMfaRecoveryCode.id })
        .from(authMfaRecoveryCode)
        .where(and(eq(authMfaRecoveryCode.auth_identity_id, v.identity_id), isNull(authMfaRecoveryCode.used_at)))
        .limit(1),
    ),
  ),
  /**
   * The wrong codes of the identity's unfinished challenges opened after `since` (ISO text: compared
   * with the column, a placeholder skips the column's encoder).
   */
  failedAttemptsSince: first(
    statement((v: Placeholders<{ identity_id: string; since: string }>) =>
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
    ),
  ),
  deleteDeadChallenges: statement((v: Placeholders<{ identity_id: string }>) =>
    db
      .delete(authMfaChallenge)
      .where(
        and(
          eq(authMfaChallenge.auth_identity_id, v.identity_id),
          lt(authMfaChallenge.expires_at, sql`now() - interval '1 day'`),
        ),
      ),
  ),
  insertChallenge: statement((v: Placeholders<typeof authMfaChallenge.$inferInsert>) =>
    db.insert(authMfaChallenge).values(v).returning(),
  ),
  /** Counts an attempt at the open, unexpired, not exhausted challenge; the row, if it was one. */
  attemptChallenge: first(
    statement((v: Placeholders<{ id: string }>) =>
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
    ),
  ),
  challenge: first(
    statement((v: Placeholders<{ id: string }>) =>
      db.select().from(authMfaChallenge).where(eq(authMfaChallenge.id, v.id)),
    ),
  ),
  completeChallenge: statement((v: Placeholders<{ id: string }>) =>
    db
      .update(authMfaChallenge)
      .set({ completed_at: sql`now()` })
      .where(eq(authMfaChallenge.id, v.id)),
  ),
};
