import { Type } from "@sinclair/typebox";
import type { App } from "../../app";
import { requireBearer } from "./emailpass";

/** `GET /auth/token/refresh` (extensions.md): a fresh token for the bearer, from its identity as it is now. */
export default async function token(app: App): Promise<void> {
  app.get("/token/refresh", { schema: { response: { 200: Type.Object({ token: Type.String() }) } } }, async (request) => {
    const { via: _via, ...claims } = requireBearer(request);
    return { token: await app.tokens.sign(await app.modules.auth.refresh(claims)) };
  });
}
