import { Type } from "@sinclair/typebox";
import { Id, ProviderData } from "@kasse/core";
import { authorizePaymentSession, createCartPaymentCollection, startPaymentSession } from "@kasse/flows";
import { PaymentCollectionView } from "@kasse/modules/payment";
import type { App } from "../../app-type";
import { Answer } from "../../http/schemas";
import { cartActor, paymentCollectionResponse } from "./cart-response";

const Params = Type.Object({ id: Id({ minLength: 1 }) }, { additionalProperties: false });
const SessionParams = Type.Object(
  { id: Id({ minLength: 1 }), session_id: Id({ minLength: 1 }) },
  { additionalProperties: false },
);
const Data = ProviderData();
const CollectionCreate = Type.Object({ cart_id: Id({ minLength: 1 }) }, { additionalProperties: false });
const SessionCreate = Type.Object(
  { provider_id: Id({ minLength: 1 }), data: Type.Optional(Data), context: Type.Optional(Data) },
  { additionalProperties: false },
);
const Authorize = Type.Object({ context: Type.Optional(Data) }, { additionalProperties: false });

/** Store checkout payments: the cart's collection, provider sessions, authorization. */
export default async function paymentCollections(app: App): Promise<void> {
  const m = app.modules;

  app.post(
    "/payment-collections",
    { schema: { body: CollectionCreate, response: Answer("payment_collection", PaymentCollectionView) } },
    async (request) => {
      const { payment_collection, region } = await createCartPaymentCollection(
        m,
        request.body.cart_id,
        cartActor(request),
      );
      return { payment_collection: paymentCollectionResponse(payment_collection, region) };
    },
  );

  app.post(
    "/payment-collections/:id/payment-sessions",
    { schema: { params: Params, body: SessionCreate, response: Answer("payment_collection", PaymentCollectionView) } },
    async (request) => {
      const { payment_collection, region } = await startPaymentSession(
        app.infra.engine,
        m,
        request.params.id,
        cartActor(request),
        request.body,
      );
      return { payment_collection: paymentCollectionResponse(payment_collection, region) };
    },
  );

  app.post(
    "/payment-collections/:id/payment-sessions/:session_id/authorize",
    {
      schema: { params: SessionParams, body: Authorize, response: Answer("payment_collection", PaymentCollectionView) },
    },
    async (request) => {
      const { payment_collection, region } = await authorizePaymentSession(
        app.infra.engine,
        m,
        request.params.id,
        request.params.session_id,
        cartActor(request),
        request.body.context,
      );
      return { payment_collection: paymentCollectionResponse(payment_collection, region) };
    },
  );
}
