import { Type, type Static, type TSchema } from "@sinclair/typebox";
import {
  addReturnShipping,
  createReturnWorkflow,
  receiveReturnWorkflow,
  updateReturnRequest,
  updateReturnShipping,
} from "@kasse/flows";
import {
  OrderEditShippingAdd,
  OrderEditShippingUpdate,
  ReturnChangeConfirm,
  ReturnReceiveItems,
  ReturnReceiveItemUpdate,
  ReturnRequestItems,
  ReturnRequestItemUpdate,
  ReturnRequestUpdate,
  ReturnView,
} from "@kasse/modules/order";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { Answer, Deleted, ChildParams, IdParams, deleted } from "../../http/schemas";
import { orderPreview, OrderPreviewView } from "../../orders/preview";

const ActionParams = ChildParams("action_id");
/** Medusa's answer to a step of the protocol: the order as it would be, and the return. */
const WithPreview = { 200: Type.Object({ order_preview: OrderPreviewView, return: ReturnView }) };

const actor = (request: FastifyRequest) => ({ actor_type: request.auth!.actor_type, actor_id: request.auth!.actor_id });

/**
 * Medusa's order-change protocol for returns, as its dashboard drives it (docs/orders.md "Orders after
 * purchase"): a return request put together item by item, then confirmed (the create-return
 * saga), and a receipt counted item by item, then confirmed (the receive-return saga). A pending
 * request or receipt changes nothing on the order or in stock; canceling one leaves nothing behind.
 * `POST /admin/returns` (begin a request) and `…/receive` (begin a receipt) are in `returns.ts`.
 */
export default async function returnChanges(app: App): Promise<void> {
  const changes = app.modules.returnChange;
  const answer = async (returnId: string, orderId: string) => ({
    order_preview: await orderPreview(app.modules, orderId),
    return: await changes.retrieveReturn(returnId),
  });

  app.post(
    "/returns/:id",
    { schema: { params: IdParams, body: ReturnRequestUpdate, response: Answer("return", ReturnView) } },
    async (request) => ({ return: await updateReturnRequest(app.modules, request.params.id, request.body) }),
  );

  /** Adds, updates and removes the items of a pending request or receipt, each answering the preview. */
  function itemRoutes<B extends TSchema, U extends TSchema>(
    path: string,
    schemas: { body: B; update: U },
    ops: {
      add(id: string, body: Static<B>): Promise<{ order_id: string }>;
      change(id: string, action: string, body: Static<U>): Promise<{ order_id: string }>;
      remove(id: string, action: string): Promise<{ order_id: string }>;
    },
  ) {
    const route = `/returns/:id/${path}`;
    app.post(route, { schema: { params: IdParams, body: schemas.body, response: WithPreview } }, async (request) =>
      answer(request.params.id, (await ops.add(request.params.id, request.body as Static<B>)).order_id),
    );
    app.post(
      `${route}/:action_id`,
      { schema: { params: ActionParams, body: schemas.update, response: WithPreview } },
      async (request) => {
        const { id, action_id } = request.params;
        return answer(id, (await ops.change(id, action_id, request.body as Static<U>)).order_id);
      },
    );
    app.delete(`${route}/:action_id`, { schema: { params: ActionParams, response: WithPreview } }, async (request) => {
      const { id, action_id } = request.params;
      return answer(id, (await ops.remove(id, action_id)).order_id);
    });
  }

  itemRoutes(
    "request-items",
    { body: ReturnRequestItems, update: ReturnRequestItemUpdate },
    {
      add: (id, body) => changes.addRequestItems(id, body),
      change: (id, action, body) => changes.updateRequestItem(id, action, body),
      remove: (id, action) => changes.removeRequestItem(id, action),
    },
  );
  // A receipt's received units, and its damaged ones (Medusa's dismissed items: received with the
  // receipt, kept out of stock).
  for (const damaged of [false, true])
    itemRoutes(
      damaged ? "dismiss-items" : "receive-items",
      { body: ReturnReceiveItems, update: ReturnReceiveItemUpdate },
      {
        add: (id, body) => changes.addReceiveItems(id, body, damaged),
        change: (id, action, body) => changes.updateReceiveItem(id, action, body, damaged),
        remove: (id, action) => changes.removeReceiveItem(id, action, damaged),
      },
    );

  // A pending request's return shipping (Medusa's return form offers the options marked `is_return`);
  // Medusa's dialect reads `custom_amount` in the order's currency.
  const orderCurrency = {
    medusa: {
      context: async (request: FastifyRequest) => {
        const { order_id } = await changes.retrieveReturn((request.params as { id: string }).id);
        return { currency_code: (await app.modules.order.retrieve(order_id)).currency_code };
      },
    },
  };
  app.post(
    "/returns/:id/shipping-method",
    { config: orderCurrency, schema: { params: IdParams, body: OrderEditShippingAdd, response: WithPreview } },
    async (request) =>
      answer(request.params.id, (await addReturnShipping(app.modules, request.params.id, request.body)).order_id),
  );
  app.post(
    "/returns/:id/shipping-method/:action_id",
    { config: orderCurrency, schema: { params: ActionParams, body: OrderEditShippingUpdate, response: WithPreview } },
    async (request) => {
      const { id, action_id } = request.params;
      return answer(id, (await updateReturnShipping(app.modules, id, action_id, request.body)).order_id);
    },
  );
  app.delete(
    "/returns/:id/shipping-method/:action_id",
    { schema: { params: ActionParams, response: WithPreview } },
    async (request) => {
      const { id, action_id } = request.params;
      return answer(id, (await changes.removeRequestShipping(id, action_id)).order_id);
    },
  );

  app.post(
    "/returns/:id/request",
    { schema: { params: IdParams, body: ReturnChangeConfirm, response: WithPreview } },
    async (request) => {
      const created = await app.infra.engine.execute(createReturnWorkflow, {
        return_id: request.params.id,
        actor: actor(request),
        no_notification: request.body.no_notification,
      });
      return answer(created.id, (await app.modules.orderReturn.retrieve(created.id)).order_id);
    },
  );

  app.delete("/returns/:id/request", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await changes.cancelRequest(request.params.id);
    return deleted(request.params.id, "return");
  });

  app.post(
    "/returns/:id/receive/confirm",
    { schema: { params: IdParams, body: ReturnChangeConfirm, response: WithPreview } },
    async (request) => {
      const received = await app.infra.engine.execute(receiveReturnWorkflow, {
        return_id: request.params.id,
        pending_receipt: true,
        actor: actor(request),
        no_notification: request.body.no_notification,
      });
      return answer(received.id, received.order_id);
    },
  );

  app.delete("/returns/:id/receive", { schema: { params: IdParams, response: Deleted } }, async (request) => {
    await changes.cancelReceipt(request.params.id);
    return deleted(request.params.id, "return");
  });
}
