import { Type } from "@sinclair/typebox";
import { Id } from "@kasse/core";
import { receivePaymentWebhook } from "@kasse/flows";
import type { App } from "../app-type";

const Params = Type.Object({ provider: Id({ minLength: 1 }) }, { additionalProperties: false });
const Received = Type.Object(
  {
    received: Type.Literal(true),
    /** `recorded`: a new event, processed by the worker; `repeated`: known already; `ignored`: nothing for Kasse. */
    status: Type.Union([Type.Literal("recorded"), Type.Literal("repeated"), Type.Literal("ignored")]),
  },
  { additionalProperties: false, description: "The event was verified and recorded (or needs nothing)" },
);

/**
 * `POST /hooks/payment/{provider}` (Medusa's path; Stripe's is `/hooks/payment/stripe_stripe`): a
 * payment provider's webhook. The body is kept raw, exactly as sent, for the provider's signature
 * check (a bad or missing signature is 400 and nothing is written); the signature is the
 * authorization. Answers as soon as the event is recorded: the worker processes it (docs/payments.md).
 */
export default async function hooks(app: App): Promise<void> {
  // Only in this plugin: the body stays the bytes the provider signed.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));

  app.post("/payment/:provider", { schema: { params: Params, response: { 200: Received } } }, async (request) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const providerId = `pp_${request.params.provider.replace(/^pp_/, "")}`;
    const receipt = await receivePaymentWebhook(app.infra.engine, app.modules, providerId, raw, request.headers);
    return { received: true as const, status: receipt.status };
  });
}
