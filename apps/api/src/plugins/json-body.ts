import type { FastifyInstance, FastifyRequest } from "fastify";
import { addRouteHook } from "./route-hooks";
import { errors } from "@kasse/core";
import { refuseUnsafeInput } from "./input-policy";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * JSON request bodies, where an empty body means no body. Medusa's js-sdk sends
 * `content-type: application/json` on every request, including body-less POSTs (`apiKey.revoke`,
 * `auth.refresh`) and DELETEs; fastify's own parser refuses those, Medusa's server does not. A route
 * that needs a body still answers 400 through its schema, and malformed JSON is still refused.
 * The body must be valid UTF-8 (a lenient decoder would store U+FFFD in place of the bad bytes)
 * and pass the input policy (`input-policy.ts`: no NUL, no lone surrogate, bounded depth).
 * The SDK also sends no body at all on POSTs whose fields are all optional (`orderEdit.confirm`,
 * `apiKey.revoke`): a route with a body schema validates an absent body as `{}`, so its required
 * and unknown fields are still refused.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(errors.invalidData("The request body is not valid UTF-8"), undefined);
    }
    if (text.length === 0) return done(null, undefined);
    return parseJson(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      try {
        refuseUnsafeInput(parsed, "body");
      } catch (refused) {
        return done(refused as Error, undefined);
      }
      return done(null, parsed);
    });
  });
  app.addHook("onRoute", (route) => {
    if (route.schema?.body)
      addRouteHook(route, "preValidation", async (request: FastifyRequest) => {
        if (request.body === undefined) request.body = {};
      });
  });
}
