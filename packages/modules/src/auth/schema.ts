import { index, integer, jsonb, text, uniqueIndex } from "drizzle-orm/pg-core";
import { Type, type Static } from "@sinclair/typebox";
import { entityTable } from "@kasse/db";

/**
 * An auth identity: one person's credentials, shared by every actor they are. `app_metadata`
 * links it to actors as `{user_id, customer_id}`, so one email can be an admin and a customer.
 */
/** A timestamp in a response schema: a `Date` in code, ISO 8601 on the wire. */
const Timestamp = () => Type.Unsafe<Date>({ type: "string", format: "date-time" });

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
 */
export const providerIdentity = entityTable(
  "provider_identity",
  {
    entity_id: text("entity_id").notNull(),
    provider: text("provider").notNull(),
    auth_identity_id: text("auth_identity_id")
      .notNull()
      .references(() => authIdentity.id, { onDelete: "cascade" }),
    user_metadata: jsonb("user_metadata").$type<Record<string, unknown>>(),
    provider_metadata: jsonb("provider_metadata").$type<Record<string, unknown>>(),
  },
  (t) => [
    // Identities are deleted for real (not soft-deleted), so an email is free again once its identity is gone.
    uniqueIndex("provider_identity_provider_entity_uq").on(t.provider, t.entity_id),
    index("provider_identity_auth_identity_id_idx").on(t.auth_identity_id),
  ],
);

export type AuthIdentityRow = typeof authIdentity.$inferSelect;
export type ProviderIdentityRow = typeof providerIdentity.$inferSelect;

/** The actor types that sign in: admin users and customers. */
export const ActorType = Type.Union([Type.Literal("user"), Type.Literal("customer")]);
export type ActorType = Static<typeof ActorType>;

/** Body of the emailpass routes (login, register, update): an email and a password. */
export const EmailPassBody = Type.Object(
  {
    email: Type.String({ format: "email", maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);
export type EmailPassBody = Static<typeof EmailPassBody>;

/** A provider identity as clients see it: no `provider_metadata`. */
export const ProviderIdentityView = Type.Object({
  id: Type.String(),
  entity_id: Type.String(),
  provider: Type.String(),
  auth_identity_id: Type.String(),
  user_metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});

/** An auth identity as clients see it (the contract's `entity_id` is its first provider identity's). */
export const AuthIdentityView = Type.Object({
  id: Type.String(),
  entity_id: Type.Optional(Type.String()),
  app_metadata: Type.Record(Type.String(), Type.Unknown()),
  provider_identities: Type.Array(ProviderIdentityView),
  created_at: Timestamp(),
  updated_at: Timestamp(),
});

/** An identity with its provider identities, as the service returns it (secrets included: never send it as is). */
export type AuthIdentity = AuthIdentityRow & { provider_identities: ProviderIdentityRow[] };

// Reset tokens and OAuth states (one-time-tokens.ts), re-exported so drizzle-kit sees the table.
export { authOneTimeToken, type OneTimeTokenRow, type OneTimeTokenKind } from "./one-time-tokens";
