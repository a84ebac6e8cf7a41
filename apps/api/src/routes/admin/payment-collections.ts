import { Type } from "@sinclair/typebox";
import { Amount, Id } from "@kasse/core";
import { createOrderCollectionWorkflow, deleteOrderCollectionWorkflow, markCollectionPaidWorkflow } from "@kasse/flows";
import { PaymentCollectionView } from "@kasse/modules/payment";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { Answer, Deleted, IdParams, deleted } from "../../http/schemas";

/** Medusa's `POST /admin/payment-collections`: the order, and `amount` (default: all it owes that is not yet asked for). */
const CollectionCreate = Type.Object(
  { order_id: Id({ minLength: 1 }), amount: Type.Optional(Amount({ minimum: 1 })) },
  { additionalProperties: false },
);
/** Medusa's `POST /admin/payment-collections/{id}/mark-as-paid`: the order the collection is for. */
const MarkPaid = Type.Object({ order_id: Id({ minLength: 1 }) }, { additionalProperties: false });
const One = Answer("payment_collection", PaymentCollectionView);

const actor = (request: FastifyRequest) => ({ actor_type: request.auth!.actor_type, actor_id: request.auth!.actor_id });

/**
 * An order's difference settled (docs/orders.md "Settling the difference"): a payment collection
 * for what it still owes, deleted while unpaid, or marked paid by hand. Each a saga.
 */
export default async function paymentCollections(app: App): Promise<void> {
  const respond = async (id: string) => {
    const { deleted_at: _deleted, ...collection } = await app.modules.payment.retrieveCollection(id);
    return { payment_collection: collection };
  };

  // Medusa's dialect reads `amount` in the order's currency (an unknown order is 404).
  const orderCurrency = {
    medusa: {
      context: async (request: FastifyRequest) => {
        const orderId = (request.body as { order_id?: unknown } | undefined)?.order_id;
        if (typeof orderId !== "string") return undefined;
        return { currency_code: (await app.modules.order.retrieve(orderId)).currency_code };
      },
    },
  };

  app.post(
    "/payment-collections",
    { config: orderCurrency, schema: { body: CollectionCreate, response: One } },
    async (request) => {
      const created = await app.infra.engine.execute(createOrderCollectionWorkflow, {
        order_id: request.body.order_id,
        amount: request.body.amount ?? null,
        actor: actor(request),
      });
      return respond(created.payment_collection_id);
    },
  );

  app.post(
    "/payment-collections/:id/mark-as-paid",
    { schema: { params: IdParams, body: MarkPaid, response: One } },
    async (request) => {
      await app.infra.engine.execute(markCollectionPaidWorkflow, {
        payment_collection_id: request.params.id,
        order_id: request.body.order_id,
        actor: actor(request),
      });
      return respond(request.params.id);
    },
  );

  app.delete("/payment-collections/:id", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await app.infra.engine.execute(deleteOrderCollectionWorkflow, {
      payment_collection_id: request.params.id,
      actor: actor(request),
    });
    return deleted(request.params.id, "payment-collection");
  });
}
