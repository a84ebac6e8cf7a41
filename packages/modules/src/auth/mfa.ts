import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { deriveKey, errors, generateId, KasseError, seal, unseal } from "@kasse/core";
import { isUniqueViolation, transaction, type Db } from "@kasse/db";
import { base32Encode, matchTotp, newTotpSecret, otpauthUrl } from "./totp";
import {
  authMfaChallenge,
  authMfaFactor,
  authMfaRecoveryCode,
  providerIdentity,
  type MfaChallengeBody,
  type MfaChallengeRow,
  type MfaDisableBody,
  type MfaFactorRow,
  type MfaMethod,
  type MfaStartBody,
} from "./schema";

/**
 * How long a sign-in may wait for its second factor and how many codes it may try; and how many
 * wrong codes an identity's sign-ins may send in `lockoutWindowMs` before no new challenge opens
 * (someone who has the password must not get unlimited guesses by signing in again and again).
 */
export const MFA_CHALLENGE = { ttlMs: 5 * 60_000, maxAttempts: 5, lockoutAttempts: 10, lockoutWindowMs: 15 * 60_000 };
const DEFAULT_RECOVERY_CODES = 10;
const DEFAULT_ISSUER = "Kasse";

/** The message Medusa's dashboard looks for to ask for a code before disabling MFA. */
export const MFA_CODE_REQUIRED = "MFA verification code is required to disable MFA";
const invalidCode = () => errors.invalidData("Invalid MFA code");

/** A factor as answered: no secret, no replay counter. */
export type MfaFactor = Omit<MfaFactorRow, "secret" | "last_used_step" | "status"> & {
  status: "pending" | "enabled" | "disabled";
};
const view = ({ secret: _secret, last_used_step: _step, ...factor }: MfaFactorRow): MfaFactor => factor;

/** A challenge as answered: who it is for stays server-side. */
export type MfaChallenge = Omit<MfaChallengeRow, "auth_identity_id" | "completed_at" | "created_at">;
const challengeView = ({ auth_identity_id: _id, completed_at: _done, created_at: _at, ...rest }: MfaChallengeRow) =>
  rest;

/** Recovery codes are random (50 bits each), so a plain SHA-256 of the normalised code is enough. */
const hashRecoveryCode = (code: string) =>
  createHash("sha256")
    .update(code.toLowerCase().replace(/[^a-z0-9]/g, ""))
    .digest("hex");
const newRecoveryCode = () => {
  const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
};

/**
 * An identity's factors and the codes that answer for them, over one handle (the transaction of the
 * write that checks a code: accepting one records it, so it cannot be replayed).
 */
function mfaFactors(db: Db, key: () => Buffer) {
  const own = async (identityId: string, factorId: string): Promise<MfaFactorRow> => {
    const [factor] = await db
      .select()
      .from(authMfaFactor)
      .where(and(eq(authMfaFactor.id, factorId), eq(authMfaFactor.auth_identity_id, identityId)))
      .for("update");
    if (!factor) throw errors.notFound(`MFA factor with id: ${factorId} was not found`);
    return factor;
  };

  /**
   * Whether `code` is the factor's current code (one step either side) of a later step than any
   * code accepted before; accepting it records its step, so it cannot be replayed.
   */
  const useTotp = async (factor: MfaFactorRow, code: string): Promise<boolean> => {
    const secret = unseal(factor.secret, key());
    if (!secret) throw errors.unexpectedState("The MFA secret cannot be opened: was JWT_SECRET changed?");
    const step = matchTotp(secret, code);
    if (step === null) return false;
    const used = await db
      .update(authMfaFactor)
      .set({ last_used_step: step, updated_at: new Date() })
      .where(
        and(
          eq(authMfaFactor.id, factor.id),
          or(isNull(authMfaFactor.last_used_step), lt(authMfaFactor.last_used_step, step)),
        ),
      )
      .returning({ id: authMfaFactor.id });
    return used.length > 0;
  };

  /** Marks one unused recovery code of the identity used; false when there is none matching. */
  const useRecoveryCode = async (identityId: string, code: string): Promise<boolean> => {
    const used = await db
      .update(authMfaRecoveryCode)
      .set({ used_at: sql`now()` })
      .where(
        and(
          eq(authMfaRecoveryCode.auth_identity_id, identityId),
          eq(authMfaRecoveryCode.code_hash, hashRecoveryCode(code)),
          isNull(authMfaRecoveryCode.used_at),
        ),
      )
      .returning({ id: authMfaRecoveryCode.id });
    return used.length > 0;
  };

  /** Whether `code` answers for the identity by `method`: its enabled factor's TOTP or a recovery code. */
  const useCode = async (identityId: string, method: MfaMethod, code: string): Promise<boolean> => {
    if (method === "recovery_code") return useRecoveryCode(identityId, code);
    const [factor] = await db
      .select()
      .from(authMfaFactor)
      .where(
        and(
          eq(authMfaFactor.auth_identity_id, identityId),
          eq(authMfaFactor.provider, method),
          eq(authMfaFactor.status, "enabled"),
        ),
      );
    return factor ? useTotp(factor, code.trim()) : false;
  };

  const enabled = (identityId: string) =>
    db
      .select({ id: authMfaFactor.id })
      .from(authMfaFactor)
      .where(and(eq(authMfaFactor.auth_identity_id, identityId), eq(authMfaFactor.status, "enabled")));

  return { own, useTotp, useCode, enabled };
}

/**
 * TOTP multi-factor authentication of auth identities (Medusa 2.21's wire format): factor setup,
 * verification and removal, recovery codes, and sign-in challenges. Every method acting on a factor
 * takes the caller's identity: another identity's factor is `not_found`.
 * @example
 * const mfa = createMfaService(db, { secret: config.jwt.secret });
 * const { factor, secret, otpauth_url } = await mfa.start(identityId, { provider: "totp" });
 * await mfa.verify(identityId, factor.id, "123456");
 */
export function createMfaService(db: Db, options: { secret?: Uint8Array | string }) {
  const key = () => {
    if (!options.secret)
      throw errors.unexpectedState("This process has no JWT_SECRET: it cannot read or store MFA secrets");
    return deriveKey(options.secret, "kasse-mfa-totp-secret");
  };

  /** The factor reads and code checks over `tx`: the transaction of the write that uses them. */
  const factorsOver = (tx: Db) => mfaFactors(tx, key);

  return {
    /** The identity's factors (pending and enabled), oldest first. */
    async list(identityId: string): Promise<MfaFactor[]> {
      const rows = await db
        .select()
        .from(authMfaFactor)
        .where(eq(authMfaFactor.auth_identity_id, identityId))
        .orderBy(asc(authMfaFactor.created_at), asc(authMfaFactor.id));
      return rows.map(view);
    },

    /**
     * Begins a TOTP setup: a new secret, answered this once (base32 and as an `otpauth://` URI
     * naming the identity's email). A pending setup is replaced; an enabled factor is a `conflict`.
     */
    async start(
      identityId: string,
      input: MfaStartBody,
    ): Promise<{ factor: MfaFactor; secret: string; otpauth_url: string }> {
      const secret = newTotpSecret();
      const sealed = seal(secret, key());
      try {
        return await transaction(db, async (tx) => {
          const [existing] = await tx
            .select()
            .from(authMfaFactor)
            .where(and(eq(authMfaFactor.auth_identity_id, identityId), eq(authMfaFactor.provider, input.provider)))
            .for("update");
          if (existing?.status === "enabled")
            throw errors.conflict("MFA is already enabled for this account: disable it before setting it up again");
          if (existing) await tx.delete(authMfaFactor).where(eq(authMfaFactor.id, existing.id));
          const [account] = await tx
            .select({ entity_id: providerIdentity.entity_id })
            .from(providerIdentity)
            .where(eq(providerIdentity.auth_identity_id, identityId))
            .orderBy(asc(providerIdentity.created_at), asc(providerIdentity.id))
            .limit(1);
          const [row] = await tx
            .insert(authMfaFactor)
            .values({
              id: generateId("authmfa"),
              auth_identity_id: identityId,
              provider: input.provider,
              status: "pending",
              label: input.label ?? null,
              secret: sealed,
              metadata: input.metadata ?? null,
            })
            .returning();
          return {
            factor: view(row!),
            secret: base32Encode(secret),
            otpauth_url: otpauthUrl(secret, account?.entity_id ?? identityId, input.issuer ?? DEFAULT_ISSUER),
          };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw errors.conflict("An MFA setup for this account is already under way");
        throw error;
      }
    },

    /** Enables a pending factor with its first code; a wrong code is `invalid_data`. */
    async verify(identityId: string, factorId: string, code: string): Promise<MfaFactor> {
      const ok = await transaction(db, async (tx) => {
        const factors = factorsOver(tx);
        const factor = await factors.own(identityId, factorId);
        if (factor.status !== "pending") throw errors.invalidData(`MFA factor ${factorId} is already enabled`);
        if (!(await factors.useTotp(factor, code.trim()))) return null;
        const [row] = await tx
          .update(authMfaFactor)
          .set({ status: "enabled", updated_at: new Date() })
          .where(eq(authMfaFactor.id, factorId))
          .returning();
        return view(row!);
      });
      if (!ok) throw invalidCode();
      return ok;
    },

    /**
     * Removes a factor. A pending one goes as it is; an enabled one needs a code (TOTP, or a recovery
     * code with `method: "recovery_code"`), and with the last enabled factor the recovery codes go too.
     */
    async disable(identityId: string, factorId: string, input: MfaDisableBody = {}): Promise<MfaFactor> {
      const removed = await transaction(db, async (tx) => {
        const factors = factorsOver(tx);
        const factor = await factors.own(identityId, factorId);
        if (factor.status === "enabled") {
          if (!input.code) throw errors.invalidData(MFA_CODE_REQUIRED);
          if (!(await factors.useCode(identityId, input.method ?? factor.provider, input.code))) return null;
        }
        await tx.delete(authMfaFactor).where(eq(authMfaFactor.id, factorId));
        if ((await factors.enabled(identityId)).length === 0)
          await tx.delete(authMfaRecoveryCode).where(eq(authMfaRecoveryCode.auth_identity_id, identityId));
        return { ...view(factor), status: "disabled" as const, updated_at: new Date() };
      });
      if (!removed) throw invalidCode();
      return removed;
    },

    /**
     * Removes every second factor of the identity with its recovery codes and open challenges, no
     * code asked: for a takeover, where the factors may be someone else's (docs/security.md "Email ownership").
     */
    async removeAll(identityId: string): Promise<void> {
      await transaction(db, async (tx) => {
        await tx.delete(authMfaChallenge).where(eq(authMfaChallenge.auth_identity_id, identityId));
        await tx.delete(authMfaRecoveryCode).where(eq(authMfaRecoveryCode.auth_identity_id, identityId));
        await tx.delete(authMfaFactor).where(eq(authMfaFactor.auth_identity_id, identityId));
      });
    },

    /** New recovery codes (answered this once, stored hashed), replacing the identity's old ones. */
    async generateRecoveryCodes(identityId: string, count: number = DEFAULT_RECOVERY_CODES): Promise<string[]> {
      return transaction(db, async (tx) => {
        if ((await factorsOver(tx).enabled(identityId)).length === 0)
          throw errors.invalidData("Enable MFA before generating recovery codes");
        const codes = Array.from({ length: count }, newRecoveryCode);
        await tx.delete(authMfaRecoveryCode).where(eq(authMfaRecoveryCode.auth_identity_id, identityId));
        await tx.insert(authMfaRecoveryCode).values(
          codes.map((code) => ({
            id: generateId("authmfarc"),
            auth_identity_id: identityId,
            code_hash: hashRecoveryCode(code),
          })),
        );
        return codes;
      });
    },

    /**
     * The challenge a sign-in of an identity with an enabled factor must pass before it gets a
     * token, or null when the identity has no enabled factor.
     */
    async openChallenge(identityId: string, actorType: string, authProvider: string): Promise<MfaChallenge | null> {
      // Most sign-ins are of identities without MFA: one query answers them.
      if ((await factorsOver(db).enabled(identityId)).length === 0) return null;
      const since = new Date(Date.now() - MFA_CHALLENGE.lockoutWindowMs);
      const [codes, [recent]] = await Promise.all([
        db
          .select({ id: authMfaRecoveryCode.id })
          .from(authMfaRecoveryCode)
          .where(and(eq(authMfaRecoveryCode.auth_identity_id, identityId), isNull(authMfaRecoveryCode.used_at)))
          .limit(1),
        // Wrong codes of the identity's recent sign-ins (an unfinished challenge's attempts all failed).
        db
          .select({ failed: sql<number>`coalesce(sum(${authMfaChallenge.attempts}), 0)::int` })
          .from(authMfaChallenge)
          .where(
            and(
              eq(authMfaChallenge.auth_identity_id, identityId),
              isNull(authMfaChallenge.completed_at),
              gt(authMfaChallenge.created_at, since),
            ),
          ),
      ]);
      if (recent!.failed >= MFA_CHALLENGE.lockoutAttempts)
        throw new KasseError(
          "too_many_requests",
          `Too many wrong MFA codes for this account: try again in ${MFA_CHALLENGE.lockoutWindowMs / 60_000} minutes`,
        );
      // The identity's dead challenges go as a new one opens, so the table holds only live ones and their recent past.
      await db
        .delete(authMfaChallenge)
        .where(
          and(
            eq(authMfaChallenge.auth_identity_id, identityId),
            lt(authMfaChallenge.expires_at, sql`now() - interval '1 day'`),
          ),
        );
      const [row] = await db
        .insert(authMfaChallenge)
        .values({
          id: generateId("authmfachal"),
          auth_identity_id: identityId,
          actor_type: actorType,
          auth_provider: authProvider,
          methods: codes.length ? ["totp", "recovery_code"] : ["totp"],
          max_attempts: MFA_CHALLENGE.maxAttempts,
          expires_at: new Date(Date.now() + MFA_CHALLENGE.ttlMs),
        })
        .returning();
      return challengeView(row!);
    },

    /**
     * Answers a sign-in challenge: each call is an attempt (at most `max_attempts`); a right code
     * completes it, once. Returns who signed in. An unknown, expired or completed challenge is
     * `unauthorized`, an exhausted one `too_many_requests`, a wrong code `invalid_data`.
     */
    async completeChallenge(
      challengeId: string,
      input: MfaChallengeBody,
    ): Promise<{ auth_identity_id: string; actor_type: string }> {
      const outcome = await transaction(db, async (tx) => {
        const [challenge] = await tx
          .update(authMfaChallenge)
          .set({ attempts: sql`${authMfaChallenge.attempts} + 1` })
          .where(
            and(
              eq(authMfaChallenge.id, challengeId),
              isNull(authMfaChallenge.completed_at),
              gt(authMfaChallenge.expires_at, sql`now()`),
              lt(authMfaChallenge.attempts, authMfaChallenge.max_attempts),
            ),
          )
          .returning();
        if (!challenge) {
          const [dead] = await tx.select().from(authMfaChallenge).where(eq(authMfaChallenge.id, challengeId));
          if (dead && !dead.completed_at && dead.expires_at > new Date())
            throw new KasseError("too_many_requests", "Too many wrong codes for this MFA challenge: sign in again");
          throw errors.unauthorized("The MFA challenge has expired or was already used: sign in again");
        }
        if (!(await factorsOver(tx).useCode(challenge.auth_identity_id, input.method, input.code))) return null;
        await tx
          .update(authMfaChallenge)
          .set({ completed_at: sql`now()` })
          .where(eq(authMfaChallenge.id, challengeId));
        return { auth_identity_id: challenge.auth_identity_id, actor_type: challenge.actor_type };
      });
      if (!outcome) throw invalidCode();
      return outcome;
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
