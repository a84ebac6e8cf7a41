import { index, integer, jsonb, pgTable, text, uniqueIndex } from "@kasse/db";
import { entityTable, parentId, timestamptz, createdAt, indexes } from "@kasse/db";
import type { MfaMethod, MfaProvider } from "./column-shapes";

export const authIdentity = entityTable(
  "auth_identity",
  {
    app_metadata: jsonb("app_metadata").$type<Record<string, unknown>>().notNull().default({}),
    /**
     * Goes up by one whenever the identity's credentials change (password changed or reset).
     * Every token carries the value it was signed with and is refused once they differ.
     */
    credentials_version: integer("credentials_version").notNull().default(1),
  },
  (t) => [index("auth_identity_created_at_idx").on(t.created_at)],
);

/**
 * How an identity signs in with one provider: `entity_id` is the provider's key for the person
 * (the email for emailpass). `provider_metadata` holds provider secrets (the password hash) and is
 * never sent to a client; `user_metadata` is the profile (OAuth name, picture, ...).
 * `verified_email` is the address this sign-in has proven is its holder's: for emailpass its
 * `entity_id` once a token mailed to it was used (a password reset, an email change), for OAuth
 * the address the provider vouches for at the last sign-in; null while none is proven.
 */
export const providerIdentity = entityTable(
  "provider_identity",
  {
    entity_id: text("entity_id").notNull(),
    provider: text("provider").notNull(),
    auth_identity_id: parentId("auth_identity_id", () => authIdentity.id, { onDelete: "cascade" }),
    user_metadata: jsonb("user_metadata").$type<Record<string, unknown>>(),
    provider_metadata: jsonb("provider_metadata").$type<Record<string, unknown>>(),
    verified_email: text("verified_email"),
  },
  (t) => [
    // Identities are deleted for real (not soft-deleted), so an email is free again once its identity is gone.
    uniqueIndex("provider_identity_provider_entity_uq").on(t.provider, t.entity_id),
    index("provider_identity_auth_identity_id_idx").on(t.auth_identity_id),
  ],
);
export type AuthIdentityRow = typeof authIdentity.$inferSelect;
export type ProviderIdentityRow = typeof providerIdentity.$inferSelect;
/** The fields of a provider identity that a provider sets: its metadata and the email it proved. */
export type ProviderIdentityFields = Partial<
  Pick<ProviderIdentityRow, "user_metadata" | "provider_metadata" | "verified_email">
>;

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
    ...indexes("auth_one_time_token", { identity: t.auth_identity_id, expires: t.expires_at }),
  ],
);

export type OneTimeTokenKind = "password_reset" | "email_change" | "oauth_state";
export type OneTimeTokenRow = typeof authOneTimeToken.$inferSelect;

/**
 * A second factor of an identity (multi-factor authentication, as Medusa 2.21's): `pending` from
 * setup until a first code verifies it, then `enabled`. A disabled factor is deleted. `secret` is the
 * TOTP key sealed with AES-256-GCM under a key derived from `JWT_SECRET`, never answered after setup;
 * `last_used_step` is the time step of the last code accepted, so no code is accepted twice.
 */
export const authMfaFactor = pgTable(
  "auth_mfa_factor",
  {
    id: text("id").primaryKey(),
    auth_identity_id: parentId("auth_identity_id", () => authIdentity.id, { onDelete: "cascade" }),
    provider: text("provider").$type<MfaProvider>().notNull(),
    status: text("status").$type<"pending" | "enabled">().notNull(),
    label: text("label"),
    secret: text("secret").notNull(),
    last_used_step: integer("last_used_step"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>(),
    created_at: createdAt(),
    updated_at: timestamptz("updated_at").notNull().defaultNow(),
  },
  // One factor per provider and identity: a new setup replaces a pending one.
  (t) => [uniqueIndex("auth_mfa_factor_identity_provider_uq").on(t.auth_identity_id, t.provider)],
);

/** Single-use recovery codes of an identity with MFA: only a SHA-256 of each is stored. */
export const authMfaRecoveryCode = pgTable(
  "auth_mfa_recovery_code",
  {
    id: text("id").primaryKey(),
    auth_identity_id: parentId("auth_identity_id", () => authIdentity.id, { onDelete: "cascade" }),
    code_hash: text("code_hash").notNull(),
    used_at: timestamptz("used_at"),
    created_at: createdAt(),
  },
  (t) => [index("auth_mfa_recovery_code_identity_idx").on(t.auth_identity_id, t.code_hash)],
);

/**
 * A sign-in waiting for its second factor: opened when the password (or OAuth) step succeeded for
 * an identity with MFA, completed once by a right code, dead after `expires_at` or `max_attempts`.
 */
export const authMfaChallenge = pgTable(
  "auth_mfa_challenge",
  {
    id: text("id").primaryKey(),
    auth_identity_id: parentId("auth_identity_id", () => authIdentity.id, { onDelete: "cascade" }),
    actor_type: text("actor_type").notNull(),
    auth_provider: text("auth_provider").notNull(),
    methods: jsonb("methods").$type<MfaMethod[]>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    max_attempts: integer("max_attempts").notNull(),
    expires_at: timestamptz("expires_at").notNull(),
    completed_at: timestamptz("completed_at"),
    created_at: createdAt(),
  },
  (t) => [...indexes("auth_mfa_challenge", { identity: t.auth_identity_id, expires: t.expires_at })],
);
export type MfaFactorRow = typeof authMfaFactor.$inferSelect;
export type MfaChallengeRow = typeof authMfaChallenge.$inferSelect;
