import type { FastifyInstance } from "fastify";

/**
 * JSON request bodies, where an empty body means no body. Medusa's js-sdk sends
 * `content-type: application/json` on every request, including body-less POSTs (`apiKey.revoke`,
 * `auth.refresh`) and DELETEs; fastify's own parser refuses those, Medusa's server does not. A route
 * that needs a body still answers 400 through its schema, and malformed JSON is still refused.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text.length === 0) return done(null, undefined);
    return parseJson(request, text, done);
  });
}
