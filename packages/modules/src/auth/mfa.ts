import { randomBytes } from "node:crypto";
import { deriveKey, errors, generateId, hashSecret, KasseError, seal, unseal } from "@kasse/core";
import { isUniqueViolation, transaction } from "@kasse/db";
import { authQueries as q } from "./queries";
import { base32Encode, matchTotp, newTotpSecret, otpauthUrl } from "./totp";
import type { MfaChallengeRow, MfaFactorRow } from "./schema";
import type { MfaChallengeBody, MfaDisableBody, MfaMethod, MfaStartBody } from "./shapes";

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
const hashRecoveryCode = (code: string) => hashSecret(code.toLowerCase().replace(/[^a-z0-9]/g, ""));
const newRecoveryCode = () => {
  const text = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${text.slice(0, 5)}-${text.slice(5)}`;
};

/**
 * An identity's factors and the codes that answer for them, in the transaction of the write that
 * checks a code: accepting one records it, so it cannot be replayed.
 */
function mfaFactors(key: () => Buffer) {
  const own = async (identityId: string, factorId: string): Promise<MfaFactorRow> => {
    const factor = await q.lockOwnFactor({ identity_id: identityId, id: factorId });
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
    return (await q.useTotpStep({ id: factor.id, step, updated_at: new Date() })) !== undefined;
  };

  /** Marks one unused recovery code of the identity used; false when there is none matching. */
  const useRecoveryCode = async (identityId: string, code: string): Promise<boolean> =>
    (await q.useRecoveryCode({ identity_id: identityId, code_hash: hashRecoveryCode(code) })) !== undefined;

  /** Whether `code` answers for the identity by `method`: its enabled factor's TOTP or a recovery code. */
  const useCode = async (identityId: string, method: MfaMethod, code: string): Promise<boolean> => {
    if (method === "recovery_code") return useRecoveryCode(identityId, code);
    const factor = await q.enabledFactorOf({ identity_id: identityId, provider: method });
    return factor ? useTotp(factor, code.trim()) : false;
  };

  return { own, useTotp, useCode };
}

/**
 * TOTP multi-factor authentication of auth identities (Medusa 2.21's wire format): factor setup,
 * verification and removal, recovery codes, and sign-in challenges. Every method acting on a factor
 * takes the caller's identity: another identity's factor is `not_found`. Built once per process;
 * every method runs in the transaction in progress, if any.
 * @example
 * const mfa = createMfaService({ secret: config.jwt.secret });
 * const { factor, secret, otpauth_url } = await mfa.start(identityId, { provider: "totp" });
 * await mfa.verify(identityId, factor.id, "123456");
 */
export function createMfaService(options: { secret?: Uint8Array | string }) {
  const key = () => {
    if (!options.secret)
      throw errors.unexpectedState("This process has no JWT_SECRET: it cannot read or store MFA secrets");
    return deriveKey(options.secret, "kasse-mfa-totp-secret");
  };
  const factors = mfaFactors(key);

  return {
    /** The identity's factors (pending and enabled), oldest first. */
    async list(identityId: string): Promise<MfaFactor[]> {
      return (await q.factorsOf({ identity_id: identityId })).map(view);
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
        return await transaction(async () => {
          const existing = await q.lockFactorOfProvider({ identity_id: identityId, provider: input.provider });
          if (existing?.status === "enabled")
            throw errors.conflict("MFA is already enabled for this account: disable it before setting it up again");
          if (existing) await q.deleteFactor({ id: existing.id });
          const account = (await q.firstLogin({ identity_id: identityId }))?.entity_id;
          const [row] = await q.insertFactor({
            id: generateId("authmfa"),
            auth_identity_id: identityId,
            provider: input.provider,
            status: "pending",
            label: input.label ?? null,
            secret: sealed,
            metadata: input.metadata ?? null,
          });
          return {
            factor: view(row!),
            secret: base32Encode(secret),
            otpauth_url: otpauthUrl(secret, account ?? identityId, input.issuer ?? DEFAULT_ISSUER),
          };
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw errors.conflict("An MFA setup for this account is already under way");
        throw error;
      }
    },

    /** Enables a pending factor with its first code; a wrong code is `invalid_data`. */
    async verify(identityId: string, factorId: string, code: string): Promise<MfaFactor> {
      const ok = await transaction(async () => {
        const factor = await factors.own(identityId, factorId);
        if (factor.status !== "pending") throw errors.invalidData(`MFA factor ${factorId} is already enabled`);
        if (!(await factors.useTotp(factor, code.trim()))) return null;
        return view((await q.enableFactor({ id: factorId, updated_at: new Date() }))[0]!);
      });
      if (!ok) throw invalidCode();
      return ok;
    },

    /**
     * Removes a factor. A pending one goes as it is; an enabled one needs a code (TOTP, or a recovery
     * code with `method: "recovery_code"`), and with the last enabled factor the recovery codes go too.
     */
    async disable(identityId: string, factorId: string, input: MfaDisableBody = {}): Promise<MfaFactor> {
      const removed = await transaction(async () => {
        const factor = await factors.own(identityId, factorId);
        if (factor.status === "enabled") {
          if (!input.code) throw errors.invalidData(MFA_CODE_REQUIRED);
          if (!(await factors.useCode(identityId, input.method ?? factor.provider, input.code))) return null;
        }
        await q.deleteFactor({ id: factorId });
        const own = { identity_id: identityId };
        if (!(await q.enabledFactor(own))) await q.deleteRecoveryCodesOf(own);
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
      await transaction(async () => {
        const own = { identity_id: identityId };
        await q.deleteChallengesOf(own);
        await q.deleteRecoveryCodesOf(own);
        await q.deleteFactorsOf(own);
      });
    },

    /** New recovery codes (answered this once, stored hashed), replacing the identity's old ones. */
    async generateRecoveryCodes(identityId: string, count: number = DEFAULT_RECOVERY_CODES): Promise<string[]> {
      return transaction(async () => {
        const own = { identity_id: identityId };
        if (!(await q.enabledFactor(own))) throw errors.invalidData("Enable MFA before generating recovery codes");
        const codes = Array.from({ length: count }, newRecoveryCode);
        await q.deleteRecoveryCodesOf(own);
        await q.insertRecoveryCodes(
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
      const own = { identity_id: identityId };
      if (!(await q.enabledFactor(own))) return null;
      const since = new Date(Date.now() - MFA_CHALLENGE.lockoutWindowMs).toISOString();
      const [codes, attempts] = await Promise.all([
        q.unusedRecoveryCode(own),
        // Wrong codes of the identity's recent sign-ins (an unfinished challenge's attempts all failed).
        q.failedAttemptsSince({ ...own, since }),
      ]);
      if (attempts!.failed >= MFA_CHALLENGE.lockoutAttempts)
        throw new KasseError(
          "too_many_requests",
          `Too many wrong MFA codes for this account: try again in ${MFA_CHALLENGE.lockoutWindowMs / 60_000} minutes`,
        );
      // The identity's dead challenges go as a new one opens, so the table holds only live ones and their recent past.
      await q.deleteDeadChallenges(own);
      const [row] = await q.insertChallenge({
        id: generateId("authmfachal"),
        auth_identity_id: identityId,
        actor_type: actorType,
        auth_provider: authProvider,
        methods: codes ? ["totp", "recovery_code"] : ["totp"],
        max_attempts: MFA_CHALLENGE.maxAttempts,
        expires_at: new Date(Date.now() + MFA_CHALLENGE.ttlMs),
      });
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
      const outcome = await transaction(async () => {
        const challenge = await q.attemptChallenge({ id: challengeId });
        if (!challenge) {
          const dead = await q.challenge({ id: challengeId });
          if (dead && !dead.completed_at && dead.expires_at > new Date())
            throw new KasseError("too_many_requests", "Too many wrong codes for this MFA challenge: sign in again");
          throw errors.unauthorized("The MFA challenge has expired or was already used: sign in again");
        }
        if (!(await factors.useCode(challenge.auth_identity_id, input.method, input.code))) return null;
        await q.completeChallenge({ id: challengeId });
        return { auth_identity_id: challenge.auth_identity_id, actor_type: challenge.actor_type };
      });
      if (!outcome) throw invalidCode();
      return outcome;
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
