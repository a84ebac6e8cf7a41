import { Type } from "@sinclair/typebox";
import { errors } from "@kasse/core";
import {
  ActorType,
  AuthIdentityView,
  EMAILPASS,
  EmailPassBody,
  EmailPassNewPasswordBody,
  MfaChallengeView,
  type AuthIdentity,
  type SignIn,
} from "@kasse/modules/auth";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { BEARER_SECURITY } from "../../plugins/openapi-operations";

const ActorParams = Type.Object({ actor_type: ActorType }, { additionalProperties: false });
const TokenResponse = { 200: Type.Object({ token: Type.String() }) };
/** A sign-in's answer: a session token, or (the identity has MFA) the challenge to pass with a code first. */
export const SignInView = Type.Object(
  {
    token: Type.String({ description: "The session token; beside `mfa_challenge`, a token no route honours" }),
    mfa_required: Type.Optional(Type.Literal(true)),
    mfa_challenge: Type.Optional(MfaChallengeView),
  },
  { description: "A session token, or (the identity has MFA) the challenge to pass with a code first" },
);
const SignInResponse = { 200: SignInView };
const UpdateResponse = { 200: Type.Object({ success: Type.Literal(true), auth_identity: AuthIdentityView }) };

/**
 * An identity as the API shows it, in Medusa's shape: provider secrets (`provider_metadata`) are left
 * out by the response schema too, and so is Kasse's `verified_email`.
 */
const identityView = (identity: AuthIdentity) => ({
  id: identity.id,
  entity_id: identity.provider_identities[0]?.entity_id,
  app_metadata: identity.app_metadata,
  provider_identities: identity.provider_identities.map(
    ({ provider_metadata: _secret, verified_email: _kasse, ...rest }) => rest,
  ),
  created_at: identity.created_at,
  updated_at: identity.updated_at,
});

/**
 * The answer of a sign-in: the session token, or, for an identity with MFA, the challenge and a
 * token that names only it (Medusa's SDK requires a token beside `mfa_challenge`).
 */
export async function signInAnswer(app: App, result: SignIn) {
  if ("claims" in result) return { token: await app.tokens.sign(result.claims) };
  return {
    token: await app.tokens.signMfaPending(result.mfa_challenge),
    mfa_required: true as const,
    mfa_challenge: result.mfa_challenge,
  };
}

/** The caller's own JWT (not an API key); a missing or bad one is 401. */
export function requireBearer(request: FastifyRequest): NonNullable<FastifyRequest["auth"]> {
  if (request.auth?.via === "jwt") return request.auth;
  throw request.authError ?? errors.unauthorized("Authentication required");
}

/**
 * Email and password sign-in, registration and password change (contract "Auth area").
 * Wrong email and wrong password are one answer: 400 `invalid_data` "Invalid email or password".
 */
export default async function emailpass(app: App): Promise<void> {
  const auth = app.modules.auth;
  const login = async (actorType: string, body: EmailPassBody) => {
    const result = await auth.login(actorType, EMAILPASS, { body });
    if ("location" in result) throw errors.invalidData("The emailpass provider does not redirect");
    return signInAnswer(app, result);
  };
  const register = async (actorType: string, body: EmailPassBody) => ({
    token: await app.tokens.sign(await auth.registerActor(actorType, EMAILPASS, { body })),
  });

  app.post(
    "/:actor_type/emailpass",
    { schema: { params: ActorParams, body: EmailPassBody, response: SignInResponse } },
    (request) => login(request.params.actor_type, request.body),
  );
  // The contract's `/auth/emailpass` forms act for the customer, as Medusa's storefront helpers do.
  app.post("/emailpass", { schema: { body: EmailPassBody, response: SignInResponse } }, (request) =>
    login("customer", request.body),
  );

  app.post(
    "/:actor_type/emailpass/register",
    { schema: { params: ActorParams, body: EmailPassNewPasswordBody, response: TokenResponse } },
    (request) => register(request.params.actor_type, request.body),
  );
  app.post("/emailpass/register", { schema: { body: EmailPassNewPasswordBody, response: TokenResponse } }, (request) =>
    register("customer", request.body),
  );

  app.post(
    "/emailpass/update",
    { schema: { body: EmailPassNewPasswordBody, security: BEARER_SECURITY, response: UpdateResponse } },
    async (request) => {
      const caller = requireBearer(request);
      const identity = await auth.update(EMAILPASS, { body: request.body, authIdentityId: caller.auth_identity_id });
      return { success: true as const, auth_identity: identityView(identity) };
    },
  );
}
