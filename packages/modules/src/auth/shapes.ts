import { Type, type Static } from "@sinclair/typebox";
import { Count, Email, OptionalMetadata, Password, Secret, Title, Strict } from "@kasse/core";
import { TimestampView } from "@kasse/db";
import { type AuthIdentityRow, type ProviderIdentityRow } from "./schema";
import { MfaProvider, MfaMethod } from "./column-shapes";

/** The actor types that sign in: admin users and customers. */
export const ActorType = Type.Union([Type.Literal("user"), Type.Literal("customer")]);
export type ActorType = Static<typeof ActorType>;

/** Body of an emailpass sign-in: an email and a password (any length: one set before the minimum still signs in). */
export const EmailPassBody = Strict({ email: Email(), password: Secret({ minLength: 1 }) });
export type EmailPassBody = Static<typeof EmailPassBody>;

/** Body of an emailpass registration or password change: a new password is 8 characters or more. */
export const EmailPassNewPasswordBody = Strict({ email: Email(), password: Password() });

/** A provider identity as clients see it: no `provider_metadata`. */
export const ProviderIdentityView = Type.Object({
  id: Type.String(),
  entity_id: Type.String(),
  provider: Type.String(),
  auth_identity_id: Type.String(),
  user_metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  created_at: TimestampView(),
  updated_at: TimestampView(),
});

/** An auth identity as clients see it (the contract's `entity_id` is its first provider identity's). */
export const AuthIdentityView = Type.Object({
  id: Type.String(),
  entity_id: Type.Optional(Type.String()),
  app_metadata: Type.Record(Type.String(), Type.Unknown()),
  provider_identities: Type.Array(ProviderIdentityView),
  created_at: TimestampView(),
  updated_at: TimestampView(),
});

/**
 * An auth identity (one person's credentials, shared by every actor they are: `app_metadata` links it to
 * actors as `{user_id, customer_id}`, so one email can be an admin and a customer) with its provider
 * identities, as the service returns it (secrets included: never send it as is).
 */
export type AuthIdentity = AuthIdentityRow & { provider_identities: ProviderIdentityRow[] };

/** `POST /auth/mfa/factors` (`sdk.auth.mfa.start`): begins a setup. */
export const MfaStartBody = Strict({
  provider: MfaProvider,
  label: Type.Optional(Type.Union([Title(), Type.Null()])),
  issuer: Type.Optional(Title({ minLength: 1 })),
  metadata: OptionalMetadata(),
});
export type MfaStartBody = Static<typeof MfaStartBody>;

/** `POST /auth/mfa/factors/{id}/verify`: the first code from the app. */
export const MfaVerifyBody = Strict({ code: Secret({ minLength: 1 }) });

/** `DELETE /auth/mfa/factors/{id}`: an enabled factor needs a code (TOTP unless `method` says recovery_code). */
export const MfaDisableBody = Strict({
  method: Type.Optional(MfaMethod),
  code: Type.Optional(Secret({ minLength: 1 })),
});
export type MfaDisableBody = Static<typeof MfaDisableBody>;

/** `POST /auth/mfa/recovery-codes`: how many new codes (replacing the old ones). */
export const MfaRecoveryCodesBody = Strict({ count: Type.Optional(Count({ minimum: 1, maximum: 20 })) });

/** `POST /auth/mfa/challenges/{id}/verify`: the second factor of a sign-in. */
export const MfaChallengeBody = Strict({ method: MfaMethod, code: Secret({ minLength: 1 }) });
export type MfaChallengeBody = Static<typeof MfaChallengeBody>;

/** A factor as its identity sees it (strict: the secret is never answered). */
export const MfaFactorView = Strict({
  id: Type.String(),
  auth_identity_id: Type.String(),
  provider: MfaProvider,
  status: Type.Union([Type.Literal("pending"), Type.Literal("enabled"), Type.Literal("disabled")]),
  label: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  created_at: TimestampView(),
  updated_at: TimestampView(),
});

/** The challenge a sign-in answers with when the identity has MFA (Medusa's `AuthMfaChallengeDTO`). */
export const MfaChallengeView = Strict({
  id: Type.String(),
  actor_type: Type.String(),
  auth_provider: Type.String(),
  methods: Type.Array(MfaMethod),
  expires_at: TimestampView(),
  attempts: Type.Integer(),
  max_attempts: Type.Integer(),
});

// What the index gives of the tables' own vocabulary: their row types, and the values and types their columns hold.
export {
  type AuthIdentityRow,
  type MfaChallengeRow,
  type MfaFactorRow,
  type OneTimeTokenKind,
  type OneTimeTokenRow,
  type ProviderIdentityRow,
} from "./schema";

export { MfaProvider, MfaMethod } from "./column-shapes";
