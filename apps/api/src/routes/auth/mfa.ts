import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import {
  MfaChallengeBody,
  MfaDisableBody,
  MfaFactorView,
  MfaRecoveryCodesBody,
  MfaStartBody,
  MfaVerifyBody,
} from "@kasse/modules/auth";
import type { App } from "../../app-type";
import { Answer, NoFields } from "../../http/schemas";
import { BEARER_SECURITY } from "../../plugins/openapi-operations";
import { requireBearer } from "./emailpass";

const IdParams = Type.Object({ id: Id({ minLength: 1 }) }, { additionalProperties: false });
const FactorAnswer = Answer("mfa_factor", MfaFactorView);
const ListAnswer = { 200: Type.Object({ mfa_factors: Type.Array(MfaFactorView) }, { description: "The MFA factors" }) };
const SetupAnswer = {
  200: Type.Object(
    {
      mfa_factor: MfaFactorView,
      secret: Type.String({ description: "The TOTP secret in base32, answered this once" }),
      otpauth_url: Type.String({ description: "The `otpauth://` URI an authenticator app scans" }),
    },
    { description: "The pending factor and its secret" },
  ),
};
const CodesAnswer = {
  200: Type.Object(
    { recovery_codes: Type.Array(Type.String()) },
    { description: "New recovery codes, answered this once" },
  ),
};
const TokenAnswer = { 200: Type.Object({ token: Type.String() }, { description: "The session token" }) };

/**
 * Multi-factor authentication, as Medusa 2.21's (`sdk.auth.mfa`): the caller's own TOTP factors
 * (setup, verification, removal) and recovery codes, with the caller's session token; and the
 * second step of a sign-in, `POST /auth/mfa/challenges/{id}/verify`, which answers the session token.
 */
export default async function mfa(app: App): Promise<void> {
  const factors = app.modules.auth.mfa;
  const bearer = { security: BEARER_SECURITY };

  app.get("/mfa/factors", { schema: { ...bearer, querystring: NoFields, response: ListAnswer } }, async (request) => ({
    mfa_factors: await factors.list(requireBearer(request).auth_identity_id),
  }));

  app.post("/mfa/factors", { schema: { ...bearer, body: MfaStartBody, response: SetupAnswer } }, async (request) => {
    const setup = await factors.start(requireBearer(request).auth_identity_id, request.body);
    return { mfa_factor: setup.factor, secret: setup.secret, otpauth_url: setup.otpauth_url };
  });

  app.post(
    "/mfa/factors/:id/verify",
    { schema: { ...bearer, params: IdParams, body: MfaVerifyBody, response: FactorAnswer } },
    async (request) => ({
      mfa_factor: await factors.verify(requireBearer(request).auth_identity_id, request.params.id, request.body.code),
    }),
  );

  app.delete(
    "/mfa/factors/:id",
    { schema: { ...bearer, params: IdParams, body: MfaDisableBody, response: FactorAnswer } },
    async (request) => ({
      mfa_factor: await factors.disable(requireBearer(request).auth_identity_id, request.params.id, request.body),
    }),
  );

  app.post(
    "/mfa/recovery-codes",
    { schema: { ...bearer, body: MfaRecoveryCodesBody, response: CodesAnswer } },
    async (request) => ({
      recovery_codes: await factors.generateRecoveryCodes(requireBearer(request).auth_identity_id, request.body.count),
    }),
  );

  app.post(
    "/mfa/challenges/:id/verify",
    { schema: { params: IdParams, body: MfaChallengeBody, response: TokenAnswer } },
    async (request) => ({
      token: await app.tokens.sign(await app.modules.auth.completeMfaChallenge(request.params.id, request.body)),
    }),
  );
}
