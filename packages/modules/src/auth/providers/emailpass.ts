import { randomBytes } from "node:crypto";
import { errors, normalizeEmail } from "@kasse/core";
import {
  DEFAULT_SCRYPT,
  hashNewPassword,
  hashParams,
  hashPassword,
  verifyPassword,
  type ScryptParams,
} from "../password";
import type { AuthIdentity } from "../shapes";
import type { AuthProvider, IdentityStore } from "./types";

export const EMAILPASS = "emailpass";

/** The one answer to a wrong email or a wrong password (contract: `invalid_data`, 400). */
export const invalidCredentials = () => errors.invalidData("Invalid email or password");

function credentials(body: Record<string, unknown>): { email: string; password: string } {
  const { email, password } = body;
  if (typeof email !== "string" || !email.trim()) throw errors.invalidData("Email is required");
  if (typeof password !== "string" || !password) throw errors.invalidData("Password is required");
  return { email: normalizeEmail(email), password };
}

const passwordOf = (identity: AuthIdentity | null): { providerIdentityId: string; hash: string } | null => {
  const entry = identity?.provider_identities.find((p) => p.provider === EMAILPASS);
  const hash = entry?.provider_metadata?.password;
  return entry && typeof hash === "string" ? { providerIdentityId: entry.id, hash } : null;
};

/**
 * Email and password, hashed with scrypt. An unknown email costs the same scrypt as a known
 * one (a dummy hash is checked), so timing does not reveal which emails exist. A hash made
 * with other parameters than the configured ones is upgraded on the next successful sign-in.
 * @example
 * auth.providers.register(emailpassProvider({ logN: 15, r: 8, p: 1 }));
 */
export function emailpassProvider(params: ScryptParams = DEFAULT_SCRYPT): AuthProvider {
  let dummy: Promise<string> | undefined;
  const dummyHash = () => (dummy ??= hashPassword(randomBytes(16).toString("hex"), params));
  const sameParams = (hash: string) => {
    const stored = hashParams(hash);
    return stored?.logN === params.logN && stored.r === params.r && stored.p === params.p;
  };

  return {
    id: EMAILPASS,

    async authenticate(input, store: IdentityStore) {
      const { email, password } = credentials(input.body);
      const identity = await store.findByProvider(EMAILPASS, email);
      const stored = passwordOf(identity);
      const matches = await verifyPassword(password, stored?.hash ?? (await dummyHash()));
      if (!identity || !stored || !matches) throw invalidCredentials();
      if (!sameParams(stored.hash)) {
        await store.updateProviderIdentity(stored.providerIdentityId, {
          provider_metadata: { password: await hashPassword(password, params) },
        });
      }
      return { identity };
    },

    async register(input, store) {
      const { email, password } = credentials(input.body);
      const exists = () => errors.unauthorized("Identity with email already exists");
      if (await store.findByProvider(EMAILPASS, email)) throw exists();
      const hash = await hashNewPassword(password, params);
      try {
        return await store.create({
          provider: EMAILPASS,
          entity_id: email,
          user_metadata: null,
          provider_metadata: { password: hash },
        });
      } catch (error) {
        // Two registrations of one email at once: the unique index decides, the loser gets the same answer.
        if ((error as { type?: string }).type === "conflict") throw exists();
        throw error;
      }
    },

    async validateCallback() {
      throw errors.invalidData("The emailpass provider has no callback");
    },

    /** Sets a new password on the caller's own identity; `email` must be that identity's. */
    async update(input, store) {
      const { email, password } = credentials(input.body);
      if (!input.authIdentityId) throw errors.unauthorized("Authentication required");
      const identity = await store.findByProvider(EMAILPASS, email);
      const stored = passwordOf(identity);
      if (!identity || !stored || identity.id !== input.authIdentityId)
        throw errors.unauthorized("The token does not grant access to this email");
      await store.updateProviderIdentity(stored.providerIdentityId, {
        provider_metadata: { password: await hashNewPassword(password, params) },
      });
      return store.retrieve(identity.id);
    },
  };
}
