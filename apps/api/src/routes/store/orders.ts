import { Type, type Static } from "@sinclair/typebox";
import { errors, Secret } from "@kasse/core";
import { ORDER_CHANGE_TYPES, visibleToShopper } from "@kasse/modules/order";
import { requestOrderTransfer } from "@kasse/flows";
import type { FastifyRequest } from "fastify";
import type { App } from "../../app-type";
import { parseFields, project } from "../../http/fields";
import {
  Answer,
  ArrayQuery,
  ListAnswer,
  ListQuery,
  RetrieveQuery,
  listResponse,
  IdParams,
  NoFields,
} from "../../http/schemas";
import { OrderDetailView, orderView, orderViews, withLineRefs } from "../../orders/view";
import { ShopperChangeView, shopperChanges } from "../../orders/shopper-changes";

const ListOwnOrders = Type.Object(ListQuery, { additionalProperties: false });
/** `GET /store/orders/{id}/changes` (a Kasse extension): a page, of some kinds of change. */
const ListOwnChanges = Type.Object(
  {
    limit: ListQuery.limit,
    offset: ListQuery.offset,
    change_type: Type.Optional(ArrayQuery(Type.Union(ORDER_CHANGE_TYPES.map((t) => Type.Literal(t))))),
  },
  { additionalProperties: false },
);
// Medusa's storefront sends `{}`; an admin-style `description` is not taken from shoppers.
const TransferAnswer = Type.Object({ token: Secret({ minLength: 1 }) }, { additionalProperties: false });

/** The caller's customer id, if the request carries a customer token. */
const customerOf = (request: FastifyRequest) =>
  request.auth?.actor_type === "customer" && request.auth.actor_id ? request.auth.actor_id : null;

/**
 * Store orders (docs/CONTRACT.md "Access to carts and orders"): a customer's order history, and one
 * order by id. A guest order (no customer) is reachable by its id alone; a customer's order only
 * with that customer's token: anyone else gets 404, as if it did not exist.
 */
export default async function orders(app: App): Promise<void> {
  const { order: service } = app.modules;
  const customerOnly = { onRequest: app.guards.customer };

  const listOwn = async (customerId: string, query: Static<typeof ListOwnOrders>) => {
    const { limit, offset, order, fields } = query;
    const { items, count } = await service.list({ customer_id: [customerId] }, { limit, offset, order });
    const selection = parseFields(fields);
    return listResponse(
      "orders",
      project(await withLineRefs(app.modules, await orderViews(app.modules, items, "store"), selection), selection),
      count,
      { limit, offset },
    );
  };
  app.get(
    "/orders",
    { ...customerOnly, schema: { querystring: ListOwnOrders, response: ListAnswer("orders", OrderDetailView) } },
    (request) => listOwn(customerOf(request)!, request.query),
  );
  app.get(
    "/customers/me/orders",
    { ...customerOnly, schema: { querystring: ListOwnOrders, response: ListAnswer("orders", OrderDetailView) } },
    (request) => listOwn(customerOf(request)!, request.query),
  );

  /** The order, if the caller may see it: a guest order, or the caller's own (anyone else's is 404). */
  const visibleOrder = async (id: string, request: FastifyRequest) => {
    const found = await service.retrieve(id);
    if (!visibleToShopper(found, customerOf(request))) throw errors.notFound(`Order with id: ${id} was not found`);
    return found;
  };

  // Order transfer (Medusa's "claim an order"): a signed-in customer asks for a guest order; the
  // order's email gets a link with a single-use token that accepts (the order becomes the
  // customer's) or declines the request.
  app.post(
    "/orders/:id/transfer/request",
    {
      ...customerOnly,
      schema: {
        params: IdParams,
        querystring: RetrieveQuery,
        body: NoFields,
        response: Answer("order", OrderDetailView),
      },
    },
    async (request) => {
      await visibleOrder(request.params.id, request);
      await requestOrderTransfer(app.infra.engine, app.modules.notification, {
        order_id: request.params.id,
        customer_id: customerOf(request)!,
        storefront_url: app.config.env.STOREFRONT_URL ?? null,
      });
      return {
        order: project(
          await orderView(app.modules, await service.retrieve(request.params.id), "store"),
          parseFields(request.query.fields),
        ),
      };
    },
  );
  for (const answer of ["accept", "decline"] as const) {
    app.post(
      `/orders/:id/transfer/${answer}`,
      {
        schema: {
          params: IdParams,
          querystring: RetrieveQuery,
          body: TransferAnswer,
          response: Answer("order", OrderDetailView),
        },
      },
      async (request) => {
        const { order } = await app.modules.orderTransfer.answer(request.params.id, request.body.token, answer);
        return { order: project(await orderView(app.modules, order, "store"), parseFields(request.query.fields)) };
      },
    );
  }

  // A Kasse extension (Medusa's Store API has none): the history of the customer's own order, its
  // confirmed changes, newest first (docs/orders.md). Only the signed-in owner reaches it: a guest
  // order's id alone shows the order, not its history.
  app.get(
    "/orders/:id/changes",
    {
      ...customerOnly,
      schema: {
        params: IdParams,
        querystring: ListOwnChanges,
        response: ListAnswer("order_changes", ShopperChangeView),
      },
    },
    async (request) => {
      const { limit, offset, change_type } = request.query;
      const found = await visibleOrder(request.params.id, request);
      if (found.customer_id === null) throw errors.notFound(`Order with id: ${found.id} was not found`);
      const { items, count } = await app.modules.orderEdit.shopperHistory(found.id, { change_type }, { limit, offset });
      return listResponse("order_changes", shopperChanges(found, items), count, { limit, offset });
    },
  );

  app.get(
    "/orders/:id",
    { schema: { params: IdParams, querystring: RetrieveQuery, response: Answer("order", OrderDetailView) } },
    async (request) => {
      const found = await visibleOrder(request.params.id, request);
      const selection = parseFields(request.query.fields);
      const [shaped] = await withLineRefs(app.modules, [await orderView(app.modules, found, "store")], selection);
      return { order: project(shaped!, selection) };
    },
  );
}
