import { Type } from "@sinclair/typebox";
import { Amount, Id } from "@kasse/core";
import { capturePaymentWorkflow, refundPaymentWorkflow } from "@kasse/flows";
import type { FastifyRequest } from "fastify";
import { PaymentView } from "@kasse/modules/payment";
import type { App } from "../../app-type";
import { Answer, IdParams } from "../../http/schemas";

/** Medusa's `POST /admin/payments/{id}/capture`: `amount` (default: all that is left). */
const CaptureBody = Type.Object({ amount: Type.Optional(Amount({ minimum: 1 })) }, { additionalProperties: false });
/** Medusa's `POST /admin/payments/{id}/refund`: `amount` (default: all captured and not refunded), `note`, `refund_reason_id`; the contract's `reason` too. */
const RefundBody = Type.Object(
  {
    amount: Type.Optional(Amount({ minimum: 1 })),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
    reason: Type.Optional(Type.String({ maxLength: 1000 })),
    refund_reason_id: Type.Optional(Id({ minLength: 1 })),
  },
  { additionalProperties: false },
);

const actor = (request: FastifyRequest) => ({ actor_type: request.auth!.actor_type, actor_id: request.auth!.actor_id });

/** Admin payments (docs/CONTRACT.md "Accepted alternatives"): capture and refund one payment, as workflows. */
export default async function payments(app: App): Promise<void> {
  const respond = async (collectionId: string, paymentId: string) => {
    const collection = await app.modules.payment.retrieveCollection(collectionId);
    return { payment: collection.payments.find((p) => p.id === paymentId)! };
  };

  // Medusa's dialect reads `amount` in the payment's currency.
  const config = {
    medusa: {
      context: async (request: FastifyRequest) => ({
        currency_code: await app.modules.payment.paymentCurrency((request.params as { id: string }).id),
      }),
    },
  };

  app.post(
    "/payments/:id/capture",
    {
      config,
      schema: { params: IdParams, body: CaptureBody, response: Answer("payment", PaymentView) },
    },
    async (request) => {
      const result = await app.infra.engine.execute(capturePaymentWorkflow, {
        payment_id: request.params.id,
        amount: request.body?.amount ?? null,
        actor: actor(request),
      });
      return respond(result.payment_collection_id, request.params.id);
    },
  );

  app.post(
    "/payments/:id/refund",
    { config, schema: { params: IdParams, body: RefundBody, response: Answer("payment", PaymentView) } },
    async (request) => {
      const result = await app.infra.engine.execute(refundPaymentWorkflow, {
        payment_id: request.params.id,
        amount: request.body?.amount ?? null,
        reason: request.body?.reason ?? request.body?.note ?? null,
        refund_reason_id: request.body?.refund_reason_id ?? null,
        actor: actor(request),
      });
      return respond(result.payment_collection_id, request.params.id);
    },
  );
}
