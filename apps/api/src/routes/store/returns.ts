import { Type } from "@sinclair/typebox";
import { Count, Id } from "@kasse/core";
import { requestStoreReturn } from "@kasse/flows";
import { ReturnView } from "@kasse/modules/order";
import type { App } from "../../app-type";
import { Answer } from "../../http/schemas";

/**
 * Medusa's `POST /store/returns` body: the order, the units to send back, and the return option to
 * send them with (Kasse prices it: the shopper names no `price`); `location_id` where they go back
 * to (default: the option's stock location).
 */
const StoreReturnCreate = Type.Object(
  {
    order_id: Id({ minLength: 1 }),
    items: Type.Array(
      Type.Object(
        {
          id: Id({ minLength: 1 }),
          quantity: Count({ minimum: 1 }),
          reason_id: Type.Optional(Type.Union([Id({ minLength: 1 }), Type.Null()])),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 1000 },
    ),
    return_shipping: Type.Object({ option_id: Id({ minLength: 1 }) }, { additionalProperties: false }),
    location_id: Type.Optional(Id({ minLength: 1 })),
  },
  { additionalProperties: false },
);

/** A signed-in customer's return of their own order (docs/orders.md "Returns from the shopper"). */
export default async function returns(app: App): Promise<void> {
  app.post(
    "/returns",
    { onRequest: app.guards.customer, schema: { body: StoreReturnCreate, response: Answer("return", ReturnView) } },
    async (request) => ({
      return: await requestStoreReturn(app.infra.engine, app.modules, request.auth!.actor_id, request.body),
    }),
  );
}
