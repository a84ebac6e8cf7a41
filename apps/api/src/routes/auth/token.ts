import { Type } from "@sinclair/typebox";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { BEARER_SECURITY } from "../../plugins/openapi-operations";
import { requireBearer } from "./emailpass";
import { NoFields } from "../../http/schemas";

const TokenResponse = { 200: Type.Object({ token: Type.String() }) };

/**
 * `/auth/token/refresh`: a fresh token for the bearer, from its identity as it is now. `GET` is
 * docs/CONTRACT.md's form; `POST` (no body) is what Medusa's js-sdk sends (`sdk.auth.refresh()`).
 */
export default async function token(app: App): Promise<void> {
  const refresh = async (request: FastifyRequest) => {
    const { via: _via, ...claims } = requireBearer(request);
    return { token: await app.tokens.sign(await app.modules.auth.refresh(claims)) };
  };
  app.get("/token/refresh", { schema: { security: BEARER_SECURITY, response: TokenResponse } }, refresh);
  app.post(
    "/token/refresh",
    {
      schema: {
        body: NoFields,
        security: BEARER_SECURITY,
        response: TokenResponse,
      },
    },
    refresh,
  );
}
